#!/usr/bin/env bash
# Installs the Debian packages docintel builds and runs with. Fast when all are present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config clang-format clang-tidy
  libpoco-dev libpqxx-dev nlohmann-json3-dev libvalijson-dev libssl-dev
  libgtest-dev libgmock-dev libopenblas-dev
  libre2-dev libpoppler-cpp-dev libtesseract-dev tesseract-ocr-eng libgumbo-dev libicu-dev libleptonica-dev libxapian-dev
  postgresql-15 postgresql-client-15
  wrk curl python3
  nodejs python3-venv chromium
  wkhtmltopdf poppler-utils pngquant
  libavformat-dev libavcodec-dev libswscale-dev libswresample-dev libavutil-dev ffmpeg espeak-ng
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
