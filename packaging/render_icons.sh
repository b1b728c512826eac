#!/usr/bin/env bash
# Render the application icon (resources/icons/bidwallet.svg) into the freedesktop hicolor
# theme layout under resources/icons/hicolor/, named after the application id. Run it after
# editing the SVG and commit the PNGs (tests/packaging/test_icons.py compares them to the SVG).
# Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/.."

APP_ID=io.bidwallet.Bidwallet
SOURCE=resources/icons/bidwallet.svg
OUT=resources/icons/hicolor
SIZES=(16 24 32 48 64 128 256 512)

command -v rsvg-convert >/dev/null || {
    echo "rsvg-convert not found: apt-get install librsvg2-bin" >&2; exit 1; }
mkdir -p "$OUT/scalable/apps"
cp "$SOURCE" "$OUT/scalable/apps/$APP_ID.svg"
for size in "${SIZES[@]}"; do
    mkdir -p "$OUT/${size}x${size}/apps"
    rsvg-convert --width "$size" --height "$size" --keep-aspect-ratio \
        --output "$OUT/${size}x${size}/apps/$APP_ID.png" "$SOURCE"
done
echo "rendered ${SIZES[*]} px icons into $OUT"
