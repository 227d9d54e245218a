#!/usr/bin/env bash
# Writes the settings `make` chose into a file docintel-server and docintel-admin read at start
# (server/config.cpp, loadEnvFile), so both find the same database, data folder and URLs when
# started by hand:   write-env.sh <file>
# Only non-secret DOCINTEL_* settings are written; a variable set in the environment wins over
# the file.
set -euo pipefail

file=$1
mkdir -p "$(dirname "$file")"
tmp="$file.$$"
{
  echo "# Written by make ($(date -u +%Y-%m-%dT%H:%M:%SZ)); the environment wins over this file."
  for name in DOCINTEL_DATABASE_URL DOCINTEL_DATA_DIR DOCINTEL_PLUGINS_DIR DOCINTEL_PORT \
      DOCINTEL_BASE_URL DOCINTEL_MCP_PORT DOCINTEL_MCP_URL DOCINTEL_MODELS_DIR; do
    value=${!name:-}
    [[ -n "$value" ]] && echo "$name=$value"
  done
} > "$tmp"
mv -f "$tmp" "$file"
