#!/usr/bin/env bash
# Sets up, builds everything with AddressSanitizer + UBSan (the debug-asan preset) and runs
# the whole test suite with ctest. Ends with ctest's summary line.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --tests
cmake --preset debug-asan >/dev/null
cmake --build --preset debug-asan -j"$(nproc)"
ctest --preset debug-asan -j"$(nproc)"
