"""Prepares bench/mcp/run.sh: opens an MCP session with the bench token, ingests a few
doc-corpus PDFs through the MCP upload tools (create_document_upload -> PUT -> complete ->
get_ingestion_status until embedded), and checks that both benchmarked calls succeed.
Prints one JSON line: {"session": ..., "get_document": <call body>, "search_knowledgebase": ...}.

Usage: setup_session.py <mcp url> <token> <pdf> [<pdf> ...]
"""

import json
import os
import sys
import time
import urllib.request

mcp_url, token, pdfs = sys.argv[1], sys.argv[2], sys.argv[3:]
session = None


def post(body):
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json",
               "Accept": "application/json, text/event-stream"}
    if session:
        headers["Mcp-Session-Id"] = session
        headers["MCP-Protocol-Version"] = "2025-06-18"
    request = urllib.request.Request(mcp_url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=120) as r:
        return r.headers.get("Mcp-Session-Id"), json.loads(r.read())


def call(name, arguments):
    body = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}
    result = post(body)[1]["result"]
    if result.get("isError"):
        raise SystemExit(f"{name} failed: {result['structuredContent']}")
    return body, result["structuredContent"]["result"]


session, _ = post({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "bench", "version": "1"}}})
docs = []
for path in pdfs:
    data = open(path, "rb").read()
    meta = {"filename": os.path.basename(path), "content_type": "application/pdf",
            "file_size": len(data)}
    _, upload = call("create_document_upload", meta)
    put = urllib.request.Request(upload["upload_url"], data, {"Content-Type": "application/pdf"},
                                 method="PUT")
    urllib.request.urlopen(put, timeout=60).read()
    call("complete_document_upload", {**meta, "doc_id": upload["doc_id"],
                                      "storage_source_path": upload["storage_source_path"]})
    docs.append(upload["doc_id"])

deadline = time.monotonic() + 300
for doc in docs:
    while True:
        status = call("get_ingestion_status", {"document_id": doc})[1]
        if status["done"]:
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"{doc} was not ingested in time")
        time.sleep(0.25)
    if status["status"] != "embedded":
        raise SystemExit(f"{doc} ended {status['status']}")

get_document, _ = call("get_document", {"document_id": docs[0]})
search, found = call("search_knowledgebase",
                     {"question": "How many bottles of water were delivered?"})
if not found["sources"]:
    raise SystemExit("search_knowledgebase found nothing")
print(json.dumps({"session": session, "documents": len(docs), "sources": len(found["sources"]),
                  "get_document": get_document, "search_knowledgebase": search}))
