#!/usr/bin/env python3
"""Regenerates the binary evaluation documents from their text sources.

Sources live in workflows/<workflow>/src/<id>.<kind>.txt, where <kind> is
  docx  -> workflows/<workflow>/<id>.docx  (python-docx)
  pdf   -> workflows/<workflow>/<id>.pdf   (reportlab, text layer; "---PAGE---" starts a new page)
  scan  -> workflows/<workflow>/<id>.pdf   (Pillow: text rendered into a grey-scale image, saved as an
                                            image-only PDF with no text layer, so it needs OCR)

Markup in a source: "# " heading, "## " sub-heading, lines starting with "|" form a table
(cells split on "|"; a "|---|" row is skipped), "---PAGE---" page break (pdf), every other
non-empty line is a paragraph.

Needs: python-docx, reportlab, pillow (e.g. python3 -m venv /tmp/ev && /tmp/ev/bin/pip install
python-docx reportlab pillow) and the DejaVuSans font (fonts-dejavu-core). Output is
deterministic: fixed document dates, reportlab invariant mode, fixed PDF metadata.
"""
import datetime, glob, os, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
FIXED = datetime.datetime(2025, 1, 1, 0, 0, 0)


def blocks(text):
    """Yield (kind, payload): ('h1'|'h2'|'p', str), ('table', [[cells]]), ('page', None)."""
    table = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                table.append(cells)
            continue
        if table:
            yield "table", table
            table = []
        if not line.strip():
            continue
        if line.strip() == "---PAGE---":
            yield "page", None
        elif line.startswith("## "):
            yield "h2", line[3:]
        elif line.startswith("# "):
            yield "h1", line[2:]
        else:
            yield "p", line
    if table:
        yield "table", table


def make_docx(src, out):
    import docx
    d = docx.Document()
    for kind, payload in blocks(open(src, encoding="utf-8").read()):
        if kind == "h1":
            d.add_heading(payload, level=1)
        elif kind == "h2":
            d.add_heading(payload, level=2)
        elif kind == "p":
            d.add_paragraph(payload)
        elif kind == "page":
            d.add_page_break()
        elif kind == "table":
            t = d.add_table(rows=len(payload), cols=max(len(r) for r in payload))
            t.style = "Table Grid"
            for i, row in enumerate(payload):
                for j, cell in enumerate(row):
                    t.cell(i, j).text = cell
    cp = d.core_properties
    cp.author, cp.last_modified_by, cp.title = "docintel eval (CC0)", "docintel eval (CC0)", os.path.basename(out)
    cp.created = cp.modified = FIXED
    cp.revision = 1
    d.save(out)
    fix_zip_times(out)


def fix_zip_times(path):
    """python-docx stamps zip entries with the current time; rewrite them with a fixed one."""
    import zipfile
    with zipfile.ZipFile(path) as z:
        entries = [(i.filename, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2025, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)


def wrap(text, fits):
    words, lines, cur = text.split(), [], ""
    for w in words:
        cand = (cur + " " + w).strip()
        if cur and not fits(cand):
            lines.append(cur)
            cur = w
        else:
            cur = cand
    if cur:
        lines.append(cur)
    return lines or [""]


def make_text_pdf(src, out):
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen import canvas
    pdfmetrics.registerFont(TTFont("DejaVuSans", FONT))
    c = canvas.Canvas(out, pagesize=letter, invariant=1)
    c.setTitle(os.path.basename(out))
    c.setAuthor("docintel eval (CC0)")
    W, H = letter
    margin, y = 72, letter[1] - 72
    page = 1

    def footer():
        c.setFont("DejaVuSans", 9)
        c.drawCentredString(W / 2, 36, f"Page {page}")

    for kind, payload in blocks(open(src, encoding="utf-8").read()):
        if kind == "page":
            footer()
            c.showPage()
            page += 1
            y = H - 72
            continue
        rows = payload if kind == "table" else [[payload]]
        size = {"h1": 15, "h2": 12}.get(kind, 10.5)
        for row in rows:
            text = "    ".join(row)
            lines = wrap(text, lambda s: pdfmetrics.stringWidth(s, "DejaVuSans", size) < W - 2 * margin)
            for ln in lines:
                if y < 72:
                    footer()
                    c.showPage()
                    page += 1
                    y = H - 72
                c.setFont("DejaVuSans", size)
                c.drawString(margin, y, ln)
                y -= size * 1.45
        y -= 6
    footer()
    c.save()


def make_scan_pdf(src, out):
    from PIL import Image, ImageDraw, ImageFont
    W, H, margin, size = 1275, 1650, 90, 28        # US letter at 150 dpi, ~28 px text
    img = Image.new("L", (W, H), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, size)
    bold = ImageFont.truetype(FONT, size + 6)
    y = margin
    for kind, payload in blocks(open(src, encoding="utf-8").read()):
        if kind == "page":
            raise SystemExit(f"{src}: scans are one page")
        rows = payload if kind == "table" else [[payload]]
        f = bold if kind in ("h1", "h2") else font
        for row in rows:
            for ln in wrap("   ".join(row), lambda s: draw.textlength(s, font=f) < W - 2 * margin):
                draw.text((margin, y), ln, font=f, fill=20)
                y += int(f.size * 1.5)
        if y > H - margin:
            raise SystemExit(f"{src}: text does not fit on one page")
    img = img.rotate(0.4, resample=Image.BICUBIC, fillcolor=255)   # a slight skew, as from a scanner
    img.save(out, "PDF", resolution=150, quality=70, title=os.path.basename(out),
             author="docintel eval (CC0)", creationDate=time.gmtime(1735689600), modDate=time.gmtime(1735689600))


def main():
    made = 0
    for src in sorted(glob.glob(os.path.join(HERE, "workflows", "*", "src", "*.txt"))):
        name = os.path.basename(src)[:-4]           # <id>.<kind>
        doc_id, kind = name.rsplit(".", 1)
        outdir = os.path.dirname(os.path.dirname(src))
        if kind == "docx":
            out = os.path.join(outdir, doc_id + ".docx")
            make_docx(src, out)
        elif kind == "pdf":
            out = os.path.join(outdir, doc_id + ".pdf")
            make_text_pdf(src, out)
        elif kind == "scan":
            out = os.path.join(outdir, doc_id + ".pdf")
            make_scan_pdf(src, out)
        else:
            continue
        check_size(out)
        made += 1
    print(made, "files")


def check_size(out):
    """Prints a generated file's size; a file over 200 KB stops the run."""
    size = os.path.getsize(out)
    print(f"{os.path.relpath(out, HERE)}  {size} bytes")
    if size > 200_000:
        sys.exit(f"{out} is larger than 200 KB")


if __name__ == "__main__":
    main()
