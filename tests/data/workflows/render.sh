#!/usr/bin/env bash
# Renders the sample .txt documents of the workflow tests to PDF with the project's own renderer
# (wkhtmltopdf), one page per "<<PAGE BREAK>>" section, writing each PDF beside its text.
# Usage: render.sh [vertical folder...] (default: every folder here). Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")"
dirs=("$@")
[[ ${#dirs[@]} -gt 0 ]] || dirs=(*/)
for txt in $(for d in "${dirs[@]}"; do ls "${d%/}"/*.txt; done); do
  python3 - "$txt" > "${txt%.txt}.html" <<'PY'
import html, sys
text = open(sys.argv[1], encoding="utf-8").read()
pages = text.split("<<PAGE BREAK>>")
out = ['<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{font-family:"DejaVu Serif",serif;font-size:11pt}p{margin:0 0 8pt}.page{page-break-after:always}.page:last-child{page-break-after:auto}</style></head><body>']
for page in pages:
    out.append('<div class="page">')
    for para in page.strip().split("\n\n"):
        out.append("<p>" + "<br>".join(html.escape(l) for l in para.split("\n")) + "</p>")
    out.append("</div>")
out.append("</body></html>")
print("\n".join(out))
PY
  QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$(mktemp -d)" wkhtmltopdf --quiet --page-size Letter \
    "${txt%.txt}.html" "${txt%.txt}.pdf"
  rm "${txt%.txt}.html"
done
