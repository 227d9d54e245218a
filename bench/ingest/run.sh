#!/usr/bin/env bash
# Ingestion throughput through the real API: SciFact abstracts (each uploaded as a text
# document: create → PUT → complete) from first upload to last `embedded`. Prints documents/s,
# chunks/s and the share of the workers' time spent inside the encoder (encode time summed from
# the server's `document_embedded encode_ms=` lines, over wall time × DOCINTEL_WORKER_THREADS). Run via `make bench-ingest`; DOCS=N limits the
# number of abstracts (default all 5,183). Needs `make model`.
set -euo pipefail
cd "$(dirname "$0")/../.."

docs=${DOCS:-0}
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18282 "documents:read documents:write"

python3 - "$port" "$token" "$docs" "../shared/datasets/beir-scifact/corpus.jsonl" "$work/server.log" \
  "${DOCINTEL_WORKER_THREADS:-2}" <<'PY'
import concurrent.futures, json, re, sys, time
sys.path.insert(0, "bench")
from bench_api import Api

port, token, limit, corpus, log = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
workers = int(sys.argv[6])
api = Api(port, token)

def ingest(doc):
    text = (doc["title"] + "\n\n" + doc["text"]).encode()
    return api.upload(doc["_id"] + ".txt", text, "text/plain")

docs = [json.loads(line) for line in open(corpus)]
if limit: docs = docs[:limit]
start = time.time()
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    ids = list(pool.map(ingest, docs))
uploaded = time.time()
listed = api.wait_all(len(ids))
wall = time.time() - start
errors = sum(1 for d in listed if d["status"] == "error")
encode_ms = chunks = 0
for line in open(log):
    if "event=document_embedded" in line:
        encode_ms += int(re.search(r"encode_ms=(\d+)", line).group(1))
        chunks += int(re.search(r"chunks=(\d+)", line).group(1))
print(f"documents={len(ids)} errors={errors} chunks={chunks} wall_s={wall:.1f} "
      f"(uploads done after {uploaded - start:.1f} s)")
share = encode_ms / 1000 / (wall * workers)
print(f"documents/s={len(ids) / wall:.1f} chunks/s={chunks / wall:.1f} worker_threads={workers} "
      f"encoder_share={share:.0%} pipeline_overhead={1 - share:.0%}")
PY
