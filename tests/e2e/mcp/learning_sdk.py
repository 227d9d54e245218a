"""The learning plugin's MCP side with the official Python SDK (`mcp` from PyPI), a bearer token
minted by docintel-admin (no OAuth dance; sdk_smoke.py covers that):

  a team workspace (REST) -> two documents uploaded through the MCP upload tools (a doc-corpus
  article about the footballer Iwan Roberts, and a short text about photosynthesis) ->
  create_learning_course -> save_learning_curriculum (two modules, ids back) ->
  attach_learning_content (one document a module) -> ask_learning_tutor (answered from module 1
  with sources in scope, a birth date the core's answerer finds in the article; a question only module 2's document answers refused in module 1) ->
  generate_learning_artifact for each of the five types over module 1 (every item cites a
  document of the scope) -> the generated quiz taken over REST -> get_learning_progress -> the
  three resource templates listed and read, and a student kept out of the teacher's artifact.

Exits non-zero on the first failed check.

Usage: MCP_URL=... REST_URL=... TEACHER_EMAIL=... STUDENT_EMAIL=... TEACHER_MCP_TOKEN=...
       TEACHER_REST_TOKEN=... STUDENT_MCP_TOKEN=... STUDENT_REST_TOKEN=...
       learning_sdk.py <norwich-city.txt>
"""

import asyncio
import json
import os
import sys
import time

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from sdk_checks import check, doc_ids_in, error_text, summary, tool

PHOTOSYNTHESIS = (
    "Photosynthesis in the Verdant Valley Laboratory\n\n"
    "Photosynthesis is the process by which green plants convert light energy into chemical "
    "energy stored in sugar. Chlorophyll is the green pigment that absorbs red and blue light "
    "inside the chloroplasts. In 1779 the Dutch physician Jan Ingenhousz showed that plants "
    "release oxygen only in sunlight. The botanist Miriam Okonkwo measured a record "
    "photosynthesis rate of 42 micromoles of carbon per square metre per second in sugarcane "
    "leaves at the Verdant Valley Laboratory in 2011.\n")
REFUSAL = "The provided documents don't contain this information."
TOOLS = {"create_learning_course", "save_learning_curriculum", "attach_learning_content",
         "ask_learning_tutor", "generate_learning_artifact", "get_learning_progress"}
TYPES = ["summary", "study_guide", "key_concepts", "flashcards", "practice_questions"]
def rest(method, path, token, body=None, ws=None):
    headers = {"Authorization": f"Bearer {token}"}
    if ws:
        headers["X-DocIntel-Workspace-ID"] = ws
    r = httpx2.request(method, os.environ["REST_URL"] + path, headers=headers, json=body,
                       timeout=120)
    try:
        data = r.json()
    except ValueError:
        data = r.text
    return r.status_code, data


async def upload(client, ws, name, data, content_type):
    session = await tool(client, "create_document_upload", {
        "filename": name, "content_type": content_type, "file_size": len(data),
        "workspace_id": ws})
    async with httpx2.AsyncClient(timeout=60) as plain:
        put = await plain.put(session["upload_url"], content=data,
                              headers={"Content-Type": content_type})
    check(put.status_code == 200, f"PUT {name} to the signed URL")
    await tool(client, "complete_document_upload", {
        "doc_id": session["doc_id"], "filename": name, "content_type": content_type,
        "file_size": len(data), "storage_source_path": session["storage_source_path"],
        "workspace_id": ws})
    return session["doc_id"]


async def until_embedded(client, doc_id, name):
    deadline = time.monotonic() + 240
    status = {}
    while time.monotonic() < deadline:
        status = await tool(client, "get_ingestion_status", {"document_id": doc_id})
        if status.get("done"):
            break
        await asyncio.sleep(0.25)
    check(status.get("status") == "embedded", f"{name} embedded ({status.get('status')})")


def items_of(result):
    """The generated items: under the result or its artifact (`items`), or the quiz questions."""
    artifact = result.get("artifact", result) if isinstance(result, dict) else {}
    for holder in (result, artifact):
        if isinstance(holder, dict) and isinstance(holder.get("items"), list) and holder["items"]:
            return holder["items"]
    content = artifact.get("content")
    if isinstance(content, str):
        try:
            content = json.loads(content)
        except ValueError:
            content = None
    if isinstance(content, dict) and isinstance(content.get("questions"), list):
        return content["questions"]
    return []


async def session(teacher, student, norwich_path):
    tools = {t.name: t for t in (await teacher.list_tools()).tools}
    check(TOOLS <= set(tools), f"tools/list has the learning tools ({sorted(TOOLS - set(tools))} missing)")
    ws_arg = "workspace_id" if "workspace_id" in tools["create_learning_course"].input_schema.get(
        "properties", {}) else "ws"

    teacher_rest, student_rest = os.environ["TEACHER_REST_TOKEN"], os.environ["STUDENT_REST_TOKEN"]
    status, ws = rest("POST", "/api/v1/workspaces", teacher_rest, {"name": "learning e2e"})
    check(status == 201, f"team workspace created ({status})")
    ws = ws["id"]
    status, _ = rest("POST", f"/api/v1/workspaces/{ws}/members", teacher_rest,
                     {"email": os.environ["STUDENT_EMAIL"], "role": "viewer"})
    check(status == 201, "the student is a member of the workspace")

    norwich = await upload(teacher, ws, "norwich-city.txt", open(norwich_path, "rb").read(),
                           "text/plain")
    photo = await upload(teacher, ws, "photosynthesis.txt", PHOTOSYNTHESIS.encode(), "text/plain")
    await until_embedded(teacher, norwich, "norwich-city.txt")
    await until_embedded(teacher, photo, "photosynthesis.txt")

    # ---- course, curriculum, content
    course = await tool(teacher, "create_learning_course", {
        ws_arg: ws, "title": "Football and Plants", "course_code": "FP-1", "semester": "2027",
        "description": "A footballer's career, then photosynthesis.", "instructor_name": "T. Eacher",
        "objectives": ["Recall a career", "Explain photosynthesis"]})
    course_id = course.get("id") or (course.get("course") or {}).get("id")
    check(bool(course_id), "create_learning_course returned the course id")

    saved = await tool(teacher, "save_learning_curriculum", {"course_id": course_id, "modules": [
        {"title": "Football", "description": "Iwan Roberts",
         "lessons": [{"title": "A career", "description": "Clubs and goals"}]},
        {"title": "Plants", "description": "Light to sugar",
         "lessons": [{"title": "Photosynthesis", "description": "Pigments"}]}]})
    modules = (saved.get("curriculum") or saved).get("modules", [])
    check(len(modules) == 2 and all(m.get("id") for m in modules)
          and all(l.get("id") for m in modules for l in m.get("lessons", []))
          and all(len(m.get("lessons", [])) == 1 for m in modules),
          "save_learning_curriculum returned modules[].id and lessons[].id")
    m1, m2 = modules[0]["id"], modules[1]["id"]
    l1 = modules[0]["lessons"][0]["id"]

    for doc, module, title in ((norwich, m1, "Iwan Roberts"), (photo, m2, "Photosynthesis")):
        await tool(teacher, "attach_learning_content", {
            "course_id": course_id, "document_id": doc, "module_id": module, "lesson_id": None,
            "title": title})
    check(True, "attach_learning_content attached one document to each module")
    status, scope = rest("GET", f"/api/v1/learning/courses/{course_id}/scope?module_id={m1}",
                         teacher_rest, ws=ws)
    check(status == 200 and scope.get("document_ids") == [norwich],
          f"module 1's scope is the article ({status} {scope if status != 200 else scope.get('document_ids')})")
    status, _ = rest("POST", f"/api/v1/learning/courses/{course_id}/members", teacher_rest,
                     {"email": os.environ["STUDENT_EMAIL"], "persona": "student"}, ws=ws)
    check(status == 200, "the student is enrolled")
    refused_call = await student.call_tool("save_learning_curriculum", {
        "course_id": course_id, "modules": [{"title": "Hijacked"}]})
    check(refused_call.is_error, "a student's save_learning_curriculum is refused "
          f"({error_text(refused_call)[:120]})")
    status, course_now = rest("GET", f"/api/v1/learning/courses/{course_id}", teacher_rest, ws=ws)
    check(status == 200 and [m["id"] for m in course_now["curriculum"]["modules"]] == [m1, m2],
          "the curriculum is unchanged")

    # ---- the tutor
    answer = {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        answer = await tool(teacher, "ask_learning_tutor", {
            "course_id": course_id, "module_id": m1, "lesson_id": None,
            "question": "When was Iwan Roberts born?",
            "history": [], "response_language": "en"})
        if "26 June 1968" in answer.get("answer", ""):
            break
        await asyncio.sleep(0.5)
    print(f"   tutor: {answer.get('answer', '')[:200]!r}", flush=True)
    check({"answer", "sources", "trace_id", "learning_scope"} <= set(answer),
          f"ask_learning_tutor returns answer, sources, trace_id, learning_scope ({sorted(answer)})")
    check("26 June 1968" in answer["answer"] and not answer.get("refused"),
          "the tutor answers 26 June 1968 from module 1's article")
    check(answer["sources"] and all(s.get("document_id") == norwich for s in answer["sources"]),
          "every source is module 1's document")
    refused = await tool(teacher, "ask_learning_tutor", {
        "course_id": course_id, "module_id": m1, "lesson_id": None,
        "question": "What record photosynthesis rate did Miriam Okonkwo measure in sugarcane leaves?",
        "history": [], "response_language": "en"})
    print(f"   tutor (out of scope): {refused.get('answer', '')[:200]!r}", flush=True)
    check(refused.get("answer") == REFUSAL and "42" not in refused.get("answer", ""),
          "a question only module 2's document answers is refused in module 1")
    check(photo not in doc_ids_in(refused), "nothing of module 2's document is cited in module 1")

    # ---- generation, each type over module 1
    quiz = None
    for artifact_type in TYPES:
        result = await tool(teacher, "generate_learning_artifact", {
            "course_id": course_id, "module_id": m1,
            "lesson_id": l1 if artifact_type == "practice_questions" else None,
            "artifact_type": artifact_type, "title": "", "custom_instruction": "career and clubs"})
        artifact = result.get("artifact", result)
        artifact_id = result.get("id") or artifact.get("id")
        check(bool(artifact_id) and artifact.get("artifact_type", artifact_type) == artifact_type,
              f"generate_learning_artifact {artifact_type}: an artifact id")
        check(bool(artifact.get("content")), f"{artifact_type}: content")
        sources = artifact.get("source_document_ids") or result.get("source_document_ids") or []
        check(sources and set(sources) <= {norwich},
              f"{artifact_type}: source_document_ids in module 1's scope ({sources})")
        items = items_of(result)
        cited = [doc_ids_in(item) for item in items]
        print(f"   {artifact_type}: {len(items)} items, title {artifact.get('title')!r}", flush=True)
        check(items and all(c and set(c) <= {norwich} for c in cited),
              f"{artifact_type}: every item ({len(items)}) cites a document of the scope")
        if artifact_type == "practice_questions":
            quiz = (artifact_id, artifact)

    # ---- the generated quiz, taken over REST
    quiz_id, quiz_artifact = quiz
    content = quiz_artifact["content"]
    content = json.loads(content) if isinstance(content, str) else content
    check(content.get("schema_version") == 1 and 1 <= len(content.get("questions", [])) <= 20,
          "the generated quiz is a schema_version 1 quiz of 1..20 questions")
    answers = {}
    for q in content["questions"]:
        check([o["id"] for o in q["options"]] == ["A", "B", "C", "D"]
              and any(o.get("correct") for o in q["options"]) and q.get("explanation"),
              f"question {q['id']}: options A-D, one correct, an explanation")
        answers[q["id"]] = [o["id"] for o in q["options"] if o.get("correct")]
    status, graded = rest("POST", f"/api/v1/learning/courses/{course_id}/artifacts/{quiz_id}/attempts",
                          teacher_rest, {"answers": answers}, ws=ws)
    check(status == 200 and graded.get("score") == 100 and graded.get("completed") is True,
          f"the quiz answered with its correct options scores 100 ({status} {str(graded)[:200]})")

    progress = await tool(teacher, "get_learning_progress", {"course_id": course_id})
    check({"attempts", "lesson_progress", "mastery"} <= set(progress)
          and any(a.get("artifact_id", quiz_id) == quiz_id for a in progress["attempts"]),
          "get_learning_progress shows the attempt")

    # ---- resources
    templates = {t.uri_template for t in (await teacher.list_resource_templates()).resource_templates}
    wanted = {"docintel://learning/courses/{course_id}",
              "docintel://learning/courses/{course_id}/progress",
              "docintel://learning/courses/{course_id}/artifacts/{artifact_id}"}
    check(wanted <= templates, f"the three learning resource templates are listed ({sorted(templates)})")

    async def read(client, uri):
        res = await client.read_resource(uri)
        return json.loads(res.contents[0].text)

    c = await read(teacher, f"docintel://learning/courses/{course_id}")
    c = c.get("result", c)
    check(c.get("id") == course_id and len(c.get("curriculum", {}).get("modules", [])) == 2,
          "docintel://learning/courses/{id} reads the course with its curriculum")
    p = await read(teacher, f"docintel://learning/courses/{course_id}/progress")
    p = p.get("result", p)
    check(len(p.get("attempts", [])) >= 1, "the progress resource shows the teacher's attempt")
    a = await read(teacher, f"docintel://learning/courses/{course_id}/artifacts/{quiz_id}")
    a = a.get("result", a)
    a = a.get("artifact", a)
    check(a.get("id") == quiz_id, "the artifact resource reads the generated quiz")

    # Persona rules: the student sees no one else's artifact or attempts.
    try:
        other = await student.read_resource(f"docintel://learning/courses/{course_id}/artifacts/{quiz_id}")
        text = other.contents[0].text if other.contents else ""
        check(quiz_id not in text, "a student cannot read the teacher's artifact")
    except Exception as e:  # the SDK raises on a JSON-RPC error (-32002)
        check(True, f"a student cannot read the teacher's artifact ({str(e)[:80]})")
    sp = await read(student, f"docintel://learning/courses/{course_id}/progress")
    sp = sp.get("result", sp)
    check(sp.get("attempts") == [], "the student's progress resource holds none of the teacher's attempts")
    own = await tool(student, "get_learning_progress", {"course_id": course_id})
    check(own.get("attempts") == [], "get_learning_progress as the student shows only their own rows")


async def main(norwich_path):
    url = os.environ["MCP_URL"]
    async with httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {os.environ['TEACHER_MCP_TOKEN']}"},
            timeout=httpx2.Timeout(30, read=300)) as http_t, httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {os.environ['STUDENT_MCP_TOKEN']}"},
            timeout=httpx2.Timeout(30, read=300)) as http_s:
        async with Client(streamable_http_client(url, http_client=http_t)) as teacher, \
                Client(streamable_http_client(url, http_client=http_s)) as student:
            check(teacher.server_info.name == "docintel", "teacher session initialized")
            try:
                await session(teacher, student, norwich_path)
            except SystemExit as failed:  # leave the sessions cleanly, then report
                failure = str(failed)
            else:
                failure = None
    summary(failure)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
