"""An offline-signing export (manifest.json and its PSBT files) as one payload for an animated QR.

The payload is JSON: {"format": "bidwallet-export", "version": 1, "files": [{"name", "base64"}]},
each file's exact bytes, so the receiving side writes the same folder the file export writes and
reads it through the same checks (docs/offline-signing.md, "Animated QR codes"). BBQr carries it
as type J (JSON) compressed by BBQr's own Z encoding; UR as `ur:bytes` holding the same JSON
deflated (raw deflate, RFC 1951), since UR has no compression of its own.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping

from app.core.errors import CoreError

FORMAT = "bidwallet-export"
VERSION = 1
MAX_FILES = 1000
MAX_UNPACKED = 64 * 1024 * 1024  # far above 100 listings (about 1 MB); stops a deflate bomb


class ExportBundleError(CoreError, ValueError):
    """A payload that is not a well-formed export bundle."""


def pack(files: Mapping[str, bytes]) -> bytes:
    """The bundle's JSON (UTF-8) carrying `files`, by name, in the given order."""
    for name in files:
        _check_name(name)
    entries = [{"name": n, "base64": base64.b64encode(d).decode()} for n, d in files.items()]
    document = {"format": FORMAT, "version": VERSION, "files": entries}
    return json.dumps(document, separators=(",", ":")).encode()


def unpack(payload: bytes) -> dict[str, bytes]:
    """The files a bundle carries; ExportBundleError naming what is wrong otherwise."""
    try:
        document = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        raise ExportBundleError("the scanned export is not JSON") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ExportBundleError("the scanned JSON is not a Bidwallet export")
    if document.get("version") != VERSION:
        raise ExportBundleError(f"export bundle version {document.get('version')!r} is unknown")
    entries = document.get("files")
    if not isinstance(entries, list) or not 0 < len(entries) <= MAX_FILES:
        raise ExportBundleError("the export bundle lists no files, or too many")
    files: dict[str, bytes] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ExportBundleError("an entry of the export bundle has no file name")
        name = _check_name(entry["name"])
        if name in files:
            raise ExportBundleError(f"the export bundle holds {name} twice")
        try:
            files[name] = base64.b64decode(entry.get("base64", ""), validate=True)
        except (binascii.Error, TypeError, ValueError):
            raise ExportBundleError(f"{name} in the export bundle is not base64") from None
    return files


def deflate(payload: bytes) -> bytes:
    packer = zlib.compressobj(level=9, wbits=-15)
    return packer.compress(payload) + packer.flush()


def inflate(packed: bytes) -> bytes:
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
