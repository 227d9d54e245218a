#!/usr/bin/env bash
# Encoder throughput: the built-in C++ encoder against sentence-transformers (PyTorch) and ONNX
# Runtime, same weights, same thread count, chunks of a fixed token count, batch 1, 8 and 32.
# Needs `make model`, a build with encoder_bench, and pip's onnxruntime, onnx,
# sentence-transformers and torch. Prints a table; not part of `make test`.
# Usage: bench/encoder/run.sh [--threads N] [--tokens N] [--chunks N] [--batches 1,8,32]
# BUILD_DIR (default build) holds bench/encoder/encoder_bench; ENCODER_BENCH names another binary.
set -euo pipefail

cd "$(dirname "$0")/../.."
build_dir="${BUILD_DIR:-build}"
models_dir="${DOCINTEL_MODELS_DIR:-${DOCINTEL_DATA_DIR:-var}/models}"
threads=2 tokens=256 chunks=64 batches=1,8,32
while [[ $# -gt 1 ]]; do
    case "$1" in
        --threads) threads=$2 ;;
        --tokens) tokens=$2 ;;
        --chunks) chunks=$2 ;;
        --batches) batches=$2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done

bench="${ENCODER_BENCH:-$build_dir/bench/encoder/encoder_bench}"
[[ -x "$bench" ]] || cmake --build "$build_dir" --target encoder_bench -j1 >/dev/null
args=(--threads "$threads" --tokens "$tokens" --chunks "$chunks" --batches "$batches")

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for model in all-MiniLM-L6-v2 bge-small-en-v1.5; do
    dir="$models_dir/$model"
    if [[ ! -f "$dir/model.safetensors" ]]; then
        echo "skip $model: no weights in $dir (make model)" >&2
        continue
    fi
    "$bench" "$dir" "${args[@]}" | sed 's/^/docintel /' >>"$results"
    python3 bench/encoder/bench_python.py "$dir" "${args[@]}" 2>/dev/null >>"$results" ||
        echo "python reference bench failed for $model (pip install onnxruntime onnx sentence-transformers)" >&2
done

echo "encoder throughput: $tokens-token chunks, $threads threads, $chunks chunks per run"
awk 'BEGIN { printf "%-22s %-20s %6s %10s %10s %10s\n", "implementation", "model", "batch",
             "seconds", "chunks/s", "tokens/s" }
     { printf "%-22s %-20s %6d %10.3f %10.1f %10.0f\n", $1, $2, $3, $5, $6, $7 }' "$results"
