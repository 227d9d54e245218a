"""Workflow engine timings through the real API (bench/workflows/run.sh starts the server and
hot-drops the plugins): for each case a 10-page input (a sample document of
tests/data/workflows plus eight generated pages, rendered to PDF with wkhtmltopdf) and the
case's other document are uploaded and embedded; then RUNS runs are timed from the start
request to `pending_review` (polled every 5 ms), and as many packets from the request to the
201 (the server-side render time is printed too).

Usage: workflow_bench.py <port> <token> <runs> <work dir>
"""

import html
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, "bench")
from bench_api import Api  # noqa: E402

port, token, runs, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
api = Api(port, token)
data_root = "tests/data/workflows"


def render_pdf(pages, name):
    doc = ['<!DOCTYPE html><html><head><meta charset="utf-8"><style>.page{page-break-after:always}'
           '.page:last-child{page-break-after:auto}body{font-family:serif;font-size:11pt}</style>'
           '</head><body>']
    for p in pages:
        doc.append('<div class="page">' + "".join(
            "<p>" + "<br>".join(html.escape(l) for l in para.split("\n")) + "</p>"
            for para in p.split("\n\n")) + "</div>")
    doc.append("</body></html>")
    src, pdf = os.path.join(work, name + ".html"), os.path.join(work, name + ".pdf")
    open(src, "w", encoding="utf-8").write("".join(doc))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=tempfile.mkdtemp())
    env.pop("DISPLAY", None)
    subprocess.run(["wkhtmltopdf", "--quiet", "--page-size", "Letter", src, pdf], check=True,
                   env=env)
    return pdf


def upload(path):
    return api.upload(os.path.basename(path), open(path, "rb").read(), "application/pdf")


def summary(xs):
    xs = sorted(xs)
    return f"median={statistics.median(xs):.0f} min={xs[0]:.0f} max={xs[-1]:.0f}"


def prior_auth_history():
    history = []
    for i in range(8):
        history.append(f"""PROGRESS NOTE {i + 1} — {['January', 'February'][i % 2]} {3 + i}, 2025
    Subjective: Ms. Gonzalez reports ongoing low back pain with intermittent radiation to the left leg. Sleep is disturbed two to three nights a week. She continues her home exercise program and walks twenty minutes a day.
    Medications: naproxen 500 mg twice daily with food; omeprazole 20 mg daily; lisinopril 10 mg daily for hypertension.
    Physical therapy: session {i + 4} of 12 focused on core stabilisation, McKenzie extension exercises and nerve glides. Tolerated well; pain 6/10 before and 6/10 after the session.
    Vital signs: blood pressure 132/84, heart rate 76, temperature 36.8 C, weight 71 kg.
    Plan: continue therapy, reassess in one week, return precautions reviewed including new weakness, numbness in the groin, or loss of bladder control.""")
    return history


def talent_projects():
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
    return projects


def meet_required_criteria(packet):
    for c in packet["criteria"]:
        if c["required"]:
            c["status"] = {"value": "met", "source": None, "confidence": 1.0}
    return packet


CASES = [
    {"vertical": "healthcare", "workflow": "healthcare_prior_auth", "folder": "healthcare",
     "ten_pages": ("prior_auth_request.txt", prior_auth_history), "other": "payer_policy.pdf",
     "inputs": lambda other: {"policy_document_ids": [other]},
     "review": meet_required_criteria, "packet_type": "prior_auth"},
    {"vertical": "talent", "workflow": "talent_readiness", "folder": "talent",
     "ten_pages": ("resume_strong.txt", talent_projects), "other": "job_description.pdf",
     "inputs": lambda other: {"job_description_id": other},
     "review": None, "packet_type": "candidate"},
]


def bench(case):
    # The plugin was dropped into the running server's folder: wait until its routes answer.
    deadline = time.time() + 30
    while api.request("GET", f"/api/v1/workflows/{case['workflow']}/schema")[0] != 200:
        if time.time() > deadline:
            sys.exit(f"the {case['vertical']} plugin did not load")
        time.sleep(0.1)
    folder = os.path.join(data_root, case["folder"])
    text, extra = case["ten_pages"]
    first = open(os.path.join(folder, text), encoding="utf-8").read().split("<<PAGE BREAK>>")
    pages = [p.strip() for p in first] + extra()
    main_id = upload(render_pdf(pages, case["workflow"] + "10"))
    other_id = upload(os.path.join(folder, case["other"]))
    main_doc, other_doc = api.wait_doc(main_id), api.wait_doc(other_id)
    print(f"{case['workflow']}: input_pages={main_doc['pages']} status={main_doc['status']} "
          f"other_pages={other_doc['pages']}")

    to_review, packet_ms, render_ms = [], [], []
    runs_path = f"/api/v1/verticals/{case['vertical']}/runs"
    for _ in range(runs):
        t0 = time.perf_counter()
        status, run = api.request("POST", runs_path, {"workflow": case["workflow"],
                                               "document_ids": [main_id],
                                               "inputs": case["inputs"](other_id)})
        assert status == 202, run
        path = f"{runs_path}/{run['run_id']}"
        while True:
            _, run = api.request("GET", path)
            if run["status"] != "running":
                break
            time.sleep(0.005)
        to_review.append((time.perf_counter() - t0) * 1000)
        assert run["status"] == "pending_review", run
        if case["review"]:
            api.request("PUT", path + "/review", {"packet": case["review"](run["review_packet"])})
        api.request("POST", path + "/approve", {"confirm": True})
        t1 = time.perf_counter()
        status, out = api.request("POST", path + "/packets", {"packet_type": case["packet_type"]})
        assert status == 201, out
        packet_ms.append((time.perf_counter() - t1) * 1000)
        render_ms.append(out["render_ms"])
    print(f"{case['workflow']}: runs={runs} start_to_pending_review_ms {summary(to_review)}")
    print(f"{case['workflow']}: packets={runs} generate_request_ms {summary(packet_ms)} "
          f"render_ms {summary(render_ms)}")


for case in CASES:
    bench(case)
