"""`write_whole` in an export folder that came on someone else's USB stick: a file planted
beside the one being written (a symlink named as its `.partial`) must not make the write land
outside the folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.services.offline_files import write_whole


@pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
def test_a_planted_partial_symlink_is_not_written_through(tmp_path: Path) -> None:
    folder, outside = tmp_path / "export", tmp_path / "home-file"
    folder.mkdir()
    outside.write_bytes(b"the user's own file\n")
    (folder / "01-withdraw.signed.psbt.partial").symlink_to(outside)

    write_whole(folder / "01-withdraw.signed.psbt", b"signed bytes")

    assert outside.read_bytes() == b"the user's own file\n"
    assert (folder / "01-withdraw.signed.psbt").read_bytes() == b"signed bytes"
    assert not (folder / "01-withdraw.signed.psbt").is_symlink()
    assert not (folder / "01-withdraw.signed.psbt.partial").exists()


def test_a_stale_partial_file_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "manifest.json.partial").write_bytes(b"half")
    write_whole(tmp_path / "manifest.json", b"{}")
    assert (tmp_path / "manifest.json").read_bytes() == b"{}"
    assert not (tmp_path / "manifest.json.partial").exists()
