#!/usr/bin/env bash
# A bounded schemathesis pass over every operation of /openapi.json (examples, coverage,
# fuzzing and stateful phases; every check) against docintel-server with the vertical plugins,
# as an admin with all scopes. Seeded and derandomised, so a run is repeatable; the settings
# and the checks left out (with why) are in schemathesis.toml and docs/decisions. Registered
# with CTest; schemathesis itself is installed by setup.sh (make test: target e2e-deps).
# Usage: schemathesis.sh <build dir>
set -euo pipefail
st_dir=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: schemathesis.sh <build dir>}" && pwd)
st="$build/schemathesis-venv/bin/st"
if [[ ! -x "$st" ]]; then
  echo "schemathesis is not installed: run tests/e2e/schemathesis/setup.sh $build/schemathesis-venv" >&2
  exit 1
fi
source "$st_dir/../mcp/lib.sh"
E2E_PLUGINS=$(ls "$build"/plugins/*.so 2>/dev/null || true)
export E2E_PLUGINS
start_server "$build" api

email=schemathesis@example.com
"$admin" user ensure-admin --email "$email" >/dev/null
scopes=$(curl -sf "http://127.0.0.1:$port/openapi.json" | python3 -c \
  'import json,sys; print(" ".join(json.load(sys.stdin)["components"]["securitySchemes"]["OAuth2"]["flows"]["clientCredentials"]["scopes"]))')
token=$("$admin" token --email "$email" --audience rest --ttl 3600 --scope "$scopes")

cd "$work"
status=0
started=$(date +%s)
"$st" --config-file "$st_dir/schemathesis.toml" run "http://127.0.0.1:$port/openapi.json" \
  --header "Authorization: Bearer $token" --report junit --report-dir "$work/report" \
  --no-color || status=$?
echo "schemathesis: $(($(date +%s) - started)) s"
if [[ $status -ne 0 ]]; then
  echo "--- server log (errors)"
  grep -E 'level=(error|ERROR)' "$work/server.log" | grep -v 'status=501' | tail -40 || true
fi
exit $status
