#!/usr/bin/env bash
# Installs the Python peer of an end-to-end test: a venv at $2 with the pinned packages of the
# requirements file $1. Fast when already installed (the requirements' hash is stamped).
set -euo pipefail
requirements="$1"
venv="$2"
stamp() { sha256sum "$requirements" | cut -c1-16; }
if [[ -f "$venv/.installed" && "$(cat "$venv/.installed")" == "$(stamp)" &&
      -x "$venv/bin/python" ]]; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
stamp >"$venv/.installed"
