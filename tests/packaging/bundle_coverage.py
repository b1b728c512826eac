"""Checks of the PyInstaller manifest against what the app loaded at run time. Each function
returns the problems found, one line each, saying what to add to the manifest."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from types import ModuleType

from tests.packaging.import_graph import statically_reachable
from tests.packaging.manifest_file import ROOT
from tests.packaging.probe_runs import ProbeRecord

_CODE_SUFFIXES = (".py", ".pyc", ".pyi")


@cache
def site_dirs() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    return tuple(sorted({Path(paths["purelib"]).resolve(), Path(paths["platlib"]).resolve()}))


def _under(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def in_site_packages(path: str) -> bool:
    resolved = Path(path).resolve()
    return any(_under(resolved, folder) for folder in site_dirs())


def in_project(path: str) -> bool:
    """A file of this source tree (the venv and the interpreter are not)."""
    resolved = Path(path).resolve()
    prefixes = (Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve())
    return _under(resolved, ROOT) and not any(_under(resolved, p) for p in prefixes)


def is_bundled_code(path: str | None) -> bool:
    """Module files the bundle must carry: site-packages and the app package. Not the
    standard library (PyInstaller's base library), not shiboken's embedded modules (their
    `__file__` is a relative pseudo-path), not the probe script itself."""
    if path is None or not Path(path).is_absolute():
        return False
    return in_site_packages(path) or _under(Path(path).resolve(), ROOT / "app")


def merged_modules(records: Iterable[ProbeRecord]) -> dict[str, str | None]:
    merged: dict[str, str | None] = {}
    for record in records:
        for name, path in record.modules.items():
            if merged.get(name) is None:
                merged[name] = path
    return merged


def reached_modules(records: list[ProbeRecord], manifest: ModuleType) -> set[str]:
    """Loaded modules PyInstaller bundles: reached by import statements from the entry script,
    the manifest's hidden imports and collected packages, and the hook-provided modules."""
    modules = merged_modules(records)
    roots = [
        *manifest.HIDDEN_IMPORTS,
        *manifest.HOOK_PROVIDED,
        *(name for name in modules if manifest.is_named(name)),
    ]
    return statically_reachable(ROOT / manifest.ENTRY_SCRIPT, modules, roots)


def unbundled_modules(records: list[ProbeRecord], manifest: ModuleType) -> list[str]:
    reached = reached_modules(records, manifest)
    problems = []
    for record in records:
        for name, path in sorted(record.modules.items()):
            if name in reached or not is_bundled_code(path):
                continue
            problems.append(
                f"{name} ({record.mode} run) is imported by name: add it to HIDDEN_IMPORTS or "
                "COLLECT_SUBMODULES (or HOOK_PROVIDED when a PyInstaller hook bundles it)"
            )
            reached.add(name)  # report once
    return problems


def excluded_but_loaded(records: list[ProbeRecord], manifest: ModuleType) -> list[str]:
    return sorted(
        {
            f"{name} ({record.mode} run) is in EXCLUDES but the app loads it"
            for record in records
            for name in record.modules
            if manifest.is_excluded(name)
        }
    )


def normalized(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def missing_metadata(records: list[ProbeRecord], manifest: ModuleType) -> list[str]:
    bundled = {normalized(name) for name in manifest.METADATA}
    wanted = {normalized(n): n for record in records for n in record.metadata_names}
    return [
        f"the app reads the metadata of {name!r}: add it to METADATA"
        for key, name in sorted(wanted.items())
        if key not in bundled
    ]


def missing_entry_point_metadata(records: list[ProbeRecord], manifest: ModuleType) -> list[str]:
    """A queried entry-point group finds nothing in the bundle unless the dist-info of each
    distribution providing it (for code the app loads) is bundled."""
    bundled = {normalized(name) for name in manifest.METADATA}
    loaded_tops = {name.partition(".")[0] for name in merged_modules(records)}
    groups = {g for record in records for g in record.entry_point_groups if g != "*"}
    problems = []
    for distribution in importlib.metadata.distributions():
        name = distribution.metadata["Name"]
        for group in sorted(groups):
            targets = distribution.entry_points.select(group=group)
            if any(ep.module.partition(".")[0] in loaded_tops for ep in targets) and (
                normalized(name) not in bundled
            ):
                problems.append(
                    f"{name} provides entry points of group {group!r} the app queries: "
                    "add it to METADATA"
                )
    return sorted(set(problems))


def project_files_outside_data(records: list[ProbeRecord], manifest: ModuleType) -> list[str]:
    sources = [(ROOT / tree.source).resolve() for tree in manifest.DATA_TREES]
    problems = set()
    for record in records:
        for path in record.opened:
            if not Path(path).is_file() or path.endswith(_CODE_SUFFIXES):
                continue
            resolved = Path(path).resolve()
            if in_project(path) and not any(_under(resolved, s) for s in sources):
                problems.add(f"the app opens {path}: add its folder to DATA_TREES")
            elif in_site_packages(path) and ".dist-info" not in path:
                problems.add(f"the app opens package data {path}: bundle it in the spec")
    return sorted(problems)


def _needed_sonames(path: str) -> set[str]:
    """DT_NEEDED entries of a shared object (readelf from binutils)."""
    readelf = shutil.which("readelf")
    assert readelf is not None, "readelf (binutils) is needed to check shared libraries"
    out = subprocess.run(
        [readelf, "-d", "--wide", path], capture_output=True, text=True, check=False
    ).stdout
    return set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out))


def qt_plugin_of(path: str, manifest: ModuleType) -> str | None:
    """`platforms/libqxcb.so` for a Qt plugin file of the bindings, else None."""
    marker = f"/{manifest.QT_BINDINGS}/Qt/plugins/"
    if marker not in path:
        return None
    return path.split(marker, 1)[1]


def unbundled_libraries(records: list[ProbeRecord], manifest: ModuleType) -> list[str]:
    """Shared libraries loaded from site-packages that are neither module files, Qt plugins,
    manifest NATIVE_LIBRARIES nor linked (DT_NEEDED) by another loaded library: those are
    dlopen()ed by path and PyInstaller cannot find them."""
    module_files = {Path(p).resolve() for p in merged_modules(records).values() if p}
    loaded = sorted({lib for r in records for lib in r.libraries if in_site_packages(lib)})
    declared = set()
    for library in manifest.NATIVE_LIBRARIES:
        spec = importlib.util.find_spec(library.package)
        if spec is not None and spec.submodule_search_locations:
            folder = Path(next(iter(spec.submodule_search_locations)))
            declared.add((folder / library.relative_path()).resolve())
    needed = set().union(*(_needed_sonames(lib) for lib in loaded)) if loaded else set()
    problems = []
    for lib in loaded:
        resolved = Path(lib).resolve()
        if resolved in module_files or resolved in declared or qt_plugin_of(lib, manifest):
            continue
        if Path(lib).name not in needed:
            problems.append(f"{lib} is loaded by path: add it to NATIVE_LIBRARIES")
    return problems


def loaded_qt_plugins(records: list[ProbeRecord], manifest: ModuleType) -> set[str]:
    return {
        plugin
        for record in records
        for lib in record.libraries
        if (plugin := qt_plugin_of(lib, manifest)) is not None
    }
