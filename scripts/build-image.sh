#!/usr/bin/env bash
# Builds the clamsim container image from this checkout (docs/deploy.md):
#   scripts/build-image.sh [TAG]          default TAG localhost/clamsim:latest
# Uses podman (docker when podman is missing). The Dockerfile's base is Debian 12; where no
# image registry is reachable, set CLAMSIM_BASE_IMAGE=build (the default when
# debian:bookworm-slim cannot be found locally) and this script first builds
# localhost/clamsim-base:bookworm with debootstrap from the Debian mirror this machine's apt
# already uses, once, and keeps it. Prints the image size and the build time.
set -euo pipefail
cd "$(dirname "$0")/.."

tag="${1:-localhost/clamsim:latest}"
engine="${CLAMSIM_ENGINE:-$(command -v podman || command -v docker || true)}"
if [ -z "$engine" ]; then
  echo "build-image: neither podman nor docker is installed (scripts/setup.sh --container)" >&2
  exit 1
fi
# podman on hosts like the project's build machines: runc (crun fails on hybrid cgroups),
# explicit ulimits (raising them is not permitted there) and the host's network.
# CLAMSIM_ENGINE_FLAGS replaces them.
read -r -a flags <<< "${CLAMSIM_ENGINE_FLAGS:---runtime runc --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 --network host}"
if [ "$(basename "$engine")" = docker ]; then flags=(); else flags+=(--format docker); fi
image_exists() { "$engine" image inspect "$1" > /dev/null 2>&1; }

# The apt mirror this machine uses for bookworm (never written into the repository).
debian_mirror() {
  local uri
  uri=$(awk '/^URIs:/ {u=$2} /^Suites:/ && / bookworm( |$)/ {print u; exit}' \
          /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' \
                           /etc/apt/sources.list 2>/dev/null || true)
  [ -n "$uri" ] || { echo "build-image: no bookworm mirror in /etc/apt" >&2; return 1; }
  echo "$uri"
}

base="${CLAMSIM_BASE_IMAGE:-}"
if [ -z "$base" ]; then
  if image_exists debian:bookworm-slim; then base=debian:bookworm-slim
  else base=build; fi
fi
if [ "$base" = build ]; then
  base=localhost/clamsim-base:bookworm
  if ! image_exists "$base"; then
    mirror=$(debian_mirror)
    root=$(mktemp -d /var/tmp/clamsim-rootfs.XXXXXX)
    trap 'rm -rf "$root"' EXIT
    echo "build-image: building the base image $base with debootstrap (about a minute)"
    debootstrap --variant=minbase bookworm "$root" "$mirror" > "$root.log" 2>&1 \
      || { tail -n 20 "$root.log" >&2; exit 1; }
    rm -f "$root.log"
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
      "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/*
    tar -C "$root" -c . | "$engine" import - "$base" > /dev/null
  fi
fi

if [ ! -f node_modules/three/build/three.module.js ]; then
  echo "build-image: three.js is missing from node_modules; run scripts/setup.sh first" >&2
  exit 1
fi
if [ ! -f node_modules/uplot/dist/uPlot.esm.js ]; then
  echo "build-image: uPlot is missing from node_modules; run scripts/setup.sh first" >&2
  exit 1
fi

start=$(date +%s)
"$engine" build "${flags[@]}" --build-arg "BASE=$base" -t "$tag" . >&2
end=$(date +%s)
size=$("$engine" image inspect --format '{{.Size}}' "$tag")
echo "build-image: $tag built in $((end - start)) s, $((size / 1024 / 1024)) MiB (base $base)"
