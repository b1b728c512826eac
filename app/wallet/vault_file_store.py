"""The vault file: used when no usable OS keychain exists. One JSON file (mode 0600) in the user's
data directory holds the vault's entries, all of them either encrypted or non-secret; it never
receives a remembered unlock key. Every write replaces the file atomically."""

from __future__ import annotations

import json
import logging
import os
import secrets
from pathlib import Path
from typing import Any, Final

from app.data_dir import DATA_DIR_ENV as DATA_DIR_ENV
from app.data_dir import default_data_dir as default_data_dir
from app.wallet.vault_errors import (
    CorruptVaultError,
    UnsupportedVaultVersionError,
    VaultStorageError,
)

log = logging.getLogger(__name__)

VAULT_FILE_NAME: Final = "vault.json"
FILE_FORMAT: Final = "bidwallet-vault-file"
FILE_VERSION: Final = 1


class FileStore:
    """Vault entries in `<data_dir>/vault.json`."""

    holds_unlock_keys = False

    def __init__(self, data_dir: Path | None = None) -> None:
        self._path = (data_dir if data_dir is not None else default_data_dir()) / VAULT_FILE_NAME

    @property
    def path(self) -> Path:
        return self._path

    @property
    def description(self) -> str:
        return f"vault file {self._path}"

    def get(self, entry: str) -> str | None:
        return self._read().get(entry)

    def set(self, entry: str, value: str) -> None:
        entries = self._read()
        entries[entry] = value
        self._write(entries)
        log.debug("stored entry %r in %s", entry, self.description)

    def delete(self, entry: str) -> bool:
        entries = self._read()
        if entries.pop(entry, None) is None:
            return False
        self._write(entries)
        return True

    def _read(self) -> dict[str, str]:
        try:
            text = self._path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as exc:
            raise VaultStorageError(
                f"cannot read {self.description}: {type(exc).__name__}"
            ) from exc
        try:
            doc: Any = json.loads(text)
        except ValueError:
            raise CorruptVaultError(f"{self.description} is not valid JSON (truncated?)") from None
        if not isinstance(doc, dict) or doc.get("format") != FILE_FORMAT:
            raise CorruptVaultError(f"{self.description} is not a Bidwallet vault file")
        if doc.get("version") != FILE_VERSION:
            raise UnsupportedVaultVersionError(
                f"{self.description} has version {doc.get('version')!r}; this build reads"
                f" version {FILE_VERSION}"
            )
        entries = doc.get("entries")
        if not isinstance(entries, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in entries.items()
        ):
            raise CorruptVaultError(f"{self.description} has malformed entries")
        return entries

    def _write(self, entries: dict[str, str]) -> None:
        doc = {"format": FILE_FORMAT, "version": FILE_VERSION, "entries": entries}
        data = json.dumps(doc, indent=1, sort_keys=True).encode("utf-8")
        try:
            self._path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_atomically(self._path, data)
        except OSError as exc:
            raise VaultStorageError(f"cannot write {self.description}: {exc.strerror}") from exc

    def __repr__(self) -> str:
        return f"FileStore({str(self._path)!r})"


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a 0600 temp file in the same directory, fsync it, rename it over `path`, then
    fsync the directory: a crash leaves either the old file or the new one, never a mix."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):  # the umask may have narrowed the mode; never widened it
                os.fchmod(handle.fileno(), 0o600)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_directory(path.parent)


def _fsync_directory(directory: Path) -> None:
    if os.name != "posix":  # Windows cannot open a directory; os.replace is durable enough there
        return
    dir_fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
