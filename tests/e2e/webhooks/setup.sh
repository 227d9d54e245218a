#!/usr/bin/env bash
# Installs the peer of the webhook tests: a Python venv with the Standard Webhooks reference
# library (requirements.txt) at <repo>/var/webhook-receiver, where tests/integration/
# webhooks_test.cpp runs receiver.py. Run by `make test` (target e2e-deps); fast when installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/../../../var/webhook-receiver"
stamp() { sha256sum "$here/requirements.txt" | cut -c1-16; }
if [[ -f "$venv/.installed" && "$(cat "$venv/.installed")" == "$(stamp)" &&
      -x "$venv/bin/python" ]]; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
stamp >"$venv/.installed"
