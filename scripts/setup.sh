#!/usr/bin/env bash
# Installs what clamsim needs from Debian's packages. Idempotent; runs as root without
# prompts (uses sudo when not root). Skips apt entirely when everything is present.
set -euo pipefail

packages=(build-essential cmake ccache pkg-config libeigen3-dev nlohmann-json3-dev
          libgtest-dev libgmock-dev libbenchmark-dev gnuplot-nox
          libomniorb4-dev omniidl omniorb omniorb-nameserver libboost-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all packages present"
  exit 0
fi

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done"
