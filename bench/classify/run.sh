#!/usr/bin/env bash
# Document classification: accuracy and calibration error on tests/data/classify (own texts and
# labelled doc-corpus files), misses, and cue-words-only accuracy. --search also sweeps the
# calibration parameters; --dump prints every document's scores.
# Usage: bench/classify/run.sh [--search] [--dump]   (BUILD_DIR defaults to build)
set -euo pipefail

cd "$(dirname "$0")/../.."
build_dir="${BUILD_DIR:-build}"
models_dir="${DOCINTEL_MODELS_DIR:-${DOCINTEL_DATA_DIR:-var}/models}"
cmake --build "$build_dir" --target classify_bench -j1 >/dev/null
"$build_dir/bench/classify/classify_bench" "$models_dir/${DOCINTEL_MODEL:-all-MiniLM-L6-v2}" \
    tests/data/classify/texts tests/data/classify/doc_corpus_labels.json \
    ../shared/datasets/doc-corpus "$@"
