"""The reviewer console's page times (bench/console/run.sh starts the server with the
healthcare plugin and a user holding the console's scopes).

1. A team workspace gets the healthcare samples (prior-authorization request and payer policy)
   and one real healthcare_prior_auth run, which reaches pending_review.
2. That run and its review task are copied in SQL (psql on DOCINTEL_DATABASE_URL) until the
   workspace holds N runs: 60 % pending_review, then approved, changes_requested and failed,
   with distinct creation times, each pending one with an open task.
3. The user signs in to the console (the real PKCE sign-in through /authorize), and each page is
   fetched REPEAT times after two warm-up fetches, one request at a time on one kept-alive
   connection: the inbox (`/console?workspace=`), the counts JSON the inbox polls, the run page,
   the run page with a field's evidence (page image boxes), and page images — the first
   request of each page renders it (cold), later ones come from the cache.

Figures: the server's own time per request (`duration_ms` of its `http_request` log line) and
the client's wall time, as median and p95.

Usage: console_bench.py <port> <token> <email> <work dir> <runs in workspace> <repeat>
"""

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, "bench")
from bench_api import Api  # noqa: E402

port, token, email, work = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
n_runs, repeat = int(sys.argv[5]), int(sys.argv[6])
api = Api(port, token)
log_path = os.path.join(work, "server.log")
database = os.environ.get("DOCINTEL_DATABASE_URL", "")


def psql(sql):
    return subprocess.run(["psql", database, "-qAtc", sql], check=True, capture_output=True,
                          text=True).stdout.strip()


def wait_plugin():
    for _ in range(200):
        status, _ = api.request("GET", "/api/v1/workflows/healthcare_prior_auth/schema")
        if status == 200:
            return
        time.sleep(0.1)
    raise RuntimeError("the healthcare plugin did not load")


def seed():
    wait_plugin()
    ws = api.call("POST", "/api/v1/workspaces", {"name": "Console bench"})["id"]
    headers = {"X-DocIntel-Workspace-ID": ws}
    docs = []
    for name in ("prior_auth_request.pdf", "payer_policy.pdf"):
        data = open(f"tests/data/workflows/healthcare/{name}", "rb").read()
        docs.append(api.wait_doc(api.upload(name, data, "application/pdf", ws))["id"])
    run = api.call("POST", "/api/v1/verticals/healthcare/runs",
                   {"workflow": "healthcare_prior_auth", "document_ids": [docs[0]],
                    "inputs": {"policy_document_ids": [docs[1]]}}, headers)
    run_id = run["run_id"]
    while True:
        r = api.call("GET", f"/api/v1/verticals/healthcare/runs/{run_id}", headers=headers)
        if r["status"] != "running":
            break
        time.sleep(0.1)
    assert r["status"] == "pending_review", r["status"]
    copies = n_runs - 1
    psql(f"""
        CREATE TEMP TABLE src AS SELECT * FROM workflow_runs WHERE id = '{run_id}';
        CREATE TEMP TABLE made AS
          SELECT g, gen_random_uuid() AS id,
                 CASE WHEN g % 10 < 6 THEN 'pending_review' WHEN g % 10 < 8 THEN 'approved'
                      WHEN g % 10 < 9 THEN 'changes_requested' ELSE 'failed' END AS status
          FROM generate_series(1, {copies}) g;
        INSERT INTO workflow_runs
          SELECT (json_populate_record(ROW(src.*)::workflow_runs,
                    json_build_object('id', made.id, 'status', made.status,
                                      'created_at', now() - made.g * interval '1 minute'))).*
          FROM src, made;
        CREATE TEMP TABLE task AS SELECT * FROM review_tasks WHERE run_id = '{run_id}';
        INSERT INTO review_tasks
          SELECT (json_populate_record(ROW(task.*)::review_tasks,
                    json_build_object('id', gen_random_uuid(), 'run_id', made.id,
                                      'created_at', now() - made.g * interval '1 minute'))).*
          FROM task, made WHERE made.status = 'pending_review';
    """)
    held = psql(f"SELECT count(*) FROM workflow_runs WHERE workspace_id = '{ws}'")
    tasks = psql(f"SELECT count(*) FROM review_tasks WHERE workspace_id = '{ws}'")
    print(f"workspace {ws}: {held} runs, {tasks} review tasks")
    return ws, run_id, r


class Browser:
    """One kept-alive connection with the console's cookies."""

    def __init__(self):
        self.conn = http.client.HTTPConnection("127.0.0.1", int(port))
        self.cookies = {}

    def send(self, method, path, body=None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            body = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.perf_counter()
        self.conn.request(method, path, body=body, headers=headers)
        r = self.conn.getresponse()
        data = r.read()
        wall = (time.perf_counter() - started) * 1000
        for k, v in r.getheaders():
            if k.lower() == "set-cookie":
                name, value = v.split(";", 1)[0].split("=", 1)
                self.cookies[name] = value
        return r.status, r.getheader("Location", ""), data, wall


def sign_in(b):
    status, location, _, _ = b.send("GET", "/console/login")
    assert status == 303, status
    status, _, page, _ = b.send("GET", location)
    csrf = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    status, location, _, _ = b.send("POST", "/authorize/login", {
        "email": email, "password": "bench-password", "csrf_token": csrf})
    assert status == 303, status
    status, location, _, _ = b.send("GET", location[location.index("/console/callback"):])
    assert status == 303 and location == "/console", (status, location)


def server_times(offset, path):
    """duration_ms of the http_request lines for `path` written after `offset`."""
    out = []
    with open(log_path, "rb") as f:
        f.seek(offset)
        for line in f.read().decode(errors="replace").splitlines():
            if "event=http_request" in line and f"path={path} " in line:
                out.append(float(re.search(r"duration_ms=([0-9.]+)", line).group(1)))
    return out


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def measure(b, label, path, times):
    for _ in range(2):
        b.send("GET", path)
    offset = os.path.getsize(log_path)
    walls = []
    for _ in range(times):
        status, _, _, wall = b.send("GET", path)
        assert status == 200, (path, status)
        walls.append(wall)
    time.sleep(0.2)
    server = server_times(offset, urllib.parse.urlsplit(path).path)[-times:]
    print(f"{label:<34} server median {statistics.median(server):7.1f} ms  p95 {p95(server):7.1f}"
          f" | client median {statistics.median(walls):7.1f} ms  p95 {p95(walls):7.1f}"
          f"  (n={times})")


def page_images(b, document_id, pages):
    cold, warm = [], []
    for page in pages:
        path = f"/console/documents/{document_id}/pages/{page}.png"
        offset = os.path.getsize(log_path)
        status, _, data, _ = b.send("GET", path)
        assert status == 200 and data[:4] == b"\x89PNG", status
        time.sleep(0.05)
        cold += server_times(offset, path)
        offset = os.path.getsize(log_path)
        for _ in range(5):
            b.send("GET", path)
        time.sleep(0.05)
        warm += server_times(offset, path)
    print(f"{'page image, first render':<34} server median {statistics.median(cold):7.1f} ms  "
          f"max {max(cold):7.1f} (n={len(cold)} pages)")
    print(f"{'page image, cached':<34} server median {statistics.median(warm):7.1f} ms  "
          f"p95 {p95(warm):7.1f} (n={len(warm)})")


ws, run_id, run = seed()
b = Browser()
sign_in(b)
field = "/patient/member_id"
measure(b, "inbox (pending_review, 1st page)", f"/console?workspace={ws}", repeat)
measure(b, "inbox (any status)", f"/console?workspace={ws}&status=any", repeat)
measure(b, "inbox counts (JSON)", f"/console/counts?workspace={ws}", repeat)
measure(b, "run page", f"/console/runs/{run_id}", repeat)
measure(b, "run page with evidence", f"/console/runs/{run_id}?field={field}", repeat)
request_doc = run["document_ids"][0]
policy_doc = run["inputs"]["policy_document_ids"][0]
pages = json.loads(psql(f"SELECT json_build_array((SELECT pages FROM documents WHERE id = "
                        f"'{request_doc}'), (SELECT pages FROM documents WHERE id = "
                        f"'{policy_doc}'))"))
page_images(b, request_doc, range(1, (pages[0] or 1) + 1))
page_images(b, policy_doc, range(1, (pages[1] or 1) + 1))
