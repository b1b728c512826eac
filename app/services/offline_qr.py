"""An offline-signing export folder as an animated-QR payload, and a scanned payload as a folder.

The scanned side writes the very files the export wrote and then reads them with the file
import's own checks (`read_manifest`, `read_exported`: the manifest's digests and transaction
ids), so a scan is trusted exactly as far as a USB stick is (docs/offline-signing.md).
"""

from __future__ import annotations

from pathlib import Path

from app.core import qr_export_bundle
from app.core.animated_qr import Payload, PayloadKind
from app.services.offline_files import (
    OfflineFileError,
    read_exported,
    read_manifest,
    read_signed,
    write_whole,
)
from app.services.offline_manifest import MANIFEST_NAME, Manifest


def export_payload(directory: Path) -> Payload:
    """manifest.json and every PSBT file it names, checked as the import checks them."""
    return Payload(PayloadKind.EXPORT, qr_export_bundle.pack(_exported_files(directory)[1]))


def _exported_files(directory: Path) -> tuple[Manifest, dict[str, bytes]]:
    manifest = read_manifest(directory)
    files = {MANIFEST_NAME: (directory / MANIFEST_NAME).read_bytes()}
    for item in manifest.items:
        read_exported(directory, item)
        files[item.psbt_file] = (directory / item.psbt_file).read_bytes()
    return manifest, files


def signed_payload(directory: Path) -> Payload:
    """The export of `directory` with the signed file of each PSBT (what the offline signer
    wrote beside it): scanned back by the online side, written as a folder and imported."""
    manifest, files = _exported_files(directory)
    for item in manifest.items:
        read_signed(directory, item)  # a corrupt signed file is said here, not after the scan
        name = next(
            (
                n
                for n in (item.signed_psbt_file, item.signed_text_file)
                if (directory / n).is_file()
            ),
            None,
        )
        if name is None:
            raise OfflineFileError(f"{item.label} ({item.psbt_file}) is not signed yet.")
        files[name] = (directory / name).read_bytes()
    return Payload(PayloadKind.EXPORT, qr_export_bundle.pack(files))


def write_scanned_export(directory: Path, payload: Payload) -> Manifest:
    """Writes a scanned export into `directory` (new or empty) and returns its manifest once
    every file passed the import's checks; OfflineFileError or ManifestError otherwise."""
    if payload.kind is not PayloadKind.EXPORT:
        raise OfflineFileError("The scanned code holds a single PSBT, not an export.")
    try:
        files = qr_export_bundle.unpack(payload.data)
    except qr_export_bundle.ExportBundleError as exc:
        raise OfflineFileError(f"The scanned export cannot be read: {exc}.") from None
    if MANIFEST_NAME not in files:
        raise OfflineFileError(f"The scanned export has no {MANIFEST_NAME}.")
    directory.mkdir(parents=True, exist_ok=True)
    if any(directory.iterdir()):
        raise OfflineFileError(f"{directory} is not empty; choose an empty folder.")
    for name, data in files.items():
        write_whole(directory / name, data)
    manifest = read_manifest(directory)
    for item in manifest.items:
        read_exported(directory, item)
    return manifest
