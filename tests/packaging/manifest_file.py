"""Paths of the packaging files and the PyInstaller manifest, loaded by its path (the project's
`packaging/` folder is not importable: PyPI's `packaging` owns that name)."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
SPEC_FILE = PACKAGING / "pyinstaller" / "bidwallet.spec"
MANIFEST_FILE = PACKAGING / "pyinstaller" / "manifest.py"
LINUX = PACKAGING / "linux"


@cache
def load_manifest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bidwallet_manifest", MANIFEST_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it runs
    spec.loader.exec_module(module)
    return module
