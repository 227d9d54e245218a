# Sourced by the benchmarks: starts docintel-server on BENCH_PORT with a throw-away data folder,
# a throw-away database beside DOCINTEL_DATABASE_URL's (servers sharing a database share its job
# queue: one bench's workers would take another's jobs and fail on files they do not hold) and a
# fresh user, and stops it on exit, dropping the database (BENCH_SERVER: another server binary,
# e.g. a baseline build). Sets: build, port, work, token, server_pid. Also the
# helpers that read wrk's figures and take medians.
# Usage: start_bench_server <default port> <scopes> [rest|mcp (the token's audience; rest)]
start_bench_server() {
    port=${BENCH_PORT:-$1}
    build=${BUILD_DIR:-build}
    work=$(mktemp -d)
    bench_db=bench_$(basename "$work" | tr -cd 'a-zA-Z0-9' | tr 'A-Z' 'a-z')
    local shared_db=$DOCINTEL_DATABASE_URL
    createdb --maintenance-db="$shared_db" "$bench_db"
    export DOCINTEL_DATABASE_URL=${shared_db%/*}/$bench_db
    trap 'kill $server_pid 2>/dev/null || true; wait $server_pid 2>/dev/null || true; rm -rf "$work"; dropdb --maintenance-db="'"$shared_db"'" --if-exists "$bench_db"' EXIT
    export DOCINTEL_PORT=$port DOCINTEL_BASE_URL=http://127.0.0.1:$port DOCINTEL_DATA_DIR=$work
    export DOCINTEL_MCP_PORT=${BENCH_MCP_PORT:-$((port + 1))}
    export DOCINTEL_PLUGINS_DIR=$work/plugins DOCINTEL_RATE_LIMIT_PER_MINUTE=100000000
    "$build/server/docintel-admin" migrate >/dev/null 2>"$work/migrate.log" ||
        { cat "$work/migrate.log" >&2; return 1; }
    local email="bench-$(date +%s%N)@example.com"
    "$build/server/docintel-admin" user create --email "$email" --password bench-password >/dev/null
    token=$("$build/server/docintel-admin" token --email "$email" --audience "${3:-rest}" --ttl 7200 \
        --scope "$2")
    "${BENCH_SERVER:-$build/server/docintel-server}" >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return 0
        sleep 0.1
    done
    echo "the server did not become ready; see $work/server.log" >&2
    return 1
}

# A wrk latency ("512.00us", "3.39ms", "1.02s") in milliseconds.
to_ms() { python3 -c "import sys,re; v=sys.argv[1]; n=float(re.sub('[a-z]+','',v)); u=re.sub('[0-9.]+','',v); print(round(n*{'us':0.001,'ms':1,'s':1000}[u],3))" "$1"; }

# The median of its arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# wrk_figures <output of wrk --latency>: sets rate (requests/s), p50_ms, p99_ms and non2xx.
wrk_figures() {
    rate=$(awk '/Requests\/sec/ {print $2}' <<<"$1")
    p50_ms=$(to_ms "$(awk '$1=="50%" {print $2}' <<<"$1")")
    p99_ms=$(to_ms "$(awk '$1=="99%" {print $2}' <<<"$1")")
    non2xx=$(awk '/Non-2xx/ {print $4}' <<<"$1")
    non2xx=${non2xx:-0}
}
