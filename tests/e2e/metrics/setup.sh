#!/usr/bin/env bash
# Installs the peer of the /metrics tests: a Python venv with Prometheus's own text-format
# parser (prometheus-client, requirements.txt) at <repo>/var/metrics-parser, where the tests
# run parse_metrics.py. Run by `make test` (target e2e-deps); fast when installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/../python_venv.sh" "$here/requirements.txt" "$here/../../../var/metrics-parser"
