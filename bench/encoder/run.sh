#!/usr/bin/env bash
# Encoder throughput: the built-in C++ encoder against sentence-transformers (PyTorch) and ONNX
# Runtime, same weights, same thread count, chunks of a fixed token count, batch 1, 8 and 32.
# Needs `make model`, a build with encoder_bench, and pip's onnxruntime, onnx,
# sentence-transformers and torch. Prints a table of medians over --runs rounds (each round runs
# the three implementations one after the other, so a busy machine weighs on all alike) with
# each implementation's ratio to ONNX Runtime; not part of `make test`.
# Usage: bench/encoder/run.sh [--threads N] [--tokens N] [--chunks N] [--batches 1,8,32] [--runs N]
# BUILD_DIR (default build) holds bench/encoder/encoder_bench; ENCODER_BENCH names another binary.
set -euo pipefail

cd "$(dirname "$0")/../.."
build_dir="${BUILD_DIR:-build}"
models_dir="${DOCINTEL_MODELS_DIR:-${DOCINTEL_DATA_DIR:-var}/models}"
threads=2 tokens=256 chunks=64 batches=1,8,32 runs=5
while [[ $# -gt 1 ]]; do
    case "$1" in
        --threads) threads=$2 ;;
        --tokens) tokens=$2 ;;
        --chunks) chunks=$2 ;;
        --batches) batches=$2 ;;
        --runs) runs=$2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done

bench="${ENCODER_BENCH:-$build_dir/bench/encoder/encoder_bench}"
[[ -x "$bench" ]] || cmake --build "$build_dir" --target encoder_bench -j1 >/dev/null
args=(--threads "$threads" --tokens "$tokens" --chunks "$chunks" --batches "$batches")

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for run in $(seq "$runs"); do
    for model in all-MiniLM-L6-v2 bge-small-en-v1.5; do
        dir="$models_dir/$model"
        if [[ ! -f "$dir/model.safetensors" ]]; then
            [[ $run == 1 ]] && echo "skip $model: no weights in $dir (make model)" >&2
            continue
        fi
        "$bench" "$dir" "${args[@]}" | sed 's/^/docintel /' >>"$results"
        python3 bench/encoder/bench_python.py "$dir" "${args[@]}" 2>/dev/null >>"$results" ||
            echo "python reference bench failed for $model (pip install onnxruntime onnx sentence-transformers)" >&2
    done
done

echo "encoder throughput: $tokens-token chunks, $threads threads, $chunks chunks per run, median of $runs runs"
sort -k2,2 -k3,3n -k1,1 "$results" | awk '
    function median(list,   n, a, i, j, t) {
        n = split(list, a, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
        }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    { key = $1 " " $2 " " $3; if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
      cps[key] = cps[key] " " $6; tps[key] = tps[key] " " $7; runs[key]++ }
    END {
        printf "%-22s %-20s %6s %10s %10s %9s %5s\n", "implementation", "model", "batch",
               "chunks/s", "tokens/s", "vs ORT", "runs"
        for (i = 1; i <= keys; i++) {
            split(order[i], k, " ")
            ort = "onnxruntime " k[2] " " k[3]
            c = median(cps[order[i]])
            ratio = (ort in cps) ? sprintf("%.2fx", c / median(cps[ort])) : "-"
            printf "%-22s %-20s %6d %10.1f %10.0f %9s %5d\n", k[1], k[2], k[3], c,
                   median(tps[order[i]]), ratio, runs[order[i]]
        }
    }'
