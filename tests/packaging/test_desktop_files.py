"""The freedesktop menu entry and the AppStream metainfo: valid for Debian's validators and
consistent with the app id, the icon and the package version."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET

import pytest

from tests.packaging.manifest_file import LINUX, ROOT, load_manifest

APP_ID = load_manifest().APP_ID
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"


def _run_validator(*command: str) -> subprocess.CompletedProcess[str]:
    tool = shutil.which(command[0])
    if tool is None:
        pytest.skip(f"{command[0]} is not installed (Debian: see packaging/README.md)")
    return subprocess.run(
        [tool, *command[1:]], capture_output=True, text=True, timeout=60, check=False
    )


def test_desktop_file_validates() -> None:
    result = _run_validator("desktop-file-validate", str(DESKTOP))
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


def test_metainfo_validates() -> None:
    result = _run_validator("appstreamcli", "validate", "--no-net", str(METAINFO))
    assert result.returncode == 0, result.stdout + result.stderr
    # Errors and warnings fail; infos and pedantic notes (e.g. a tag newer than this
    # appstream knows) do not.
    assert not [line for line in result.stdout.splitlines() if line[:2] in ("E:", "W:")]


def test_desktop_entry_starts_bidwallet_with_the_app_icon() -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(DESKTOP)
    entry = parser["Desktop Entry"]
    assert entry["Exec"].split()[0] == entry["TryExec"] == "bidwallet"
    assert entry["Icon"] == APP_ID
    assert (ROOT / "resources/icons/hicolor/scalable/apps" / f"{APP_ID}.svg").is_file()
    actions = [a for a in entry["Actions"].split(";") if a]
    for action in actions:
        assert parser[f"Desktop Action {action}"]["Exec"].startswith("bidwallet --")


def test_metainfo_names_the_desktop_file_and_the_current_version() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == DESKTOP.name
    assert root.findtext("provides/binary") == "bidwallet"
    newest = root.find("releases/release")
    assert newest is not None
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert newest.get("version") == version, "add a <release> for the new version"
