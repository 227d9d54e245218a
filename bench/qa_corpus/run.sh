#!/usr/bin/env bash
# Grounded answers on real documents: the blind QA set (tests/data/eval/qa/qa.jsonl) over the
# shared corpus (../shared/datasets/doc-corpus) through the real server. Each document the split's
# questions name is uploaded and embedded, then each question asked through
# POST /api/v1/knowledge/query/stream with `document_ids` = its document. Answerable: correct
# when not refused and a gold value is in a citation's quote on the gold page; unanswerable:
# correct when refused (bench/qa_corpus/qa_corpus_bench.py says how values are compared). Also
# the p50 and p95 time from sending a question to its `done` frame, one question at a time.
# Needs `make model`.
# Usage: bench/qa_corpus/run.sh tune|report [--details]
#   --details prints each question (tune only: the report half is read as numbers).
#   --features FILE (tune only) writes each question's refusal features and whether the gold
#   value is cited when nothing is refused, for bench/qa/fit_refusal.py --also: the server runs
#   with DOCINTEL_ANSWER_REFUSE_BELOW=0 and logs the features at debug level.
#   QA_ONLY=qa-013,qa-290 asks only those tune questions; QA_DOCS=docs5/ only about the documents
#   whose path holds it (one batch, either half).
#   BUILD_DIR picks the build (e.g. a copy of main's for the baseline); BENCH_PORT the port.
set -euo pipefail
cd "$(dirname "$0")/../.."

export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
if [[ " $* " == *" --features "* ]]; then
    export DOCINTEL_ANSWER_REFUSE_BELOW=0 DOCINTEL_LOG_LEVEL=debug
fi
source bench/server.sh
start_bench_server 18393 "documents:read documents:write knowledge:query"
QA_SERVER_LOG=$work/server.log python3 bench/qa_corpus/qa_corpus_bench.py "$port" "$token" "$@"
