"""`bidwallet --version` reports the version of the package metadata, the same as the wheel."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

from tests.packaging.manifest_file import ROOT
from tests.packaging.wheel import wheel_version


def cli_version() -> str:
    result = subprocess.run(
        [sys.executable, "-m", "app", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=ROOT,
    )
    name, _, version = result.stdout.strip().partition(" ")
    assert name == "bidwallet", result.stdout
    return version


def test_wheel_and_cli_report_the_same_version(built_wheel: Path) -> None:
    version = wheel_version(built_wheel)
    assert version == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert cli_version() == version == importlib.metadata.version("bidwallet")


def test_wheel_carries_the_resources_and_the_entry_point(built_wheel: Path) -> None:
    with zipfile.ZipFile(built_wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        scripts = archive.read(entry_points).decode()
    assert "app/resources/icons/bidwallet.svg" in names
    assert any(n.startswith("app/resources/styles/") and n.endswith(".qss") for n in names)
    assert "bidwallet = app.__main__:main" in scripts
