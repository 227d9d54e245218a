#!/usr/bin/env bash
# Workflow engine timings through the real API, with the healthcare and talent plugins
# hot-dropped into the running server: healthcare_prior_auth over a 10-page request and
# talent_readiness over a 10-page candidate file, start → pending_review and packet generation
# (bench/workflows/workflow_bench.py says how). Needs `make model` and a build with the plugins.
# Usage: bench/workflows/run.sh (RUNS=10 by default).
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${RUNS:-10}
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18283 "documents:read documents:write workflows:read workflows:write reviews:write reviews:approve packets:write"
mkdir -p "$work/plugins"
for plugin in healthcare talent; do cp "${BUILD_DIR:-build}/plugins/$plugin.so" "$work/plugins/"; done
python3 bench/workflows/workflow_bench.py "$port" "$token" "$runs" "$work"
