#!/usr/bin/env bash
# MCP tools/call latency and throughput over loopback, through the full MCP path (bearer token,
# session, JSON-RPC, argument validation, scope check, service, Postgres):
#   get_document          one document's record;
#   search_knowledgebase  hybrid retrieval + re-ranking over a few ingested doc-corpus PDFs
#                         (the question is encoded by the embedding model on every call).
# wrk (Debian) drives POST /mcp with one connection (latency: p50/p99) and with 16 concurrent
# connections (calls/s, p50/p99). Prints each run and the medians. Run via `make bench-mcp`.
# TOOLS="get_document" (or search_knowledgebase) runs one tool only.
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${RUNS:-3}
duration=${DURATION:-10s}
tools=${TOOLS:-get_document search_knowledgebase}
corpus=../shared/datasets/doc-corpus/pdf/text
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}  # embeddings for the search
source bench/server.sh
start_bench_server 18281 "documents:read documents:write knowledge:query" mcp

mcp="http://127.0.0.1:$DOCINTEL_MCP_PORT/mcp"
setup=$(python3 bench/mcp/setup_session.py "$mcp" "$token" "$corpus/fake-memo.pdf" \
  "$corpus/pdflatex-4-pages.pdf" "$corpus/scotus-transcript-p1.pdf" \
  "$corpus/google-doc-document.pdf" "$corpus/minimal-document.pdf")
field() { python3 -c 'import json,sys; v=json.loads(sys.argv[1])[sys.argv[2]]; print(v if isinstance(v,(str,int)) else json.dumps(v))' "$setup" "$1"; }
session=$(field session)
echo "ingested $(field documents) documents; search_knowledgebase returns $(field sources) sources"

for tool in $tools; do
  script="$work/$tool.lua"
  cat >"$script" <<LUA
wrk.method = "POST"
wrk.body = [[$(field "$tool")]]
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
      echo "$tool clients=$clients run $i: calls/s=$rate p50_ms=$p50_ms p99_ms=$p99_ms non2xx=$non2xx"
      rps+=("$rate"); p50+=("$p50_ms"); p99+=("$p99_ms")
    done
    echo "$tool clients=$clients median: calls/s=$(median "${rps[@]}") p50_ms=$(median "${p50[@]}") p99_ms=$(median "${p99[@]}")"
  done
done
