#!/usr/bin/env python3
"""Regenerates the QA set's own binary documents (qa/docs/*.pdf, *.docx, *.pptx) from their text
sources in qa/docs/src/; the fourth batch's (qa/docs4/*.pdf) come from qa/docs4/src/ and the fifth
batch's (qa/docs5/*.pdf, *.docx) from qa/docs5/src/ and the sixth batch's (qa/docs6/*.pdf, *.docx)
from qa/docs6/src/ the same way, and the seventh batch's (qa/docs7/*.pdf, *.docx) from qa/docs7/src/
and the eighth batch's (qa/docs8/*.pdf, *.docx) from qa/docs8/src/.
The text-native documents (.html, .csv, .eml, .txt, .md) are written by hand and live directly in
qa/docs/, qa/docs4/, qa/docs5/, qa/docs6/, qa/docs7/ and qa/docs8/.

Sources and what they become (the kind is the part of the name before ".txt"):
  <name>.table.txt  -> <name>.pdf   statistics table, landscape letter: "# " title, "## " subtitle,
                                    "^|" column-header rows (bold), "|" data rows, "=|" totals row
                                    (bold, ruled), other lines are footnotes under the table
  <name>.pdf.txt    -> <name>.pdf   plain text PDF, same markup and renderer as ../make_docs.py
                                    ("HEADER: a | b | c" adds a running header with "Page N of M"
                                    on every page; "---PAGE---" starts a new page)
  <name>.twocol.txt -> <name>.pdf   two-column paper: "TITLE:", "AUTHORS:", "AFFIL:" span both
                                    columns on page 1; "## " section heading; "TABLE: caption"
                                    followed by "|" rows; "---PAGE---" starts a new page
  <name>.docx.txt   -> <name>.docx  "# " title, "## " heading, "Term :: definition" (bold term),
                                    other lines paragraphs (section numbers are literal text)
  <name>.pptx.txt   -> <name>.pptx  "=== title|bullets|table" starts a slide; its first line is the
                                    slide title, then subtitle lines, bullets or "|" table rows

Deterministic output: reportlab invariant mode with fixed title/author, fixed core-property
dates and zip entry times for Office files. Needs reportlab, python-docx, python-pptx and the
DejaVu fonts (fonts-dejavu-core), e.g.
  python3 -m venv /tmp/qv && /tmp/qv/bin/pip install reportlab python-docx python-pptx pillow
  /tmp/qv/bin/python tests/data/eval/qa/make_qa_docs.py
"""
import glob, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "docs")
SRC = os.path.join(DOCS, "src")
# Later batches live in their own folders with the same layout (<folder>/src/<name>.<kind>.txt).
FOLDERS = [DOCS, os.path.join(HERE, "docs4"), os.path.join(HERE, "docs5"), os.path.join(HERE, "docs6"),
           os.path.join(HERE, "docs7"), os.path.join(HERE, "docs8")]
sys.path.insert(0, os.path.dirname(HERE))
import make_docs  # noqa: E402  (shared: blocks, wrap, make_text_pdf, fix_zip_times, FIXED, FONT)

FONT = make_docs.FONT
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
AUTHOR = "docintel eval (CC0)"


def fonts():
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    pdfmetrics.registerFont(TTFont("DejaVuSans", FONT))
    pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", BOLD))
    return pdfmetrics


def canvas_for(out, pagesize):
    from reportlab.pdfgen import canvas
    c = canvas.Canvas(out, pagesize=pagesize, invariant=1)
    c.setTitle(os.path.basename(out))
    c.setAuthor(AUTHOR)
    return c


# ---------------------------------------------------------------- statistics table
def make_table_pdf(src, out):
    from reportlab.lib.pagesizes import letter, landscape
    pm = fonts()
    W, H = landscape(letter)
    c = canvas_for(out, (W, H))
    title = subtitle = None
    head, rows, total, notes = [], [], None, []
    for line in open(src, encoding="utf-8").read().splitlines():
        if not line.strip():
            continue
        if line.startswith("# "):
            title = line[2:]
        elif line.startswith("## "):
            subtitle = line[3:]
        elif line.startswith("^|"):
            head.append([x.strip() for x in line[2:].split("|")])
        elif line.startswith("=|"):
            total = [x.strip() for x in line[2:].split("|")]
        elif line.startswith("|"):
            rows.append([x.strip() for x in line[1:].split("|")])
        else:
            notes.append(line)
    margin = 48
    first_w = 130
    ncol = len(head[0]) - 1
    col_w = (W - 2 * margin - first_w) / ncol
    y = H - 56
    c.setFont("DejaVuSans-Bold", 13)
    c.drawString(margin, y, title)
    y -= 18
    if subtitle:
        c.setFont("DejaVuSans", 10)
        c.drawString(margin, y, subtitle)
        y -= 14
    y -= 6
    c.setLineWidth(1)
    c.line(margin, y, W - margin, y)
    y -= 13

    def row(cells, font, size=9.5):
        nonlocal y
        c.setFont(font, size)
        c.drawString(margin + 2, y, cells[0])
        for j, cell in enumerate(cells[1:]):
            x_right = margin + first_w + (j + 1) * col_w - 6
            c.drawRightString(x_right, y, cell)
        y -= size * 1.55

    for h in head:
        row(h, "DejaVuSans-Bold", 9)
    y += 6
    c.setLineWidth(0.6)
    c.line(margin, y, W - margin, y)
    y -= 12
    for r in rows:
        row(r, "DejaVuSans")
    if total:
        y += 6
        c.line(margin, y, W - margin, y)
        y -= 12
        row(total, "DejaVuSans-Bold")
    y += 6
    c.setLineWidth(1)
    c.line(margin, y, W - margin, y)
    y -= 16
    for n in notes:
        for ln in make_docs.wrap(n, lambda s: pm.stringWidth(s, "DejaVuSans", 8.5) < W - 2 * margin):
            c.setFont("DejaVuSans", 8.5)
            c.drawString(margin, y, ln)
            y -= 12
        y -= 2
    if y < 40:
        raise SystemExit(f"{src}: table does not fit on one page")
    c.setFont("DejaVuSans", 8)
    c.drawCentredString(W / 2, 26, "Page 1")
    c.showPage()
    c.save()


# ---------------------------------------------------------------- text PDF with running header
def make_notice_pdf(src, out):
    from reportlab.lib.pagesizes import letter
    pm = fonts()
    text = open(src, encoding="utf-8").read()
    header = None
    lines = text.splitlines()
    if lines and lines[0].startswith("HEADER:"):
        header = [x.strip() for x in lines[0][7:].split("|")]
        text = "\n".join(lines[1:])
    pages_total = text.count("---PAGE---") + 1
    W, H = letter
    c = canvas_for(out, letter)
    margin = 72
    page = 1

    def decorate():
        c.setFont("DejaVuSans", 8)
        if header:
            c.drawString(margin, H - 40, header[0])
            c.drawCentredString(W / 2, H - 40, header[1])
            c.drawRightString(W - margin, H - 40, header[2] if len(header) > 2 else "")
            c.setLineWidth(0.5)
            c.line(margin, H - 46, W - margin, H - 46)
        c.drawCentredString(W / 2, 36, f"Page {page} of {pages_total}")

    decorate()
    y = H - 80
    for kind, payload in make_docs.blocks(text):
        if kind == "page":
            c.showPage()
            page += 1
            decorate()
            y = H - 80
            continue
        font = "DejaVuSans-Bold" if kind in ("h1", "h2") else "DejaVuSans"
        size = {"h1": 14, "h2": 11.5}.get(kind, 10.5)
        rows = payload if kind == "table" else [[payload]]
        for r in rows:
            for ln in make_docs.wrap("    ".join(r), lambda s: pm.stringWidth(s, font, size) < W - 2 * margin):
                if y < 64:
                    raise SystemExit(f"{src}: page {page} overflows; move the ---PAGE--- break")
                c.setFont(font, size)
                c.drawString(margin, y, ln)
                y -= size * 1.45
        y -= 6
    c.showPage()
    c.save()
    if page != pages_total:
        raise SystemExit(f"{src}: page count mismatch")


# ---------------------------------------------------------------- two-column paper
def make_twocol_pdf(src, out):
    from reportlab.lib.pagesizes import letter
    pm = fonts()
    W, H = letter
    c = canvas_for(out, letter)
    margin, gutter = 54, 20
    col_w = (W - 2 * margin - gutter) / 2
    top, bottom = H - 60, 60
    page = 1
    meta, body = {}, []
    for line in open(src, encoding="utf-8").read().splitlines():
        for key in ("TITLE:", "AUTHORS:", "AFFIL:"):
            if line.startswith(key):
                meta[key] = line[len(key):].strip()
                break
        else:
            body.append(line)

    def footer():
        c.setFont("DejaVuSans", 8)
        c.drawCentredString(W / 2, 34, str(page))

    y = top
    c.setFont("DejaVuSans-Bold", 15)
    for ln in make_docs.wrap(meta["TITLE:"], lambda s: pm.stringWidth(s, "DejaVuSans-Bold", 15) < W - 2 * margin):
        c.drawCentredString(W / 2, y, ln)
        y -= 20
    y -= 4
    c.setFont("DejaVuSans", 10.5)
    c.drawCentredString(W / 2, y, meta["AUTHORS:"])
    y -= 14
    c.setFont("DejaVuSans", 9.5)
    c.drawCentredString(W / 2, y, meta["AFFIL:"])
    y -= 28
    col_top = y
    col = 0

    def next_column():
        nonlocal col, y, page, col_top
        if col == 0:
            col = 1
        else:
            footer()
            c.showPage()
            page += 1
            col = 0
            col_top = top
        y = col_top

    def x0():
        return margin + col * (col_w + gutter)

    def put(text, font, size, lead=1.35):
        nonlocal y
        for ln in make_docs.wrap(text, lambda s: pm.stringWidth(s, font, size) < col_w):
            if y < bottom:
                next_column()
            c.setFont(font, size)
            c.drawString(x0(), y, ln)
            y -= size * lead

    lines = "\n".join(body)
    caption, table = None, []

    def flush_table():
        nonlocal y, caption, table
        if not table:
            return
        need = 12 * (len(table) + 3) + 30
        if y - need < bottom:
            next_column()
        put(caption, "DejaVuSans", 8.5)
        y -= 3
        c.setLineWidth(0.8)
        c.line(x0(), y + 8, x0() + col_w, y + 8)
        widths = [0.34, 0.18, 0.18, 0.30]
        for i, r in enumerate(table):
            font = "DejaVuSans-Bold" if i == 0 else "DejaVuSans"
            c.setFont(font, 8.5)
            x = x0()
            for j, cell in enumerate(r):
                if j == 0:
                    c.drawString(x + 2, y, cell)
                else:
                    c.drawRightString(x + widths[j] * col_w - 4, y, cell)
                x += widths[j] * col_w
            y -= 12
            if i == 0:
                c.setLineWidth(0.5)
                c.line(x0(), y + 8, x0() + col_w, y + 8)
        c.setLineWidth(0.8)
        c.line(x0(), y + 8, x0() + col_w, y + 8)
        y -= 8
        caption, table = None, []

    for raw in lines.splitlines():
        line = raw.rstrip()
        if line.startswith("|"):
            table.append([x.strip() for x in line[1:].split("|")])
            continue
        flush_table()
        if not line.strip():
            continue
        if line.strip() == "---PAGE---":
            footer()
            c.showPage()
            page += 1
            col, col_top, y = 0, top, top
        elif line.startswith("TABLE:"):
            caption = line[6:].strip()
        elif line.startswith("## "):
            y -= 4
            put(line[3:], "DejaVuSans-Bold", 10.5)
            y -= 2
        else:
            put(line, "DejaVuSans", 9.5)
            y -= 5
    flush_table()
    footer()
    c.showPage()
    c.save()
    return page


# ---------------------------------------------------------------- DOCX
def make_docx(src, out):
    import docx
    d = docx.Document()
    for line in open(src, encoding="utf-8").read().splitlines():
        if not line.strip():
            continue
        if line.startswith("# "):
            d.add_heading(line[2:], level=1)
        elif line.startswith("## "):
            d.add_heading(line[3:], level=2)
        elif " :: " in line:
            term, definition = line.split(" :: ", 1)
            p = d.add_paragraph()
            p.add_run(term).bold = True
            p.add_run(": " + definition)
            p.paragraph_format.left_indent = docx.shared.Inches(0.3)
        else:
            d.add_paragraph(line)
    cp = d.core_properties
    cp.author = cp.last_modified_by = AUTHOR
    cp.title = os.path.basename(out)
    cp.created = cp.modified = make_docs.FIXED
    cp.revision = 1
    d.save(out)
    make_docs.fix_zip_times(out)


# ---------------------------------------------------------------- PPTX
def make_pptx(src, out):
    from pptx import Presentation
    from pptx.util import Inches, Pt
    prs = Presentation()
    slides, cur = [], None
    for line in open(src, encoding="utf-8").read().splitlines():
        if line.startswith("=== "):
            cur = {"kind": line[4:].strip(), "lines": []}
            slides.append(cur)
        elif line.strip():
            cur["lines"].append(line.strip())
    for s in slides:
        kind, lines = s["kind"], s["lines"]
        if kind == "title":
            slide = prs.slides.add_slide(prs.slide_layouts[0])
            slide.shapes.title.text = lines[0]
            slide.placeholders[1].text = "\n".join(lines[1:])
        elif kind == "bullets":
            slide = prs.slides.add_slide(prs.slide_layouts[1])
            slide.shapes.title.text = lines[0]
            tf = slide.placeholders[1].text_frame
            tf.text = lines[1]
            for b in lines[2:]:
                tf.add_paragraph().text = b
        elif kind == "table":
            slide = prs.slides.add_slide(prs.slide_layouts[5])
            slide.shapes.title.text = lines[0]
            rows = [[x.strip() for x in ln[1:].split("|")] for ln in lines[1:]]
            shape = slide.shapes.add_table(len(rows), len(rows[0]), Inches(0.8), Inches(1.8),
                                           Inches(8.4), Inches(0.45) * len(rows))
            for i, r in enumerate(rows):
                for j, cell in enumerate(r):
                    shape.table.cell(i, j).text = cell
                    for p in shape.table.cell(i, j).text_frame.paragraphs:
                        for run in p.runs:
                            run.font.size = Pt(16)
        else:
            raise SystemExit(f"{src}: unknown slide kind {kind}")
    cp = prs.core_properties
    cp.author = cp.last_modified_by = AUTHOR
    cp.title = os.path.basename(out)
    cp.created = cp.modified = cp.last_printed = make_docs.FIXED
    cp.revision = 1
    prs.save(out)
    make_docs.fix_zip_times(out)


def main():
    made = 0
    for folder in FOLDERS:
        made += make_folder(folder)
    print(made, "files")


def make_folder(DOCS):
    made = 0
    for src in sorted(glob.glob(os.path.join(DOCS, "src", "*.txt"))):
        name, kind = os.path.basename(src)[:-4].rsplit(".", 1)
        if kind == "table":
            out = os.path.join(DOCS, name + ".pdf")
            make_table_pdf(src, out)
        elif kind == "pdf":
            out = os.path.join(DOCS, name + ".pdf")
            if open(src, encoding="utf-8").readline().startswith("HEADER:"):
                make_notice_pdf(src, out)
            else:
                make_docs.make_text_pdf(src, out)
        elif kind == "twocol":
            out = os.path.join(DOCS, name + ".pdf")
            make_twocol_pdf(src, out)
        elif kind == "docx":
            out = os.path.join(DOCS, name + ".docx")
            make_docx(src, out)
        elif kind == "pptx":
            out = os.path.join(DOCS, name + ".pptx")
            make_pptx(src, out)
        else:
            continue
        make_docs.check_size(out)
        made += 1
    return made


if __name__ == "__main__":
    main()
