#!/usr/bin/env bash
# Vertical extraction against the blind evaluation set (tests/data/eval/workflows): every case of
# one split is uploaded through the API, its workflow run to `pending_review`, and each expected
# field of the run's review packet scored: exact after the README's normalisation, and exact with
# the cited page the one that states the value (bench/extraction/extraction_bench.py says how).
# Needs `make model` and a build with the plugins.
# Usage: bench/extraction/run.sh tune|report [--details] [workflow ...]
#   --details prints each field (allowed for `tune` only: the report half is read as numbers).
#   CASES_FROM=27 scores only the cases numbered from 27 on (one blind batch, either half).
#   BUILD_DIR picks the build (e.g. a copy of main's for the baseline).
set -euo pipefail
cd "$(dirname "$0")/../.."

export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18293 "documents:read documents:write workflows:read workflows:write"
mkdir -p "$work/plugins"
for plugin in lease healthcare finance talent; do
    cp "${BUILD_DIR:-build}/plugins/$plugin.so" "$work/plugins/"
done
python3 bench/extraction/extraction_bench.py "$port" "$token" "$@"
