#!/usr/bin/env bash
# wrk with 32 connections against GET /api/v1/workspaces/{id} with a valid token, server and
# wrk on this machine. Prints requests/s, p50 and p99 of each run and their medians, and the
# server's RSS idle and under load. Run via `make bench-http` (which builds and starts Postgres).
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${RUNS:-3}
duration=${DURATION:-10s}
source bench/server.sh
start_bench_server 18181 "workspaces:read workspaces:write"

ws=$(curl -sf -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
  -d '{"name":"bench"}' "http://127.0.0.1:$port/api/v1/workspaces" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
url="http://127.0.0.1:$port/api/v1/workspaces/$ws"
curl -sf -H "Authorization: Bearer $token" "$url" >/dev/null
rss() { awk '/VmRSS/ {print $2}' "/proc/$server_pid/status"; }
idle_kb=$(rss)

# wrk's latency figures to milliseconds

declare -a rps p50 p99
load_kb=0
for i in $(seq 1 "$runs"); do
  out=$(wrk -t2 -c32 -d"$duration" --latency -H "Authorization: Bearer $token" "$url")
  [[ $(rss) -gt $load_kb ]] && load_kb=$(rss)
  wrk_figures "$out"
  echo "run $i: requests/s=$rate p50_ms=$p50_ms p99_ms=$p99_ms non2xx=$non2xx"
  rps+=("$rate"); p50+=("$p50_ms"); p99+=("$p99_ms")
done
echo "median: requests/s=$(median "${rps[@]}") p50_ms=$(median "${p50[@]}") p99_ms=$(median "${p99[@]}")"
echo "server RSS: idle=$((idle_kb / 1024)) MB, under load (max)=$((load_kb / 1024)) MB"
