#!/bin/sh
# Rebuilds handbook.pdf (three pages, one section per page) from handbook.html.
set -e
cd "$(dirname "$0")"
wkhtmltopdf -q handbook.html handbook.pdf
