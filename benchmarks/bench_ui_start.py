"""Start of the desktop app: time from process start to the main window shown, and resident
memory then (the sandbox start to a usable wallet: bench_ui_ready.py).

Each run spawns `python -m app` on the offscreen platform with BIDWALLET_STARTUP_PROBE set
(app/ui/startup_probe.py): the app prints CLOCK_MONOTONIC (shared by every process on Linux)
once the window is shown and its first events are processed, plus VmRSS, then closes.
Scenarios:
- "profile": an existing custom profile with a locked key (the usual start);
- "first run": no profile (the window shows, the first-run dialog follows);
- "offline": the offline signer.

Run: .venv/bin/python -m benchmarks.bench_ui_start [--runs 7]
Target: window shown in under 1.5 s.
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

from app.services.profiles import AppProfile, AppSettings, ProfileStore, ServiceKind
from app.services.session import layout_for_preset
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import MnemonicSecret, ProfileMeta

REPO = Path(__file__).resolve().parents[1]
TARGET_S = 1.5


def prepare_profile(data_dir: Path) -> None:
    meta = ProfileMeta(name="Main key", network="regtest", layout=layout_for_preset("okx"))
    Vault(FileStore(data_dir)).create(meta, MnemonicSecret("abandon " * 11 + "about"), "pw")
    profile = AppProfile(
        name="Main",
        kind=ServiceKind.CUSTOM,
        network="regtest",
        marketplace_url="http://127.0.0.1:9/v1",
        esplora_url="http://127.0.0.1:9/esplora",
        ord_url="http://127.0.0.1:9/ord",
        key_name="Main key",
    )
    ProfileStore(data_dir).save(AppSettings().with_profile(profile).with_active("Main"))


def one_start(data_dir: Path, args: list[str]) -> tuple[float, int]:
    env = dict(os.environ)
    env |= {
        "QT_QPA_PLATFORM": "offscreen",
        "BIDWALLET_STARTUP_PROBE": "1",
        "BIDWALLET_DATA_DIR": str(data_dir),
        "XDG_CONFIG_HOME": str(data_dir / "config"),  # window state: not the user's own
    }
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    for line in result.stdout.splitlines():
        if line.startswith("window-shown "):
            _, shown, _, rss = line.split()
            return float(shown) - started, int(rss)
    raise SystemExit(f"no startup report (exit {result.returncode}):\n{result.stderr[-2000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        prepare_profile(root / "profile")
        scenarios = {
            "profile": (root / "profile", []),
            "first run": (root / "empty", []),
            "offline": (root / "profile", ["--offline"]),
        }
        one_start(root / "warm", ["--offline"])  # warm the OS file cache once
        print(f"UI start, {runs} runs each (median; min-max), target < {TARGET_S} s")
        for name, (data_dir, args) in scenarios.items():
            samples = [one_start(data_dir, args) for _ in range(runs)]
            times = [s for s, _ in samples]
            rss = statistics.median(r for _, r in samples) / 1024
            median = statistics.median(times)
            verdict = "ok" if median < TARGET_S else "OVER TARGET"
            print(
                f"  {name:<10} window shown {median * 1000:6.0f} ms "
                f"({min(times) * 1000:.0f}-{max(times) * 1000:.0f}), RSS {rss:5.1f} MiB  {verdict}"
            )


if __name__ == "__main__":
    main()
