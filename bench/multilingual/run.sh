#!/usr/bin/env bash
# Multilingual retrieval and encoder throughput, all-MiniLM-L6-v2 against multilingual-e5-small
# (bench/multilingual/multilingual_bench.cpp), on the parallel set tests/data/eval/multilingual.
# Use the tune half while developing; the report half once, for the figure of record.
# Usage: bench/multilingual/run.sh [--split tune|report|all] [--runs N]   (`make bench-multilingual`)
# Needs `make model`; BUILD_DIR (default build) holds bench/multilingual/multilingual_bench.
set -euo pipefail

cd "$(dirname "$0")/../.."
build_dir="${BUILD_DIR:-build}"
models_dir="${DOCINTEL_MODELS_DIR:-${DOCINTEL_DATA_DIR:-var}/models}"
split=tune runs=3
while [[ $# -gt 1 ]]; do
    case "$1" in
        --split) split=$2 ;;
        --runs) runs=$2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done

bench="$build_dir/bench/multilingual/multilingual_bench"
[[ -x "$bench" ]] || cmake --build "$build_dir" --target multilingual_bench -j1 >/dev/null
models=()
for model in all-MiniLM-L6-v2 multilingual-e5-small; do
    [[ -f "$models_dir/$model/MODEL_VERSION" ]] || { echo "no $model in $models_dir (make model)" >&2; exit 1; }
    models+=("$models_dir/$model")
done
echo "split: $split; host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
"$bench" tests/data/eval/multilingual "$split" --runs "$runs" "${models[@]}" | column -t -s $'\t'
