#!/usr/bin/env bash
# A private PostgreSQL 15 cluster for this checkout: start | stop | status | url.
#   PGDATA    var/pg/data (or, when the checkout is not reachable by the postgres user and we
#             run as root, a per-checkout folder under /var/tmp linked from var/pg)
#   listens   127.0.0.1:$DOCINTEL_PG_PORT (default 54329) and a socket in var/pg/run
#   auth      trust for local connections; superuser "docintel"; database "docintel"
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
var=${DOCINTEL_DATA_DIR:-$root/var}
port=${DOCINTEL_PG_PORT:-54329}
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -x "$pgbin/initdb" ]] || { echo "postgres.sh: PostgreSQL server binaries not found" >&2; exit 1; }

as_owner() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

cluster_dir() {
  mkdir -p "$var"
  if [[ -L "$var/pg" || -d "$var/pg" ]]; then
    echo "$var/pg"; return
  fi
  if [[ $(id -u) -eq 0 ]] && ! runuser -u postgres -- test -x "$var"; then
    local alt="/var/tmp/docintel-pg-$(echo -n "$var" | sha256sum | cut -c1-12)"
    mkdir -p "$alt"
    ln -s "$alt" "$var/pg"
  else
    mkdir -p "$var/pg"
  fi
  echo "$var/pg"
}

url() { echo "postgresql://docintel@127.0.0.1:$port/docintel"; }

start() {
  local dir; dir=$(cluster_dir)
  local data="$dir/data" run="$dir/run"
  mkdir -p "$run"
  [[ $(id -u) -eq 0 ]] && chown -R postgres: "$(readlink -f "$dir")"
  if [[ ! -f "$data/PG_VERSION" ]]; then
    as_owner "$pgbin/initdb" -D "$data" -U docintel --auth=trust --encoding=UTF8 \
      --locale=C.UTF-8 >/dev/null
    cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$(readlink -f "$run")'
max_connections = 300
shared_buffers = 256MB
fsync = on
CONF
  fi
  if as_owner "$pgbin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
    :
  else
    as_owner "$pgbin/pg_ctl" -D "$data" -l "$dir/postgres.log" -w -t 60 start >/dev/null
  fi
  for _ in $(seq 1 60); do
    if "$pgbin/pg_isready" -h 127.0.0.1 -p "$port" -q; then break; fi
    sleep 0.5
  done
  "$pgbin/psql" -h 127.0.0.1 -p "$port" -U docintel -d postgres -tAc \
    "SELECT 1 FROM pg_database WHERE datname = 'docintel'" | grep -q 1 ||
    "$pgbin/createdb" -h 127.0.0.1 -p "$port" -U docintel docintel
}

stop() {
  local dir="$var/pg"
  [[ -f "$dir/data/PG_VERSION" ]] || return 0
  as_owner "$pgbin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) "$pgbin/pg_isready" -h 127.0.0.1 -p "$port" ;;
  url) url ;;
  *) echo "usage: $0 start|stop|status|url" >&2; exit 2 ;;
esac
