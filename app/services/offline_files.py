"""The files of an offline or signed-elsewhere export: the manifest, each exported PSBT (checked
against the manifest's digest and unsigned txid), the PSBT reviewed at export (kept in the
manifest), and each signed PSBT, written by this app's offline signer (`NN-<flow>.signed.psbt`
or `.txt`) or by another wallet under any name in the same folder. Blocking file I/O: the
callers run it in an executor or offline.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from app.services.errors import ServiceError
from app.services.offline_manifest import MANIFEST_NAME, Manifest, ManifestError, ManifestItem
from app.services.psbt_files import MAX_FILE_BYTES, is_signed
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import PsbtDecodeError, parse_psbt
from app.wallet.psbt_reader import unsigned_txid

_SIGNED_SUFFIXES = (".psbt", ".txt", ".b64", ".base64")


class OfflineFileError(ServiceError):
    """An exported or signed file is missing, unreadable, or not the one the manifest names."""


def read_manifest(directory: Path) -> Manifest:
    try:
        data = json.loads((directory / MANIFEST_NAME).read_bytes())
    except FileNotFoundError:
        raise OfflineFileError(f"{directory} has no {MANIFEST_NAME}.") from None
    except ValueError:
        raise ManifestError(f"{MANIFEST_NAME} is not JSON.") from None
    return Manifest.from_json(data)


def read_exported(directory: Path, item: ManifestItem) -> FixedPSBT:
    """The exported PSBT, checked against the manifest's digest and unsigned txid."""
    raw = _read(directory / item.psbt_file)
    if hashlib.sha256(raw).hexdigest() != item.sha256:
        raise OfflineFileError(f"{item.psbt_file} is not the file that was exported (digest).")
    psbt = parse_file(raw, item.psbt_file)
    if unsigned_txid(psbt) != item.unsigned_txid:
        raise OfflineFileError(f"{item.psbt_file} is not transaction {item.unsigned_txid}.")
    return psbt


def read_reviewed(item: ManifestItem) -> FixedPSBT:
    """The PSBT reviewed at export (the manifest keeps it), checked against its unsigned txid."""
    psbt = parse_file(item.reviewed_psbt.encode(), f"{MANIFEST_NAME} ({item.name})")
    if unsigned_txid(psbt) != item.unsigned_txid:
        raise OfflineFileError(
            f"{MANIFEST_NAME}: the reviewed PSBT of {item.name} is not transaction "
            f"{item.unsigned_txid}."
        )
    return psbt


def read_signed(directory: Path, item: ManifestItem) -> FixedPSBT:
    """The signed file this app's offline signer writes (`NN-<flow>.signed.psbt` or `.txt`),
    else the one signed PSBT of this transaction saved in the folder under any name (what
    another wallet writes)."""
    for name in (item.signed_psbt_file, item.signed_text_file):
        if (directory / name).exists():
            return parse_file(_read(directory / name), name)
    found = [
        (path.name, psbt)
        for path in _other_files(directory)
        if (psbt := _signed_copy(path, item.unsigned_txid)) is not None
    ]
    if not found:
        raise OfflineFileError(
            f"No signed PSBT of {item.label} ({item.psbt_file}) is in {directory}: save the "
            "PSBT the other wallet signed into this folder (any name ending in .psbt or .txt)."
        )
    if len(found) > 1:
        names = ", ".join(sorted(name for name, _ in found))
        raise OfflineFileError(
            f"Several signed PSBTs of {item.psbt_file} are in {directory} ({names}): keep one."
        )
    return found[0][1]


def _other_files(directory: Path) -> list[Path]:
    """Files that may hold a PSBT signed elsewhere: not the manifest, not what was exported."""
    try:
        manifest = read_manifest(directory)
    except ServiceError:
        return []
    exported = {MANIFEST_NAME}
    for x in manifest.items:
        exported |= {x.psbt_file, x.text_file, x.signed_psbt_file, x.signed_text_file}
    return sorted(
        path
        for path in directory.iterdir()
        if path.name not in exported
        and path.suffix.lower() in _SIGNED_SUFFIXES
        and path.is_file()
        and path.stat().st_size <= MAX_FILE_BYTES
    )


def _signed_copy(path: Path, txid: str) -> FixedPSBT | None:
    """The PSBT in `path` when it is transaction `txid` and carries a signature."""
    try:
        psbt = parse_psbt(path.read_bytes())
    except (OSError, PsbtDecodeError):
        return None
    if unsigned_txid(psbt) != txid or not any(is_signed(i) for i in psbt.inputs):
        return None
    return psbt


def parse_file(raw: bytes, name: str) -> FixedPSBT:
    try:
        return parse_psbt(raw)
    except PsbtDecodeError as exc:
        raise OfflineFileError(f"{name}: {exc}") from None


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise OfflineFileError(f"{path.name} is missing from {path.parent}.") from None


def write_whole(path: Path, data: bytes) -> None:
    """Write whole or not at all: a half-written PSBT file must never be found later."""
    partial = path.with_name(path.name + ".partial")
    # The folder may come on someone else's USB stick: a planted `.partial` (a symlink to a
    # file of the user's) is removed and the new one created exclusively, never written through.
    partial.unlink(missing_ok=True)
    with open(partial, "xb") as file:
        file.write(data)
    os.replace(partial, path)
