#!/usr/bin/env bash
# Runs video_sdk.py (the official Python MCP SDK as a client, with a bearer token minted by
# docintel-admin) against a fresh docintel-server of this build with the video plugin
# (build/plugins/video.so): the video tools and resources end to end on the shared JFK clip.
# Registered with CTest as video_mcp_sdk.
# Usage: video_sdk.sh <build dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: video_sdk.sh <build dir>}" && pwd)
source "$here/lib.sh"
require_peers
plugin="$build/plugins/video.so"
if [[ ! -f "$plugin" ]]; then
  echo "FAILED: $plugin is not built (cmake --build build --target video)" >&2
  exit 1
fi
E2E_PLUGINS="$plugin" start_server "$build" all

scopes=$(curl -sf "http://127.0.0.1:$mcp_port/.well-known/oauth-protected-resource/mcp" |
  python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["scopes_supported"]))')
email=viewer@video-e2e.test
"$admin" user create --email "$email" --password "e2e-password-$$" >/dev/null

status=0
MCP_URL="http://localhost:$mcp_port/mcp" REST_URL="http://127.0.0.1:$port" \
  MCP_TOKEN=$("$admin" token --email "$email" --audience mcp --ttl 3600 --scope "$scopes") \
  REST_TOKEN=$("$admin" token --email "$email" --audience rest --ttl 3600 \
    --scope "$scopes documents:read documents:write video:read video:process") \
  "$here/.venv/bin/python" "$here/video_sdk.py" \
  "$repo/../shared/datasets/speech-jfk/jfk-subtitled.mp4" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- server log (last 60 lines)"
  tail -60 "$work/server.log"
fi
exit $status
