"""Vertical extraction against the blind evaluation set (bench/extraction/run.sh starts the server
and drops the plugins in). For each case of the split: the case's document is uploaded and
embedded, the case's workflow run on it to `pending_review` (the same document fills the
workflow's required document input: the prior-auth policy, a job description case's job
description; a candidate case is read against tests/data/workflows/talent's sample job
description), and every
expected field scored by scoring.score_field. Prints, per workflow and overall, the fields,
`exact` (value right after normalisation; list fields by recall) and `exact_page` (right and
cited on the gold page of the case's document).

Usage: extraction_bench.py <port> <token> tune|report [--details] [workflow ...]
--details (tune only) prints every field with the value found; the report half is never printed
field by field, so that it cannot be tuned to by reading it.
"""

import json
import os
import sys
import time

sys.path.insert(0, "bench")
sys.path.insert(0, "bench/extraction")
from bench_api import Api  # noqa: E402
from scoring import empty, list_precision, score_field, value_of  # noqa: E402

ROOT = "tests/data/eval/workflows"
VERTICAL = {"lease_intelligence": "lease", "healthcare_prior_auth": "healthcare",
            "healthcare_clinical": "healthcare", "finance_tax_readiness": "finance",
            "talent_readiness": "talent", "employee_mobility": "talent"}
TYPES = {".txt": "text/plain", ".md": "text/markdown", ".pdf": "application/pdf",
         ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}


SAMPLE_JOB = "tests/data/workflows/talent/job_description.pdf"
sample_job_id = None


def inputs_for(api, workflow, doc_id, case):
    global sample_job_id
    if workflow == "healthcare_prior_auth":
        return {"policy_document_ids": [doc_id]}
    if workflow in ("talent_readiness", "employee_mobility"):
        # A job description case is its own job description; a candidate case is read against
        # the repository's sample job description (the run needs one with requirements).
        if any(path.startswith("requirements.") for path in case["fields"]):
            return {"job_description_id": doc_id}
        if sample_job_id is None:
            sample_job_id = api.upload(os.path.basename(SAMPLE_JOB), open(SAMPLE_JOB, "rb").read(),
                                       "application/pdf")
            api.wait_doc(sample_job_id)
        return {"job_description_id": sample_job_id}
    if workflow == "finance_tax_readiness":
        return {"client_name": "Evaluation client", "tax_year": 2024}
    return {}


def run_case(api, workflow, case):
    path = os.path.join(ROOT, workflow, case["file"])
    ext = os.path.splitext(path)[1]
    doc_id = api.upload(case["file"], open(path, "rb").read(), TYPES[ext])
    doc = api.wait_doc(doc_id)
    if doc["status"] != "embedded":
        return doc_id, None, f"document {doc['status']}"
    runs = f"/api/v1/verticals/{VERTICAL[workflow]}/runs"
    status, run = api.request("POST", runs, {"workflow": workflow, "document_ids": [doc_id],
                                             "inputs": inputs_for(api, workflow, doc_id, case)})
    if status != 202:
        return doc_id, None, f"start {status} {run}"
    deadline = time.time() + 120
    while run.get("status") in ("running", "queued", None) and time.time() < deadline:
        time.sleep(0.05)
        run = api.call("GET", f"{runs}/{run['run_id']}")
    if run.get("status") != "pending_review":
        return doc_id, None, f"run {run.get('status')} {run.get('error')}"
    return doc_id, run["review_packet"], None


def main():
    port, token, split = sys.argv[1], sys.argv[2], sys.argv[3]
    rest = sys.argv[4:]
    details = "--details" in rest
    only = [a for a in rest if not a.startswith("--")]
    if split not in ("tune", "report"):
        sys.exit("split: tune or report")
    if details and split != "tune":
        sys.exit("--details is for the tune half only")
    api = Api(port, token)
    deadline = time.time() + 30
    while api.request("GET", "/api/v1/workflows/talent_readiness/schema")[0] != 200:
        if time.time() > deadline:
            sys.exit("the plugins did not load")
        time.sleep(0.1)
    totals = {"fields": 0, "exact": 0.0, "exact_page": 0.0, "not_found": 0, "listed": [0, 0]}
    dump = {}
    for workflow in sorted(VERTICAL):
        if only and workflow not in only:
            continue
        cases = [c for c in json.load(open(os.path.join(ROOT, workflow, "cases.json")))
                 if c["split"] == split]
        # CASES_FROM=27 scores only the cases numbered from 27 on: one batch's figures (either
        # half; the report half still as numbers only).
        if os.environ.get("CASES_FROM"):
            cases = [c for c in cases
                     if int(c["id"].rsplit("-", 1)[1]) >= int(os.environ["CASES_FROM"])]
        n = exact = exact_page = 0.0
        # Fields with a gold value that came back empty: how many misses are "not found" rather
        # than a wrong value (a count, so the report half's failure mode reads as a number too).
        not_found = 0
        listed = [0, 0]  # list items matching a gold item, list items (list_precision)
        for case in cases:
            doc_id, packet, error = run_case(api, workflow, case)
            if details:
                print(f"  {case['id']} ({case['file']}){' ERROR ' + error if error else ''}")
                dump[case["id"]] = packet
            for path, entry in case["fields"].items():
                credit, page, got = score_field(packet or {}, path, entry, doc_id)
                if (share := list_precision(packet or {}, path, entry)) is not None:
                    listed = [listed[0] + share[0], listed[1] + share[1]]
                n += 1
                not_found += credit == 0 and not empty(entry["value"]) and (
                    got is None or empty(value_of(got)))
                exact += credit
                exact_page += credit if page else 0
                if details:
                    mark = "OK " if credit == 1 and page else ("val" if credit == 1 else "-- ")
                    if 0 < credit < 1:
                        mark = f"{credit:.2f}"
                    shown = json.dumps(got["value"] if isinstance(got, dict) and "value" in got
                                       else got, ensure_ascii=False)
                    print(f"    {mark} {path} want={json.dumps(entry['value'])[:90]} "
                          f"got={shown[:160]}")
        print(f"{workflow} split={split} cases={len(cases)} fields={int(n)} "
              f"exact={exact / max(n, 1):.3f} exact_page={exact_page / max(n, 1):.3f} "
              f"not_found={not_found} list_precision={listed[0] / max(listed[1], 1):.3f}",
              flush=True)
        totals["fields"] += int(n)
        totals["exact"] += exact
        totals["exact_page"] += exact_page
        totals["not_found"] += not_found
        totals["listed"] = [totals["listed"][0] + listed[0], totals["listed"][1] + listed[1]]
    f = max(totals["fields"], 1)
    print(f"overall split={split} fields={totals['fields']} exact={totals['exact'] / f:.3f} "
          f"exact_page={totals['exact_page'] / f:.3f} not_found={totals['not_found']} "
          f"list_precision={totals['listed'][0] / max(totals['listed'][1], 1):.3f}")
    if details and os.environ.get("PACKETS_OUT"):
        json.dump(dump, open(os.environ["PACKETS_OUT"], "w"), indent=1)


main()
