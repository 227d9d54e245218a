#!/usr/bin/env bash
# Runs conversations_sdk.py (the official Python MCP SDK as a client, with a bearer token minted
# by docintel-admin) against a fresh docintel-server of this build with the conversations plugin
# (build/plugins/conversations.so): a guided conversation recorded, reviewed, published, asked
# about and deleted over MCP. Registered with CTest as conversations_mcp_sdk.
# Usage: conversations_sdk.sh <build dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: conversations_sdk.sh <build dir>}" && pwd)
source "$here/lib.sh"
require_peers
plugin="$build/plugins/conversations.so"
if [[ ! -f "$plugin" ]]; then
  echo "FAILED: $plugin is not built (cmake --build build --target conversations)" >&2
  exit 1
fi
E2E_PLUGINS="$plugin" start_server "$build" all

# Every scope the MCP resource offers, plus what the flow needs (deduplicated).
offered=$(curl -sf "http://127.0.0.1:$mcp_port/.well-known/oauth-protected-resource/mcp" |
  python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["scopes_supported"]))')
scopes=$(printf '%s\n' $offered sessions:write reviews:approve knowledge:query documents:read |
  awk 'NF && !seen[$0]++' | paste -sd' ')
email=reviewer@conversations-e2e.test
"$admin" user create --email "$email" --password "e2e-password-$$" >/dev/null

status=0
MCP_URL="http://localhost:$mcp_port/mcp" REST_URL="http://127.0.0.1:$port" \
  MCP_TOKEN=$("$admin" token --email "$email" --audience mcp --ttl 3600 --scope "$scopes") \
  REST_TOKEN=$("$admin" token --email "$email" --audience rest --ttl 3600 \
    --scope "$scopes documents:write") \
  "$here/.venv/bin/python" "$here/conversations_sdk.py" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- server log (last 60 lines)"
  tail -60 "$work/server.log"
fi
exit $status
