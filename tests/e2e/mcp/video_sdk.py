"""The video plugin's MCP side with the official Python SDK (`mcp` from PyPI), a bearer token
minted by docintel-admin:

  create_video_upload -> PUT to the signed URL -> complete_video_upload -> process_video refused
  without rights -> process_video -> get_video_status polled until completed -> get_video_timeline,
  get_video_transcript (the subtitle track's words), get_video_frames, get_video_frame_url (a
  JPEG) -> search_video ("fellow Americans" at 1.8 s) -> the video resources listed and read ->
  the document deleted over REST -> get_video_status refused.

Exits non-zero on the first failed check.

Usage: MCP_URL=... REST_URL=... MCP_TOKEN=... REST_TOKEN=... video_sdk.py <jfk-subtitled.mp4>
"""

import asyncio
import json
import os
import sys

import httpx2

from sdk_checks import check, poll, refused, run, tool

TOOLS = {"create_video_upload", "complete_video_upload", "process_video", "get_video_status",
         "get_video_timeline", "get_video_transcript", "get_video_frames", "get_video_frame_url",
         "search_video"}


def words(text):
    return " ".join("".join(c.lower() if c.isalnum() else " " for c in text).split())


async def session(client, video_path):
    tools = {t.name for t in (await client.list_tools()).tools}
    check(TOOLS <= tools, f"tools/list has the video tools ({sorted(TOOLS - tools)} missing)")
    data = open(video_path, "rb").read()

    up = await tool(client, "create_video_upload", {
        "filename": "jfk.mp4", "content_type": "video/mp4", "file_size": len(data)})
    check(up.get("method") == "PUT" and up.get("upload_url"), "create_video_upload gave a signed PUT")
    async with httpx2.AsyncClient(timeout=60) as plain:
        put = await plain.put(up["upload_url"], content=data, headers=up.get("headers", {}))
    check(put.status_code == 200, f"PUT the video to the signed URL ({put.status_code})")
    doc = up["doc_id"]
    done = await tool(client, "complete_video_upload", {
        "doc_id": doc, "filename": "jfk.mp4", "content_type": "video/mp4", "file_size": len(data),
        "storage_source_path": up["storage_source_path"]})
    check(done.get("status") == "uploaded", "complete_video_upload left the video uploaded")

    is_error, text = await refused(client, "process_video",
                                   {"document_id": doc, "rights_confirmed": False})
    check(is_error and "rights_confirmation_required" in text,
          "process_video without rights confirmed is refused with rights_confirmation_required")

    await tool(client, "process_video", {"document_id": doc, "rights_confirmed": True,
                                         "segment_seconds": 15, "max_frames": 3})
    status = await poll(client, "get_video_status", {"document_id": doc})
    check(status.get("processing_status") == "completed",
          f"get_video_status reached completed ({status.get('processing_status')}, "
          f"{status.get('error_message')})")
    check(status.get("progress_pct") == 100 and status.get("progress_step") == "completed",
          "progress is the original's: step completed at 100 %")

    timeline = await tool(client, "get_video_timeline", {"document_id": doc})
    check(len(timeline.get("segments", [])) == 1 and timeline["segments"][0]["title"] == "00:00 – 00:11",
          "get_video_timeline: one 15 s segment titled 00:00 – 00:11")
    transcript = await tool(client, "get_video_transcript", {"document_id": doc})
    check("ask not what your country can do for you" in words(transcript.get("text", "")),
          "get_video_transcript holds the subtitle track's sentence")
    frames = await tool(client, "get_video_frames", {"document_id": doc})
    check(len(frames.get("frames", [])) >= 1, "get_video_frames lists the sampled frames")
    url = await tool(client, "get_video_frame_url", {"document_id": doc, "frame_index": 0})
    async with httpx2.AsyncClient(timeout=60) as plain:
        jpeg = await plain.get(url["url"])
    check(jpeg.status_code == 200 and jpeg.content[:2] == b"\xff\xd8",
          "get_video_frame_url: the signed URL answers the frame's JPEG")

    hits = await tool(client, "search_video", {"document_id": doc, "question": "fellow Americans"})
    check(any(h["start_seconds"] <= 1.8 <= h["end_seconds"] for h in hits.get("hits", [])
              if h.get("label") != "overview"),
          "search_video: a hit for 'fellow Americans' (not the whole-video overview) holds 1.8 s")

    templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
    check("docintel://videos/{document_id}/timeline" in templates,
          "resources/templates/list has the video timeline")
    read = await client.read_resource(f"docintel://videos/{doc}/timeline")
    body = json.loads(read.contents[0].text)
    body = body.get("result", body)
    check(len(body.get("segments", [])) == 1, "the timeline resource reads the segments")

    async with httpx2.AsyncClient(timeout=60) as plain:
        deleted = await plain.delete(f"{os.environ['REST_URL']}/api/v1/documents/{doc}",
                                     headers={"Authorization": f"Bearer {os.environ['REST_TOKEN']}"})
    check(deleted.status_code < 300, f"the video's document deleted over REST ({deleted.status_code})")
    is_error, text = await refused(client, "get_video_status", {"document_id": doc})
    check(is_error and "not_found" in text, "get_video_status of a deleted video is not found")


if __name__ == "__main__":
    asyncio.run(run(session, sys.argv[1]))
