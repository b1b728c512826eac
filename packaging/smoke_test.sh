#!/usr/bin/env bash
# Smoke test of a built bundle (default dist/bidwallet), run on a machine without the venv:
#
#   packaging/smoke_test.sh [BUNDLE_DIR]
#
# 1. `--version` prints "bidwallet VERSION" (and VERSION is pyproject.toml's, in a source tree)
# 2. `--help` works
# 3. the native libraries, Qt platform plugins and Qt Multimedia (the QR scan's camera)
# 4. `sandbox serve` prints its ready line, answers HTTP, and exits 0 on SIGTERM
# 5. the window opens on the offscreen platform and the app exits 0
# 6. `--sandbox --smoke-test`: the window on the sandbox funds the bidding wallet, places one
#    bid, prints `smoke-test ok bid=<id>` and exits 0 (app/ui/smoke_test.py)
# Runs with a throw-away HOME and no D-Bus session: it never touches your wallets or keychain.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BUNDLE=$(realpath "${1:-$HERE/../dist/bidwallet}")
BIN="$BUNDLE/bidwallet"
READY_TIMEOUT_S=${READY_TIMEOUT_S:-90}
GUI_TIMEOUT_S=${GUI_TIMEOUT_S:-300}

[ -x "$BIN" ] || { echo "smoke test: no bundle at $BUNDLE (run packaging/build.sh)" >&2; exit 1; }
WORK=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill -KILL "$server_pid" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_DATA_HOME="$WORK/home/.local/share"
export XDG_CACHE_HOME="$WORK/home/.cache" XDG_RUNTIME_DIR="$WORK/run" BIDWALLET_DATA_DIR="$WORK/data"
unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY BIDWALLET_STARTUP_PROBE
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"

step() { printf '%-58s' "$1"; }
ok() { echo "ok${1:+ ($1)}"; }
fail() { echo "FAILED"; echo "  $*" >&2; exit 1; }

step "--version"
version_line=$("$BIN" --version) || fail "exit code $?"
[[ "$version_line" =~ ^bidwallet\ [0-9] ]] || fail "unexpected output: $version_line"
version=${version_line#bidwallet }
if [ -f "$HERE/../pyproject.toml" ]; then
    expected=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$HERE/../pyproject.toml" | head -1)
    [ "$version" = "$expected" ] || fail "bundle says $version, pyproject.toml says $expected"
fi
ok "$version"

step "--help"
help=$("$BIN" --help) || fail "exit code $?"
grep -q "sandbox" <<<"$help" || fail "no sandbox command in --help"
ok

step "native libraries and Qt plugins in the bundle"
internal="$BUNDLE/_internal"
for f in embit/util/prebuilt/libsecp256k1_linux_"$(uname -m)".so pbk/_libs/libbitcoinkernel.so \
         PySide6/Qt/plugins/platforms/libqoffscreen.so PySide6/Qt/plugins/platforms/libqxcb.so \
         PySide6/Qt/plugins/platforms/libqwayland.so app/resources/styles \
         PySide6/Qt/plugins/multimedia/libffmpegmediaplugin.so PySide6/QtMultimedia.abi3.so; do
    [ -e "$internal/$f" ] || fail "missing _internal/$f"
done
ok

step "sandbox serve: ready line, HTTP, clean stop on SIGTERM"
mkfifo "$WORK/server.out"
timeout --signal=KILL 600 "$BIN" sandbox serve --port 0 --data "$WORK/sandbox" \
    > "$WORK/server.out" 2> "$WORK/server.log" &
server_pid=$!
exec 3< "$WORK/server.out"
read -r -t "$READY_TIMEOUT_S" line <&3 || fail "no ready line in ${READY_TIMEOUT_S} s: $(tail -5 "$WORK/server.log")"
[[ "$line" == "ready http://"* ]] || fail "first line is not the ready line: $line"
hostport=${line#ready http://}
exec 4<>"/dev/tcp/${hostport%:*}/${hostport##*:}"
printf 'GET /esplora/blocks/tip/height HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$hostport" >&4
response=$(cat <&4)
exec 4<&-
[[ "$response" == "HTTP/1.1 200"* ]] || fail "GET /esplora/blocks/tip/height: ${response%%$'\r'*}"
height=${response##*$'\n'}
kill -TERM "$server_pid"
set +e; wait "$server_pid"; code=$?; set -e
server_pid=""
exec 3<&-
[ "$code" = 0 ] || fail "exit code $code after SIGTERM: $(tail -5 "$WORK/server.log")"
ok "tip height $height"

step "window on the offscreen platform, exit 0"
set +e
out=$(QT_QPA_PLATFORM=offscreen BIDWALLET_STARTUP_PROBE=1 timeout "$GUI_TIMEOUT_S" "$BIN" 2>"$WORK/gui.log")
code=$?
set -e
[ "$code" = 0 ] || fail "exit code $code: $(tail -5 "$WORK/gui.log")"
grep -q "^window-shown" <<<"$out" || fail "the window was not shown: $out"
ok

step "--sandbox --smoke-test: one bid on the sandbox, exit 0"
set +e
out=$(QT_QPA_PLATFORM=offscreen timeout "$GUI_TIMEOUT_S" "$BIN" --sandbox --smoke-test 2>"$WORK/bid.log")
code=$?
set -e
if [ "$code" = 0 ] && grep -Eq "^smoke-test ok bid=[0-9a-f]{24}$" <<<"$out"; then
    ok "$(grep "^smoke-test ok" <<<"$out")"
else
    fail "exit code $code: $out $(grep "^smoke-test failed" "$WORK/bid.log" || tail -5 "$WORK/bid.log")"
fi
echo "smoke test passed: $BUNDLE"
