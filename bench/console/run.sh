#!/usr/bin/env bash
# The reviewer console's speed targets (issue 20): inbox and run pages with 1,000 runs in the
# workspace (goal ≤ 100 ms server time each), and a page image (goal ≤ 300 ms to render, then
# served from the cache). One real healthcare_prior_auth run over the sample request is copied
# in SQL to RUNS_IN_WORKSPACE runs (and their review tasks) of one team workspace; then each page
# is fetched REPEAT times through a signed-in console session (console_bench.py says how).
# Needs a build with the healthcare plugin and `make model`.
# Usage: bench/console/run.sh (RUNS_IN_WORKSPACE=1000 REPEAT=30 by default).
set -euo pipefail
cd "$(dirname "$0")/../.."

export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18290 "documents:read documents:write workflows:read workflows:write reviews:write reviews:approve packets:write workspaces:read workspaces:write"
admin="${BUILD_DIR:-build}/server/docintel-admin"
email="console-bench-$(date +%s%N)@example.com"
"$admin" user create --email "$email" --password bench-password >/dev/null
scopes="documents:read documents:write workflows:read workflows:write reviews:write reviews:approve packets:write workspaces:read workspaces:write"
"$admin" user grant --email "$email" --scope "$scopes" >/dev/null
token=$("$admin" token --email "$email" --audience rest --ttl 7200 --scope "$scopes")
mkdir -p "$work/plugins"
cp "${BUILD_DIR:-build}/plugins/healthcare.so" "$work/plugins/"
python3 bench/console/console_bench.py "$port" "$token" "$email" "$work" \
    "${RUNS_IN_WORKSPACE:-1000}" "${REPEAT:-30}"
