#!/usr/bin/env bash
# Retrieval quality on BEIR SciFact (../shared/datasets/beir-scifact): nDCG@10 and Recall@100 on
# the 300 test queries for BM25 only, dense only, hybrid RRF, hybrid convex and hybrid + re-rank,
# through KeywordIndex, VectorIndex, HybridRetriever and knowledge::rerank with the built-in
# encoder. Chunk and query vectors are cached in var/bench/ (keyed by model and corpus hash).
# Usage: bench/retrieval/run.sh [--tune] [--features FILE]   (BUILD_DIR defaults to build)
# Run via `make bench-retrieval`. Needs `make model`.
set -euo pipefail

cd "$(dirname "$0")/../.."
build_dir="${BUILD_DIR:-build}"
models_dir="${DOCINTEL_MODELS_DIR:-${DOCINTEL_DATA_DIR:-var}/models}"
cmake --build "$build_dir" --target retrieval_bench -j1 >/dev/null
"$build_dir/bench/retrieval/retrieval_bench" "$models_dir/${DOCINTEL_MODEL:-all-MiniLM-L6-v2}" \
    ../shared/datasets/beir-scifact var/bench/retrieval "$@"
