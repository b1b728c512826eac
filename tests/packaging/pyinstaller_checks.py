"""The parts of the manifest checks that ask PyInstaller itself: what its hooks add, which Qt
plugin types its Qt hooks collect, and what the spec hands to Analysis. Import only after
`pytest.importorskip("PyInstaller")`."""

from __future__ import annotations

import runpy
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import _pyinstaller_hooks_contrib
import PyInstaller
from PyInstaller.utils.hooks.qt import _modules_info  # the table the Qt hooks collect by

from tests.packaging.manifest_file import SPEC_FILE


def hook_dirs() -> list[Path]:
    dirs = [Path(next(iter(PyInstaller.__path__))) / "hooks"]
    dirs += [Path(d) for d in _pyinstaller_hooks_contrib.get_hook_dirs()]
    return dirs


@cache
def hook_hiddenimports(hook_name: str) -> frozenset[str]:
    """The `hiddenimports` a module-level PyInstaller hook (e.g. "hook-anyio.py") sets."""
    for folder in hook_dirs():
        for path in folder.rglob(hook_name):
            found = runpy.run_path(str(path)).get("hiddenimports", [])
            return frozenset(found)
    raise FileNotFoundError(f"no PyInstaller hook {hook_name} in {hook_dirs()}")


def collected_qt_plugin_types(bindings: str, reached: set[str]) -> set[str]:
    """Plugin types PyInstaller's Qt hooks collect for the Qt modules the app imports."""
    types: set[str] = set()
    for info in _modules_info.QT_MODULES_INFO:
        if info.module is None or (info.bindings and bindings not in info.bindings):
            continue
        if f"{bindings}.{info.module}" in reached:
            types.update(info.plugins)
    return types


@dataclass
class SpecBuild:
    """What bidwallet.spec passed to PyInstaller's build steps."""

    analysis: dict[str, Any] = field(default_factory=dict)
    exe: dict[str, Any] = field(default_factory=dict)
    collect: dict[str, Any] = field(default_factory=dict)


def run_spec() -> SpecBuild:
    """Execute the spec as PyInstaller does, with its build steps recording their arguments
    instead of building (PyInstaller's own helpers, collect_submodules and copy_metadata,
    really run)."""
    build = SpecBuild()

    class Analysis:
        def __init__(self, scripts: list[str], **kwargs: Any) -> None:
            build.analysis = {"scripts": scripts, **kwargs}
            self.pure: list[Any] = []
            self.scripts: list[Any] = []
            self.binaries: list[Any] = []
            self.datas: list[Any] = []

    def exe(*args: Any, **kwargs: Any) -> str:
        build.exe = kwargs
        return "exe"

    def collect(*args: Any, **kwargs: Any) -> str:
        build.collect = kwargs
        return "collect"

    namespace = {
        "SPECPATH": str(SPEC_FILE.parent),
        "Analysis": Analysis,
        "PYZ": lambda *a, **k: "pyz",
        "EXE": exe,
        "COLLECT": collect,
        "__file__": str(SPEC_FILE),
    }
    exec(compile(SPEC_FILE.read_text(), str(SPEC_FILE), "exec"), namespace)
    return build
