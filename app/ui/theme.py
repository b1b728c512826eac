"""Light and dark themes: a Fusion palette plus the numbered QSS files, whose `{name}`
placeholders take the palette's colours. "system" follows the desktop's colour scheme."""

from __future__ import annotations

import re
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from app.services.profiles import Theme
from app.ui.resources import style_image_path, style_paths

COLORS: Final[dict[str, dict[str, str]]] = {
    "light": {
        "window": "#f4f5f7",
        "panel": "#ffffff",
        "input": "#ffffff",
        "button": "#f9fafb",
        "alternate": "#f3f5f9",
        "text": "#1d2330",
        "muted": "#6b7280",
        "border": "#c9ced8",
        "accent": "#cc6d0c",  # 3.3:1 on the window: a line or a focus ring in it reads
        "accent_text": "#ffffff",
        # The accent darkened, behind accent_text (selected rows, the default button): 4.7:1
        "selection": "#b35c00",
        "error": "#b42318",
        "ok": "#16794c",
        "warning": "#b54708",
        "link": "#1f5fbf",
        "progress": "#cc6d0c",  # a progress bar's chunk: 4.4:1 with the text drawn over it
    },
    "dark": {
        "window": "#1b1f27",
        "panel": "#232833",
        "input": "#161a21",
        "button": "#2b313d",
        "alternate": "#202530",
        "text": "#e6e9ef",
        "muted": "#9aa3b2",
        "border": "#3a4150",
        "accent": "#f7931a",
        "accent_text": "#14171c",
        "selection": "#f7931a",  # 7.8:1 with accent_text
        "error": "#ff8a80",
        "ok": "#6ee7a8",
        "warning": "#f5b042",
        "link": "#8ab4ff",
        "progress": "#9a560a",  # the accent darkened: 4.6:1 with the text drawn over it
    },
}
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def resolve(theme: Theme) -> str:
    """'light' or 'dark' for a theme setting."""
    if theme is Theme.SYSTEM:
        scheme = QGuiApplication.styleHints().colorScheme()
        return "dark" if scheme == Qt.ColorScheme.Dark else "light"
    return theme.value


def palette_for(colors: dict[str, str]) -> QPalette:
    palette = QPalette()
    role = QPalette.ColorRole
    pairs = {
        role.Window: "window",
        role.WindowText: "text",
        role.Base: "input",
        role.AlternateBase: "alternate",
        role.Text: "text",
        role.Button: "button",
        role.ButtonText: "text",
        role.ToolTipBase: "panel",
        role.ToolTipText: "text",
        role.PlaceholderText: "muted",
        role.Highlight: "selection",
        role.HighlightedText: "accent_text",
        role.Link: "link",
    }
    for color_role, name in pairs.items():
        palette.setColor(color_role, QColor(colors[name]))
    disabled = QPalette.ColorGroup.Disabled
    for color_role in (role.Text, role.ButtonText, role.WindowText):
        palette.setColor(disabled, color_role, QColor(colors["muted"]))
    # A disabled spin or combo box sits flat on the window: in the dark theme it otherwise
    # looked like one that takes input.
    for color_role in (role.Base, role.Button):
        palette.setColor(disabled, color_role, QColor(colors["window"]))
    return palette


def check_mark_path(name: str) -> str:
    """The tick of a checked box in theme `name` ('light' or 'dark'): drawn in the theme's
    `accent_text` on its `accent`, as the QSS `{check_mark}` (a path with forward slashes)."""
    return style_image_path(f"check-{name}.svg").as_posix()


def stylesheet(colors: dict[str, str], name: str = "light") -> str:
    text = "\n".join(path.read_text(encoding="utf-8") for path in style_paths())
    values = colors | {"check_mark": check_mark_path(name)}
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


class ThemeState:
    """The theme in force; icons read `colors` to recolour their SVGs."""

    name: str = "light"
    colors: dict[str, str] = COLORS["light"]


def apply_theme(app: QApplication, theme: Theme) -> str:
    """Apply `theme` to the whole application; returns 'light' or 'dark'."""
    name = resolve(theme)
    colors = COLORS[name]
    app.setStyle("Fusion")
    app.setPalette(palette_for(colors))
    app.setStyleSheet(stylesheet(colors, name))
    ThemeState.name = name
    ThemeState.colors = colors
    return name
