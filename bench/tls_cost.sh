#!/usr/bin/env bash
# The server's CPU cost of TLS on the web port (docs/security.md, "Cost"): one plain and
# one TLS server side by side on 127.0.0.1, then (1) N full TLS handshakes by
# `openssl s_time -new` against the TLS server, its CPU time divided by the handshakes its
# /metrics counted; (2) clamsim-wsload runs alternating WS and WSS, same session count and
# window, each reporting the server's CPU per frame. Ratios are the point, not absolutes.
# Usage: bench/tls_cost.sh BUILD_DIR [SESSIONS] [SECONDS] [ROUNDS]   (from the repo root)
set -euo pipefail
build=${1:?usage: bench/tls_cost.sh BUILD_DIR [SESSIONS] [SECONDS] [ROUNDS]}
sessions=${2:-20}; seconds=${3:-5}; rounds=${4:-2}
server=$build/server/app/clamsim-server
wsload=$build/server/tools/wsload/clamsim-wsload
tmp=$(mktemp -d); trap 'kill $plain_pid $tls_pid 2>/dev/null; rm -rf "$tmp"' EXIT
bash tests/tls/make-test-pki.sh "$tmp/pki"
common=(--host 127.0.0.1 --corba-port 0 --http-port 0 --http-max-connections-per-client 1000
        --report-dir "$tmp/reports")
"$server" "${common[@]}" >"$tmp/plain.out" 2>/dev/null & plain_pid=$!
"$server" "${common[@]}" --tls-cert "$tmp/pki/server.pem" --tls-key "$tmp/pki/server.key" \
  >"$tmp/tls.out" 2>/dev/null & tls_pid=$!
port_of() { for _ in $(seq 100); do grep -o "ready https\?://127.0.0.1:[0-9]*" "$1" | grep -o "[0-9]*$" && return; sleep 0.1; done; return 1; }
plain_port=$(port_of "$tmp/plain.out"); tls_port=$(port_of "$tmp/tls.out")
cpu_s() { awk -v t="$(getconf CLK_TCK)" '{print ($14 + $15) / t}' "/proc/$1/stat"; }
handshakes() { curl -s --cacert "$tmp/pki/ca.pem" "https://localhost:$tls_port/metrics" |
               awk '/^clamsim_tls_handshakes_total/ {print $2}'; }

# TLS 1.2 only: s_time's TLS 1.3 mode waits for the server to close each connection
echo "== handshakes: openssl s_time -new -tls1_2, $seconds s"
for proto in -tls1_2; do
  c0=$(cpu_s $tls_pid); h0=$(handshakes)
  openssl s_time -connect "127.0.0.1:$tls_port" -new -time "$seconds" $proto >/dev/null 2>&1 || true
  c1=$(cpu_s $tls_pid); h1=$(handshakes)
  # the /metrics request itself is one handshake
  awk -v p="$proto" -v c="$(echo "$c1 - $c0" | bc -l)" -v n="$((h1 - h0 - 1))" \
    'BEGIN {printf "%s: %d handshakes, server CPU %.2f s, %.0f us per handshake\n", p, n, c, 1e6 * c / n}'
done

echo "== frames: $sessions sessions, $seconds s window, WS and WSS alternating, $rounds rounds"
for r in $(seq "$rounds"); do
  for kind in ws wss; do
    if [ $kind = ws ]; then url="ws://127.0.0.1:$plain_port/ws"; pid=$plain_pid; extra=()
    else url="wss://localhost:$tls_port/ws"; pid=$tls_pid; extra=(--tls-ca "$tmp/pki/ca.pem"); fi
    "$wsload" --url "$url" "${extra[@]}" --server-pid "$pid" --sessions "$sessions" \
      --duration "$seconds" | grep -E "^(connected|frames/s|server)" | sed "s/^/round $r $kind: /"
  done
done
