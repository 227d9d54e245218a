"""The docintel REST calls the Python benchmarks make (bench/ingest, bench/knowledge,
bench/workflows): JSON requests with the bench token, the direct-upload sequence, and waiting
for documents to finish ingestion. Import with `sys.path.insert(0, "bench")` from the repo root.
"""

import http.client
import json
import re
import subprocess
import time
import urllib.error
import urllib.request


class Api:
    def __init__(self, port, token):
        self.base = f"http://127.0.0.1:{port}"
        self.token = token

    def request(self, method, path, body=None, headers=None, url=None):
        """(status, JSON body); HTTP errors are returned, not raised."""
        payload = json.dumps(body).encode() if isinstance(body, dict) else body
        h = {"Content-Type": "application/json"}
        if url is None:  # a signed URL (the object store's) carries its own authorization
            h["Authorization"] = f"Bearer {self.token}"
        h.update(headers or {})
        req = urllib.request.Request(url or self.base + path, data=payload, method=method,
                                     headers=h)
        try:
            with urllib.request.urlopen(req) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"{}")

    def call(self, method, path, body=None, headers=None, url=None):
        """The JSON body of a successful request; raises on an HTTP error status."""
        status, out = self.request(method, path, body, headers, url)
        if status >= 400:
            raise RuntimeError(f"{method} {path or url}: {status} {out}")
        return out

    def upload(self, filename, data, content_type, workspace_id=None):
        """create → PUT to the signed URL → complete (into `workspace_id` when given); returns
        the document id."""
        where = {"workspace_id": workspace_id} if workspace_id else {}
        s = self.call("POST", "/api/v1/uploads", {"filename": filename,
                                                   "content_type": content_type,
                                                   "file_size": len(data), **where})
        self.call("PUT", None, data, {"Content-Type": content_type}, url=s["upload_url"])
        self.call("POST", "/api/v1/uploads/complete", {
            "filename": filename, "content_type": content_type, "file_size": len(data),
            "doc_id": s["doc_id"], "storage_source_path": s["storage_source_path"], **where})
        return s["doc_id"]

    def wait_doc(self, doc_id):
        """The document once it is embedded or failed."""
        while True:
            d = self.call("GET", f"/api/v1/documents/{doc_id}")
            if d["status"] in ("embedded", "error"):
                return d
            time.sleep(0.1)

    def ask(self, question, document_ids, workspace_id=None):
        """A grounded question through POST /api/v1/knowledge/query/stream: (the `sources`
        frame's sources, the `done` frame)."""
        where = {"workspace_id": workspace_id} if workspace_id else {}
        req = urllib.request.Request(
            self.base + "/api/v1/knowledge/query/stream", method="POST",
            data=json.dumps({"question": question, "document_ids": document_ids,
                             **where}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.token}"})
        sources, done = [], None
        with urllib.request.urlopen(req) as r:
            for line in r:
                if not line.startswith(b"data: "):
                    continue
                frame = json.loads(line[6:])
                if frame["type"] == "sources":
                    sources = frame["sources"]
                elif frame["type"] in ("done", "error"):
                    done = frame
        return sources, done

    def wait_all(self, doc_ids):
        """The document list once every one of `doc_ids` is embedded or failed. Follows the last
        uploaded document (jobs run about in upload order) before listing them all, so the
        polling costs the server little while it ingests."""
        self.wait_doc(doc_ids[-1])
        while True:
            listed = self.call("GET", "/api/v1/documents")["documents"]
            done = {d["id"] for d in listed if d["status"] in ("embedded", "error")}
            if done.issuperset(doc_ids):
                return [d for d in listed if d["id"] in done]
            time.sleep(0.5)


def ingest_report(log, documents, errors, wall, workers):
    """Prints documents/s, chunks/s and the share of the server's encoding threads' wall time spent
    inside the encoder (the last `encoder_busy_ms` of the `document_embedded` lines over wall time
    × `encoder_threads`; docs/decisions/0059); returns the number of chunks embedded."""
    busy_ms = chunks = calls = encoders = 0
    for line in open(log):
        if "event=document_embedded" in line:
            field = lambda name: int((re.search(rf" {name}=(\d+)", line) or [0, 0])[1])
            chunks += field("chunks")
            busy_ms = max(busy_ms, field("encoder_busy_ms"))
            calls = max(calls, field("encoder_calls"))
            encoders = max(encoders, field("encoder_threads"))
    share = busy_ms / 1000 / (wall * max(encoders, 1))
    print(f"documents={documents} errors={errors} chunks={chunks} wall_s={wall:.1f} "
          f"documents/s={documents / wall:.1f} chunks/s={chunks / wall:.1f} "
          f"worker_threads={workers} encoder_threads={encoders} encoder_calls={calls} "
          f"encoder_share={share:.0%} pipeline_overhead={1 - share:.0%}")
    return chunks


def encoder_alone(api, doc_ids, build_dir, model_dir, path):
    """Seconds the encoder alone (bench/encoder's encoder_bench, 2 threads, batch 32, one call)
    takes for the chunks of `doc_ids` as the server stored them: the baseline the ingestion's
    wall time is compared with. Writes the texts to `path` (one JSON string per line)."""
    with open(path, "w") as out:
        for doc_id in doc_ids:
            for c in api.call("GET", f"/api/v1/documents/{doc_id}/chunks")["chunks"]:
                out.write(json.dumps(c["text"]) + "\n")
    line = subprocess.run([f"{build_dir}/bench/encoder/encoder_bench", model_dir, "--threads",
                           "2", "--batches", "32", "--texts", path],
                          check=True, capture_output=True, text=True).stdout.split()
    return float(line[3])  # model batch chunks seconds chunks/s tokens/s


def stream_timings(port, path, body, headers):
    """POSTs `body` to an answer stream (server-sent events) and returns (ms to the `sources`
    frame, ms to the `done` frame); raises on an HTTP error or an `error` frame."""
    conn = http.client.HTTPConnection("127.0.0.1", int(port))
    t0 = time.perf_counter()
    conn.request("POST", path, json.dumps(body), headers)
    r = conn.getresponse()
    if r.status != 200:
        raise RuntimeError(f"{path}: {r.status} {r.read()[:300]}")
    to_sources = to_done = None
    while True:
        line = r.readline()
        if not line:
            break
        if not line.startswith(b"data: "):
            continue
        kind = json.loads(line[6:])["type"]
        now = (time.perf_counter() - t0) * 1000
        if kind == "sources" and to_sources is None:
            to_sources = now
        if kind in ("done", "error"):
            if kind == "error":
                raise RuntimeError(line)
            to_done = now
            break
    conn.close()
    return to_sources, to_done


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]

