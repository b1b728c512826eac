#!/usr/bin/env bash
# Pack the one-folder bundle with its desktop integration into a tarball for Linux users:
#
#   packaging/make_tarball.sh [BUNDLE_DIR] [OUT_DIR]     (defaults: dist/bidwallet dist)
#
# Writes OUT_DIR/bidwallet-VERSION-linux-ARCH.tar.gz holding bidwallet-VERSION-linux-ARCH/ with
# the bundle (bidwallet/), share/ (the .desktop file, AppStream metainfo, hicolor icons),
# install.sh and uninstall.sh (they install into ~/.local; see packaging/README.md).
# VERSION is what the bundle itself reports with --version.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BUNDLE=$(realpath "${1:-$ROOT/dist/bidwallet}")
OUT=$(realpath -m "${2:-$ROOT/dist}")
APP_ID=io.bidwallet.Bidwallet

[ -x "$BUNDLE/bidwallet" ] || { echo "no bundle at $BUNDLE (run packaging/build.sh)" >&2; exit 1; }
version_line=$("$BUNDLE/bidwallet" --version)
VERSION=${version_line#bidwallet }
[[ "$VERSION" =~ ^[0-9A-Za-z.+-]+$ ]] || { echo "odd version from the bundle: $version_line" >&2; exit 1; }
NAME="bidwallet-$VERSION-linux-$(uname -m)"

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
DIR="$STAGE/$NAME"
mkdir -p "$DIR/share/applications" "$DIR/share/metainfo" "$DIR/share/icons"
cp -a "$BUNDLE" "$DIR/bidwallet"
cp "$HERE/linux/$APP_ID.desktop" "$DIR/share/applications/"
cp "$HERE/linux/$APP_ID.metainfo.xml" "$DIR/share/metainfo/"
cp -r "$ROOT/resources/icons/hicolor" "$DIR/share/icons/"
install -m 0755 "$HERE/linux/install.sh" "$HERE/linux/uninstall.sh" "$DIR/"
cat > "$DIR/README.txt" <<TXT
Bidwallet $VERSION for Linux ($(uname -m))

  ./install.sh      install into ~/.local (or PREFIX=/some/dir ./install.sh)
  ./uninstall.sh    remove it again (your wallets and settings are kept)

Or run it from here without installing: ./bidwallet/bidwallet
TXT

mkdir -p "$OUT"
# Sorted names, fixed owner and no gzip timestamp: the same bundle packs to the same bytes.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@${SOURCE_DATE_EPOCH:-0}" \
    -C "$STAGE" -cf - "$NAME" | gzip -n -6 > "$OUT/$NAME.tar.gz"
echo "tarball: $OUT/$NAME.tar.gz ($(du -h "$OUT/$NAME.tar.gz" | cut -f1))"
