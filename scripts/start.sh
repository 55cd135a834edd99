#!/usr/bin/env bash
# Sets up, builds the Release binaries and runs the simulator with its defaults.
# Until the server lands this is the offline simulator on the shipped demo scenario:
# it writes out/demo.csv and out/demo.png and prints the real-time factor.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)" --target clamsim-sim
mkdir -p out
build/release/server/tools/clamsim-sim --model models/t250.json \
  --controls config/scenarios/demo.ctl --csv out/demo.csv --plot out/demo.png
echo "wrote out/demo.csv and out/demo.png"
