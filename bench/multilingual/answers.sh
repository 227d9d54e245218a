#!/usr/bin/env bash
# Grounded answers in five languages through the real server (decision 0075): the parallel set
# tests/data/eval/multilingual, one workspace per language holding that language's four
# documents, each question asked over them (POST /api/v1/knowledge/query/stream). Per language:
# doc@1 (the first source is the question's document), answered (not refused), and correct (the
# answer holds the gold value, or an alternative, and cites the question's document), over the
# answerable questions (ml-001 .. ml-040). The unanswerable near misses ("answerable": false,
# ml-041 .. ml-056) are scored apart, per language and overall: refused (the share the server
# refuses: its done frame has "refused"; an error frame is not a refusal), and the ones it
# answered are listed with their answer. Run twice in one go: "primary only" (a models folder
# with all-MiniLM-L6-v2 alone: every scope on it, as before decision 0075) and "per scope" (both
# models: non-English workspaces move to e5).
# Usage: bench/multilingual/answers.sh [tune|report]   (tune while developing; report once)
set -euo pipefail
cd "$(dirname "$0")/../.."
split=${1:-tune}
models=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
only_primary=$(mktemp -d)
trap 'rm -rf "$only_primary"' EXIT
ln -s "$models/all-MiniLM-L6-v2" "$only_primary/all-MiniLM-L6-v2"

for setup in "primary only:$only_primary" "per scope:$models"; do
    (
        export DOCINTEL_MODELS_DIR=${setup#*:}
        source bench/server.sh
        start_bench_server 18493 "documents:read documents:write knowledge:query workspaces:read workspaces:write"
        python3 bench/multilingual/answers.py "$port" "$token" "$split" "${setup%%:*}"
    )
done
