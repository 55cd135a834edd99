#!/usr/bin/env bash
# Installs what clamsim needs: Debian packages and the npm packages of the browser client.
# Idempotent; runs as root without prompts (uses sudo when not root). Skips apt and npm
# when everything is present.
#   scripts/setup.sh          what the server and the browser client need
#   scripts/setup.sh --container  also podman and debootstrap, to build the container image
#   scripts/setup.sh --tests  all of that, Chromium for the browser tests, promtool, and
#                             HAProxy and python3-yaml for the scale-out tests (docs/scaling.md)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ccache pkg-config libeigen3-dev nlohmann-json3-dev
          libgtest-dev libgmock-dev libbenchmark-dev gnuplot-nox
          libomniorb4-dev omniidl omniorb omniorb-nameserver libboost-dev libssl-dev openssl
          libzstd-dev nodejs npm)
# podman's recommended helpers too: the container test ran with them on the build machine
container=(podman runc catatonit debootstrap uidmap fuse-overlayfs slirp4netns)
case "${1:-}" in
  --container) packages+=("${container[@]}") ;;
  --tests) packages+=(chromium fonts-liberation libgl1-mesa-dri prometheus
           haproxy python3 python3-yaml "${container[@]}") ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The machine may bring its own Node.js and npm instead of Debian's; either will do.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for p in "${missing[@]}"; do [ "$p" = nodejs ] || [ "$p" = npm ] || filtered+=("$p"); done
  missing=("${filtered[@]+"${filtered[@]}"}")
fi

if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# three.js and uPlot (served to browsers from node_modules/three and node_modules/uplot/dist)
# and playwright-core and axe-core (browser tests: driving Chromium, checking contrast and
# other accessibility rules).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "setup: done"
