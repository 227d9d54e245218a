#!/usr/bin/env bash
# Extractive answers on the SQuAD v2 subset (../shared/datasets/squad-v2-dev-subset): each
# question over its own passage through knowledge::ExtractiveAnswerer; answerable → the gold
# answer in the cited sentences, unanswerable → refusal; the trade-off curve over the refusal
# threshold, tuned on even-numbered articles and reported on odd-numbered ones.
# Usage: bench/qa/run.sh   (BUILD_DIR defaults to build). Run via `make bench-qa`.
set -euo pipefail

cd "$(dirname "$0")/../.."
build_dir="${BUILD_DIR:-build}"
models_dir="${DOCINTEL_MODELS_DIR:-${DOCINTEL_DATA_DIR:-var}/models}"
cmake --build "$build_dir" --target qa_bench -j1 >/dev/null
"$build_dir/bench/qa/qa_bench" "$models_dir/${DOCINTEL_MODEL:-all-MiniLM-L6-v2}" \
    ../shared/datasets/squad-v2-dev-subset "$@"
