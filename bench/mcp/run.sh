#!/usr/bin/env bash
# MCP tools/call latency and throughput over loopback: `get_document` through the full MCP
# path (bearer token, session, JSON-RPC, argument validation, scope check, service, Postgres).
# wrk (Debian) drives POST /mcp with one connection (latency: p50/p99) and with 16 concurrent
# connections (calls/s, p50/p99). Prints each run and the medians. Run via `make bench-mcp`.
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${RUNS:-3}
duration=${DURATION:-10s}
source bench/server.sh
start_bench_server 18281 "documents:read documents:write" mcp

mcp="http://127.0.0.1:$DOCINTEL_MCP_PORT/mcp"
post() {  # post <session> <json>: prints headers and body
  curl -s -i -X POST "$mcp" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' ${1:+-H "Mcp-Session-Id: $1"} -d "$2"
}
session=$(post "" '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' |
  awk -F': ' 'tolower($1)=="mcp-session-id" {print $2}' | tr -d '\r')
doc=$(post "$session" '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_document_upload","arguments":{"filename":"bench.pdf","content_type":"application/pdf","file_size":1000}}}' |
  tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["structuredContent"]["result"]["doc_id"])')
call='{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_document","arguments":{"document_id":"'$doc'"}}}'
post "$session" "$call" | tail -1 | python3 -c 'import json,sys; r=json.load(sys.stdin)["result"]; assert not r["isError"], r'

script="$work/get_document.lua"
cat >"$script" <<LUA
wrk.method = "POST"
wrk.body = '$call'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["Authorization"] = "Bearer $token"
wrk.headers["Mcp-Session-Id"] = "$session"
wrk.headers["MCP-Protocol-Version"] = "2025-06-18"
LUA


for clients in 1 16; do
  declare -a rps=() p50=() p99=()
  threads=$((clients < 2 ? 1 : 2))
  for i in $(seq 1 "$runs"); do
    out=$(wrk -t$threads -c$clients -d"$duration" --latency -s "$script" "$mcp")
    wrk_figures "$out"
    echo "get_document clients=$clients run $i: calls/s=$rate p50_ms=$p50_ms p99_ms=$p99_ms non2xx=$non2xx"
    rps+=("$rate"); p50+=("$p50_ms"); p99+=("$p99_ms")
  done
  echo "get_document clients=$clients median: calls/s=$(median "${rps[@]}") p50_ms=$(median "${p50[@]}") p99_ms=$(median "${p99[@]}")"
done
