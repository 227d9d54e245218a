#!/usr/bin/env bash
# Knowledge query latency and memory through the real server: SciFact abstracts uploaded as text
# documents (as bench/ingest does), then POST /api/v1/knowledge/query/stream with the SciFact
# test claims, one at a time: p50/p95 from sending the request to the `sources` frame and to the
# `done` frame, with 10 selected documents (the claim's relevant abstracts plus others, fixed
# seed) and with the whole workspace (no documents named). RUNS runs of QUERIES questions each;
# the figures are the medians over runs. Memory: the index folder on disk and the server's
# resident memory before and after the corpus is indexed, per 1,000 chunks, and the server's
# peak RSS (VmHWM, reset before) while 16 clients ask at once.
# Usage: bench/knowledge/run.sh  (DOCS=N abstracts, default all 5,183; QUERIES=N, default 300;
# RUNS=N, default 3). Run via `make bench-knowledge`. Needs `make model`.
set -euo pipefail
cd "$(dirname "$0")/../.."

export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18383 "documents:read documents:write knowledge:query"

python3 - "$port" "$token" "${DOCS:-0}" "${QUERIES:-300}" "${RUNS:-3}" "$server_pid" \
  "$work" ../shared/datasets/beir-scifact <<'PY'
import concurrent.futures, http.client, json, os, random, re, statistics, subprocess, sys, time
sys.path.insert(0, "bench")
from bench_api import Api, ingest_report, percentile, stream_timings

port, token, limit, nq, runs, pid, work, data = sys.argv[1:]
limit, nq, runs = int(limit), int(nq), int(runs)
base = f"http://127.0.0.1:{port}"
auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
api = Api(port, token)

def status(field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0

def ingest(doc):
    text = (doc["title"] + "\n\n" + doc["text"]).encode()
    return doc["_id"], api.upload(doc["_id"] + ".txt", text, "text/plain")

def du(path):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)

rss_empty = status("VmRSS")
docs = [json.loads(line) for line in open(f"{data}/corpus.jsonl")]
qrels = {}
for line in list(open(f"{data}/qrels/test.tsv"))[1:]:
    q, d, _ = line.split("\t")
    qrels.setdefault(q, []).append(d)
queries = [json.loads(l) for l in open(f"{data}/queries.jsonl")]
queries = [q for q in queries if q["_id"] in qrels][:nq]
if limit:  # keep the abstracts the chosen claims cite
    cited = {d for q in queries for d in qrels[q["_id"]]}
    docs = [d for d in docs if d["_id"] in cited] + [d for d in docs if d["_id"] not in cited]
    docs = docs[:limit]
start = time.time()
with concurrent.futures.ThreadPoolExecutor(8) as pool:
    ids = dict(pool.map(ingest, docs))
listed = api.wait_all(list(ids.values()))
chunks = ingest_report(f"{work}/server.log", len(ids),
                       sum(d["status"] == "error" for d in listed), time.time() - start,
                       int(os.environ.get("DOCINTEL_WORKER_THREADS", "2")))

def ask(question, document_ids):
    """(ms to the sources frame, ms to the done frame)."""
    return stream_timings(port, "/api/v1/knowledge/query/stream",
                          {"question": question, "document_ids": document_ids}, auth)

# Wait until the index has every document (a whole-workspace query finds the last one).
last = docs[-1]
for _ in range(600):
    conn = http.client.HTTPConnection("127.0.0.1", int(port))
    conn.request("POST", "/api/v1/knowledge/query/stream",
                 json.dumps({"question": last["title"], "document_ids": [ids[last["_id"]]]}), auth)
    if conn.getresponse().status == 200:
        break
    time.sleep(0.5)
time.sleep(2)
rss_indexed = status("VmRSS")
index_bytes = du(f"{work}/index")

rng = random.Random(7)
all_ids = list(ids.values())
selections = []
for q in queries:
    chosen = [ids[d] for d in qrels[q["_id"]] if d in ids][:10]
    while len(chosen) < 10:
        x = rng.choice(all_ids)
        if x not in chosen:
            chosen.append(x)
    selections.append(chosen)

pct = percentile

for _ in range(5):  # warm up
    ask(queries[0]["text"], selections[0])
for mode in ("10 documents", "whole workspace"):
    figures = []
    for run in range(runs):
        s, d = [], []
        for q, sel in zip(queries, selections):
            a, b = ask(q["text"], sel if mode == "10 documents" else [])
            s.append(a)
            d.append(b)
        figures.append((pct(s, 50), pct(s, 95), pct(d, 50), pct(d, 95)))
        print(f"  {mode} run {run + 1}: sources p50 {figures[-1][0]:.1f} ms p95 "
              f"{figures[-1][1]:.1f} ms | done p50 {figures[-1][2]:.1f} ms p95 {figures[-1][3]:.1f} ms")
    m = [statistics.median(f[i] for f in figures) for i in range(4)]
    print(f"{mode} ({len(queries)} questions, median of {runs} runs): sources p50 {m[0]:.1f} ms "
          f"p95 {m[1]:.1f} ms | done p50 {m[2]:.1f} ms p95 {m[3]:.1f} ms")

# Peak RSS while 16 clients ask at once (whole workspace), VmHWM reset first.
with open(f"/proc/{pid}/clear_refs", "w") as f:
    f.write("5")
rss_before = status("VmRSS")
t0 = time.time()
with concurrent.futures.ThreadPoolExecutor(16) as pool:
    list(pool.map(lambda q: ask(q["text"], []), queries[:160]))
peak = status("VmHWM")
print(f"16 concurrent clients, 160 questions in {time.time() - t0:.1f} s: peak RSS "
      f"{peak / 2**20:.0f} MiB (RSS before {rss_before / 2**20:.0f} MiB)")
per_k = 1000 / max(chunks, 1)
print(f"index on disk {index_bytes / 2**20:.1f} MiB = {index_bytes * per_k / 2**20:.2f} MiB per "
      f"1,000 chunks; RSS empty {rss_empty / 2**20:.0f} MiB, indexed {rss_indexed / 2**20:.0f} "
      f"MiB: +{(rss_indexed - rss_empty) * per_k / 2**20:.2f} MiB per 1,000 chunks (includes "
      f"the ingestion workers' high-water allocations)")
PY
