#!/usr/bin/env bash
# wrk with 32 connections against GET /api/v1/workspaces/{id} with a valid token, server and
# wrk on this machine. Prints requests/s, p50 and p99 of each run and their medians, and the
# server's RSS idle and under load. Run via `make bench-http` (which builds and starts Postgres).
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${RUNS:-3}
duration=${DURATION:-10s}
port=${BENCH_PORT:-18181}
build=${BUILD_DIR:-build}
work=$(mktemp -d)
trap 'kill $server_pid 2>/dev/null || true; wait $server_pid 2>/dev/null || true; rm -rf "$work"' EXIT

export DOCINTEL_PORT=$port DOCINTEL_BASE_URL=http://127.0.0.1:$port DOCINTEL_DATA_DIR=$work
export DOCINTEL_PLUGINS_DIR=$work/plugins DOCINTEL_RATE_LIMIT_PER_MINUTE=100000000
"$build/server/docintel-admin" migrate >/dev/null
email="bench-$(date +%s%N)@example.com"
"$build/server/docintel-admin" user create --email "$email" --password bench-password >/dev/null
token=$("$build/server/docintel-admin" token --email "$email" --audience rest --ttl 3600 \
  --scope "workspaces:read workspaces:write")

"$build/server/docintel-server" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done

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
