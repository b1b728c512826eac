"""Animated-QR frames as images and back: segno draws a frame, zxing-cpp reads codes in an image.

The frames themselves (BBQr, UR) are app/core/animated_qr.py. An image here is 8-bit grayscale,
row by row (`GrayImage`): what segno's matrix scales to, and what zxing-cpp reads from a buffer;
the window can pass a QImage or a camera frame to `read_codes` as they are (zxing-cpp reads
those too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import segno
import zxingcpp

from app.services.errors import ServiceError

QUIET_ZONE = 4  # modules of white around the code, as ISO/IEC 18004 asks


class QrImageError(ServiceError):
    """A frame that cannot be drawn at the requested version."""


@dataclass(frozen=True)
class GrayImage:
    width: int
    height: int
    pixels: bytes  # one byte a pixel, 0 black .. 255 white, row after row

    def buffer(self) -> memoryview:
        """The shape zxing-cpp reads a buffer in (rows, columns)."""
        return memoryview(self.pixels).cast("B", (self.height, self.width))


def frame_matrix(text: str, version: int) -> list[list[bool]]:
    """The modules (True: dark) of `text` as a QR code of `version`, level L, without border.
    BBQr and upper-case UR are alphanumeric, which keeps them in QR's alphanumeric mode."""
    try:
        code = segno.make(text, version=version, error="l", boost_error=False, micro=False)
    except segno.DataOverflowError:
        message = f"a frame of {len(text)} characters does not fit QR version {version}"
        raise QrImageError(message) from None
    return [[bool(m) for m in row] for row in code.matrix]


def render(text: str, version: int, scale: int = 4) -> GrayImage:
    matrix = frame_matrix(text, version)
    size = (len(matrix) + 2 * QUIET_ZONE) * scale
    white_row = b"\xff" * size
    rows = [white_row] * (QUIET_ZONE * scale)
    margin = b"\xff" * (QUIET_ZONE * scale)
    for modules in matrix:
        line = margin + b"".join(b"\x00" * scale if m else b"\xff" * scale for m in modules)
        rows += [line + margin] * scale
    rows += [white_row] * (QUIET_ZONE * scale)
    return GrayImage(size, size, b"".join(rows))


def read_codes(image: GrayImage | Any) -> list[str]:
    """The texts of the QR codes zxing-cpp finds in `image` (a GrayImage, a QImage, a numpy
    array or a PIL image), in the order it finds them; [] when there is none."""
    source = image.buffer() if isinstance(image, GrayImage) else image
    qr_only = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    found = zxingcpp.read_barcodes(source, formats=qr_only)
    return [code.text for code in found if code.valid]
