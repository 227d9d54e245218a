#!/usr/bin/env bash
# Sizing of an API node's search indexes per 1 M chunks (docs/deployment.md). Ingests DOCS
# SciFact abstracts (default 2,000) through one server, then starts a new `--role api` node
# over the same database with an empty index folder, as a node joining a cluster does, and
# measures: the time until it serves (it builds its keyword and vector indexes from the change
# feed's snapshot before listening), the index folder on disk, and its RSS against the RSS of
# the same node over a database without the chunks. Figures per chunk are scaled to 1 M.
# REPLICATE=k (default 1) copies every ingested document k-1 times in SQL (new ids, the same
# chunk texts and vectors) to reach a larger corpus without hours of encoding: DOCS=2000
# REPLICATE=27 gives ~100 k chunks. Run via `make bench-cluster-sizing`; needs `make model`.
set -euo pipefail
cd "$(dirname "$0")/../.."

docs=${DOCS:-2000}
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

# An API node on the (nearly empty) bench database first: its RSS is the baseline.
start_api_node() {  # <index dir> → sets node_pid, ready_s
    local started=$(date +%s.%N)
    DOCINTEL_PORT=$node_port DOCINTEL_MCP_PORT=$((node_port + 1)) DOCINTEL_INDEX_DIR=$1 \
        "$build/server/docintel-server" --role api >>"$work/node.log" 2>&1 &
    node_pid=$!
    for _ in $(seq 1 6000); do
        curl -sf "http://127.0.0.1:$node_port/readyz" >/dev/null && break
        sleep 0.1
    done
    ready_s=$(python3 -c "import time; print(time.time() - $started)")
    sleep 2  # let the allocator settle
}
stop_api_node() { kill "$node_pid"; wait "$node_pid" 2>/dev/null || true; }

# The bench server's database is its own (bench/server.sh), so nothing else is indexed.
base_url=${DOCINTEL_DATABASE_URL:?run via make, which sets DOCINTEL_DATABASE_URL}
start_bench_server 18292 "documents:read documents:write"
trap 'kill $server_pid ${node_pid:-} 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work";
      dropdb --maintenance-db="$base_url" --if-exists "$bench_db"' EXIT
node_port=18296
start_api_node "$work/index-empty"
base_rss=$(rss_kb "$node_pid")
stop_api_node

python3 - "$port" "$token" "$docs" <<'PY'
import concurrent.futures, json, sys
sys.path.insert(0, "bench")
from bench_api import Api
port, token, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
api = Api(port, token)
docs = [json.loads(line) for line in open("../shared/datasets/beir-scifact/corpus.jsonl")][:limit]
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    ids = list(pool.map(lambda d: api.upload(d["_id"] + ".txt",
                                             (d["title"] + "\n\n" + d["text"]).encode(),
                                             "text/plain"), docs))
listed = api.wait_all(ids)
print(f"ingested {len(ids)} documents, {sum(d['status'] == 'error' for d in listed)} errors")
PY
chunks=$(curl -sf "http://127.0.0.1:$port/metrics" | awk '/^docintel_chunks_embedded_total/ {print $2}')
replicate=${REPLICATE:-1}
if ((replicate > 1)); then
  psql -q "$DOCINTEL_DATABASE_URL" <<SQL
CREATE TEMP TABLE copies AS
  SELECT d.id AS old, gen_random_uuid() AS new FROM documents d, generate_series(2, $replicate);
INSERT INTO documents
  SELECT (jsonb_populate_record(NULL::documents, to_jsonb(d) || jsonb_build_object(
      'id', c.new, 'storage_key', d.storage_key || '.' || c.new, 'previous_document_id', NULL))).*
  FROM documents d JOIN copies c ON c.old = d.id;
INSERT INTO chunks
  SELECT (jsonb_populate_record(NULL::chunks, to_jsonb(k) || jsonb_build_object(
      'id', gen_random_uuid(), 'document_id', c.new))).*
  FROM chunks k JOIN copies c ON c.old = k.document_id;
SQL
  chunks=$(python3 -c "print(int(float('$chunks')) * $replicate)")
fi

start_api_node "$work/index-new"
rss=$(rss_kb "$node_pid")
index_kb=$(du -sk "$work/index-new" | cut -f1)
stop_api_node

python3 - "$chunks" "$base_rss" "$rss" "$index_kb" "$ready_s" <<'PY'
import sys
chunks, base, rss, index_kb, ready = (float(x) for x in sys.argv[1:])
per_m = 1e6 / chunks
print(f"chunks: {chunks:.0f}")
print(f"new API node ready after {ready:.1f} s (index build from the snapshot) "
      f"→ {ready * per_m / 60:.0f} min per 1 M chunks")
print(f"index folder (Xapian keyword index): {index_kb / 1024:.1f} MiB "
      f"→ {index_kb * per_m / 1024 / 1024:.2f} GiB per 1 M chunks")
print(f"RSS: {base / 1024:.0f} MiB empty → {rss / 1024:.0f} MiB with the chunks "
      f"(+{(rss - base) / 1024:.1f} MiB) → {(rss - base) * per_m / 1024 / 1024:.2f} GiB per 1 M chunks")
PY
