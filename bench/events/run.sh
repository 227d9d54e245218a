#!/usr/bin/env bash
# Events and webhooks under load: events written per second by concurrent writers with and
# without 3 subscriptions (the outbox's cost), deliveries per second to a local receiver, and
# commit -> receipt p50/p99 (a burst, and a steady 20/s). A fresh database on the Postgres of
# DOCINTEL_DATABASE_URL per run. Usage: bench/events/run.sh [events (10000)] [runs (3)]
set -euo pipefail
cd "$(dirname "$0")/../.."
build_dir="${BUILD_DIR:-build}"
cmake --build "$build_dir" --target events_bench -j"${JOBS:-2}" >/dev/null
base="${DOCINTEL_DATABASE_URL:?set DOCINTEL_DATABASE_URL (make db provides one)}"
for run in $(seq 1 "${2:-3}"); do
  name="bench_events_$(date +%s%N)"
  psql -q "$base" -c "CREATE DATABASE $name" >/dev/null
  url="${base%/*}/$name"
  echo "run $run:"
  DOCINTEL_LOG_LEVEL=error "$build_dir/bench/events/events_bench" "$url" "${1:-10000}" || true
  psql -q "$base" -c "DROP DATABASE $name WITH (FORCE)" >/dev/null
done
