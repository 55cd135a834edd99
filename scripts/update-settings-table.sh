#!/usr/bin/env bash
# Rewrites the settings table of docs/deploy.md from the server's own list
# (clamsim-server --help-settings-markdown); a test fails while the two differ.
# Usage: scripts/update-settings-table.sh [PATH/TO/clamsim-server]
set -euo pipefail
cd "$(dirname "$0")/.."
server=${1:-build/debug-asan/server/app/clamsim-server}
table=$("$server" --help-settings-markdown)
TABLE="$table" python3 - docs/deploy.md <<'PY'
import os, sys
path = sys.argv[1]
lines = open(path).read().split("\n")
start = lines.index("| flag | environment | config key | default | what |")
end = start
while end < len(lines) and lines[end].startswith("|"):
    end += 1
lines[start:end] = os.environ["TABLE"].rstrip("\n").split("\n")
open(path, "w").write("\n".join(lines))
PY
