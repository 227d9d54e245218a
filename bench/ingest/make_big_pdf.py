#!/usr/bin/env python3
"""Writes a large text PDF for the ingestion memory bench: one SciFact abstract per page as real
text (Helvetica), plus an incompressible RGB image per page so the file reaches the requested
size the way scanned-and-OCRed PDFs do. Standard library only.

Usage: make_big_pdf.py OUT.pdf TARGET_MB [corpus.jsonl]
"""
import json
import os
import sys
import textwrap

out, target_mb = sys.argv[1], float(sys.argv[2])
corpus = sys.argv[3] if len(sys.argv) > 3 else "../shared/datasets/beir-scifact/corpus.jsonl"
side = 300  # image width and height in pixels: 270,000 bytes of RGB per page
pages = max(1, int(target_mb * 1024 * 1024 * 0.98 / (side * side * 3 + 4096)))


def abstracts():
    while True:
        with open(corpus) as f:
            for line in f:
                doc = json.loads(line)
                yield doc["title"] + ". " + doc["text"]


def pdf_string(text):
    ascii_text = text.encode("ascii", "replace").decode()
    return "(" + ascii_text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


offsets = []
with open(out, "wb") as f:
    def obj(number, body):
        offsets.append((number, f.tell()))
        f.write(f"{number} 0 obj\n".encode())
        f.write(body)
        f.write(b"\nendobj\n")

    f.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    # 1 catalog, 2 pages, 3 font; page i uses objects 4 + 3i (page), +1 (content), +2 (image).
    kids = " ".join(f"{4 + 3 * i} 0 R" for i in range(pages))
    obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    obj(2, f"<< /Type /Pages /Count {pages} /Kids [{kids}] >>".encode())
    obj(3, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    texts = abstracts()
    for i in range(pages):
        page, content, image = 4 + 3 * i, 5 + 3 * i, 6 + 3 * i
        obj(page, (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                   f"/Resources << /Font << /F1 3 0 R >> /XObject << /Im1 {image} 0 R >> >> "
                   f"/Contents {content} 0 R >>").encode())
        lines = textwrap.wrap(f"Page {i + 1}. " + next(texts), 95)[:40]
        ops = ["q 200 0 0 200 206 40 cm /Im1 Do Q", "BT /F1 10 Tf 12 TL 50 740 Td"]
        ops += [f"{pdf_string(line)} Tj T*" for line in lines]
        ops.append("ET")
        stream = "\n".join(ops).encode()
        obj(content, f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
        pixels = os.urandom(side * side * 3)
        obj(image, (f"<< /Type /XObject /Subtype /Image /Width {side} /Height {side} "
                    f"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Length {len(pixels)} >>\n"
                    f"stream\n").encode() + pixels + b"\nendstream")
    xref = f.tell()
    count = 4 + 3 * pages - 1
    f.write(f"xref\n0 {count + 1}\n0000000000 65535 f \n".encode())
    by_number = dict(offsets)
    for n in range(1, count + 1):
        f.write(f"{by_number[n]:010d} 00000 n \n".encode())
    f.write(f"trailer\n<< /Size {count + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
print(f"{out}: {pages} pages, {os.path.getsize(out) / 1048576:.1f} MiB")
