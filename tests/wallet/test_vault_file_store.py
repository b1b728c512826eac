"""The vault file: location, permissions, atomic replacement, damaged files."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from app.wallet import vault_file_store
from app.wallet.vault_errors import (
    CorruptVaultError,
    UnsupportedVaultVersionError,
    VaultStorageError,
)
from app.wallet.vault_file_store import DATA_DIR_ENV, FileStore, default_data_dir

posix_only = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


def test_data_dir_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "from-env"))
    assert default_data_dir() == tmp_path / "from-env"
    store = FileStore()
    store.set("k", "v")
    assert (tmp_path / "from-env" / "vault.json").is_file()
    assert FileStore(tmp_path / "explicit").path == tmp_path / "explicit" / "vault.json"


def test_data_dir_default_is_platform_user_data(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    assert default_data_dir().name.lower() == "bidwallet"


def test_entries_round_trip(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    assert store.get("missing") is None
    assert not store.holds_unlock_keys
    store.set("a", "1")
    store.set("b", "2")
    assert FileStore(tmp_path).get("a") == "1"
    assert store.delete("a")
    assert not store.delete("a")
    doc = json.loads((tmp_path / "vault.json").read_text())
    assert doc == {"format": "bidwallet-vault-file", "version": 1, "entries": {"b": "2"}}


@posix_only
def test_file_and_directory_modes(tmp_path: Path) -> None:
    old_umask = os.umask(0o022)
    try:
        store = FileStore(tmp_path / "new-dir")
        store.set("a", "1")
        store.set("a", "2")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700


def test_failed_write_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = FileStore(tmp_path)
    store.set("a", "old")

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(vault_file_store.os, "fsync", broken_fsync)
    with pytest.raises(VaultStorageError, match="No space left"):
        store.set("a", "new")
    monkeypatch.undo()
    assert store.get("a") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vault.json"]


@pytest.mark.parametrize(
    ("content", "error"),
    [
        ('{"format": "bidwallet-vault-file", "version": 1, "entr', CorruptVaultError),
        ("", CorruptVaultError),
        ('{"format": "something-else"}', CorruptVaultError),
        (
            '{"format": "bidwallet-vault-file", "version": 1, "entries": {"a": 1}}',
            CorruptVaultError,
        ),
        (
            '{"format": "bidwallet-vault-file", "version": 2, "entries": {}}',
            UnsupportedVaultVersionError,
        ),
    ],
)
def test_damaged_files(tmp_path: Path, content: str, error: type[Exception]) -> None:
    (tmp_path / "vault.json").write_text(content)
    with pytest.raises(error, match=r"vault\.json"):
        FileStore(tmp_path).get("a")


def test_unreadable_file(tmp_path: Path) -> None:
    (tmp_path / "vault.json").mkdir()
    with pytest.raises(VaultStorageError, match="cannot read"):
        FileStore(tmp_path).get("a")
