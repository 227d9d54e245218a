#!/usr/bin/env bash
# Installs the plugins built in-tree into the plugins folder a server watches:
#   install-plugins.sh <built plugins folder> <plugins folder>
# A plugin is copied only when its bytes changed, to a temporary name first and then renamed
# into place, so a running server never maps a half-written file and reloads only what changed.
set -euo pipefail

from=$1
to=$2
mkdir -p "$to"
shopt -s nullglob
for so in "$from"/*.so; do
  dest="$to/$(basename "$so")"
  cmp -s "$so" "$dest" && continue
  tmp="$to/.$(basename "$so").$$"
  cp "$so" "$tmp"
  mv -f "$tmp" "$dest"
done
