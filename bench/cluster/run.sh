#!/usr/bin/env bash
# Ingestion across processes (issue 19's figures): one `--role api` node and W `--role worker`
# processes over one database, for the local store and for S3 (a SeaweedFS `weed mini` on
# loopback). For each store and W in 1 2, DOCS SciFact abstracts (default 400) are uploaded
# with 8 client threads (create → PUT to the signed URL → complete) and ingested: prints the
# upload phase's uploads/s and the whole run's documents/s. RUNS (default 3) interleaved
# rounds, medians. On a 2-core machine the point is that a second worker does not lower
# throughput (the encoder already uses both cores), not that it doubles.
# Run via `make bench-cluster`; needs `make model` and SeaweedFS (`make e2e-deps`).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${BUILD_DIR:-build}
docs=${DOCS:-400}
runs=${RUNS:-3}
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$root/var/models}
base_url=${DOCINTEL_DATABASE_URL:?run via make, which sets DOCINTEL_DATABASE_URL}
work=$(mktemp -d)
pids=()
cleanup() {
  kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  psql -q "$base_url" -c "DROP DATABASE IF EXISTS docintel_bench_cluster" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# SeaweedFS on loopback (the flags of tests/support/seaweed_server.cpp), ports 19500-19505.
mkdir -p "$work/s3"
cat >"$work/s3.json" <<'JSON'
{"identities": [{"name": "bench", "credentials": [{"accessKey": "bench", "secretKey": "bench-secret"}],
 "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
JSON
"$root/var/seaweedfs/weed" mini -ip=127.0.0.1 -ip.bind=127.0.0.1 -dir="$work/s3" \
  -master.port=19500 -master.port.grpc=29500 -volume.port=19501 -volume.port.grpc=29501 \
  -filer.port=19502 -filer.port.grpc=29502 -s3.port=19503 -s3.port.grpc=29503 \
  -s3.port.iceberg=0 -s3.port.lance=0 -webdav=false -webdav.port=19504 -admin.ui=false \
  -admin.port=19505 -admin.port.grpc=29505 -admin.port.legacy=0 -master.telemetry=false \
  -master.volumeSizeLimitMB=64 -volume.max=8 -s3.config="$work/s3.json" >"$work/weed.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do curl -s -o /dev/null http://127.0.0.1:19503/ && break; sleep 0.1; done

one_run() {  # <local|s3> <workers> → prints "uploads/s docs/s"
  local store=$1 workers=$2 node_pids=()
  psql -q "$base_url" -c "DROP DATABASE IF EXISTS docintel_bench_cluster" 2>/dev/null
  psql -q "$base_url" -c "CREATE DATABASE docintel_bench_cluster"
  rm -rf "$work/data" && mkdir -p "$work/data/plugins"
  local env=(DOCINTEL_DATABASE_URL="${base_url%/*}/docintel_bench_cluster"
    DOCINTEL_DATA_DIR="$work/data" DOCINTEL_PLUGINS_DIR="$work/data/plugins"
    DOCINTEL_BASE_URL=http://127.0.0.1:18380 DOCINTEL_RATE_LIMIT_PER_MINUTE=100000000)
  if [[ $store == s3 ]]; then
    env+=(DOCINTEL_OBJECT_STORE=s3 DOCINTEL_S3_ENDPOINT=http://127.0.0.1:19503
      DOCINTEL_S3_BUCKET="run$RANDOM" DOCINTEL_S3_ACCESS_KEY=bench DOCINTEL_S3_SECRET_KEY=bench-secret)
  fi
  env "${env[@]}" "$build/server/docintel-admin" migrate >/dev/null
  env "${env[@]}" "$build/server/docintel-admin" user create --email b@example.com \
    --password bench-password >/dev/null
  local token
  token=$(env "${env[@]}" "$build/server/docintel-admin" token --email b@example.com \
    --audience rest --scope "documents:read documents:write")
  env "${env[@]}" DOCINTEL_PORT=18380 DOCINTEL_MCP_PORT=18381 \
    "$build/server/docintel-server" --role api >>"$work/api.log" 2>&1 &
  node_pids+=($!)
  for i in $(seq 1 "$workers"); do
    env "${env[@]}" DOCINTEL_PORT=$((18381 + i)) "$build/server/docintel-server" --role worker \
      >>"$work/worker.log" 2>&1 &
    node_pids+=($!)
  done
  for port in 18380 $(seq 18382 $((18381 + workers))); do
    for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.1; done
  done
  python3 - "$token" "$docs" <<'PY'
import concurrent.futures, json, sys, time
sys.path.insert(0, "bench")
from bench_api import Api
api = Api(18380, sys.argv[1])
docs = [json.loads(line) for line in open("../shared/datasets/beir-scifact/corpus.jsonl")]
docs = docs[: int(sys.argv[2])]
start = time.time()
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    ids = list(pool.map(lambda d: api.upload(d["_id"] + ".txt",
                                             (d["title"] + "\n\n" + d["text"]).encode(),
                                             "text/plain"), docs))
uploaded = time.time() - start
listed = api.wait_all(ids)
wall = time.time() - start
assert not any(d["status"] == "error" for d in listed), "a document failed"
print(f"{len(ids) / uploaded:.1f} {len(ids) / wall:.2f}")
PY
  kill "${node_pids[@]}"
  wait "${node_pids[@]}" 2>/dev/null || true
}

declare -A up ing
for run in $(seq 1 "$runs"); do
  for store in local s3; do
    for workers in 1 2; do
      read -r u d < <(one_run "$store" "$workers")
      echo "run $run: store=$store workers=$workers uploads/s=$u documents/s=$d"
      up[$store,$workers]+="$u "
      ing[$store,$workers]+="$d "
    done
  done
done
median() { printf '%s\n' $1 | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "medians of $runs runs, $docs documents each:"
for store in local s3; do
  for workers in 1 2; do
    echo "  store=$store workers=$workers: uploads/s $(median "${up[$store,$workers]}")," \
      "documents/s $(median "${ing[$store,$workers]}")"
  done
done
