#!/usr/bin/env bash
# Install Bidwallet from this unpacked tarball for the current user:
#   ./install.sh                   into ~/.local
#   PREFIX=/opt/bidwallet ./install.sh
# Puts the bundle in PREFIX/lib/bidwallet, a `bidwallet` link in PREFIX/bin, and the menu
# entry, icons and AppStream metainfo under PREFIX/share. Installing again replaces the
# previous version. Your wallets and settings (~/.local/share/bidwallet) are not touched.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-$HOME/.local}
APP_ID=io.bidwallet.Bidwallet
LIB="$PREFIX/lib/bidwallet"
BIN="$PREFIX/bin/bidwallet"
SHARE="$PREFIX/share"

[ -x "$HERE/bidwallet/bidwallet" ] || { echo "install.sh: no bundle next to me ($HERE/bidwallet)" >&2; exit 1; }
case "$PREFIX" in
    /*) ;;
    *) echo "install.sh: PREFIX must be an absolute path, not '$PREFIX'" >&2; exit 1 ;;
esac
case "$PREFIX" in
    *[\"\`\$\\%]*) echo "install.sh: PREFIX holds a character a .desktop Exec line cannot carry" >&2; exit 1 ;;
esac

mkdir -p "$PREFIX/lib" "$PREFIX/bin" "$SHARE/applications" "$SHARE/metainfo"
# Copy next to the old version first, then swap: a failed copy leaves the old one working.
rm -rf "$LIB.new"
cp -a "$HERE/bidwallet" "$LIB.new"
install -m 0755 "$HERE/uninstall.sh" "$LIB.new/uninstall.sh"
rm -rf "$LIB"
mv "$LIB.new" "$LIB"
ln -sfn "$LIB/bidwallet" "$BIN"

# The menu entry starts the installed binary by absolute path: ~/.local/bin is not always on
# the PATH of a desktop session.
sed -e "s|^Exec=bidwallet|Exec=\"$BIN\"|" -e "s|^TryExec=bidwallet\$|TryExec=$BIN|" \
    "$HERE/share/applications/$APP_ID.desktop" > "$SHARE/applications/$APP_ID.desktop"
cp "$HERE/share/metainfo/$APP_ID.metainfo.xml" "$SHARE/metainfo/"
(cd "$HERE/share/icons" && find hicolor -name "$APP_ID.*" -type f) | while read -r icon; do
    mkdir -p "$SHARE/icons/$(dirname "$icon")"
    cp "$HERE/share/icons/$icon" "$SHARE/icons/$icon"
done

# Refresh the desktop's caches where the tools exist; a missing tool only delays the menu entry.
command -v update-desktop-database >/dev/null && update-desktop-database -q "$SHARE/applications" || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$SHARE/icons/hicolor" 2>/dev/null || true

echo "Bidwallet $("$BIN" --version | cut -d' ' -f2) installed in $LIB"
case ":$PATH:" in
    *":$PREFIX/bin:"*) echo "run it with: bidwallet (or from your applications menu)" ;;
    *) echo "run it with: $BIN ($PREFIX/bin is not on your PATH)" ;;
esac
echo "uninstall with: $LIB/uninstall.sh"
