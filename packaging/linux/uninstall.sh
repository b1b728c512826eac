#!/usr/bin/env bash
# Remove what install.sh installed (same PREFIX, default ~/.local). Your wallets, settings and
# logs (~/.local/share/bidwallet and ~/.config/Bidwallet) are kept: delete them yourself if
# you mean to, after moving any funds away.
set -euo pipefail
PREFIX=${PREFIX:-$HOME/.local}
APP_ID=io.bidwallet.Bidwallet
LIB="$PREFIX/lib/bidwallet"
BIN="$PREFIX/bin/bidwallet"
SHARE="$PREFIX/share"

if [ ! -d "$LIB" ] && [ ! -e "$SHARE/applications/$APP_ID.desktop" ]; then
    echo "uninstall.sh: Bidwallet is not installed in $PREFIX" >&2
    exit 1
fi
# Only our own link: never a `bidwallet` someone else put there.
if [ -L "$BIN" ] && [ "$(readlink "$BIN")" = "$LIB/bidwallet" ]; then
    rm -f "$BIN"
fi
rm -f "$SHARE/applications/$APP_ID.desktop" "$SHARE/metainfo/$APP_ID.metainfo.xml"
if [ -d "$SHARE/icons/hicolor" ]; then
    find "$SHARE/icons/hicolor" -path "*/apps/$APP_ID.*" -type f -delete
fi
rm -rf "$LIB"

command -v update-desktop-database >/dev/null && update-desktop-database -q "$SHARE/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$SHARE/icons/hicolor" 2>/dev/null || true
echo "Bidwallet removed from $PREFIX (wallets and settings kept)"
