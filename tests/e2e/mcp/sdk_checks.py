"""What the MCP SDK end-to-end scripts (sdk_smoke.py, learning_sdk.py, video_sdk.py,
conversations_sdk.py) share: numbered checks that stop at the first failure, tool calls whose
JSON result is returned, polling a status tool, and the documents a result names."""

import asyncio
import json
import os
import time

checks = 0


def check(condition, what):
    """Prints "ok N - what", or stops the script with "FAILED: what"."""
    global checks
    if not condition:
        raise SystemExit(f"FAILED: {what}")
    checks += 1
    print(f"ok {checks} - {what}", flush=True)


def payload(call):
    """The JSON a tool call returned: structuredContent's `result` (or structuredContent
    itself), else the JSON of the first text block."""
    structured = call.structured_content
    if isinstance(structured, dict):
        return structured.get("result", structured)
    for block in call.content or []:
        text = getattr(block, "text", None)
        if text:
            try:
                data = json.loads(text)
            except ValueError:
                return {"text": text}
            return data.get("result", data) if isinstance(data, dict) else data
    return None


def error_text(call):
    parts = [getattr(b, "text", "") for b in (call.content or [])]
    return (json.dumps(call.structured_content) if call.structured_content else "") + " ".join(parts)


async def tool(client, name, args):
    """Calls the tool (arguments that are None left out); a tool error stops the script."""
    args = {k: v for k, v in args.items() if v is not None}
    call = await client.call_tool(name, args)
    if call.is_error:
        raise SystemExit(f"FAILED: {name}({json.dumps(args)[:300]}) -> {error_text(call)[:600]}")
    return payload(call)


async def poll(client, name, args, field="processing_status", finals=("completed", "error"),
               seconds=240):
    """Calls the tool until its result's `field` is one of `finals` or `seconds` have passed;
    returns the last result."""
    deadline = time.monotonic() + seconds
    got = {}
    while time.monotonic() < deadline:
        got = await tool(client, name, args)
        if got.get(field) in finals:
            break
        await asyncio.sleep(0.3)
    return got


def doc_ids_in(value):
    """Every `document_id` in a JSON value."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "document_id" and isinstance(v, str):
                out.append(v)
            else:
                out.extend(doc_ids_in(v))
    elif isinstance(value, list):
        for v in value:
            out.extend(doc_ids_in(v))
    return out


async def refused(client, name, args):
    """Calls the tool expecting an error: (is_error, the error's text)."""
    call = await client.call_tool(name, args)
    return call.is_error, error_text(call)


async def run(session, *args, token_env="MCP_TOKEN"):
    """Opens an MCP session with the official SDK at $MCP_URL (bearer token from `token_env`),
    runs `session(client, *args)`, leaves the session cleanly and prints the outcome."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async with httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {os.environ[token_env]}"},
            timeout=httpx2.Timeout(30, read=300)) as http:
        async with Client(streamable_http_client(os.environ["MCP_URL"], http_client=http)) as client:
            check(client.server_info.name == "docintel", "session initialized")
            try:
                await session(client, *args)
            except SystemExit as failed:  # leave the session cleanly, then report
                failure = str(failed)
            else:
                failure = None
    summary(failure)


def summary(failure):
    """Prints the outcome and exits non-zero after a failure."""
    import sys
    if failure:
        print(failure, flush=True)
        print(f"{checks} passed, 1 failed")
        sys.exit(1)
    print(f"{checks} passed, 0 failed")
