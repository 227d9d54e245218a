#!/usr/bin/env bash
# Installs schemathesis (requirements.txt, pinned) into a venv in <venv dir> (make test passes
# build/schemathesis-venv). Run by `make test` (target e2e-deps); fast when installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
venv=${1:?usage: setup.sh <venv dir>}
stamp=$(sha256sum <"$here/requirements.txt" | cut -c1-16)
if [[ -f "$venv/.installed" && "$(cat "$venv/.installed")" == "$stamp" && -x "$venv/bin/st" ]]; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
echo "$stamp" >"$venv/.installed"
