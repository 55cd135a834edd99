#!/usr/bin/env bash
# Regenerates the objective tests' figures and results of docs/validation.md in one go:
# builds clamsim-sim (build/release), runs the sweeps, the full-range runs and the thesis's
# experiments, and writes docs/figures/validation/*.png, results.csv and the results table
# between the markers in docs/validation.md. A minute or two on one core.
#   scripts/validation.sh [MODEL.json]        (default models/t250.json)
# Needs cmake, a C++ compiler, python3 and gnuplot (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
model=${1:-models/t250.json}
for tool in cmake python3 gnuplot; do
  command -v "$tool" >/dev/null || { echo "validation: needs $tool (scripts/setup.sh installs it)" >&2; exit 2; }
done
if [ ! -f build/release/CMakeCache.txt ]; then cmake --preset release >/dev/null; fi
cmake --build build/release --target clamsim-sim -j"${JOBS:-2}" >/dev/null
mkdir -p docs/figures/validation
exec python3 scripts/validation.py --sim build/release/server/tools/clamsim-sim --model "$model" \
  --out docs/figures/validation --doc docs/validation.md
