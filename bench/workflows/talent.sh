#!/usr/bin/env bash
# talent_readiness timings through the real API, with the talent plugin hot-dropped into the
# running server: a 10-page candidate file (the strong sample resume of
# tests/data/workflows/talent plus eight pages of project write-ups, rendered to PDF with
# wkhtmltopdf) and the sample job description are uploaded and embedded; then RUNS runs
# (default 10) are timed from the start request to `pending_review` (polled every 5 ms), and as
# many candidate packets from the request to the 201. Needs `make model` and a build with the
# talent plugin. Usage: bench/workflows/talent.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${RUNS:-10}
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18284 "documents:read documents:write workflows:read workflows:write reviews:write reviews:approve packets:write"
mkdir -p "$work/plugins"
cp "${BUILD_DIR:-build}/plugins/talent.so" "$work/plugins/"

python3 - "$port" "$token" "$runs" "$work" tests/data/workflows/talent <<'PY'
import html, json, os, statistics, subprocess, sys, tempfile, time, urllib.request, urllib.error

port, token, runs, work, data = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
base = f"http://127.0.0.1:{port}"

def call(method, path, body=None, headers=None, url=None):
    payload = json.dumps(body).encode() if isinstance(body, dict) else body
    h = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    h.update(headers or {})
    req = urllib.request.Request(url or base + path, data=payload, method=method, headers=h)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")

# Ten pages: the two-page resume, then eight pages of project write-ups.
resume = open(f"{data}/resume_strong.txt", encoding="utf-8").read().split("<<PAGE BREAK>>")
topics = ["carrier tracking", "warehouse scans", "pricing features", "invoice matching",
          "route optimisation", "returns analytics", "fuel surcharges", "dock scheduling"]
projects = []
for i, topic in enumerate(topics):
    projects.append(f"""PROJECT WRITE-UP {i + 1}: {topic.title()}
Context: The {topic} pipeline fed daily reports that arrived late and disagreed with the finance numbers. Priya owned the redesign from the first design review to the hand-over to on-call.
Approach: Ingested raw events from S3 with Spark on EMR, modelled them as a fact table with conformed dimensions, and scheduled the jobs in Airflow with data quality checks on row counts, null rates and freshness.
Streaming: Where minutes mattered, a Kafka topic carried the events and a Spark Structured Streaming job kept an hourly aggregate current.
Outcome: Reports arrived by 6 a.m. every day for a quarter; the reconciliation gap with finance fell below 0.1%. Two junior engineers now maintain the pipeline.
Tools: Python, SQL, Spark, Airflow, AWS, Kafka, dbt, Terraform.""")
pages = [p.strip() for p in resume] + projects
doc = ['<!DOCTYPE html><html><head><meta charset="utf-8"><style>.page{page-break-after:always}'
       '.page:last-child{page-break-after:auto}body{font-family:serif;font-size:11pt}</style></head><body>']
for p in pages:
    doc.append('<div class="page">' + "".join("<p>" + "<br>".join(html.escape(l) for l in para.split("\n")) + "</p>"
                                            for para in p.split("\n\n")) + "</div>")
doc.append("</body></html>")
src = os.path.join(work, "candidate10.html")
pdf = os.path.join(work, "candidate10.pdf")
open(src, "w", encoding="utf-8").write("".join(doc))
env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=tempfile.mkdtemp())
env.pop("DISPLAY", None)
subprocess.run(["wkhtmltopdf", "--quiet", "--page-size", "Letter", src, pdf], check=True, env=env)

def upload(path):
    data = open(path, "rb").read()
    name = os.path.basename(path)
    _, s = call("POST", "/api/v1/uploads", {"filename": name, "content_type": "application/pdf",
                                             "file_size": len(data)})
    call("PUT", None, data, {"Content-Type": "application/pdf"}, url=s["upload_url"])
    call("POST", "/api/v1/uploads/complete", {"filename": name, "file_size": len(data),
         "content_type": "application/pdf", "doc_id": s["doc_id"],
         "storage_source_path": s["storage_source_path"]})
    return s["doc_id"]

def wait_doc(doc_id):
    while True:
        _, d = call("GET", f"/api/v1/documents/{doc_id}")
        if d["status"] in ("embedded", "error"):
            return d
        time.sleep(0.05)

deadline = time.time() + 30
while call("GET", "/api/v1/workflows/talent_readiness/schema")[0] != 200:
    if time.time() > deadline:
        sys.exit("the talent plugin did not load")
    time.sleep(0.1)

cand_id, job_id = upload(pdf), upload(f"{data}/job_description.pdf")
cand_doc, job_doc = wait_doc(cand_id), wait_doc(job_id)
print(f"candidate_pages={cand_doc['pages']} candidate_status={cand_doc['status']} "
      f"job_description_pages={job_doc['pages']}")

to_review, packet_ms, render_ms = [], [], []
for i in range(runs):
    t0 = time.perf_counter()
    status, run = call("POST", "/api/v1/verticals/talent/runs",
                       {"workflow": "talent_readiness", "document_ids": [cand_id],
                        "inputs": {"job_description_id": job_id}})
    assert status == 202, run
    path = f"/api/v1/verticals/talent/runs/{run['run_id']}"
    while True:
        _, run = call("GET", path)
        if run["status"] != "running":
            break
        time.sleep(0.005)
    to_review.append((time.perf_counter() - t0) * 1000)
    assert run["status"] == "pending_review", run
    call("POST", path + "/approve", {"confirm": True})
    t1 = time.perf_counter()
    status, out = call("POST", path + "/packets", {"packet_type": "candidate"})
    assert status == 201, out
    packet_ms.append((time.perf_counter() - t1) * 1000)
    render_ms.append(out["render_ms"])
print(f"match_score={run['review_packet']['match_score']} "
      f"recommendation={run['review_packet']['recommendation']}")

def summary(xs):
    xs = sorted(xs)
    return f"median={statistics.median(xs):.0f} min={xs[0]:.0f} max={xs[-1]:.0f}"
print(f"runs={runs} start_to_pending_review_ms {summary(to_review)}")
print(f"packets={runs} generate_request_ms {summary(packet_ms)} render_ms {summary(render_ms)}")
PY
