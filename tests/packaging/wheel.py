"""Reading a built wheel."""

from __future__ import annotations

import zipfile
from email.parser import HeaderParser
from pathlib import Path


def wheel_version(wheel: Path) -> str:
    """The Version field of the wheel's dist-info METADATA."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = HeaderParser().parsestr(archive.read(name).decode("utf-8"))
    return str(metadata["Version"])
