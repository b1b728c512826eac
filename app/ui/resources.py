"""Where the bundled icons and styles are: `resources/` in a source tree, `app/resources/`
in an installed wheel (pyproject force-includes it there)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import app


@cache
def resources_dir() -> Path:
    package = Path(app.__file__).resolve().parent
    for candidate in (package / "resources", package.parent / "resources"):
        if (candidate / "icons").is_dir():
            return candidate
    raise FileNotFoundError(f"no resources folder next to {package}")


def icon_path(name: str) -> Path:
    return resources_dir() / "icons" / f"{name}.svg"


def style_image_path(name: str) -> Path:
    """An image the QSS draws (a check box's tick), kept next to the QSS files."""
    return resources_dir() / "styles" / name


def style_paths() -> list[Path]:
    """The QSS files, in their numbered order."""
    return sorted((resources_dir() / "styles").glob("*.qss"))
