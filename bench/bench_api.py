"""The docintel REST calls the Python benchmarks make (bench/ingest, bench/knowledge,
bench/workflows): JSON requests with the bench token, the direct-upload sequence, and waiting
for documents to finish ingestion. Import with `sys.path.insert(0, "bench")` from the repo root.
"""

import json
import re
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
        h = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
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

    def upload(self, filename, data, content_type):
        """create → PUT to the signed URL → complete; returns the document id."""
        s = self.call("POST", "/api/v1/uploads", {"filename": filename,
                                                   "content_type": content_type,
                                                   "file_size": len(data)})
        self.call("PUT", None, data, {"Content-Type": content_type}, url=s["upload_url"])
        self.call("POST", "/api/v1/uploads/complete", {
            "filename": filename, "content_type": content_type, "file_size": len(data),
            "doc_id": s["doc_id"], "storage_source_path": s["storage_source_path"]})
        return s["doc_id"]

    def wait_doc(self, doc_id):
        """The document once it is embedded or failed."""
        while True:
            d = self.call("GET", f"/api/v1/documents/{doc_id}")
            if d["status"] in ("embedded", "error"):
                return d
            time.sleep(0.05)

    def wait_all(self, count):
        """The document list once `count` documents are embedded or failed."""
        while True:
            listed = self.call("GET", "/api/v1/documents")["documents"]
            if sum(d["status"] in ("embedded", "error") for d in listed) >= count:
                return listed
            time.sleep(0.5)


def ingest_report(log, documents, errors, wall, workers):
    """Prints documents/s, chunks/s and the share of the workers' time spent inside the encoder
    (the `encode_ms` of the server's `document_embedded` lines over wall time × workers);
    returns the number of chunks embedded."""
    encode_ms = chunks = 0
    for line in open(log):
        if "event=document_embedded" in line:
            encode_ms += int(re.search(r"encode_ms=(\d+)", line).group(1))
            chunks += int(re.search(r"chunks=(\d+)", line).group(1))
    share = encode_ms / 1000 / (wall * workers)
    print(f"documents={documents} errors={errors} chunks={chunks} wall_s={wall:.1f} "
          f"documents/s={documents / wall:.1f} chunks/s={chunks / wall:.1f} "
          f"worker_threads={workers} encoder_share={share:.0%} pipeline_overhead={1 - share:.0%}")
    return chunks
