"""SVG icons drawn in the theme's text colour: the files use `currentColor`, replaced here
before rendering, at several sizes and at 2x for high-DPI screens."""

from __future__ import annotations

import weakref
from functools import cache

import shiboken6
from PySide6.QtCore import QByteArray, QRectF, Qt
from PySide6.QtGui import QGuiApplication, QIcon, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QAbstractButton, QPushButton

from app.ui.resources import icon_path
from app.ui.theme import ThemeState

_SIZES = (16, 24, 32, 48)
_HIGH_DPI_SCALE = 2.0  # drawn too where no screen says its ratio (no application yet)


def render_svg(svg: bytes, size: int, scale: float) -> QPixmap:
    renderer = QSvgRenderer(QByteArray(svg))
    pixmap = QPixmap(round(size * scale), round(size * scale))
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    renderer.render(painter, QRectF(0, 0, pixmap.width(), pixmap.height()))
    painter.end()
    pixmap.setDevicePixelRatio(scale)
    return pixmap


@cache
def _icon(name: str, color: str) -> QIcon:
    svg = icon_path(name).read_bytes().replace(b"currentColor", color.encode("ascii"))
    icon = QIcon()
    for size in _SIZES:
        for scale in _screen_scales():
            icon.addPixmap(render_svg(svg, size, scale))
    return icon


def _screen_scales() -> tuple[float, ...]:
    """1x, and each connected screen's device pixel ratio: drawing 2x pixmaps for a desktop
    with only 1x screens doubled the icons' share of the start."""
    screens = QGuiApplication.screens() if QGuiApplication.instance() is not None else []
    ratios = {s.devicePixelRatio() for s in screens} if screens else {_HIGH_DPI_SCALE}
    return tuple(sorted({1.0} | ratios))


def icon(name: str, color: str | None = None) -> QIcon:
    """The icon `name` (a file in resources/icons) in `color`, default the theme's text."""
    return _icon(name, color or ThemeState.colors["text"])


# The buttons whose icon follows the theme, with their icon's name. Walking
# QApplication.allWidgets() instead made wrappers for every widget, dialogs being torn down
# included, and crashed the interpreter on a theme change after review dialogs closed.
_themed: weakref.WeakKeyDictionary[QAbstractButton, str] = weakref.WeakKeyDictionary()


def set_themed_icon(button: QAbstractButton, name: str) -> None:
    """Give `button` the icon `name` and redraw it in the new colour when the theme changes."""
    _themed[button] = name
    button.setIcon(icon(name))


def icon_button(name: str, text: str) -> QPushButton:
    button = QPushButton(text)
    set_themed_icon(button, name)
    return button


def refresh_themed_icons() -> None:
    """Redraw every icon set with `set_themed_icon` in the current theme's colour."""
    for button, name in list(_themed.items()):
        if shiboken6.isValid(button):  # its C++ side may be gone while Python still holds it
            button.setIcon(icon(name))


def app_icon() -> QIcon:
    """The application icon (full colour, not recoloured)."""
    return _icon("bidwallet", "currentColor")
