#!/usr/bin/env bash
# Screenshot the API reference (/docs) of a running `make run` server with
# Debian's chromium, headless, to show that the page renders offline.
#
#   tools/docs-screenshot.sh [URL] [OUT.png]
#
# URL defaults to http://127.0.0.1:${PORT:-3000}/docs and OUT to
# .local/docs-screenshot.png (git-ignored). Installs nothing: it needs chromium
# (as root: apt-get install -y chromium) and a running server (make run).
set -euo pipefail

url=${1:-http://127.0.0.1:${PORT:-3000}/docs}
out=${2:-.local/docs-screenshot.png}

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium is not installed; as root: apt-get install -y chromium" >&2
  exit 1
fi
if ! curl -fsS -o /dev/null "$url"; then
  echo "nothing answers at $url: start the server first (make run)" >&2
  exit 1
fi

# A fresh profile, and no traffic of the browser's own (updates, sync,
# field trials): the page must render from the server alone.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
case "$out" in /*) abs=$out ;; *) abs=$PWD/$out ;; esac
mkdir -p "$(dirname "$abs")"

"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --hide-scrollbars \
  --window-size=1280,2000 --virtual-time-budget=10000 \
  --screenshot="$abs" "$url" 2>"$profile/chromium.log" || {
  cat "$profile/chromium.log" >&2
  exit 1
}
if [ ! -s "$abs" ]; then
  echo "chromium wrote no screenshot" >&2
  cat "$profile/chromium.log" >&2
  exit 1
fi
echo "wrote $abs ($(stat -c %s "$abs") bytes) from $url"
