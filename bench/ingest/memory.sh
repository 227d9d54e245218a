#!/usr/bin/env bash
# Ingestion memory: the server's RSS idle with the model loaded (goal: weights + 150 MB), then
# the peak RSS (VmHWM, reset before the upload) while it ingests one large text PDF
# (bench/ingest/make_big_pdf.py, SIZE_MB, default 99: just under the 100 MB upload limit) from
# complete to `embedded` (goal ≤ 1 GB). Run via `make bench-ingest-memory`.
set -euo pipefail
cd "$(dirname "$0")/../.."

size_mb=${SIZE_MB:-99}
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
model=${DOCINTEL_MODEL:-all-MiniLM-L6-v2}
source bench/server.sh
start_bench_server 18383 "documents:read documents:write"

pdf=$work/big.pdf
python3 bench/ingest/make_big_pdf.py "$pdf" "$size_mb"
kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$server_pid/status"; }
weights_kb=$(du -k --apparent-size "$DOCINTEL_MODELS_DIR/$model"/*.safetensors | awk '{s += $1} END {print s}')
sleep 2
idle_kb=$(kb VmRSS)
echo "idle: RSS $((idle_kb / 1024)) MiB with the model loaded; weights $((weights_kb / 1024)) MiB;" \
  "RSS - weights = $(((idle_kb - weights_kb) / 1024)) MiB (goal ≤ 150)"

echo 5 >"/proc/$server_pid/clear_refs"  # resets VmHWM to the current RSS
python3 - "$port" "$token" "$pdf" <<'PY'
import sys, time
sys.path.insert(0, "bench")
from bench_api import Api
port, token, path = sys.argv[1:4]
api = Api(port, token)
start = time.time()
doc_id = api.upload("big.pdf", open(path, "rb").read(), "application/pdf")
doc = api.wait_doc(doc_id)
chunks = api.call("GET", f"/api/v1/documents/{doc_id}/chunks?limit=1")
print(f"big.pdf: status={doc['status']} pages={doc.get('pages')} "
      f"chunks={chunks.get('total', chunks.get('count'))} in {time.time() - start:.1f} s")
PY
peak_kb=$(kb VmHWM)
echo "ingesting a ${size_mb} MB PDF: peak RSS $((peak_kb / 1024)) MiB (goal ≤ 1024)," \
  "RSS now $(($(kb VmRSS) / 1024)) MiB"
