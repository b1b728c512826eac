"""Our window against Electrum's, side by side on this machine: time from process start to the
main window shown, each on the offscreen platform, runs interleaved (ours, Electrum's, ours, ...)
so both meet the same load. Two comparisons: with every module's bytecode cached (as installed
apps run), and with each app's own sources compiled at every start (as both run from their
source trees on this machine, where PYTHONDONTWRITEBYTECODE=1). Not part of CI: it needs an
Electrum install of its own.

Ours: `python -m app` with an existing profile and a locked key (bench_ui_start's "profile"
scenario), timed by BIDWALLET_STARTUP_PROBE. Electrum: `electrum --regtest --offline` opening a
fresh regtest wallet made by `electrum --regtest --offline create` (no password, so it opens
straight into the main window), timed by a wrapper that does what our probe does: once the
first QMainWindow's show() has run, a zero-delay QTimer (the first events processed) prints
CLOCK_MONOTONIC, then the process exits. Both are measured from just before the process is
spawned, by the same clock.

Electrum lives in its own venv (default /tmp/electrum-venv, or ELECTRUM_VENV): its source from
github.com/spesmilo/electrum, `pip install -r contrib/requirements/requirements.txt
-r contrib/requirements/requirements-binaries.txt` (PyQt6, cryptography), libsecp256k1 from
Debian's libsecp256k1-dev with ELECTRUM_ECC_DONT_COMPILE=1, then `pip install --no-deps -e .`.

A third row, the toolkit's floor: an empty window made with what ours cannot start without
(PySide6's widgets, its `Qt` namespace, qasync and asyncio), its seven empty tabs, menu and status
bar, shown under the qasync loop and timed the same way. What our window adds is the difference.

Run: .venv/bin/python -m benchmarks.bench_ui_vs_electrum [--runs 7]
Target: ours / Electrum's <= 0.35 (medians).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_ui_start import one_start, prepare_profile
from benchmarks.bytecode_modes import bytecode_mode, bytecode_modes, load_average

TARGET_RATIO = 0.35
ELECTRUM_VENV = Path(os.environ.get("ELECTRUM_VENV", "/tmp/electrum-venv"))

# Runs Electrum's own launcher after hooking QMainWindow.show, the way our probe reports.
PROBE_WRAPPER = """\
import os, runpy, sys, time
from PyQt6.QtCore import QTimer
from PyQt6.QtWidgets import QMainWindow

_show = QMainWindow.show
_reported = []


def show(self):
    _show(self)
    if not _reported:
        _reported.append(self)

        def report():
            print(f"window-shown {time.monotonic():.6f} {type(self).__name__}", flush=True)
            os._exit(0)

        QTimer.singleShot(0, report)


QMainWindow.show = show
launcher = os.path.join(os.path.dirname(sys.executable), "electrum")
sys.argv = [launcher, *sys.argv[1:]]
runpy.run_path(launcher, run_name="__main__")
"""


# The toolkit's floor: what any PySide6 + qasync window pays before it is shown.
FLOOR_WINDOW = """\
import asyncio, os, sys, time
import qasync
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QTabWidget

app = QApplication(sys.argv[:1])
loop = qasync.QEventLoop(app)
asyncio.set_event_loop(loop)
window = QMainWindow()
tabs = QTabWidget()
for title in ("Wallet", "Bid", "Open bids", "Withdraw", "Inscription bid", "Listings", "Activity"):
    tabs.addTab(QLabel(title, alignment=Qt.AlignmentFlag.AlignCenter), title)
window.setCentralWidget(tabs)
window.menuBar().addMenu("File")
window.statusBar().showMessage("Ready")
window.resize(1000, 660)
window.show()


def report():
    print(f"window-shown {time.monotonic():.6f}", flush=True)
    os._exit(0)


QTimer.singleShot(0, report)
with loop:
    loop.run_forever()
"""


def electrum_python() -> Path | None:
    python = ELECTRUM_VENV / "bin" / "python"
    launcher = ELECTRUM_VENV / "bin" / "electrum"
    return python if python.exists() and launcher.exists() else None


def offscreen_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env |= {"QT_QPA_PLATFORM": "offscreen", "HOME": str(home), "XDG_CONFIG_HOME": str(home)}
    return env


def create_electrum_wallet(python: Path, data_dir: Path) -> None:
    launcher = str(python.parent / "electrum")
    command = [str(python), launcher, "--regtest", "-D", str(data_dir), "--offline", "create"]
    subprocess.run(
        command,
        env=offscreen_env(data_dir),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=True,
        timeout=120,
    )


def electrum_start(python: Path, wrapper: Path, data_dir: Path) -> float:
    return probed_start(
        [str(python), str(wrapper), "--regtest", "-D", str(data_dir), "--offline"], data_dir
    )


def floor_start(script: Path) -> float:
    return probed_start([sys.executable, str(script)], script.parent)


def probed_start(command: list[str], home: Path) -> float:
    """Seconds from spawning `command` to its `window-shown` report."""
    started = time.monotonic()
    result = subprocess.run(
        command,
        env=offscreen_env(home),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    for line in result.stdout.splitlines():
        if line.startswith("window-shown "):
            return float(line.split()[1]) - started
    raise SystemExit(
        f"{command[1]} gave no report (exit {result.returncode}):\n{result.stderr[-2000:]}"
    )


def spread(samples: list[float]) -> str:
    median = statistics.median(samples)
    return f"{median * 1000:6.0f} ms ({min(samples) * 1000:.0f}-{max(samples) * 1000:.0f})"


def compare(
    python: Path, wrapper: Path, root: Path, runs: int
) -> tuple[list[float], list[float], list[float]]:
    """Ours, Electrum's and the toolkit floor's start times, interleaved."""
    floor = root / "probe" / "floor_window.py"
    one_start(root / "warm", ["--offline"])  # warm the OS file cache (and bytecode cache) once
    one_start(root / "ours", [])
    electrum_start(python, wrapper, root / "electrum-data")
    floor_start(floor)
    ours: list[float] = []
    theirs: list[float] = []
    floors: list[float] = []
    for _ in range(runs):
        ours.append(one_start(root / "ours", [])[0])
        theirs.append(electrum_start(python, wrapper, root / "electrum-data"))
        floors.append(floor_start(floor))
    return ours, theirs, floors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    python = electrum_python()
    if python is None:
        print(
            f"skipped: no Electrum venv at {ELECTRUM_VENV} (set ELECTRUM_VENV, or install it as "
            "this file's docstring says)"
        )
        return
    print(f"window shown, {runs} interleaved runs each (median; min-max), offscreen")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        prepare_profile(root / "ours")
        create_electrum_wallet(python, root / "electrum-data")
        # Its own folder: the script's folder is first on sys.path, so none named "electrum".
        (root / "probe").mkdir()
        wrapper = root / "probe" / "electrum_probe.py"
        wrapper.write_text(PROBE_WRAPPER)
        (root / "probe" / "floor_window.py").write_text(FLOOR_WINDOW)
        for mode, changes in bytecode_modes(root).items():
            with bytecode_mode(changes):
                load = load_average()
                ours, theirs, floors = compare(python, wrapper, root, runs)
            ratio = statistics.median(ours) / statistics.median(theirs)
            verdict = "ok" if ratio <= TARGET_RATIO else "OVER TARGET"
            print(f"- {mode} (load average before: {load})")
            print(f"  Bidwallet (profile, locked key)     {spread(ours)}")
            print(f"  Electrum (regtest wallet, offline)  {spread(theirs)}")
            print(f"  toolkit floor (empty PySide6+qasync window) {spread(floors)}")
            print(f"  ratio of medians {ratio:.2f}, target <= {TARGET_RATIO}  {verdict}")
            floor_ratio = statistics.median(floors) / statistics.median(theirs)
            added = (statistics.median(ours) - statistics.median(floors)) * 1000
            print(f"  the floor alone is {floor_ratio:.2f} of Electrum's; ours adds {added:.0f} ms")
            # On a shared machine the least disturbed runs say more than the middle ones.
            print(f"  ratio of minima {min(ours) / min(theirs):.2f}")
    print(f"  (2 cores; load average after: {load_average()})")


if __name__ == "__main__":
    main()
