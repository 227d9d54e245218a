#!/usr/bin/env bash
# Workflow engine timings through the real API, with the healthcare plugin hot-dropped into the
# running server: a 10-page prior-authorization request (the sample request of
# tests/data/workflows/healthcare plus eight pages of clinical history, rendered to PDF with
# wkhtmltopdf) and the sample payer policy are uploaded and embedded; then RUNS runs
# (default 10) of healthcare_prior_auth are timed from the start request to `pending_review`
# (polled every 5 ms), and as many prior_auth packets from the request to the 201 (the
# server-side render time is printed too). Needs `make model` and a build with the healthcare
# plugin. Usage: bench/workflows/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

runs=${RUNS:-10}
export DOCINTEL_MODELS_DIR=${DOCINTEL_MODELS_DIR:-$PWD/var/models}
source bench/server.sh
start_bench_server 18283 "documents:read documents:write workflows:read workflows:write reviews:write reviews:approve packets:write"
mkdir -p "$work/plugins"
cp "${BUILD_DIR:-build}/plugins/healthcare.so" "$work/plugins/"

python3 - "$port" "$token" "$runs" "$work" tests/data/workflows/healthcare <<'PY'
import html, json, os, statistics, subprocess, sys, tempfile, time, urllib.request, urllib.error

port, token, runs, work, data = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
base = f"http://127.0.0.1:{port}"

def call(method, path, body=None, headers=None, url=None, ok=(200, 201, 202)):
    payload = json.dumps(body).encode() if isinstance(body, dict) else body
    h = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    h.update(headers or {})
    req = urllib.request.Request(url or base + path, data=payload, method=method, headers=h)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read() or b"{}")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")

# Ten pages: the two-page request, then eight pages of history.
request = open(f"{data}/prior_auth_request.txt", encoding="utf-8").read().split("<<PAGE BREAK>>")
history = []
for i in range(8):
    history.append(f"""PROGRESS NOTE {i + 1} — {['January', 'February'][i % 2]} {3 + i}, 2025
Subjective: Ms. Gonzalez reports ongoing low back pain with intermittent radiation to the left leg. Sleep is disturbed two to three nights a week. She continues her home exercise program and walks twenty minutes a day.
Medications: naproxen 500 mg twice daily with food; omeprazole 20 mg daily; lisinopril 10 mg daily for hypertension.
Physical therapy: session {i + 4} of 12 focused on core stabilisation, McKenzie extension exercises and nerve glides. Tolerated well; pain 6/10 before and 6/10 after the session.
Vital signs: blood pressure 132/84, heart rate 76, temperature 36.8 C, weight 71 kg.
Plan: continue therapy, reassess in one week, return precautions reviewed including new weakness, numbness in the groin, or loss of bladder control.""")
pages = [p.strip() for p in request] + history
doc = ['<!DOCTYPE html><html><head><meta charset="utf-8"><style>.page{page-break-after:always}'
       '.page:last-child{page-break-after:auto}body{font-family:serif;font-size:11pt}</style></head><body>']
for p in pages:
    doc.append('<div class="page">' + "".join("<p>" + "<br>".join(html.escape(l) for l in para.split("\n")) + "</p>"
                                            for para in p.split("\n\n")) + "</div>")
doc.append("</body></html>")
src = os.path.join(work, "request10.html")
pdf = os.path.join(work, "request10.pdf")
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

# The plugin was dropped into the running server's folder: wait until its routes answer.
deadline = time.time() + 30
while call("GET", "/api/v1/workflows/healthcare_prior_auth/schema")[0] != 200:
    if time.time() > deadline:
        sys.exit("the healthcare plugin did not load")
    time.sleep(0.1)

req_id, pol_id = upload(pdf), upload(f"{data}/payer_policy.pdf")
req_doc, pol_doc = wait_doc(req_id), wait_doc(pol_id)
print(f"request_pages={req_doc['pages']} request_status={req_doc['status']} "
      f"policy_pages={pol_doc['pages']}")

to_review, packet_ms, render_ms = [], [], []
for i in range(runs):
    t0 = time.perf_counter()
    status, run = call("POST", "/api/v1/verticals/healthcare/runs",
                       {"workflow": "healthcare_prior_auth", "document_ids": [req_id],
                        "inputs": {"policy_document_ids": [pol_id]}})
    assert status == 202, run
    path = f"/api/v1/verticals/healthcare/runs/{run['run_id']}"
    while True:
        _, run = call("GET", path)
        if run["status"] != "running":
            break
        time.sleep(0.005)
    to_review.append((time.perf_counter() - t0) * 1000)
    assert run["status"] == "pending_review", run
    packet = run["review_packet"]
    for c in packet["criteria"]:
        if c["required"]:
            c["status"] = {"value": "met", "source": None, "confidence": 1.0}
    call("PUT", path + "/review", {"packet": packet})
    call("POST", path + "/approve", {"confirm": True})
    t1 = time.perf_counter()
    status, out = call("POST", path + "/packets", {"packet_type": "prior_auth"})
    assert status == 201, out
    packet_ms.append((time.perf_counter() - t1) * 1000)
    render_ms.append(out["render_ms"])

def summary(xs):
    xs = sorted(xs)
    return f"median={statistics.median(xs):.0f} min={xs[0]:.0f} max={xs[-1]:.0f}"
print(f"runs={runs} start_to_pending_review_ms {summary(to_review)}")
print(f"packets={runs} generate_request_ms {summary(packet_ms)} render_ms {summary(render_ms)}")
PY
