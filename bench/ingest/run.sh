#!/usr/bin/env bash
# Ingestion throughput through the real API: SciFact abstracts (each uploaded as a text
# document: create → PUT → complete) from first upload to last `embedded`. Prints documents/s,
# chunks/s and the share of the workers' time spent inside the encoder (encode time summed from
# the server's `document_embedded encode_ms=` lines, over wall time × DOCINTEL_WORKER_THREADS).
# Run via `make bench-ingest`; DOCS=N limits the number of abstracts (default all 5,183).
# CORPUS=pdfs ingests the text PDFs of ../shared/datasets/doc-corpus instead (every category of
# MANIFEST.json with a text layer), REPEAT times each (default 5). Needs `make model`.
set -euo pipefail
cd "$(dirname "$0")/../.."

docs=${DOCS:-0}
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18282 "documents:read documents:write"

python3 - "$port" "$token" "$docs" "${CORPUS:-scifact}" "${REPEAT:-5}" "$work/server.log" \
  "${DOCINTEL_WORKER_THREADS:-2}" <<'PY'
import concurrent.futures, json, re, sys, time
sys.path.insert(0, "bench")
from bench_api import Api, ingest_report

port, token, limit, corpus, repeat, log = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    sys.argv[4], int(sys.argv[5]), sys.argv[6]
workers = int(sys.argv[7])
api = Api(port, token)
datasets = "../shared/datasets"
TEXT_PDFS = {"pdf-text", "pdf-text-rtl", "pdf-long", "pdf-multicolumn", "pdf-table",
             "pdf-table-cjk", "pdf-form", "pdf-rotated", "pdf-attachment"}

if corpus == "pdfs":  # (filename, bytes, content type)
    files = json.load(open(f"{datasets}/doc-corpus/MANIFEST.json"))["files"]
    pdfs = [f["path"] for f in files if f["category"] in TEXT_PDFS]
    docs = [(f"{i}-{p.rsplit('/', 1)[-1]}", open(f"{datasets}/doc-corpus/{p}", "rb").read(),
             "application/pdf") for i in range(repeat) for p in pdfs]
else:
    docs = [json.loads(line) for line in open(f"{datasets}/beir-scifact/corpus.jsonl")]
    docs = [(d["_id"] + ".txt", (d["title"] + "\n\n" + d["text"]).encode(), "text/plain")
            for d in docs]
if limit: docs = docs[:limit]

def ingest(doc):
    return api.upload(*doc)

start = time.time()
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    ids = list(pool.map(ingest, docs))
uploaded = time.time()
listed = api.wait_all(len(ids))
wall = time.time() - start
errors = sum(1 for d in listed if d["status"] == "error")
print(f"uploads done after {uploaded - start:.1f} s")
ingest_report(log, len(ids), errors, wall, workers)
PY
