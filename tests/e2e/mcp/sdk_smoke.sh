#!/usr/bin/env bash
# Runs sdk_smoke.py (the Python MCP SDK as a client, starting with no token: OAuth discovery,
# dynamic registration and a PKCE sign-in through the pages in Debian chromium) against a fresh
# docintel-server of this build with the healthcare plugin and a loopback SMTP server (run by
# sdk_smoke.py) for the e-mail codes. Registered with CTest.
# Usage: sdk_smoke.sh <build dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:?usage: sdk_smoke.sh <build dir>}" && pwd)
source "$here/lib.sh"
require_peers
smtp_port=$(free_port)
E2E_PLUGINS="$build/plugins/healthcare.so" start_server "$build" all \
  DOCINTEL_SMTP_HOST=127.0.0.1 DOCINTEL_SMTP_PORT="$smtp_port" DOCINTEL_SMTP_FROM=docintel@e2e.test

# A person who may use every scope the MCP resource offers, with e-mail codes on.
email=sdk@e2e.test
password="e2e-password-$$"
scopes=$(curl -sf "http://127.0.0.1:$mcp_port/.well-known/oauth-protected-resource/mcp" |
  python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["scopes_supported"]))')
"$admin" user create --email "$email" --password "$password" >/dev/null
"$admin" user grant --email "$email" --scope "$scopes" >/dev/null
"$admin" user mfa --email "$email" on >/dev/null

status=0
data="$repo/tests/data/workflows/healthcare"
MCP_URL="http://localhost:$mcp_port/mcp" USER_EMAIL=$email USER_PASSWORD=$password \
  SMTP_PORT=$smtp_port "$here/.venv/bin/python" "$here/sdk_smoke.py" \
  "$repo/../shared/datasets/doc-corpus/pdf/text/fake-memo.pdf" \
  "$data/prior_auth_request.pdf" "$data/payer_policy.pdf" || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- server log (last 40 lines)"
  tail -40 "$work/server.log"
fi
exit $status
