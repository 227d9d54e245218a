#!/usr/bin/env bash
# Tutor latency through the real server with the learning plugin, by bench/knowledge's method:
# SciFact abstracts uploaded as text documents into a team workspace, a course whose two
# modules hold 10 abstracts each; then the SciFact test claims whose cited abstract is in a
# module, one at a time, asked (a) to POST .../tutor/query/stream scoped to that module and
# (b) as the baseline in the same run, to POST /api/v1/knowledge/query/stream naming the same
# 10 documents. p50/p95 from sending the request to the `sources` frame and to the `done`
# frame; RUNS runs, medians over runs.
# Usage: bench/learning/tutor.sh  (RUNS=N, default 3). Run via `make bench-tutor`.
set -euo pipefail
cd "$(dirname "$0")/../.."

export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18393 "workspaces:read workspaces:write documents:read documents:write \
knowledge:query learning:read learning:participate learning:manage"
mkdir -p "$work/plugins" && cp "${BUILD_DIR:-build}/plugins/learning.so" "$work/plugins/"

status=0
python3 - "$port" "$token" "${RUNS:-3}" ../shared/datasets/beir-scifact <<'PY' || status=$?
import json, statistics, sys, time
sys.path.insert(0, "bench")
from bench_api import Api, percentile, stream_timings

port, token, runs, data = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
api = Api(port, token)

# The plugin is picked up by the folder watcher.
for _ in range(100):
    probe = "/api/v1/learning/documents?workspace_id=00000000-0000-4000-8000-000000000000"
    if api.request("GET", probe)[0] != 503:
        break
    time.sleep(0.1)

ws = api.call("POST", "/api/v1/workspaces", {"name": "tutor bench"})["id"]
hdr = {"X-DocIntel-Workspace-ID": ws}

qrels = {}
for line in list(open(f"{data}/qrels/test.tsv"))[1:]:
    q, d, _ = line.split("\t")
    qrels.setdefault(q, []).append(d)
queries = [json.loads(l) for l in open(f"{data}/queries.jsonl")]
queries = [q for q in queries if q["_id"] in qrels]
corpus = {}
for line in open(f"{data}/corpus.jsonl"):
    d = json.loads(line)
    corpus[d["_id"]] = d

# Module A: the abstracts the first 10 claims cite (one each); module B: the next 10.
modules, asked = ([], []), ([], [])
for q in queries:
    d = qrels[q["_id"]][0]
    if d not in corpus or any(d in m for m in modules):
        continue
    k = 0 if len(modules[0]) < 10 else 1
    if len(modules[k]) >= 10:
        break
    modules[k].append(d)
    asked[k].append(q["text"])

def upload(doc_id):
    d = corpus[doc_id]
    text = (d["title"] + "\n\n" + d["text"]).encode()
    s = api.call("POST", "/api/v1/uploads", {"filename": doc_id + ".txt",
                 "content_type": "text/plain", "file_size": len(text), "workspace_id": ws}, hdr)
    api.call("PUT", None, text, {"Content-Type": "text/plain"}, url=s["upload_url"])
    api.call("POST", "/api/v1/uploads/complete", {"filename": doc_id + ".txt",
             "content_type": "text/plain", "file_size": len(text), "doc_id": s["doc_id"],
             "storage_source_path": s["storage_source_path"], "workspace_id": ws}, hdr)
    return s["doc_id"]

ids = {d: upload(d) for m in modules for d in m}
for doc_id in ids.values():
    api.wait_doc(doc_id)

course = api.call("POST", "/api/v1/learning/courses", {"workspace_id": ws, "title": "SciFact"}, hdr)
cid = course["id"]
saved = api.call("PUT", f"/api/v1/learning/courses/{cid}/curriculum", {"modules": [
    {"title": "Module A", "lessons": []}, {"title": "Module B", "lessons": []}]}, hdr)
module_ids = [m["id"] for m in saved["curriculum"]["modules"]]
for k in (0, 1):
    for d in modules[k]:
        api.call("POST", f"/api/v1/learning/courses/{cid}/assets",
                 {"document_id": ids[d], "module_id": module_ids[k]}, hdr)

auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
        "X-DocIntel-Workspace-ID": ws}

def ask(path, body):
    return stream_timings(port, path, body, auth)

pct = percentile

cases = [(k, q) for k in (0, 1) for q in asked[k]]
def tutor(k, q):
    return ask(f"/api/v1/learning/courses/{cid}/tutor/query/stream",
               {"question": q, "module_id": module_ids[k]})
def knowledge(k, q):
    return ask("/api/v1/knowledge/query/stream",
               {"question": q, "document_ids": [ids[d] for d in modules[k]]})

for k, q in cases[:3]:  # warm up
    tutor(k, q); knowledge(k, q)
results = {"tutor (module scope)": [], "knowledge, same 10 documents (baseline)": []}
for run in range(runs):
    # Alternate the two per question so neither gains from going first.
    t, b = ([], []), ([], [])
    for k, q in cases:
        for name, fn, acc in (("t", tutor, t), ("b", knowledge, b)):
            s, d = fn(k, q)
            acc[0].append(s); acc[1].append(d)
    for name, acc in zip(results, (t, b)):
        fig = (pct(acc[0], 50), pct(acc[0], 95), pct(acc[1], 50), pct(acc[1], 95))
        results[name].append(fig)
        print(f"  {name} run {run + 1}: sources p50 {fig[0]:.1f} p95 {fig[1]:.1f} ms | "
              f"done p50 {fig[2]:.1f} p95 {fig[3]:.1f} ms")
for name, figs in results.items():
    m = [statistics.median(f[i] for f in figs) for i in range(4)]
    print(f"{name} ({len(cases)} questions, median of {runs} runs): sources p50 {m[0]:.1f} ms "
          f"p95 {m[1]:.1f} ms | done p50 {m[2]:.1f} ms p95 {m[3]:.1f} ms")
PY
if [[ $status -ne 0 ]]; then
  echo "--- server log (last 30 lines)" >&2
  tail -30 "$work/server.log" >&2
fi
exit $status
