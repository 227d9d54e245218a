"""Grounded answers on the blind QA set (bench/qa_corpus/run.sh starts the server). For each
document the split's questions name: upload, wait until embedded; then each question through
POST /api/v1/knowledge/query/stream with `document_ids` = [that document].

Scoring (tests/data/eval/README.md, section 2):
- answerable: correct when the answer is not refused and a gold value (`answer` or one of
  `alternatives`) occurs in a citation's quote whose page is the gold page. Values and quotes
  are compared lower-cased, with every run of punctuation and white space read as one space,
  on word boundaries ("3" does not match "2023"). A date's ISO alternatives also match any date
  the quote writes another way ("Jan. 13, 2009", "01/13/2009", "13 January 2009").
- unanswerable: correct when refused.

Prints answered-correct % (of answerable), refused % (of unanswerable), and the retrieval
ceiling: the share of answerable questions whose gold value is in a `sources` excerpt on the
gold page (what the answerer could have cited). The API does not expose the answer it would have
given without refusing, so there is no no-refusal ceiling.

Usage: qa_corpus_bench.py <port> <token> tune|report [--details]
--details (tune only) prints every question with its citations.
"""

import collections
import json
import mimetypes
import os
import re
import statistics
import sys
import time
import unicodedata

sys.path.insert(0, "bench")
from bench_api import Api  # noqa: E402

# QA_FILE=path asks another set of the same shape (a scratch set while debugging).
QA = os.environ.get("QA_FILE", "tests/data/eval/qa/qa.jsonl")
CORPUS = "../shared/datasets"
TYPES = {".eml": "message/rfc822", ".md": "text/markdown", ".csv": "text/csv",
         ".txt": "text/plain", ".html": "text/html", ".pdf": "application/pdf"}
MONTHS = {m: i + 1 for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}


def normalise(text):
    """Lower-cased, accents and typographic dashes/quotes folded, every run of anything but
    letters and digits one space, padded with spaces (so `in` tests word boundaries)."""
    text = unicodedata.normalize("NFKC", text).lower()
    return " " + " ".join(re.findall(r"[^\W_]+", text)) + " "


def iso_dates(text):
    """The dates a text writes, as yyyy-mm-dd (US numeric order, as the README's gold)."""
    out = set()
    month = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
    t = text.lower()
    for m, d, y in re.findall(month + r"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", t):
        out.add(f"{y}-{MONTHS[m[:3]]:02d}-{int(d):02d}")
    for d, m, y in re.findall(r"(\d{1,2})(?:st|nd|rd|th)?\s+" + month + r",?\s+(\d{4})", t):
        out.add(f"{y}-{MONTHS[m[:3]]:02d}-{int(d):02d}")
    for m, d, y in re.findall(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", t):
        out.add(f"{y}-{int(m):02d}-{int(d):02d}")
    for y, m, d in re.findall(r"\b(\d{4})-(\d{2})-(\d{2})\b", t):
        out.add(f"{y}-{m}-{d}")
    return out


def holds_gold(text, item):
    values = [item["answer"]] + item["alternatives"]
    norm = normalise(text)
    if any(normalise(v).strip() and normalise(v) in norm for v in values):
        return True
    iso = {v for v in values if re.fullmatch(r"\d{4}-\d{2}-\d{2}", v)}
    return bool(iso & iso_dates(text))


def content_type(path):
    ext = os.path.splitext(path)[1].lower()
    return TYPES.get(ext) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def refusal_evidence(log):
    """The refusal features of the answer just given: the last `answer_refusal_evidence` line
    the server's debug log gained since the previous call (None when the question had no
    candidate sentence)."""
    found = None
    for line in log.readlines():
        if "event=answer_refusal_evidence" in line:
            found = [float(v) for v in re.search(r"features=(\S+)", line).group(1).split(",")]
    return found


def main():
    port, token, split = sys.argv[1], sys.argv[2], sys.argv[3]
    details = "--details" in sys.argv[4:]
    # --features FILE (tune only) writes each question's refusal features, read from the server's
    # debug log (QA_SERVER_LOG), with its outcome as if nothing were refused: the rows
    # bench/qa/fit_refusal.py --also adds to SQuAD's. Needs a server that does not refuse
    # (refusal features are the same either way; the outcome is the gold value's citation).
    features_path = None
    if "--features" in sys.argv[4:]:
        features_path = sys.argv[sys.argv.index("--features") + 1]
    if split not in ("tune", "report"):
        sys.exit("split: tune or report")
    if (details or features_path) and split != "tune":
        sys.exit("--details and --features are for the tune half only")
    log = open(os.environ["QA_SERVER_LOG"], encoding="utf-8") if features_path else None
    rows = []
    items = [json.loads(line) for line in open(QA)]
    items = [x for x in items if x["split"] == split]
    # QA_ONLY=qa-013,qa-290 asks only those questions (of the tune half) while debugging one.
    only = set(filter(None, os.environ.get("QA_ONLY", "").split(",")))
    if only and split == "tune":
        items = [x for x in items if x["id"] in only]
    # QA_DOCS=docs5/ asks only about documents whose path holds it: one batch's figures (either
    # half; the report half still as numbers only).
    if os.environ.get("QA_DOCS"):
        items = [x for x in items if os.environ["QA_DOCS"] in x["document"]]
    api = Api(port, token)

    started = time.time()
    doc_ids = {}
    for document in sorted({x["document"] for x in items}):
        # The corpus's documents by their path in ../shared/datasets; the set's own documents
        # (tests/data/eval/qa/docs/) by their path in the repository.
        path = document if document.startswith(("tests/", "/")) else os.path.join(CORPUS, document)
        doc_ids[document] = api.upload(os.path.basename(path), open(path, "rb").read(),
                                       content_type(path))
    listed = {d["id"]: d for d in api.wait_all(list(doc_ids.values()))}
    failed = [doc for doc, i in doc_ids.items() if listed[i]["status"] != "embedded"]
    if failed:
        sys.exit(f"not embedded: {failed}")
    print(f"documents={len(doc_ids)} ingested_s={time.time() - started:.1f}", flush=True)

    counts = collections.Counter()
    by_type = collections.defaultdict(collections.Counter)
    seconds = []  # from sending each question to its `done` frame
    for item in items:
        asked = time.perf_counter()
        sources, done = api.ask(item["question"], [doc_ids[item["document"]]])
        seconds.append(time.perf_counter() - asked)
        if done is None or done.get("type") != "done":
            sys.exit(f"{item['id']}: no answer: {done}")
        refused = bool(done.get("refused"))
        evidence = refusal_evidence(log) if log else None
        kind = item["answer_type"]
        if item["answerable"]:
            cited = any(c.get("page") == item["page"] and holds_gold(c.get("quote", ""), item)
                        for c in done.get("citations", []))
            in_sources = any(s.get("page") == item["page"] and
                             holds_gold(s.get("excerpt", ""), item) for s in sources)
            ok = cited and not refused
            counts["answerable"] += 1
            counts["correct"] += ok
            counts["answerable_refused"] += refused
            counts["in_sources"] += in_sources
            by_type[kind]["n"] += 1
            by_type[kind]["ok"] += ok
        else:
            ok = refused
            counts["unanswerable"] += 1
            counts["refused"] += refused
            by_type[kind + " (unanswerable)"]["n"] += 1
            by_type[kind + " (unanswerable)"]["ok"] += ok
        if evidence is not None:
            rows.append({"id": item["id"], "document": item["document"], "split": "qa-tune",
                         "answerable": item["answerable"],
                         "gold": bool(item["answerable"] and cited), "features": evidence})
        if details:
            mark = "OK " if ok else ("REF" if refused else "-- ")
            gold = item["answer"] if item["answerable"] else "(unanswerable)"
            where = f" p{item['page']}" if item["answerable"] else ""
            extra = "" if not item["answerable"] else (" [gold in sources]" if in_sources
                                                       else " [gold not in sources]")
            print(f"{mark} {item['id']} {kind}: {item['question']}\n"
                  f"      gold={gold!r}{where}{extra}")
            for c in done.get("citations", []):
                quote = " ".join(c.get("quote", "").split())
                print(f"      [p{c.get('page')}] {quote[:220]}")
    if features_path:
        with open(features_path, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
    a, u = max(counts["answerable"], 1), max(counts["unanswerable"], 1)
    if details:
        for kind, c in sorted(by_type.items()):
            print(f"  {kind}: {c['ok']}/{c['n']}")
    print(f"split={split} answerable={counts['answerable']} unanswerable={counts['unanswerable']} "
          f"answered_correct={100 * counts['correct'] / a:.1f}% "
          f"refused={100 * counts['refused'] / u:.1f}% "
          f"gold_in_sources={100 * counts['in_sources'] / a:.1f}% "
          f"answerable_refused={100 * counts['answerable_refused'] / a:.1f}% "
          f"done_p50_ms={1000 * statistics.median(seconds):.1f} "
          f"done_p95_ms={1000 * sorted(seconds)[int(0.95 * (len(seconds) - 1))]:.1f}")


if __name__ == "__main__":
    main()
