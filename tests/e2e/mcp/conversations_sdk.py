"""The conversations plugin's MCP side with the official Python SDK (`mcp` from PyPI), a bearer
token minted by docintel-admin (issue 18, docs/conversations.md):

  start_conversation_recording (customer-intake) -> add_conversation_turn before consent refused
  (consent_required) -> confirm_conversation_consent -> three turns that fill the required fields,
  the prompt moving on after each -> finish_conversation_recording -> get_conversation_recording
  shows editable_transcript -> approve_conversation_transcript with one word edited (refused
  without confirm) -> get_conversation_recording polled until completed -> ask over the published
  document cites it -> the transcript resource read -> delete_conversation_recording (refused
  without confirm) -> get_document not found, search_knowledgebase finds nothing of it.

Exits non-zero on the first failed check.

Usage: MCP_URL=... REST_URL=... MCP_TOKEN=... REST_TOKEN=... conversations_sdk.py
"""

import asyncio
import json
import os

import httpx2

from sdk_checks import check, doc_ids_in, poll, refused, run, tool

TOOLS = {"start_conversation_recording", "confirm_conversation_consent", "add_conversation_turn",
         "finish_conversation_recording", "get_conversation_recording",
         "approve_conversation_transcript", "list_conversation_recordings",
         "delete_conversation_recording"}
RESOURCE = "docintel://conversations/{session_id}/transcript"
# The participant's turns: each answers the field the assistant asked for.
TURNS = [
    ("Hi, my name is Priya Sharma.", "participant_name", "request_summary"),
    ("I need help moving my pension to a new provider before March.", "request_summary",
     "preferred_follow_up"),
    ("Please email me at priya@example.com.", "preferred_follow_up", None),
]
# The reviewer's edit: one word of the second turn.
ORIGINAL_WORD, EDITED_WORD = "pension", "annuity"


async def session(client):
    tools = {t.name for t in (await client.list_tools()).tools}
    check(TOOLS <= tools, f"tools/list has the conversation tools ({sorted(TOOLS - tools)} missing)")
    check({"ask", "search_knowledgebase", "get_document"} <= tools,
          "tools/list has ask, search_knowledgebase and get_document")

    started = await tool(client, "start_conversation_recording", {
        "template_id": "customer-intake", "title": "Pension transfer intake",
        "language_code": "en-US"})
    sid, doc = started.get("session_id"), started.get("document_id")
    check(sid and doc, "start_conversation_recording gave a session and its document")
    check(started.get("consent_status") == "pending" and started.get("status") == "awaiting_consent",
          f"the session awaits consent ({started.get('consent_status')}, {started.get('status')})")
    required = sorted(f["key"] for f in started.get("template", {}).get("fields", [])
                      if f.get("required"))
    check(required == ["participant_name", "preferred_follow_up", "request_summary"],
          f"customer-intake requires participant_name, request_summary, preferred_follow_up "
          f"({required})")

    is_error, text = await refused(client, "add_conversation_turn",
                                   {"session_id": sid, "transcript": "Hello, can you hear me."})
    check(is_error and "consent_required" in text,
          f"a turn before consent is refused with consent_required ({text[:200]})")

    consent = await tool(client, "confirm_conversation_consent",
                         {"session_id": sid, "confirmed": True})
    check(consent.get("consent_status") == "confirmed", "consent confirmed")
    greeting = (consent.get("assistant") or {}).get("response", "")
    check("name" in greeting.lower(), f"the greeting asks for the participant's name ({greeting!r})")

    asked = "participant_name"
    for text, field, next_field in TURNS:
        out = await tool(client, "add_conversation_turn",
                         {"session_id": sid, "transcript": text, "speaker": "Priya"})
        assistant = out.get("assistant", {})
        collected = out.get("session_state", {}).get("collected_fields", {})
        check(field in collected and collected[field].get("value"),
              f"after {text!r} the state holds {field} ({json.dumps(collected)[:300]})")
        check(field in assistant.get("collected_fields", {}),
              f"the turn reports {field} as filled ({assistant.get('collected_fields')})")
        check(field not in assistant.get("missing_required_fields", []),
              f"{field} is no longer missing ({assistant.get('missing_required_fields')})")
        moved = assistant.get("next_question_field")
        check(moved != asked, f"the prompt moved on from {asked} (next: {moved})")
        if next_field:
            check(moved == next_field, f"the next question is about {next_field} ({moved})")
            check(not assistant.get("ready_to_finish"), "not ready to finish yet")
        asked = moved
    check(assistant.get("missing_required_fields") == [] and assistant.get("ready_to_finish") is True,
          f"after the third turn nothing required is missing and ready_to_finish is true "
          f"({assistant.get('missing_required_fields')}, {assistant.get('ready_to_finish')})")
    check(collected["participant_name"]["value"] == "Priya Sharma",
          f"participant_name is the name alone ({collected['participant_name']['value']!r})")
    check("priya@example.com" in collected["preferred_follow_up"]["value"],
          f"preferred_follow_up holds the e-mail ({collected['preferred_follow_up']['value']!r})")

    finished = await tool(client, "finish_conversation_recording", {"session_id": sid})
    check(finished.get("processing_status") == "in_review",
          f"finished: in review ({finished.get('processing_status')})")
    got = await tool(client, "get_conversation_recording", {"session_id": sid})
    editable = got.get("editable_transcript")
    check(isinstance(editable, str) and "Assistant: " in editable and
          "Priya: I need help moving my pension" in editable,
          f"get_conversation_recording shows the editable transcript ({str(editable)[:300]!r})")

    edited = editable.replace(ORIGINAL_WORD, EDITED_WORD, 1)
    check(edited != editable, "the reviewer changed one word")
    is_error, text = await refused(client, "approve_conversation_transcript",
                                   {"session_id": sid, "transcript": edited, "confirm": False})
    check(is_error and "confirmation_required" in text,
          f"approval without confirm is refused with confirmation_required ({text[:200]})")
    approved = await tool(client, "approve_conversation_transcript",
                          {"session_id": sid, "transcript": edited, "confirm": True})
    check(approved.get("review_status") == "approved", "approved")

    got = await poll(client, "get_conversation_recording", {"session_id": sid})
    check(got.get("processing_status") == "completed",
          f"published: completed ({got.get('processing_status')}, {got.get('error_message')})")
    check(got.get("published") is True and got.get("summary"), "published with a summary")

    document = await tool(client, "get_document", {"document_id": doc})
    check(document.get("status") == "embedded", f"the transcript document is embedded "
                                                f"({document.get('status')})")

    # A grounded answer over the published document cites it (retried: the index follows).
    answer = {}
    for _ in range(40):
        answer = await tool(client, "ask", {
            "question": "What does Priya need help moving to a new provider?",
            "document_ids": [doc]})
        if doc in doc_ids_in(answer.get("citations", [])):
            break
        await asyncio.sleep(0.5)
    check(doc in doc_ids_in(answer.get("citations", [])),
          f"ask cites the transcript's document ({json.dumps(answer)[:600]})")
    check(EDITED_WORD in json.dumps(answer),
          f"the answer quotes the reviewer's edited word {EDITED_WORD!r}")

    templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
    check(RESOURCE in templates, "resources/templates/list has the conversation transcript")
    read = await client.read_resource(f"docintel://conversations/{sid}/transcript")
    body = json.loads(read.contents[0].text)
    body = body.get("result", body)
    check(body.get("approved") is True and EDITED_WORD in body.get("transcript", "") and
          f"moving my {ORIGINAL_WORD}" not in body.get("transcript", ""),
          "the transcript resource reads the approved, edited transcript")

    listed = await tool(client, "list_conversation_recordings", {})
    check(sid in [s.get("session_id") for s in listed.get("sessions", [])],
          "list_conversation_recordings lists the session")

    found = await tool(client, "search_knowledgebase", {"question": f"{EDITED_WORD} provider"})
    check(doc in doc_ids_in(found.get("sources", [])),
          f"search_knowledgebase finds {EDITED_WORD!r} in the transcript")

    is_error, text = await refused(client, "delete_conversation_recording",
                                   {"session_id": sid, "confirm": False})
    check(is_error and "confirmation_required" in text,
          f"delete without confirm is refused with confirmation_required ({text[:200]})")
    deleted = await tool(client, "delete_conversation_recording",
                         {"session_id": sid, "confirm": True})
    check(deleted.get("deleted") is True, "delete_conversation_recording deleted it")

    is_error, text = await refused(client, "get_document", {"document_id": doc})
    check(is_error and "not_found" in text, f"get_document of the transcript: not found ({text[:200]})")
    async with httpx2.AsyncClient(timeout=60) as plain:
        r = await plain.get(f"{os.environ['REST_URL']}/api/v1/documents/{doc}",
                            headers={"Authorization": f"Bearer {os.environ['REST_TOKEN']}"})
    check(r.status_code == 404, f"GET /api/v1/documents/{{id}} of the transcript: 404 ({r.status_code})")
    is_error, text = await refused(client, "get_conversation_recording", {"session_id": sid})
    check(is_error and "not_found" in text, "get_conversation_recording of a deleted session: not found")
    found = await tool(client, "search_knowledgebase", {"question": f"{EDITED_WORD} provider"})
    check(doc not in doc_ids_in(found.get("sources", [])),
          "search_knowledgebase finds nothing of the deleted transcript")


if __name__ == "__main__":
    asyncio.run(run(session))
