#!/usr/bin/env bash
# The abuse scenarios of issue 21 (decision 0061), server and attacker on this machine:
#  - connections: 1,000 idle + 300 slow-header connections from 127.0.0.2 while 4 clients on
#    127.0.0.1 time GET /healthz and GET /api/v1/workspaces/{id} (fresh connection each);
#  - memory: 32 and 64 concurrent POSTs of a 14 MB body of 7 million integers; peak RSS.
# RUNS runs of each (default 3) and their medians. BENCH_SERVER=<binary> measures another
# build (e.g. main's, for a baseline); SCENARIOS="connections" or "memory" runs one. Run via
# `make bench-abuse`.
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${RUNS:-3}
seconds=${SECONDS_PER_RUN:-20}
# 1,300 attacking sockets + the server's side of them.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
source bench/server.sh
start_bench_server 18191 "workspaces:read workspaces:write"
echo "server: ${BENCH_SERVER:-$build/server/docintel-server}"

ws=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"name":"abuse"}' "http://127.0.0.1:$port/api/v1/workspaces" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
abuse() { python3 bench/abuse/abuse.py "$@"; }
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

declare -a h50 h99 a50 a99 hfail m32 m64
scenarios=${SCENARIOS:-connections memory}
if [[ $scenarios == *connections* ]]; then
for i in $(seq 1 "$runs"); do
  out=$(abuse connections --port "$port" --token "$token" --path "/api/v1/workspaces/$ws" \
    --seconds "$seconds")
  echo "run $i: $out"
  h50+=("$(field healthz_p50_ms "$out")"); h99+=("$(field healthz_p99_ms "$out")")
  a50+=("$(field authed_p50_ms "$out")"); a99+=("$(field authed_p99_ms "$out")")
  hfail+=("$(field healthz_fail "$out")")
  # Let the server shed the last attacking connections before the next run.
  sleep 2
done
echo "median connections: healthz p50_ms=$(median "${h50[@]}") p99_ms=$(median "${h99[@]}")" \
  "failed=$(median "${hfail[@]}"); authenticated GET p50_ms=$(median "${a50[@]}")" \
  "p99_ms=$(median "${a99[@]}")"
fi

[[ $scenarios == *memory* ]] || exit 0
for i in $(seq 1 "$runs"); do
  for c in 32 64; do
    out=$(abuse memory --port "$port" --token "$token" --pid "$server_pid" --concurrency "$c")
    echo "run $i: $out"
    if [[ $c == 32 ]]; then m32+=("$(field peak_rss_mb "$out")"); else m64+=("$(field peak_rss_mb "$out")"); fi
  done
done
echo "median memory: peak RSS 32 concurrent=$(median "${m32[@]}") MB, 64 concurrent=$(median "${m64[@]}") MB"
