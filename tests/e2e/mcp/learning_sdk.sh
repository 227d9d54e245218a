#!/usr/bin/env bash
# Runs learning_sdk.py (the official Python MCP SDK as a client, with a bearer token minted by
# docintel-admin) against a fresh docintel-server of this build with the learning plugin
# (build/plugins/learning.so): the learning tools and resource templates end to end. Registered
# with CTest as learning_mcp_sdk.
# Usage: learning_sdk.sh <build dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: learning_sdk.sh <build dir>}" && pwd)
source "$here/lib.sh"
require_peers
plugin="$build/plugins/learning.so"
if [[ ! -f "$plugin" ]]; then
  echo "FAILED: $plugin is not built (cmake --build build --target learning)" >&2
  exit 1
fi
E2E_PLUGINS="$plugin" start_server "$build" all

# Every scope the MCP resource offers, for a teacher and a student, on both audiences.
scopes=$(curl -sf "http://127.0.0.1:$mcp_port/.well-known/oauth-protected-resource/mcp" |
  python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["scopes_supported"]))')
rest_scopes="$scopes workspaces:read workspaces:write documents:read documents:write learning:read learning:participate learning:manage"
teacher=teacher@learning-e2e.test
student=student@learning-e2e.test
for email in $teacher $student; do
  "$admin" user create --email "$email" --password "e2e-password-$$" >/dev/null
done
token() { "$admin" token --email "$1" --audience "$2" --ttl 3600 --scope "$3"; }

status=0
MCP_URL="http://localhost:$mcp_port/mcp" REST_URL="http://127.0.0.1:$port" \
  TEACHER_EMAIL=$teacher STUDENT_EMAIL=$student \
  TEACHER_MCP_TOKEN=$(token $teacher mcp "$scopes") \
  TEACHER_REST_TOKEN=$(token $teacher rest "$rest_scopes") \
  STUDENT_MCP_TOKEN=$(token $student mcp "$scopes") \
  STUDENT_REST_TOKEN=$(token $student rest "$rest_scopes") \
  "$here/.venv/bin/python" "$here/learning_sdk.py" \
  "$repo/../shared/datasets/doc-corpus/text/norwich-city.txt" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- server log (last 60 lines)"
  tail -60 "$work/server.log"
fi
exit $status
