#!/usr/bin/env bash
# Build the one-folder bundle dist/bidwallet/ and the tarball dist/bidwallet-VERSION-linux-ARCH.tar.gz.
#
#   packaging/build.sh            bundle + tarball
#   packaging/build.sh --bundle   bundle only
#
# Uses the project's .venv (created and filled by ./dev, or here when missing) and installs
# PyInstaller into it if it is not there. Linux only: PyInstaller does not cross-compile.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
VENV=.venv
PYINSTALLER_SPEC="pyinstaller>=6.10,<7"

if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e .
fi
if ! "$VENV/bin/python" -c "import PyInstaller" 2>/dev/null; then
    echo "installing PyInstaller into $VENV"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check "$PYINSTALLER_SPEC"
fi

start=$(date +%s)
"$VENV/bin/python" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath dist --workpath build/pyinstaller packaging/pyinstaller/bidwallet.spec
echo "bundle: dist/bidwallet ($(du -sh dist/bidwallet | cut -f1), $(( $(date +%s) - start )) s)"

if [ "${1:-}" != "--bundle" ]; then
    packaging/make_tarball.sh dist/bidwallet dist
fi
