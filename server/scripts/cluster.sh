#!/usr/bin/env bash
# `make cluster`: the deployment of docs/deployment.md on one machine, for trying it. On the
# private Postgres (database docintel_cluster), a replicated SeaweedFS (one master, two volume
# servers with replication 001 — every object on both — and a filer with the S3 gateway), two
# API nodes and two workers of docintel-server, all on loopback ports other than `make run`'s.
# Prints each API node's URL and an admin token valid on all of them, then waits; Ctrl-C stops
# everything. State lives under var/cluster/ and survives a restart.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${BUILD_DIR:-build}
var=$root/var/cluster
weed=$root/var/seaweedfs/weed
[[ -x $weed ]] || { echo "SeaweedFS is missing: run make e2e-deps" >&2; exit 1; }

# Ports: API 8181/8182 (MCP 8191/8192), workers 8183/8184; SeaweedFS master 19333, volumes
# 18080/18081, filer 18888, S3 18333, each gRPC port +10000.
api_ports=(8181 8182)
worker_ports=(8183 8184)
base_url=http://127.0.0.1:${api_ports[0]}  # the address clients use (a load balancer's)
s3_key=docintel-cluster
s3_secret=$(cat "$var/s3-secret" 2>/dev/null || true)

mkdir -p "$var"/{logs,shared,s3/master,s3/v1,s3/v2,s3/filer}
if [[ -z $s3_secret ]]; then
  s3_secret=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
  (umask 077 && echo "$s3_secret" >"$var/s3-secret")
fi
cat >"$var/s3.json" <<JSON
{"identities": [{"name": "docintel", "credentials": [{"accessKey": "$s3_key",
 "secretKey": "$s3_secret"}], "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]}
JSON

pids=()
stop() {
  trap - INT TERM EXIT
  echo "stopping the cluster"
  kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT
# run_logged <log name> <command...>: in the background, output appended to its log.
run_logged() { local name=$1; shift; "$@" >>"$var/logs/$name.log" 2>&1 & pids+=($!); }

wait_http() {  # <url> <what>
  for _ in $(seq 1 600); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.2
  done
  echo "$2 did not come up; see $var/logs" >&2
  exit 1
}

# SeaweedFS, replicated: the master places each volume on two servers (001).
run_logged s3-master "$weed" master -ip=127.0.0.1 -ip.bind=127.0.0.1 -port=19333 \
  -port.grpc=29333 -mdir="$var/s3/master" -defaultReplication=001 -volumeSizeLimitMB=256 \
  -telemetry=false -peers=none
wait_http http://127.0.0.1:19333/cluster/status "the SeaweedFS master"
for i in 0 1; do
  run_logged "s3-volume-$((i + 1))" "$weed" volume -ip=127.0.0.1 -ip.bind=127.0.0.1 \
    -port=$((18080 + i)) -port.grpc=$((28080 + i)) -dir="$var/s3/v$((i + 1))" -max=16 \
    -master=127.0.0.1:19333
done
run_logged s3-filer "$weed" filer -ip=127.0.0.1 -ip.bind=127.0.0.1 -port=18888 \
  -port.grpc=28888 -master=127.0.0.1:19333 -defaultReplicaPlacement=001 \
  -defaultStoreDir="$var/s3/filer" \
  -s3 -s3.port=18333 -s3.port.grpc=28333 -s3.port.iceberg=0 -s3.port.lance=0 \
  -s3.config="$var/s3.json" -webdav=false
wait_http http://127.0.0.1:18333/ "the S3 gateway"

# The database and the first admin.
pg_url=${DOCINTEL_DATABASE_URL:?run via make cluster}
cluster_url=${pg_url%/*}/docintel_cluster
if [[ -z $(psql -tAq "$pg_url" -c "SELECT 1 FROM pg_database WHERE datname = 'docintel_cluster'") ]]; then
  psql -q "$pg_url" -c "CREATE DATABASE docintel_cluster"
fi
export DOCINTEL_DATABASE_URL=$cluster_url DOCINTEL_DATA_DIR=$var/shared
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$root/var/models}
export DOCINTEL_BASE_URL=$base_url DOCINTEL_MCP_URL=http://127.0.0.1:8191/mcp
export DOCINTEL_OBJECT_STORE=s3 DOCINTEL_S3_ENDPOINT=http://127.0.0.1:18333
export DOCINTEL_S3_BUCKET=docintel DOCINTEL_S3_ACCESS_KEY=$s3_key DOCINTEL_S3_SECRET_KEY=$s3_secret
"$build/server/docintel-admin" migrate >/dev/null 2>>"$var/logs/admin.log"
"$build/server/docintel-admin" user ensure-admin --email "${ADMIN_EMAIL:-admin@docintel.local}"
token=$("$build/server/docintel-admin" token --email "${ADMIN_EMAIL:-admin@docintel.local}" \
  --audience rest --ttl 43200 --scope "${ALL_SCOPES:-workspaces:read documents:read}")

# Two API nodes (each with its own search indexes) and two workers.
for i in 0 1; do
  DOCINTEL_PORT=${api_ports[$i]} DOCINTEL_MCP_PORT=$((8191 + i)) \
    DOCINTEL_INDEX_DIR=$var/api-$((i + 1))/index \
    run_logged "api-$((i + 1))" "$build/server/docintel-server" --role api
done
for i in 0 1; do
  DOCINTEL_PORT=${worker_ports[$i]} run_logged "worker-$((i + 1))" \
    "$build/server/docintel-server" --role worker
done
for port in "${api_ports[@]}" "${worker_ports[@]}"; do
  wait_http "http://127.0.0.1:$port/readyz" "the node on port $port"
done

cat <<EOF

docintel cluster: 2 API nodes, 2 workers, Postgres database docintel_cluster, SeaweedFS
(replication 001) — logs in var/cluster/logs, state in var/cluster.
  API node 1: http://127.0.0.1:${api_ports[0]}/api/v1   (MCP http://127.0.0.1:8191/mcp)
  API node 2: http://127.0.0.1:${api_ports[1]}/api/v1   (MCP http://127.0.0.1:8192/mcp)
  Workers:    http://127.0.0.1:${worker_ports[0]}/readyz  http://127.0.0.1:${worker_ports[1]}/readyz
  Metrics:    http://127.0.0.1:<any node port>/metrics (loopback only)
  S3:         http://127.0.0.1:18333 bucket docintel (key $s3_key, secret in var/cluster/s3-secret)
Admin access token (${ADMIN_EMAIL:-admin@docintel.local}, 12 h, valid on every node):
$token

Ctrl-C stops the cluster.
EOF
wait -n "${pids[@]}" || true
echo "a process of the cluster exited; see var/cluster/logs" >&2
