"""An offline-signing export folder as an animated-QR payload, and a scanned payload as a folder.

The scanned side writes the very files the export wrote and then reads them with the file
import's own checks (`read_manifest`, `read_exported`: the manifest's digests and transaction
ids), so a scan is trusted exactly as far as a USB stick is (docs/offline-signing.md).

A watch-only profile's other wallet (Sparrow, Coldcard, Keystone, Passport, SeedSigner) reads
and shows a lone PSBT, not our bundle: `exported_psbts` gives each exported PSBT file as it is
(BBQr type P, UR `crypto-psbt`), and `write_scanned_signed` saves the signed PSBT scanned back
under the manifest's signed-file name, once it is the same transaction, for Import signed.
When the keys are in Bidwallet's own `--offline` signer, what comes back is its signed bundle
(`signed_payload`): `write_scanned_signed` takes that too, once it is the very export in the
folder, and writes its signed files beside it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from app.core import qr_export_bundle
from app.core.animated_qr import Payload, PayloadKind
from app.services.offline_files import (
    OfflineFileError,
    parse_file,
    read_exported,
    read_manifest,
    read_signed,
    write_whole,
)
from app.services.offline_manifest import MANIFEST_NAME, Manifest, ManifestItem
from app.services.psbt_files import is_signed
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_reader import unsigned_txid


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
    every file passed the import's checks; OfflineFileError or ManifestError otherwise, and
    then the folder is left as it was found (nothing refused stays on disk to be opened)."""
    if payload.kind is not PayloadKind.EXPORT:
        raise OfflineFileError("The scanned code holds a single PSBT, not an export.")
    try:
        files = qr_export_bundle.unpack(payload.data)
    except qr_export_bundle.ExportBundleError as exc:
        raise OfflineFileError(f"The scanned export cannot be read: {exc}.") from None
    if MANIFEST_NAME not in files:
        raise OfflineFileError(f"The scanned export has no {MANIFEST_NAME}.")
    created = not directory.exists()
    directory.mkdir(parents=True, exist_ok=True)
    if any(directory.iterdir()):
        raise OfflineFileError(f"{directory} is not empty; choose an empty folder.")
    written: list[Path] = []
    try:
        for name, data in files.items():
            write_whole(directory / name, data)
            written.append(directory / name)
        manifest = read_manifest(directory)
        for item in manifest.items:
            read_exported(directory, item)
    except BaseException:
        _remove_written(directory, written, created)
        raise
    return manifest


def _remove_written(directory: Path, written: Iterable[Path], created: bool) -> None:
    """Removes the files a refused scan wrote into `directory` (empty before; only those it
    wrote), and the folder if the scan made it; what cannot be removed stays (the refusal is
    what the user hears)."""
    for path in written:
        path.unlink(missing_ok=True)
    if created:
        with contextlib.suppress(OSError):
            directory.rmdir()


@dataclass(frozen=True)
class ExportedPsbt:
    """One PSBT file of an export, exactly its bytes: what another wallet scans and signs."""

    file: str  # its name in the export's folder
    label: str  # what it does, from the manifest
    payload: Payload  # PayloadKind.PSBT


def exported_psbts(directory: Path) -> list[ExportedPsbt]:
    """Each PSBT file the manifest names, in its order, checked as the import checks it."""
    manifest, files = _exported_files(directory)
    if not manifest.items:
        raise OfflineFileError(f"The export in {directory} holds no PSBT.")
    return [
        ExportedPsbt(x.psbt_file, x.label, Payload(PayloadKind.PSBT, files[x.psbt_file]))
        for x in manifest.items
    ]


@dataclass(frozen=True)
class ScannedSigned:
    items: tuple[ManifestItem, ...]  # the exported PSBTs the scan signed, in the manifest's order
    paths: tuple[Path, ...]  # where their signed files were saved, in the same order
    unsigned: tuple[str, ...]  # PSBT files of the export with no signed PSBT yet (scan them)


def write_scanned_signed(directory: Path, payload: Payload) -> ScannedSigned:
    """What was scanned back signed, saved in the export's `directory` for Import signed: a
    signed PSBT (another wallet's) under its item's signed-file name once it is that export's
    transaction and carries a signature, or the signed bundle of Bidwallet's offline signer
    (`signed_payload`) once it is this very export (`_signed_files_of_bundle`).
    Nothing is written when it is refused (OfflineFileError): another transaction or export,
    no signature, or a signed file already there (never replaced: the user deletes it to use
    the scan). The import then checks every signature."""
    manifest = read_manifest(directory)
    if payload.kind is PayloadKind.EXPORT:
        signed = _signed_files_of_bundle(directory, manifest, payload)
    else:
        psbt = parse_file(payload.data, "The scanned PSBT")
        txid = unsigned_txid(psbt)
        item = next((x for x in manifest.items if x.unsigned_txid == txid), None)
        if item is None:
            exported = ", ".join(f"{x.unsigned_txid} ({x.psbt_file})" for x in manifest.items)
            raise OfflineFileError(
                f"The scanned PSBT is transaction {txid}, not the one exported to {directory}: "
                f"{exported}. Nothing was written."
            )
        read_exported(directory, item)  # the export itself is still the one the manifest names
        _check_signed(item, psbt, f"The scanned PSBT of {item.psbt_file}")
        signed = [(item, item.signed_psbt_file, payload.data)]
    for item, _, _ in signed:
        for name in (item.signed_psbt_file, item.signed_text_file):
            if (directory / name).exists():
                raise OfflineFileError(
                    f"{directory} already holds a signed PSBT of {item.psbt_file} ({name}); it"
                    " is not replaced. Press Import signed… to use it, or delete it and scan"
                    " again. Nothing was written."
                )
    paths = []
    for item, name, data in signed:
        write_whole(directory / name, data)
        read_signed(directory, item)  # read back as the import reads it
        paths.append(directory / name)
    items = tuple(item for item, _, _ in signed)
    return ScannedSigned(items, tuple(paths), tuple(_unsigned_files(directory, manifest)))


def _check_signed(item: ManifestItem, psbt: FixedPSBT, what: str) -> None:
    if unsigned_txid(psbt) != item.unsigned_txid:
        raise OfflineFileError(
            f"{what} is not transaction {item.unsigned_txid} ({item.psbt_file}): it was"
            " changed. Nothing was written."
        )
    if not any(is_signed(i) for i in psbt.inputs):
        raise OfflineFileError(
            f"{what} carries no signature: scan the code shown after signing. Nothing was written."
        )


def _signed_files_of_bundle(
    directory: Path, manifest: Manifest, payload: Payload
) -> list[tuple[ManifestItem, str, bytes]]:
    """The signed files (item, name, bytes) a scanned bundle carries, once its manifest and
    each exported PSBT are byte for byte those in `directory` (checked by the import's readers
    there) and each signed file is its item's transaction with a signature."""
    try:
        files = qr_export_bundle.unpack(payload.data)
    except qr_export_bundle.ExportBundleError as exc:
        raise OfflineFileError(
            f"The scanned export cannot be read: {exc}. Nothing was written."
        ) from None
    _, exported = _exported_files(directory)
    if files.get(MANIFEST_NAME) != exported[MANIFEST_NAME]:
        raise OfflineFileError(
            f"The scanned export is not the one in {directory} (its {MANIFEST_NAME} differs):"
            " scan the code of this export, signed. Nothing was written."
        )
    changed = [name for name in exported if files.get(name) != exported[name]]
    if changed:
        raise OfflineFileError(
            f"The scanned export's {', '.join(changed)} is not the file exported to"
            f" {directory}: it was changed. Nothing was written."
        )
    signed: list[tuple[ManifestItem, str, bytes]] = []
    known = set(exported)
    for item in manifest.items:
        names = (item.signed_psbt_file, item.signed_text_file)
        known |= set(names)
        carried = [n for n in names if n in files]
        if carried:  # the signer's binary file first, as `read_signed` reads it
            name = carried[0]
            _check_signed(item, parse_file(files[name], name), f"The scanned export's {name}")
            signed.append((item, name, files[name]))
    unknown = sorted(set(files) - known)
    if unknown:
        raise OfflineFileError(
            f"The scanned export carries files the offline signer does not write"
            f" ({', '.join(unknown)}). Nothing was written."
        )
    if not signed:
        raise OfflineFileError(
            "The scanned export carries no signed PSBT: it is the export itself. Sign it in"
            " the offline signer, then scan the code its Show signed as QR… shows. Nothing was"
            " written."
        )
    return signed


def _unsigned_files(directory: Path, manifest: Manifest) -> list[str]:
    unsigned = []
    for item in manifest.items:
        try:
            read_signed(directory, item)
        except OfflineFileError:
            unsigned.append(item.psbt_file)
    return unsigned
