#!/usr/bin/env python3
"""Check that every answerable gold answer in qa.jsonl occurs in the text of its page.

Usage: check_gold.py [--datasets DIR] [--qa FILE] [--dump PATH]

Text extraction (independent of docintel, standard tools only):
  * PDF: `pdftotext -f N -l N` (poppler-utils), both raw-order and -layout output;
    the answer must occur in at least one of them.
  * HTML: tags stripped with html.parser (script/style dropped), entities decoded;
    the charset is taken from the <meta> tag, else utf-8, else cp1252.
  * EML: every text/* part decoded (quoted-printable/base64, declared charset); HTML
    parts have their tags stripped; UTF-16 files are detected by their BOM.
  * DOCX/PPTX/XLSX/ODT: XML parts in the zip, tags stripped (xlsx: shared strings and
    sheet cell values); every paragraph/cell becomes its own line.
  * TXT/MD/CSV: decoded (utf-16 by BOM, else utf-8).
Non-PDF documents are one page (page 1).

Comparison: both sides have whitespace collapsed to single spaces, typographic dashes
(U+2010..U+2015, U+2212) mapped to '-', curly quotes to straight ones, and are compared
case-insensitively. The gold `answer` must match; an `alternatives` entry is not
checked (alternatives are other acceptable surface forms, e.g. "January 23, 2023" for
"2023-01-23").

Also checks the file format: required keys, split values, answerable/unanswerable
rules (unanswerable: answer "" and no page), and that a document's questions are all in
one split. Exit status 1 when anything fails.
"""
import argparse, email, email.policy, html, html.parser, json, os, re, subprocess, sys, zipfile
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATASETS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "..", "..", "shared", "datasets"))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))


def document_path(datasets, document):
    """The set's own documents (tests/...) are in the repository, the corpus's in DATASETS."""
    return os.path.join(REPO if document.startswith("tests/") else datasets, document)


class _Strip(html.parser.HTMLParser):
    BLOCK = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "td", "th", "title"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        if tag in self.BLOCK:
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1
        if tag in self.BLOCK:
            self.out.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def strip_html(s):
    p = _Strip()
    p.feed(s)
    p.close()
    return "".join(p.out)


def decode_bytes(b):
    if b.startswith(b"\xff\xfe") or b.startswith(b"\xfe\xff"):
        return b.decode("utf-16")
    try:
        return b.decode("utf-8-sig")
    except UnicodeDecodeError:
        return b.decode("cp1252", errors="replace")


def html_text(b):
    m = re.search(rb'charset=["\']?([A-Za-z0-9_-]+)', b[:2048])
    enc = m.group(1).decode() if m else "utf-8"
    try:
        s = b.decode(enc)
    except (UnicodeDecodeError, LookupError):
        s = b.decode("cp1252", errors="replace")
    return strip_html(s)


def eml_text(b):
    if b.startswith(b"\xff\xfe") or b.startswith(b"\xfe\xff"):
        b = b.decode("utf-16").encode("utf-8")
    msg = email.message_from_bytes(b, policy=email.policy.default)
    parts = ["\n".join(f"{k}: {v}" for k, v in msg.items())]
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        try:
            t = part.get_content()
        except Exception:
            t = (part.get_payload(decode=True) or b"").decode("utf-8", errors="replace")
        parts.append(strip_html(t) if part.get_content_subtype() == "html" else t)
    return "\n".join(parts)


def zip_xml_text(path, slide=None):
    """The text of an Office file's XML parts; with `slide`, of that slide of a deck only."""
    out = []
    with zipfile.ZipFile(path) as z:
        names = sorted(z.namelist())
        if slide is not None:
            names = [f"ppt/slides/slide{slide}.xml"]
        keep = [n for n in names if n.endswith(".xml") and (
            n.startswith("word/document") or n.startswith("word/header") or n.startswith("word/footer")
            or n.startswith("ppt/slides/slide") or n == "xl/sharedStrings.xml"
            or n.startswith("xl/worksheets/sheet") or n == "content.xml")]
        for n in keep:
            x = z.read(n).decode("utf-8", errors="replace")
            x = re.sub(r"</(w:p|a:p|text:p|text:h|si|c|row)>", "\n", x)
            x = re.sub(r"<(w:tab|w:br)[^>]*/>", " ", x)
            x = re.sub(r"<[^>]+>", "", x)
            out.append(html.unescape(x))
    return "\n".join(out)


def pdf_page_texts(path, page):
    texts = []
    for extra in ([], ["-layout"]):
        r = subprocess.run(["pdftotext", "-q", "-f", str(page), "-l", str(page)] + extra + [path, "-"],
                           capture_output=True)
        texts.append(r.stdout.decode("utf-8", errors="replace"))
    return texts


def page_texts(path, page):
    ext = os.path.splitext(path)[1].lower()
    if ext == ".pdf":
        return pdf_page_texts(path, page)
    if ext == ".pptx":  # a page of a deck is a slide
        return [zip_xml_text(path, page)]
    if page != 1:
        return [""]
    if ext in (".docx", ".pptx", ".xlsx", ".odt"):
        return [zip_xml_text(path)]
    b = open(path, "rb").read()
    if ext in (".html", ".htm"):
        return [html_text(b)]
    if ext == ".eml":
        return [eml_text(b)]
    return [decode_bytes(b)]


_DASH = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]")


def norm(s):
    s = _DASH.sub("-", s)
    s = s.replace("\u2018", "'").replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    s = s.replace("\u00a0", " ")
    return re.sub(r"\s+", " ", s).strip().lower()


REQUIRED = {"id", "split", "document", "question", "answerable", "answer", "alternatives", "page", "answer_type"}
TYPES = {"date", "number", "money", "person", "organization", "place", "definition", "other"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", default=DEFAULT_DATASETS)
    ap.add_argument("--qa", default=os.path.join(HERE, "qa.jsonl"))
    ap.add_argument("--dump", help="print the extracted text of DOCUMENT[:PAGE] and exit")
    a = ap.parse_args()
    if a.dump:
        doc, _, pg = a.dump.partition(":")
        for t in page_texts(document_path(a.datasets, doc), int(pg or 1)):
            print(t)
            print("=" * 40)
        return 0
    bad, ids = 0, set()
    split_of_doc = {}
    counts = Counter()
    cache = {}
    for ln, line in enumerate(open(a.qa, encoding="utf-8"), 1):
        if not line.strip():
            continue
        q = json.loads(line)
        def fail(msg):
            nonlocal bad
            bad += 1
            print(f"line {ln} {q.get('id')}: {msg}")
        missing = REQUIRED - q.keys()
        if missing:
            fail(f"missing keys {sorted(missing)}")
            continue
        if q["id"] in ids:
            fail("duplicate id")
        ids.add(q["id"])
        if q["split"] not in ("tune", "report"):
            fail("bad split")
        if split_of_doc.setdefault(q["document"], q["split"]) != q["split"]:
            fail("document in both splits")
        if q["answer_type"] not in TYPES:
            fail("bad answer_type")
        path = document_path(a.datasets, q["document"])
        if not os.path.exists(path):
            fail(f"no such document {path}")
            continue
        counts[(q["split"], q["answerable"])] += 1
        if not q["answerable"]:
            if q["answer"] not in ("", None) or q["page"] not in (None,):
                fail("unanswerable must have empty answer and null page")
            continue
        if not isinstance(q["page"], int) or q["page"] < 1:
            fail("bad page")
            continue
        key = (path, q["page"])
        if key not in cache:
            cache[key] = [norm(t) for t in page_texts(path, q["page"])]
        gold = norm(q["answer"])
        if not gold or not any(gold in t for t in cache[key]):
            fail(f"answer {q['answer']!r} not found on page {q['page']} of {q['document']}")
    for (split, ans), n in sorted(counts.items()):
        print(f"{split:7s} {'answerable' if ans else 'unanswerable':12s} {n}")
    print("FAIL" if bad else "OK", f"({bad} problems)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
