"""make_tarball.sh, then install.sh and uninstall.sh from the tarball, into a temporary HOME.

A small stand-in bundle (a `bidwallet` script that answers --version like the real one) keeps
this fast; test_bundle_smoke.py runs the real bundle."""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.packaging.manifest_file import PACKAGING, load_manifest

APP_ID = load_manifest().APP_ID
VERSION = "9.8.7"


def run(command: list[str], env: dict[str, str], **kwargs: object) -> str:
    result = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=120, check=False, **kwargs
    )  # type: ignore[call-overload]
    assert result.returncode == 0, result.stdout + result.stderr
    return str(result.stdout)


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture()
def env(home: Path) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "TMPDIR")}
    return {**keep, "HOME": str(home)}


@pytest.fixture()
def unpacked(tmp_path: Path, env: dict[str, str]) -> Path:
    bundle = tmp_path / "bundle"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "_internal" / "marker").write_text("bundle file")
    launcher = bundle / "bidwallet"
    launcher.write_text(f'#!/bin/sh\n[ "$1" = --version ] && echo "bidwallet {VERSION}"\n')
    launcher.chmod(0o755)
    out = tmp_path / "out"
    run([str(PACKAGING / "make_tarball.sh"), str(bundle), str(out)], env)
    tarballs = list(out.glob("*.tar.gz"))
    assert [t.name for t in tarballs] == [f"bidwallet-{VERSION}-linux-{os.uname().machine}.tar.gz"]
    with tarfile.open(tarballs[0]) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (top,) = (tmp_path / "unpacked").iterdir()
    return top


def installed_files(home: Path) -> set[str]:
    return {str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() or p.is_symlink()}


def test_tarball_holds_the_bundle_and_the_desktop_integration(unpacked: Path) -> None:
    assert (unpacked / "bidwallet" / "_internal" / "marker").is_file()
    assert (unpacked / "share/applications" / f"{APP_ID}.desktop").is_file()
    assert (unpacked / "share/metainfo" / f"{APP_ID}.metainfo.xml").is_file()
    assert (unpacked / "share/icons/hicolor/512x512/apps" / f"{APP_ID}.png").is_file()
    assert os.access(unpacked / "install.sh", os.X_OK)
    assert os.access(unpacked / "uninstall.sh", os.X_OK)


def test_install_then_uninstall(unpacked: Path, home: Path, env: dict[str, str]) -> None:
    local = home / ".local"
    data = local / "share" / "bidwallet" / "vault.json"  # the user's wallets
    data.parent.mkdir(parents=True)
    data.write_text("{}")
    before = installed_files(home)
    run([str(unpacked / "install.sh")], env)

    binary = local / "bin" / "bidwallet"
    assert binary.is_symlink()
    assert run([str(binary), "--version"], env).strip() == f"bidwallet {VERSION}"
    desktop = (local / "share/applications" / f"{APP_ID}.desktop").read_text()
    assert f'Exec="{binary}"\n' in desktop and f'Exec="{binary}" --sandbox' in desktop
    assert f"TryExec={binary}\n" in desktop
    if shutil.which("desktop-file-validate"):
        run(["desktop-file-validate", str(local / "share/applications" / f"{APP_ID}.desktop")], env)
    assert (local / "share/metainfo" / f"{APP_ID}.metainfo.xml").is_file()
    for size in ("16x16", "48x48", "512x512", "scalable"):
        assert list((local / "share/icons/hicolor" / size / "apps").glob(f"{APP_ID}.*"))

    run([str(unpacked / "install.sh")], env)  # installing again replaces the old copy
    assert not (local / "lib" / "bidwallet.new").exists()

    run([str(local / "lib/bidwallet/uninstall.sh")], env)
    left = installed_files(home) - before
    # Only the desktop's shared caches (refreshed, not owned by us) may stay behind.
    caches = ("mimeinfo.cache", "icon-theme.cache")
    assert {f for f in left if not f.endswith(caches)} == set()
    assert data.read_text() == "{}"


def test_uninstall_keeps_a_foreign_bidwallet_link(
    unpacked: Path, home: Path, env: dict[str, str]
) -> None:
    run([str(unpacked / "install.sh")], env)
    link = home / ".local/bin/bidwallet"
    link.unlink()
    link.symlink_to("/usr/bin/true")
    run([str(unpacked / "uninstall.sh")], env)
    assert link.is_symlink()
    assert not (home / ".local/lib/bidwallet").exists()


def test_install_refuses_a_relative_prefix(unpacked: Path, env: dict[str, str]) -> None:
    result = subprocess.run(
        [str(unpacked / "install.sh")],
        env={**env, "PREFIX": "relative/dir"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "absolute path" in result.stderr
