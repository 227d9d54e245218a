#!/usr/bin/env bash
# A real S3 server for the tests: SeaweedFS (Apache-2.0) built from source, fetched from the Go
# module proxy as the module github.com/seaweedfs/seaweedfs at a pinned version (the module proxy
# checks it against the Go checksum database). No prebuilt binary is downloaded.
#
# `go install module@version` refuses this module (its go.mod has `replace` directives), so the
# script downloads the module, copies it to a writable temp dir and runs `go build ./weed` there.
# The first build takes ~10 minutes on 2 cores and fills ~2 GB of Go module cache; both the module
# cache and the binary live in a cache that outlives a checkout, so later runs only relink.
#
# Outputs:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/docintel/
#     go/                           GOPATH (and GOMODCACHE = go/pkg/mod, GOCACHE = go/build-cache)
#     seaweedfs/<version>/weed      the binary, renamed into place only once complete
#   <repo>/var/seaweedfs/weed -> that binary
#
# Environment: SEAWEEDFS_VERSION (default below), XDG_CACHE_HOME.
# Usage: server/scripts/fetch-seaweedfs.sh   (from anywhere; paths are relative to the repo root)
# See docs/deployment-notes-seaweedfs.md for how to start a server for the tests.
set -euo pipefail

module=github.com/seaweedfs/seaweedfs
version="${SEAWEEDFS_VERSION:-v0.0.0-20261109003541-7506e5f91cd6}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$here/../.." && pwd)"
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/docintel"
bin_dir="$cache_root/seaweedfs/$version"
bin="$bin_dir/weed"
link_dir="$repo_root/var/seaweedfs"
link="$link_dir/weed"

log() { printf '[fetch-seaweedfs] %s\n' "$*"; }
die() { printf '[fetch-seaweedfs] ERROR: %s\n' "$*" >&2; exit 1; }

make_link() {
  mkdir -p "$link_dir"
  ln -sfn "$bin" "$link"
  log "linked $link -> $bin"
}

if [[ -x "$bin" ]]; then
  log "SeaweedFS $version already built: $bin"
  make_link
  exit 0
fi

# --- Go -----------------------------------------------------------------------------------------
if ! command -v go >/dev/null 2>&1; then
  log "go not found; installing Debian's golang-go"
  command -v apt-get >/dev/null 2>&1 || die "go is missing and apt-get is not available"
  apt-get update -q >/dev/null || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q golang-go >/dev/null \
    || die "apt-get install golang-go failed"
fi
go_version="$(go env GOVERSION)"   # e.g. go1.24.4
log "using $(command -v go) ($go_version)"

export GOPATH="$cache_root/go"
export GOMODCACHE="$GOPATH/pkg/mod"
export GOCACHE="$GOPATH/build-cache"
export GOFLAGS="${GOFLAGS:-} -mod=mod"
export GOFLAGS="${GOFLAGS# }"
export CGO_ENABLED="${CGO_ENABLED:-0}"
mkdir -p "$GOPATH" "$bin_dir"

# --- download the module ------------------------------------------------------------------------
log "downloading $module@$version from the Go module proxy (first time: large)"
# GOTOOLCHAIN=local: this step only fetches the zip; the toolchain question is settled below.
json="$(GOTOOLCHAIN=local GOFLAGS= go mod download -json "$module@$version")" \
  || die "go mod download $module@$version failed: $json"
src="$(printf '%s' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' | head -n1)"
[[ -n "$src" && -f "$src/go.mod" ]] || die "no module directory in go mod download output: $json"
log "module source: $src"

# --- is this Go new enough? ---------------------------------------------------------------------
need="$(sed -n 's/^go[[:space:]]\{1,\}\([0-9][0-9.]*\).*/\1/p' "$src/go.mod" | head -n1)"
toolchain="$(sed -n 's/^toolchain[[:space:]]\{1,\}go\([0-9][0-9.]*\).*/\1/p' "$src/go.mod" | head -n1)"
have="${go_version#go}"
have="${have%%[!0-9.]*}"
log "module needs go >= ${need:-?}${toolchain:+ (toolchain go$toolchain)}; have $have"
older() { # older A B: A < B as dotted versions
  [[ "$1" != "$2" ]] && [[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" == "$1" ]]
}
# fetch_toolchain V: go V from the Go module proxy (module golang.org/toolchain, the same zip that
# GOTOOLCHAIN=auto uses), unpacked to a writable GOROOT under the cache; prints that GOROOT.
# For a go older than 1.21 (Debian 12's golang-go is 1.19), which knows no GOTOOLCHAIN.
fetch_toolchain() {
  local v="$1" goroot="$cache_root/go-toolchains/go$1" tjson tdir
  if [[ ! -x "$goroot/bin/go" ]]; then
    log "fetching golang.org/toolchain@v0.0.1-go$v.$(go env GOOS)-$(go env GOARCH) from the Go module proxy" >&2
    tjson="$(GOFLAGS= go mod download -json "golang.org/toolchain@v0.0.1-go$v.$(go env GOOS)-$(go env GOARCH)")" \
      || die "downloading the go $v toolchain failed: $tjson"
    tdir="$(printf '%s' "$tjson" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' | head -n1)"
    [[ -n "$tdir" && -f "$tdir/VERSION" ]] || die "no toolchain directory in: $tjson"
    rm -rf "$goroot.tmp" && mkdir -p "$(dirname "$goroot")"
    cp -r "$tdir" "$goroot.tmp" && chmod -R u+w "$goroot.tmp"
    chmod +x "$goroot.tmp"/bin/* "$goroot.tmp"/pkg/tool/*/*   # zips carry no file modes
    rm -rf "$goroot" && mv "$goroot.tmp" "$goroot"
  fi
  printf '%s\n' "$goroot"
}
if [[ -n "$need" ]] && older "$have" "$need"; then
  if older "$have" "1.21"; then
    log "go $have is older than the module's go $need and predates GOTOOLCHAIN: fetching go $need"
    goroot="$(fetch_toolchain "$need")"
    export PATH="$goroot/bin:$PATH" GOROOT="$goroot"
    log "using $(command -v go) ($(go env GOVERSION))"
    export GOTOOLCHAIN=local
  else
    log "go $have is older than the module's go $need: using GOTOOLCHAIN=auto (toolchain from the Go module proxy)"
    export GOTOOLCHAIN=auto
  fi
else
  export GOTOOLCHAIN=local
fi

# --- build in a writable copy -------------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/seaweedfs-build.XXXXXX")"
tmp_bin="$bin_dir/.weed.tmp.$$"
cleanup() { rm -rf "$work"; rm -f "$tmp_bin"; }
trap cleanup EXIT

log "copying the module source to $work"
cp -r "$src/." "$work/" || die "copying $src failed"
chmod -R u+w "$work"

start=$(date +%s)
log "building ./weed (first time ~10 minutes on 2 cores; set GOMAXPROCS/nice to go easy on the machine)"
(cd "$work" && go build -trimpath -ldflags="-s -w" -o "$tmp_bin" ./weed) \
  || die "go build of $module@$version failed"
"$tmp_bin" version >/dev/null 2>&1 || die "the built binary does not run ($tmp_bin version)"
mv -f "$tmp_bin" "$bin"
log "built $bin in $(( $(date +%s) - start )) s ($(du -h "$bin" | cut -f1)): $("$bin" version 2>/dev/null | head -n1)"

make_link
