#!/usr/bin/env bash
# Practice questions over the SQuAD v2 subset's articles (bench/learning/README.md): answer
# support, distractors not also correct, time per 10 questions; tune and report halves.
# Usage: bench/learning/run.sh [--dump FILE] [--count N]   (BUILD_DIR defaults to build)
set -euo pipefail

cd "$(dirname "$0")/../.."
build_dir="${BUILD_DIR:-build}"
models_dir="${DOCINTEL_MODELS_DIR:-${DOCINTEL_DATA_DIR:-var}/models}"
nice cmake --build "$build_dir" --target learning_bench -j2 >/dev/null
"$build_dir/bench/learning/learning_bench" "$models_dir/${DOCINTEL_MODEL:-all-MiniLM-L6-v2}" \
    ../shared/datasets/squad-v2-dev-subset "$@"
