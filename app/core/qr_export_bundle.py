"""An offline-signing export (manifest.json and its PSBT files) as one payload for an animated QR.

The payload is CBOR, {"format": "bidwallet-export", "version": 1, "files": [[name, bytes], ...]}
with each file's exact bytes, deflated (raw deflate, RFC 1951, full window): the receiving side
writes the same folder the file export writes and reads it through the same checks
(docs/offline-signing.md, "Animated QR codes"). Both formats carry these bytes as they are: BBQr
as type B (binary), UR as `ur:bytes`. For a 100-listing export (a 225 KB manifest, 26 KB of
PSBTs) that is 36 KB, against 165 KB for the same files as JSON under BBQr's own compression
(its 1 KB window: BBQr.md), which would need 4.6 times the frames.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping

from app.core import cbor
from app.core.errors import CoreError

FORMAT = "bidwallet-export"
VERSION = 1
MAX_FILES = 1000
MAX_UNPACKED = 64 * 1024 * 1024  # far above 100 listings (about 250 KB); stops a deflate bomb
# The document, each file's entry, name and bytes, and some room: 64 MB of one-byte values
# would otherwise be built as a list of millions (gigabytes).
MAX_VALUES = 4 * MAX_FILES + 16


class ExportBundleError(CoreError, ValueError):
    """A payload that is not a well-formed export bundle."""


def pack(files: Mapping[str, bytes]) -> bytes:
    """The bundle carrying `files`, by name, in the given order."""
    for name in files:
        _check_name(name)
    entries: list[cbor.CborValue] = [[name, data] for name, data in files.items()]
    document: dict[cbor.CborValue, cbor.CborValue] = {
        "format": FORMAT,
        "version": VERSION,
        "files": entries,
    }
    packer = zlib.compressobj(level=9, wbits=-15)
    return packer.compress(cbor.encode(document)) + packer.flush()


def unpack(payload: bytes) -> dict[str, bytes]:
    """The files a bundle carries; ExportBundleError naming what is wrong otherwise."""
    try:
        document = cbor.decode(_inflate(payload), MAX_VALUES)
    except cbor.CborError as exc:
        raise ExportBundleError(f"the scanned export is not CBOR ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ExportBundleError("the scanned data is not a Bidwallet export")
    if document.get("version") != VERSION:
        raise ExportBundleError(f"export bundle version {document.get('version')!r} is unknown")
    entries = document.get("files")
    if not isinstance(entries, list) or not 0 < len(entries) <= MAX_FILES:
        raise ExportBundleError("the export bundle lists no files, or too many")
    files: dict[str, bytes] = {}
    for entry in entries:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)):
            raise ExportBundleError("an entry of the export bundle is not a named file")
        name, data = _check_name(entry[0]), entry[1]
        if not isinstance(data, bytes):
            raise ExportBundleError(f"{name} in the export bundle holds no bytes")
        if name in files:
            raise ExportBundleError(f"the export bundle holds {name} twice")
        files[name] = data
    return files


def _inflate(packed: bytes) -> bytes:
    unpacker = zlib.decompressobj(wbits=-15)
    try:
        payload = unpacker.decompress(packed, MAX_UNPACKED)
    except zlib.error:
        raise ExportBundleError("the scanned export does not decompress") from None
    if not unpacker.eof or unpacker.unused_data or unpacker.unconsumed_tail:
        raise ExportBundleError("the scanned export is cut short, too large or has extra bytes")
    return payload


def _check_name(name: str) -> str:
    """A plain file name: the receiver writes it into the export folder, nowhere else."""
    bad = not name or name.startswith(".") or any(c in name for c in "/\\\0:") or len(name) > 200
    if bad or not name.isprintable():
        raise ExportBundleError(f"{name!r} is not a plain file name")
    return name
