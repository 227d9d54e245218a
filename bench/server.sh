# Sourced by the benchmarks: starts docintel-server on BENCH_PORT with a throw-away data folder
# and a fresh user, and stops it on exit. Sets: build, port, work, token, server_pid.
# Usage: start_bench_server <default port> <scopes> [rest|mcp (the token's audience; rest)]
start_bench_server() {
    port=${BENCH_PORT:-$1}
    build=${BUILD_DIR:-build}
    work=$(mktemp -d)
    trap 'kill $server_pid 2>/dev/null || true; wait $server_pid 2>/dev/null || true; rm -rf "$work"' EXIT
    export DOCINTEL_PORT=$port DOCINTEL_BASE_URL=http://127.0.0.1:$port DOCINTEL_DATA_DIR=$work
    export DOCINTEL_MCP_PORT=${BENCH_MCP_PORT:-$((port + 1))}
    export DOCINTEL_PLUGINS_DIR=$work/plugins DOCINTEL_RATE_LIMIT_PER_MINUTE=100000000
    "$build/server/docintel-admin" migrate >/dev/null
    local email="bench-$(date +%s%N)@example.com"
    "$build/server/docintel-admin" user create --email "$email" --password bench-password >/dev/null
    token=$("$build/server/docintel-admin" token --email "$email" --audience "${3:-rest}" --ttl 7200 \
        --scope "$2")
    "$build/server/docintel-server" >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return 0
        sleep 0.1
    done
    echo "the server did not become ready; see $work/server.log" >&2
    return 1
}
