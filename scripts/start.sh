#!/usr/bin/env bash
# Sets up, builds the Release binaries and starts clamsim-server with its defaults
# (config/server.json): the browser client at http://127.0.0.1:8080/ and the CORBA admin at
# corbaloc::127.0.0.1:10150/CraneClamAdmin. Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset release >/dev/null
# the server and every tool the README's "Other tools" table names (tests/docs checks it)
cmake --build --preset release -j"$(nproc)" --target clamsim-server clamsim-sim \
  clamsim-receiver clamsim-loadgen clamsim-wsload clamsim-accounts clamsim-plot
echo "open http://127.0.0.1:8080/ in a browser (plug in a joystick, or use the keyboard)"
exec build/release/server/app/clamsim-server --config config/server.json "$@"
