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
to_ms() { python3 -c "import sys,re; v=sys.argv[1]; n=float(re.sub('[a-z]+','',v)); u=re.sub('[0-9.]+','',v); print(round(n*{'us':0.001,'ms':1,'s':1000}[u],3))" "$1"; }

declare -a rps p50 p99
load_kb=0
for i in $(seq 1 "$runs"); do
  out=$(wrk -t2 -c32 -d"$duration" --latency -H "Authorization: Bearer $token" "$url")
  [[ $(rss) -gt $load_kb ]] && load_kb=$(rss)
  r=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  a=$(to_ms "$(awk '$1=="50%" {print $2}' <<<"$out")")
  b=$(to_ms "$(awk '$1=="99%" {print $2}' <<<"$out")")
  errors=$(awk '/Non-2xx/ {print $4}' <<<"$out")
  echo "run $i: requests/s=$r p50_ms=$a p99_ms=$b non2xx=${errors:-0}"
  rps+=("$r"); p50+=("$a"); p99+=("$b")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "median: requests/s=$(median "${rps[@]}") p50_ms=$(median "${p50[@]}") p99_ms=$(median "${p99[@]}")"
echo "server RSS: idle=$((idle_kb / 1024)) MB, under load (max)=$((load_kb / 1024)) MB"
