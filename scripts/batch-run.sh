#!/usr/bin/env bash
# Runs every row of a clamsim-sim run table on this machine, JOBS at a time, through the
# same entry point as the Kubernetes Indexed Job and the Slurm array (clamsim-sim --batch
# TABLE --index N --out OUT), shows progress, then merges the summaries into
# OUT/summary.csv and OUT/summary.png (docs/scaling.md, "Batch runs").
#   scripts/batch-run.sh TABLE OUT [--jobs N] [--merge METRIC[,METRIC]] [--sim PATH]
# Defaults: --jobs = the number of cores, --merge T1_N_max, --sim clamsim-sim
# from build/release or PATH. Exit status: 0 every run ok, 1 a run failed, 2 bad usage.
# Bash's own job control (wait -n) does the fan-out: no GNU parallel needed.
set -euo pipefail
usage() { echo "usage: scripts/batch-run.sh TABLE OUT [--jobs N] [--merge METRICS] [--sim PATH]" >&2; exit 2; }
[ $# -ge 2 ] || usage
table=$1 out=$2
shift 2
jobs=$(nproc) merge=T1_N_max sim=
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    --merge) [ $# -ge 2 ] || usage; merge=$2; shift 2 ;;
    --sim) [ $# -ge 2 ] || usage; sim=$2; shift 2 ;;
    *) echo "batch-run: unknown option '$1'" >&2; usage ;;
  esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "batch-run: --jobs '$jobs' is not a positive number" >&2; exit 2; }
if [ -z "$sim" ]; then
  here=$(cd "$(dirname "$0")/.." && pwd)
  if [ -x "$here/build/release/server/tools/clamsim-sim" ]; then sim=$here/build/release/server/tools/clamsim-sim
  else sim=$(command -v clamsim-sim) || { echo "batch-run: no clamsim-sim (give --sim PATH)" >&2; exit 2; }
  fi
fi
[ -r "$table" ] || { echo "batch-run: cannot read $table" >&2; exit 2; }
rows=$(( $(grep -c . "$table") - 1 ))
mkdir -p "$out"
log() { echo "$out/run-$(printf %04d "$1").log"; }

started=$SECONDS finished=0 failed=0 running=0
# one updating line on a terminal, a line per run in a log
if [ -t 2 ]; then ending='\r'; else ending='\n'; fi
progress() {
  printf "batch-run: %d/%d runs done, %d failed, %d s$ending" "$finished" "$rows" "$failed" \
    $((SECONDS - started)) >&2
}
reap() {  # one run ended
  if wait -n; then :; else failed=$((failed + 1)); fi
  running=$((running - 1)) finished=$((finished + 1))
  progress
}
# row 0 first, alone: clamsim-sim checks the whole table before it runs a row, so a bad
# table stops here with its message instead of failing every run
status=0
"$sim" --batch "$table" --index 0 --out "$out" --quiet 2>"$(log 0)" || status=$?
if [ "$status" -eq 2 ]; then cat "$(log 0)" >&2; exit 2; fi
finished=1 failed=$((status != 0))
progress
for ((i = 1; i < rows; i++)); do
  [ "$running" -lt "$jobs" ] || reap
  "$sim" --batch "$table" --index "$i" --out "$out" --quiet 2>"$(log "$i")" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do reap; done
[ "$ending" = '\n' ] || echo >&2
"$sim" --batch "$table" --out "$out" --merge "$merge"
[ "$failed" -eq 0 ]
