"""BBQr ("Better Bitcoin QR"), Coinkite's animated-QR format: split bytes into frames and join.

Spec: github.com/coinkite/BBQr, BBQr.md. Coinkite's own Python package (python/ in that
repository, public domain) is not on PyPI (the name `bbqr` there is an unrelated QR printer), so
this is the same algorithm written here, checked against that repository's published frames
(test_data/real-scan.txt) and PSBTs (tests/core/test_animated_qr_bbqr.py).

A frame is `B$` + encoding (H hex, 2 base32, Z deflate then base32) + file type (P PSBT,
T transaction, J JSON, U text, B binary, C CBOR...) + the frame count and the frame's index,
two base-36 digits each, then its slice of the encoded data. Frames are alphanumeric-mode QR
codes at error level L, all of one version.
"""

from __future__ import annotations

import base64
import binascii
import math
import zlib
from dataclasses import dataclass

from app.core.errors import CoreError

HEADER_LEN = 8
FILE_TYPES = {
    "P": "PSBT",
    "T": "transaction",
    "J": "JSON",
    "C": "CBOR",
    "U": "text",
    "X": "executable",
    "B": "binary",
    "R": "KT Rx",
    "S": "KT Tx",
    "E": "KT PSBT",
}
MAX_FRAMES = 36 * 36 - 1
# Alphanumeric characters a QR code of each version (1..40) holds at error level L (ISO/IEC
# 18004, table 7); tests/core/test_animated_qr_bbqr.py checks each against segno.
ALNUM_CAPACITY_L = (
    25, 47, 77, 114, 154, 195, 224, 279, 335, 395, 468, 535, 619, 667, 758, 854, 938, 1046, 1153,
    1249, 1352, 1460, 1588, 1704, 1853, 1990, 2132, 2223, 2369, 2520, 2677, 2840, 3009, 3183, 3351,
    3537, 3729, 3927, 4087, 4296,
)  # fmt: skip


class BbqrError(CoreError, ValueError):
    """A BBQr frame or frame set that cannot be read."""


@dataclass(frozen=True)
class BbqrFrame:
    encoding: str
    file_type: str
    total: int
    index: int
    data: str

    @property
    def header(self) -> str:
        return self.text[:6]

    @property
    def text(self) -> str:
        counts = _base36(self.total) + _base36(self.index)
        return f"B${self.encoding}{self.file_type}{counts}{self.data}"


def _base36(n: int) -> str:
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return digits[n // 36] + digits[n % 36]


def _encode(raw: bytes, encoding: str | None) -> tuple[str, str, int]:
    """(encoding, text, the split unit a frame boundary must respect)."""
    if encoding == "H":
        return "H", raw.hex().upper(), 2
    if encoding in (None, "Z"):
        packer = zlib.compressobj(wbits=-10)
        packed = packer.compress(raw) + packer.flush()
        encoding = "Z" if len(packed) < len(raw) else "2"
        raw = packed if encoding == "Z" else raw
    return encoding, base64.b32encode(raw).decode("ascii").rstrip("="), 8


def split(
    raw: bytes,
    file_type: str,
    *,
    max_version: int = 40,
    min_version: int = 5,
    encoding: str | None = None,
) -> tuple[int, list[str]]:
    """(QR version, frames) carrying `raw` in the fewest frames, then the lowest version."""
    if file_type not in FILE_TYPES:
        raise BbqrError(f"{file_type!r} is not a BBQr file type")
    if encoding not in (None, "H", "2", "Z"):
        raise BbqrError(f"{encoding!r} is not a BBQr encoding")
    if not 1 <= min_version <= max_version <= 40:
        raise BbqrError(f"QR versions {min_version}..{max_version} are not within 1..40")
    encoding, text, unit = _encode(raw, encoding)
    best: tuple[int, int, int] | None = None  # frames, version, characters per frame
    for version in range(min_version, max_version + 1):
        room = ALNUM_CAPACITY_L[version - 1] - HEADER_LEN
        per_frame = room if len(text) <= room else room - room % unit
        count = max(1, math.ceil(len(text) / per_frame))
        if count <= MAX_FRAMES and (best is None or count < best[0]):
            best = (count, version, per_frame)
    if best is None:
        raise BbqrError(f"{len(raw)} bytes need more than {MAX_FRAMES} frames at this density")
    count, version, per_frame = best
    frames = [
        BbqrFrame(encoding, file_type, count, i, text[i * per_frame : (i + 1) * per_frame]).text
        for i in range(count)
    ]
    return version, frames


def parse_frame(text: str) -> BbqrFrame:
    text = text.strip()
    if not text.startswith("B$"):
        raise BbqrError("this is not a BBQr code (it does not start with 'B$')")
    if len(text) < HEADER_LEN:
        raise BbqrError("the BBQr frame is shorter than its header")
    encoding, file_type = text[2], text[3]
    if encoding not in "H2Z":
        raise BbqrError(f"{encoding!r} is not a BBQr encoding")
    if file_type not in FILE_TYPES:
        raise BbqrError(f"{file_type!r} is not a BBQr file type")
    try:
        total, index = int(text[4:6], 36), int(text[6:8], 36)
    except ValueError:
        raise BbqrError(f"{text[4:8]!r} is not a BBQr frame count and index") from None
    if not 0 <= index < total:
        raise BbqrError(f"frame {index + 1} of {total} is out of range")
    return BbqrFrame(encoding, file_type, total, index, text[HEADER_LEN:])


def join(frames: list[BbqrFrame]) -> bytes:
    """The bytes of a complete, ordered frame set; BbqrError when a frame does not decode."""
    encoding = frames[0].encoding
    raw = b""
    for frame in frames:
        try:
            if encoding == "H":
                raw += bytes.fromhex(frame.data)
            else:
                raw += base64.b32decode(frame.data + "=" * (-len(frame.data) % 8))
        except (ValueError, binascii.Error):
            raise BbqrError(f"frame {frame.index + 1} does not decode: it is corrupt") from None
    if encoding == "Z":
        unpacker = zlib.decompressobj(wbits=-10)
        try:
            raw = unpacker.decompress(raw) + unpacker.flush()
        except zlib.error:
            raise BbqrError("the frames do not decompress: one of them is corrupt") from None
        if not unpacker.eof or unpacker.unused_data:
            raise BbqrError("the compressed data is cut short or has extra bytes: a corrupt frame")
    return raw
