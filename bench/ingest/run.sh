#!/usr/bin/env bash
# Ingestion throughput through the real API: SciFact abstracts (each uploaded as a text
# document: create → PUT → complete) from first upload to last `embedded`. Prints documents/s,
# chunks/s and the share of the server's encoding threads' wall time spent inside the encoder
# (`encoder_busy_ms` of the `document_embedded` lines; docs/decisions/0059). Then the same chunks,
# read back through the API, are encoded by the encoder alone (encoder_bench, 2 threads, batch
# 32): `overhead_vs_encoder_alone` = 1 − that time / the ingestion's wall time.
# Run via `make bench-ingest`; DOCS=N limits the number of abstracts (default all 5,183).
# CORPUS=pdfs ingests the text PDFs of ../shared/datasets/doc-corpus instead (every category of
# MANIFEST.json with a text layer), REPEAT times each (default 5). Needs `make model`.
set -euo pipefail
cd "$(dirname "$0")/../.."

docs=${DOCS:-0}
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18282 "documents:read documents:write"
# (A build folder without CMakeCache.txt — a copy of an older build's binaries, for comparison —
# must hold bench/encoder/encoder_bench already.)
[[ ! -f "$build/CMakeCache.txt" ]] || cmake --build "$build" --target encoder_bench -j1 >/dev/null

python3 - "$port" "$token" "$docs" "${CORPUS:-scifact}" "${REPEAT:-5}" "$work" \
  "${DOCINTEL_WORKER_THREADS:-2}" "$build" "$DOCINTEL_MODELS_DIR/${DOCINTEL_MODEL:-all-MiniLM-L6-v2}" \
  <<'PY'
import concurrent.futures, json, re, sys, time
sys.path.insert(0, "bench")
from bench_api import Api, encoder_alone, ingest_report

port, token, limit, corpus, repeat, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    sys.argv[4], int(sys.argv[5]), sys.argv[6]
workers, build, model = int(sys.argv[7]), sys.argv[8], sys.argv[9]
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
listed = api.wait_all(ids)
wall = time.time() - start
errors = sum(1 for d in listed if d["status"] == "error")
print(f"uploads done after {uploaded - start:.1f} s")
ingest_report(f"{work}/server.log", len(ids), errors, wall, workers)
alone = encoder_alone(api, ids, build, model, f"{work}/chunks.jsonl")
print(f"encoder_alone_s={alone:.1f} overhead_vs_encoder_alone={1 - alone / wall:.0%}")
PY
