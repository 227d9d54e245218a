#!/usr/bin/env bash
# Installs the peer of the webhook tests: a Python venv with the Standard Webhooks reference
# library (requirements.txt) at <repo>/var/webhook-receiver, where tests/integration/
# webhooks_test.cpp runs receiver.py. Run by `make test` (target e2e-deps); fast when installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../python_venv.sh" "$here/requirements.txt" "$here/../../../var/webhook-receiver"
