#!/usr/bin/env bash
# PII recognisers: precision/recall per type on tests/data/pii/labelled.jsonl and throughput
# (MB/s, one thread) on PII-dense text and on SciFact abstracts, with std::regex (e-mail only)
# for comparison. Usage: bench/pii/run.sh [--mb N]   (BUILD_DIR defaults to build)
set -euo pipefail

cd "$(dirname "$0")/../.."
build_dir="${BUILD_DIR:-build}"
cmake --build "$build_dir" --target pii_bench -j1 >/dev/null
corpus=../shared/datasets/beir-scifact/corpus.jsonl
[[ -f "$corpus" ]] || corpus=""
"$build_dir/bench/pii/pii_bench" tests/data/pii/labelled.jsonl $corpus "$@"
