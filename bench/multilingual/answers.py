"""Grounded answers on the multilingual parallel set (bench/multilingual/answers.sh says what is
measured). Usage: answers.py <port> <token> <tune|report|all> <label>"""

import collections
import json
import re
import sys
import unicodedata

sys.path.insert(0, "bench")
from bench_api import Api

port, token, split, label = sys.argv[1:]
api = Api(port, token)
root = "tests/data/eval/multilingual"
questions = [json.loads(line) for line in open(f"{root}/questions.jsonl")]
questions = [q for q in questions if split == "all" or q["split"] == split]


def normal(text):
    """Case, width and spacing folded; digit group separators dropped ("3.400" = "3,400")."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"(?<=\d)[.,\u066c](?=\d{3}\b)", "", text)
    return re.sub(r"\s+", " ", text)


languages = sorted({q["lang"] for q in questions})
docs = {}  # "docs/<lang>/<file>" -> document id
for lang in languages:
    ws = api.call("POST", "/api/v1/workspaces", {"name": f"multilingual {lang}"})["id"]
    files = sorted({q["document"] for q in questions if q["lang"] == lang})
    for f in files:
        data = open(f"{root}/{f}", "rb").read()
        docs[f] = api.upload(f.split("/")[-1], data, "text/plain", ws)
    for f in files:
        assert api.wait_doc(docs[f])["status"] == "embedded", f

tally = collections.defaultdict(collections.Counter)
models = collections.defaultdict(set)
unanswerable = collections.defaultdict(collections.Counter)  # ml-041 ..: refused or not
not_refused = []  # (id, what the server answered) for the unanswerable questions it answered
for q in questions:
    scope = [docs[f] for f in docs if f.startswith(f"docs/{q['lang']}/")]
    sources, done = api.ask(q["question"], scope)
    if not q.get("answerable", True):  # a missing key is answerable (rows before ml-041)
        u = unanswerable[q["lang"]]
        u["questions"] += 1
        models[q["lang"]].add(done.get("model", ""))
        if done.get("type") == "error":
            u["errors"] += 1
            not_refused.append((q["id"], "error frame: " + str(done.get("code") or done.get("message") or "")))
        elif done.get("refused"):
            u["refused"] += 1
        else:
            not_refused.append((q["id"], done.get("answer", "")))
        continue
    gold = docs[q["document"]]
    t = tally[q["lang"]]
    t["questions"] += 1
    t["doc@1"] += bool(sources) and sources[0]["document_id"] == gold
    models[q["lang"]].add(done.get("model", ""))
    if done.get("refused"):
        continue
    t["answered"] += 1
    answer = normal(done.get("answer", ""))
    values = [q["answer"], *q.get("alternatives", [])]
    cited = any(c["document_id"] == gold for c in done.get("citations", []))
    t["correct"] += cited and any(normal(v) in answer for v in values)

print(f"{label} (split {split})")
print("lang  questions  doc@1  answered  correct  encoder")
total = collections.Counter()
for lang in languages:
    if not tally[lang]["questions"]:
        continue
    t = tally[lang]
    total.update(t)
    n = t["questions"]
    print(f"{lang:4}  {n:9}  {t['doc@1'] / n:5.2f}  {t['answered'] / n:8.2f}  "
          f"{t['correct'] / n:7.2f}  {','.join(sorted(models[lang]))}")
n = total["questions"]
print(f"all   {n:9}  {total['doc@1'] / n:5.2f}  {total['answered'] / n:8.2f}  "
      f"{total['correct'] / n:7.2f}")

# Unanswerable questions (near misses, "answerable": false): refused = the share the server
# refuses (the done frame says "refused"); an error frame is not a refusal (counted apart).
if unanswerable:
    print(f"{label} (split {split}), unanswerable questions")
    print("lang  questions  refused  errors")
    total = collections.Counter()
    for lang in languages:
        u = unanswerable[lang]
        if not u["questions"]:
            continue
        total.update(u)
        print(f"{lang:4}  {u['questions']:9}  {u['refused'] / u['questions']:7.2f}  {u['errors']:6}")
    print(f"all   {total['questions']:9}  {total['refused'] / total['questions']:7.2f}  {total['errors']:6}")
    for qid, answer in not_refused:
        print(f"  not refused {qid}: {' '.join(str(answer).split())[:160]}")
