#!/usr/bin/env bash
# Runs sdk_smoke.py (the Python MCP SDK as a client) against a fresh docintel-server of this
# build, with a token from `docintel-admin token --audience mcp`. Registered with CTest.
# Usage: sdk_smoke.sh <build dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: sdk_smoke.sh <build dir>}" && pwd)
source "$here/lib.sh"
require_peers
start_server "$build" all
token=$(mcp_token sdk@example.com "workspaces:read documents:read documents:write")
status=0
MCP_URL="http://localhost:$mcp_port/mcp" MCP_TOKEN=$token "$here/.venv/bin/python" \
  "$here/sdk_smoke.py" "$repo/../shared/datasets/doc-corpus/pdf/text/pdflatex-4-pages.pdf" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- server log (last 40 lines)"
  tail -40 "$work/server.log"
fi
exit $status
