"""The application icon's PNGs (packaging/render_icons.sh) match resources/icons/bidwallet.svg
at every hicolor size: a changed SVG without re-rendered PNGs fails here."""

from __future__ import annotations

import struct

import pytest
from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTransform
from PySide6.QtSvg import QSvgRenderer

from tests.packaging.manifest_file import ROOT, load_manifest

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
APP_ID = load_manifest().APP_ID
SVG = ROOT / "resources/icons/bidwallet.svg"
HICOLOR = ROOT / "resources/icons/hicolor"
# Mean per-channel difference (0-255) allowed between rsvg's and Qt's anti-aliasing.
MAX_MEAN_DIFFERENCE = 4.0


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def render_with_qt(size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(QByteArray(SVG.read_bytes())).render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image


def mean_difference(a: QImage, b: QImage) -> float:
    a = a.convertToFormat(QImage.Format.Format_RGBA8888)
    b = b.convertToFormat(QImage.Format.Format_RGBA8888)
    raw_a, raw_b = bytes(a.constBits()), bytes(b.constBits())
    assert len(raw_a) == len(raw_b)
    return sum(abs(x - y) for x, y in zip(raw_a, raw_b, strict=True)) / len(raw_a)


def test_scalable_icon_is_the_svg() -> None:
    assert (HICOLOR / "scalable/apps" / f"{APP_ID}.svg").read_bytes() == SVG.read_bytes()


@pytest.mark.parametrize("size", SIZES)
def test_png_matches_the_svg(size: int) -> None:
    path = HICOLOR / f"{size}x{size}/apps/{APP_ID}.png"
    assert png_size(path.read_bytes()) == (size, size)
    png = QImage(str(path))
    assert not png.isNull()
    assert mean_difference(png, render_with_qt(size)) <= MAX_MEAN_DIFFERENCE


def test_a_different_picture_is_noticed() -> None:
    # The comparison can fail: the 48 px icon against the 48 px rendering turned upside down.
    png = QImage(str(HICOLOR / f"48x48/apps/{APP_ID}.png"))
    flipped = render_with_qt(48).transformed(QTransform().scale(1, -1))
    assert mean_difference(png, flipped) > MAX_MEAN_DIFFERENCE
