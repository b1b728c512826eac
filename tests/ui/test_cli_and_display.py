"""The command line around the window: no display gives one clear line and a non-zero exit
(never a Qt abort); --help and --version stay true; --offline and --sandbox exclude each other."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import __version__
from app.__main__ import NO_DISPLAY_EXIT_CODE
from app.ui import strings
from app.ui.display import missing_display_message

REPO = Path(__file__).resolve().parents[2]


def run_app(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def stripped_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("QT_QPA_PLATFORM", None)
    env["BIDWALLET_DATA_DIR"] = str(tmp_path / "data")
    return env


def test_without_a_display_one_clear_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    result = run_app(env=stripped_env(tmp_path))
    assert result.returncode == NO_DISPLAY_EXIT_CODE
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines == [strings.NO_DISPLAY]
    assert "QT_QPA_PLATFORM=offscreen" in lines[0] and "xvfb-run" in lines[0]
    assert not (tmp_path / "data").exists()  # nothing was started or written


def test_xcb_without_display_is_caught_too(tmp_path: Path) -> None:
    env = stripped_env(tmp_path) | {"QT_QPA_PLATFORM": "xcb"}
    result = run_app("--offline", env=env)
    assert result.returncode == NO_DISPLAY_EXIT_CODE
    assert result.stderr.splitlines() == [strings.NO_DISPLAY]


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, strings.NO_DISPLAY),
        ({"DISPLAY": ":0"}, None),
        ({"WAYLAND_DISPLAY": "wayland-0"}, None),
        ({"QT_QPA_PLATFORM": "offscreen"}, None),
        ({"QT_QPA_PLATFORM": "xcb"}, strings.NO_DISPLAY),
        ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "wayland-0"}, strings.NO_DISPLAY),
        ({"QT_QPA_PLATFORM": "wayland"}, strings.NO_DISPLAY),
        ({"QT_QPA_PLATFORM": "wayland;xcb", "WAYLAND_DISPLAY": "w"}, None),
        ({"QT_QPA_PLATFORM": "vnc:size=800x600"}, None),
    ],
)
def test_display_rules(env: dict[str, str], expected: str | None) -> None:
    assert missing_display_message(env, platform="linux") == expected


def test_other_systems_always_have_a_display() -> None:
    assert missing_display_message({}, platform="win32") is None
    assert missing_display_message({}, platform="darwin") is None


def test_help_and_version_stay_true(tmp_path: Path) -> None:
    env = stripped_env(tmp_path)
    version = run_app("--version", env=env)
    assert version.returncode == 0 and version.stdout.strip() == f"bidwallet {__version__}"
    help_text = run_app("--help", env=env)
    assert help_text.returncode == 0
    for option in ("--sandbox", "--offline", "sandbox"):
        assert option in help_text.stdout
    both = run_app("--offline", "--sandbox", env=env)
    assert both.returncode == 2 and "not allowed with" in both.stderr
