"""An MCP session with the official Python SDK (`mcp` from PyPI) against docintel-server that
starts with NO token, as an interactive client would:

  401 + WWW-Authenticate resource_metadata -> protected-resource metadata -> authorization-server
  metadata -> dynamic client registration -> PKCE authorization through the login, e-mail code
  and consent pages (Playwright driving Debian chromium; the code comes from an SMTP server this
  script runs on loopback) -> a token for the MCP resource, all done by the SDK's
  OAuthClientProvider.

Then, with that token: initialize, tools/list, create_document_upload, PUT the bytes of a
doc-corpus PDF to the signed URL, complete_document_upload, poll get_ingestion_status, read the
chunks and the docintel:// resource, `ask` with a cited answer, and a healthcare prior-
authorization workflow over the two uploaded sample PDFs: start, save a review, approve with
confirm, generate the prior_auth packet (a new document). Exits non-zero on the first failed
check.

Usage: MCP_URL=... USER_EMAIL=... USER_PASSWORD=... SMTP_PORT=... \
       sdk_smoke.py <doc-corpus pdf> <prior_auth_request.pdf> <payer_policy.pdf>
"""

import asyncio
import base64
import json
import os
import re
import sys
import time
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken
from playwright.async_api import async_playwright

import sdk_checks
from sdk_checks import check

EXPECTED_TOOLS = {
    "list_workspaces", "list_documents", "get_document", "create_document_upload",
    "complete_document_upload", "get_ingestion_status", "get_document_chunks",
    "embed_document", "delete_document", "search_knowledgebase", "ask",
    "list_vertical_workflows", "start_vertical_workflow", "get_vertical_run",
    "save_vertical_review", "approve_vertical_run", "generate_vertical_packet",
}
# Intercepted by the browser (never listened on): the OAuth client's loopback redirect target.
CALLBACK = "http://127.0.0.1:47999/callback"

# ---- a loopback SMTP server that keeps what it receives (the sign-in e-mail codes) ----------
class Smtp:
    def __init__(self):
        self.messages = []

    async def start(self, port):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", port)

    async def _serve(self, reader, writer):
        writer.write(b"220 e2e-smtp ESMTP\r\n")
        message, in_data = [], False
        while line := await reader.readline():
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            if in_data:
                if text == ".":
                    in_data = False
                    self.messages.append("\n".join(message))
                    message = []
                    writer.write(b"250 queued\r\n")
                else:
                    message.append(text)
                continue
            verb = text[:4].upper()
            if verb in ("EHLO", "HELO"):
                writer.write(b"250 e2e-smtp\r\n")
            elif verb == "DATA":
                in_data = True
                writer.write(b"354 go ahead\r\n")
            elif verb == "QUIT":
                writer.write(b"221 bye\r\n")
                break
            else:
                if verb == "RCPT":
                    message.append(text)
                writer.write(b"250 ok\r\n")
            await writer.drain()
        writer.close()

    async def code_for(self, to, after, timeout=15):
        """The 6-digit code of the newest message to `to` among those after the first `after`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in reversed(self.messages[after:]):
                code = re.search(r"sign-in code is ([0-9]{6})", m)
                if code and to in m:
                    return code.group(1)
            await asyncio.sleep(0.1)
        raise SystemExit("FAILED: no sign-in e-mail arrived")


class MemoryStorage:
    """The SDK's TokenStorage: nothing is stored, the session starts with no token."""

    def __init__(self):
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


class BrowserSignIn:
    """The provider's redirect and callback handlers: a person signing in, played by chromium."""

    def __init__(self, browser, smtp, email, password):
        self.browser, self.smtp, self.email, self.password = browser, smtp, email, password
        self.authorization_url = None
        self.redirected = None

    async def redirect(self, url):
        self.authorization_url = url
        page = await self.browser.new_page()
        try:
            callback = asyncio.get_running_loop().create_future()

            async def at_callback(route):
                if not callback.done():
                    callback.set_result(route.request.url)
                await route.fulfill(status=200, content_type="text/html", body="<p>signed in</p>")

            await page.route(lambda u: u.startswith(CALLBACK), at_callback)
            await page.goto(url)
            await page.wait_for_selector("#email")
            await page.fill("#email", self.email)
            await page.fill("#password", self.password)
            mails = len(self.smtp.messages)
            await page.click("#sign-in")
            await page.wait_for_selector("#code")
            code = await self.smtp.code_for(self.email, mails)
            check(True, "login page accepted the password and asked for the e-mail code")
            await page.fill("#code", code)
            await page.click("#verify")
            await page.wait_for_selector("#approve")
            scopes = await page.text_content("#scopes")
            check("documents:write" in scopes and "workflows:write" in scopes,
                  "consent page lists the requested scopes")
            await page.click("#approve")
            self.redirected = await asyncio.wait_for(callback, 30)
        finally:
            await page.close()

    async def callback(self):
        q = parse_qs(urlparse(self.redirected).query)
        check("code" in q, "consent redirected back to the client with a code")
        return AuthorizationCodeResult(code=q["code"][0], state=q.get("state", [None])[0],
                                       iss=q.get("iss", [None])[0])


def jwt_claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def result_of(call):
    """The `result` of a successful tool call whose text block holds the same JSON."""
    if call.is_error:
        raise SystemExit(f"FAILED: tool error {call.content[0].text if call.content else ''}")
    structured = call.structured_content
    if json.loads(call.content[0].text) != structured:
        raise SystemExit("FAILED: the text block does not hold the structuredContent JSON")
    return structured["result"]


async def upload(client, path):
    """create_document_upload -> PUT to the signed URL (no token) -> complete_document_upload."""
    data = open(path, "rb").read()
    name = os.path.basename(path)
    session = result_of(await client.call_tool("create_document_upload", {
        "filename": name, "content_type": "application/pdf", "file_size": len(data)}))
    check({"doc_id", "upload_url", "storage_source_path"} <= set(session),
          f"create_document_upload {name}: doc_id, upload_url, storage_source_path")
    async with httpx2.AsyncClient(timeout=60) as plain:
        put = await plain.put(session["upload_url"], content=data,
                              headers={"Content-Type": "application/pdf"})
    check(put.status_code == 200, f"PUT of {len(data)} bytes to the signed URL ({put.status_code})")
    done = result_of(await client.call_tool("complete_document_upload", {
        "doc_id": session["doc_id"], "filename": name, "content_type": "application/pdf",
        "file_size": len(data), "storage_source_path": session["storage_source_path"]}))
    check(done["detected_type"] == "pdf", f"complete_document_upload {name} sniffed a PDF")
    return session["doc_id"]


async def until_ingested(client, doc_id, name):
    deadline = time.monotonic() + 240
    status = {}
    while time.monotonic() < deadline:
        status = result_of(await client.call_tool("get_ingestion_status", {"document_id": doc_id}))
        if status["done"]:
            break
        await asyncio.sleep(0.25)
    check(status.get("status") == "embedded", f"{name}: ingestion ended embedded ({status.get('status')})")
    return status


async def session(client, http_log, mcp_url, pdf_path, request_pdf, policy_pdf):
    check(client.protocol_version in ("2025-06-18", "2025-11-25", "2025-03-26"),
          f"initialized with protocol {client.protocol_version}")
    check(client.server_info.name == "docintel", "server identifies as docintel")

    tools = {t.name: t for t in (await client.list_tools()).tools}
    check(EXPECTED_TOOLS <= set(tools), "tools/list has the document, knowledge and workflow tools")
    check(tools["create_document_upload"].input_schema["required"] == ["filename", "file_size"],
          "create_document_upload takes the REST upload schema")

    memo = await upload(client, pdf_path)
    request_doc = await upload(client, request_pdf)
    policy_doc = await upload(client, policy_pdf)
    status = await until_ingested(client, memo, os.path.basename(pdf_path))
    await until_ingested(client, request_doc, "prior_auth_request.pdf")
    await until_ingested(client, policy_doc, "payer_policy.pdf")

    chunks = result_of(await client.call_tool("get_document_chunks", {"document_id": memo}))
    check(chunks["count"] > 0 and chunks["chunks"][0]["page"] >= 1, "chunks with pages")

    resource = await client.read_resource(f"docintel://documents/{memo}")
    document = json.loads(resource.contents[0].text)
    check(document["status"] == "embedded" and document["pages"] == status["pages"],
          "docintel://documents/{id} reads the same document")

    # ---- a cited answer (asked the moment the memo is embedded: a question naming it catches
    # the node's index up first)
    answer = result_of(await client.call_tool("ask", {
        "question": "How many bottles of water were delivered?", "document_ids": [memo]}))
    print(f"   ask: {answer['answer'][:200]!r}", flush=True)
    check(not answer.get("refused") and "20,000" in answer["answer"],
          "ask answers from the memo (20,000 bottles)")
    check(len(answer["citations"]) > 0 and re.search(r"\[[0-9]+\]", answer["answer"])
          and all(s["document_id"] == memo for s in answer["sources"]),
          f"the answer is cited [n] to the memo ({len(answer['citations'])} citations)")

    # ---- a prior-authorization workflow over the two uploaded samples
    catalog = result_of(await client.call_tool("list_vertical_workflows", {}))["catalog"]
    check(any(w["workflow"] == "healthcare_prior_auth" for w in catalog),
          "the healthcare plugin's prior authorization is in the catalog")
    started = result_of(await client.call_tool("start_vertical_workflow", {
        "workflow": "healthcare_prior_auth", "workspace_id": None, "document_ids": [request_doc],
        "inputs": {"policy_document_ids": [policy_doc]}}))
    run_id = started["run_id"]
    deadline = time.monotonic() + 120
    run = started
    while time.monotonic() < deadline:
        run = result_of(await client.call_tool("get_vertical_run",
                                               {"vertical": "healthcare", "run_id": run_id}))
        if run.get("status") != "running":
            break
        await asyncio.sleep(0.25)
    check(run.get("status") == "pending_review" and isinstance(run.get("review_packet"), dict),
          f"start_vertical_workflow ran to pending_review ({run.get('status')})")

    edited = run["review_packet"]
    for c in edited["criteria"]:
        if c["status"]["value"] != "met":
            c["status"] = {"value": "met", "source": None, "confidence": 1.0}
    edited["patient"]["member_id"]["value"] = "HPX-448-20932"
    saved = result_of(await client.call_tool("save_vertical_review", {
        "vertical": "healthcare", "run_id": run_id, "packet": edited, "notes": "checked by sdk_smoke"}))
    check(saved["review_packet"]["patient"]["member_id"]["value"] == "HPX-448-20932",
          "save_vertical_review keeps the reviewer's edit")

    unconfirmed = await client.call_tool("approve_vertical_run", {"vertical": "healthcare", "run_id": run_id})
    check(unconfirmed.is_error
          and unconfirmed.structured_content["error"]["code"] == "confirmation_required",
          "approve_vertical_run without confirm is refused")
    approved = result_of(await client.call_tool("approve_vertical_run", {
        "vertical": "healthcare", "run_id": run_id, "notes": "approved", "confirm": True}))
    check(approved["status"] == "approved", "approve_vertical_run with confirm approves the run")

    packet = result_of(await client.call_tool("generate_vertical_packet", {
        "vertical": "healthcare", "run_id": run_id, "packet_type": "prior_auth"}))
    packet_doc = (packet.get("document") or {}).get("doc_id")
    check(bool(packet_doc), "generate_vertical_packet made the prior_auth packet document")
    doc = result_of(await client.call_tool("get_document", {"document_id": packet_doc}))
    check(doc["document_id"] == packet_doc, "the packet is a document the caller can read")

    refused = await client.call_tool("delete_document", {"document_id": memo})
    check(refused.is_error and refused.structured_content["error"]["code"] == "confirmation_required",
          "delete_document without confirm is refused")


async def main(pdf_path, request_pdf, policy_pdf):
    url = os.environ["MCP_URL"]
    email, password = os.environ["USER_EMAIL"], os.environ["USER_PASSWORD"]
    smtp = Smtp()
    await smtp.start(int(os.environ["SMTP_PORT"]))

    # Every HTTP exchange of the SDK's client (the OAuth flow's included), in order.
    http_log = []

    async def on_response(response):
        http_log.append((response.request.method, str(response.request.url), response.status_code,
                         response.headers.get("www-authenticate", "")))

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        try:
            person = BrowserSignIn(browser, smtp, email, password)
            storage = MemoryStorage()
            auth = OAuthClientProvider(
                server_url=url,
                client_metadata=OAuthClientMetadata(
                    client_name="docintel sdk_smoke (Python MCP SDK)", redirect_uris=[CALLBACK],
                    grant_types=["authorization_code", "refresh_token"], response_types=["code"],
                    token_endpoint_auth_method="none"),
                storage=storage, redirect_handler=person.redirect, callback_handler=person.callback)
            async with httpx2.AsyncClient(auth=auth, timeout=httpx2.Timeout(30, read=300),
                                          event_hooks={"response": [on_response]}) as http:
                async with Client(streamable_http_client(url, http_client=http)) as client:
                    # The OAuth discovery and sign-in happened inside initialize.
                    for method, u, status, _ in http_log:
                        print(f"   {method} {u.split('?')[0]} -> {status}", flush=True)
                    first = http_log[0]
                    check(first[0] == "POST" and first[1] == url and first[2] == 401
                          and "resource_metadata=" in first[3],
                          "the first MCP request, without a token, is 401 with resource_metadata")
                    prm_url = re.search(r'resource_metadata="([^"]+)"', first[3]).group(1)
                    paths = [(m, urlparse(u).path, s // 100) for m, u, s, _ in http_log]
                    sequence = [("GET", urlparse(prm_url).path, 2),
                                ("GET", "/.well-known/oauth-authorization-server", 2),
                                ("POST", "/register", 2), ("POST", "/token", 2),
                                ("POST", urlparse(url).path, 2)]
                    positions = [paths.index(p) if p in paths else -1 for p in sequence]
                    check(all(p > 0 for p in positions) and positions == sorted(positions),
                          "then protected-resource metadata -> AS metadata -> registration -> "
                          "token -> the MCP request again, now answered")
                    check(storage.client_info is not None
                          and storage.client_info.client_id.startswith("dic_"),
                          "dynamic registration gave a public client id")
                    q = parse_qs(urlparse(person.authorization_url).query)
                    check(q.get("code_challenge_method") == ["S256"] and q.get("resource") == [url],
                          "the authorization request used PKCE S256 for the MCP resource")
                    claims = jwt_claims(storage.tokens.access_token)
                    check(claims.get("aud") in (url, [url]), "the access token's audience is the MCP URL")
                    await session(client, http_log, url, pdf_path, request_pdf, policy_pdf)
        finally:
            await browser.close()
    smtp.server.close()
    print(f"{sdk_checks.checks} passed, 0 failed")


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
