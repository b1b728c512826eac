"""What the PyInstaller bundle carries beyond what PyInstaller's static import analysis finds.

`bidwallet.spec` builds from these lists; `tests/packaging/test_bundle_manifest.py` runs the app's
entry points, records every module, shared library and metadata file they load, and checks that
each one is found by static analysis, handled by a PyInstaller hook, or named here. Every entry
says why it is needed. Paths are relative to the project root.

Plain data and the standard library only: the spec and the tests load this file by its path
(the project's `packaging/` folder would shadow PyPI's `packaging` as an import name).
"""

from __future__ import annotations

import platform
from dataclasses import dataclass

APP_NAME = "bidwallet"
ENTRY_SCRIPT = "app/__main__.py"  # `bidwallet` and `python -m app` run the same main()
# The freedesktop application id: .desktop, metainfo and icon file names use it.
APP_ID = "io.bidwallet.Bidwallet"


@dataclass(frozen=True)
class DataTree:
    """A folder of the project copied into the bundle."""

    source: str  # relative to the project root
    target: str  # relative to the bundle's _internal/ folder
    reason: str


@dataclass(frozen=True)
class NativeLibrary:
    """A shared library a package loads with ctypes: PyInstaller cannot see it."""

    package: str  # the import package that ships it
    path: str  # inside the package folder; "{machine}" is platform.machine()
    reason: str

    def relative_path(self, machine: str | None = None) -> str:
        return self.path.format(machine=machine or platform.machine())


# Modules imported by name at run time (strings in config, import_module), which static
# analysis cannot follow.
HIDDEN_IMPORTS: tuple[str, ...] = (
    # uvicorn resolves its loop, HTTP protocol, websockets and lifespan from strings in
    # uvicorn.config ("uvicorn.protocols.http.auto:AutoHTTPProtocol", ...).
    "uvicorn.loops.auto",
    "uvicorn.loops.asyncio",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.http.h11_impl",
    "uvicorn.protocols.websockets.auto",
    "uvicorn.lifespan.on",
    "uvicorn.lifespan.off",
    "uvicorn.logging",
    # shiboken imports it from C at start. PyInstaller's hook-PySide6.py adds it only when
    # the `PySide6` distribution is installed, and we depend on `PySide6-Essentials`.
    "PySide6.support.deprecated",
)

# Packages bundled with every submodule.
COLLECT_SUBMODULES: tuple[str, ...] = (
    "app",  # our own code, sandbox included: a module imported lazily is never missing
    "keyring.backends",  # found through the `keyring.backends` entry points, never imported
)

# Modules imported by name that a PyInstaller hook adds (hook file: what it does). The test
# runs each hook and checks it still provides them.
HOOK_PROVIDED: dict[str, str] = {
    # anyio imports its event-loop backend by name (httpx and starlette run on anyio).
    "anyio._backends._asyncio": "hook-anyio.py",
    # argon2-cffi's compiled bindings import the cffi runtime from C.
    "_cffi_backend": "hook-argon2.py",
}

# Distributions whose dist-info goes into the bundle: importlib.metadata reads them at run time.
METADATA: tuple[str, ...] = (
    "bidwallet",  # `bidwallet --version` (app/__init__.py reads its version)
    "keyring",  # its backends are registered as entry points of this distribution
    "bip322",  # bip322/__init__.py reads its own version
)

DATA_TREES: tuple[DataTree, ...] = (
    DataTree(
        "resources",
        "app/resources",
        "icons and styles; app.ui.resources looks in app/resources as in the wheel",
    ),
)

NATIVE_LIBRARIES: tuple[NativeLibrary, ...] = (
    NativeLibrary(
        "embit",
        "util/prebuilt/libsecp256k1_linux_{machine}.so",
        "embit loads its bundled libsecp256k1 with ctypes from embit/util/prebuilt; without it "
        "embit falls back to slow pure-Python curve code, which app.wallet refuses",
    ),
    NativeLibrary(
        "pbk",
        "_libs/libbitcoinkernel.so",
        "py-bitcoinkernel loads libbitcoinkernel with ctypes from pbk/_libs (the sandbox chain)",
    ),
)

# Qt plugins the bundle must hold. PyInstaller's PySide6.QtGui hook collects these plugin
# types; the test checks that against PyInstaller's own table, the smoke test in the bundle.
REQUIRED_QT_PLUGINS: tuple[str, ...] = (
    "platforms/libqxcb.so",  # X11
    "platforms/libqwayland.so",  # Wayland (PySide6 6.12 has one plugin, no -egl/-generic)
    "platforms/libqoffscreen.so",  # headless: CI and the smoke test
    "xcbglintegrations/libqxcb-glx-integration.so",
    "wayland-shell-integration/libxdg-shell.so",
    "platforminputcontexts/libcomposeplatforminputcontextplugin.so",  # dead keys on X11
    "imageformats/libqsvg.so",
    "iconengines/libqsvgicon.so",
)

# The Qt binding whose plugins folder (PySide6/Qt/plugins) the checks look in. PyInstaller's Qt
# hooks collect the plugin types of every Qt module whose binding the app imports.
QT_BINDINGS = "PySide6"

# Importable in the build environment but never used by the app: kept out of the bundle.
# The test fails when the app loads any of them at run time.
EXCLUDES: tuple[str, ...] = (
    "tkinter",
    "_tkinter",
    "pytest",
    "_pytest",
    "pytestqt",
    "hypothesis",
    "schemathesis",
    "mypy",
    "mypyc",
    "ruff",
    "importlinter",
    "grimp",
    "PyInstaller",
    "IPython",
)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def is_named(module: str) -> bool:
    """True when the spec names `module`, a module inside it (bundling `a.b.c` bundles `a.b`),
    or a package it collects whole."""
    if any(_within(name, module) for name in HIDDEN_IMPORTS):
        return True
    return any(_within(module, root) for root in COLLECT_SUBMODULES)


def is_excluded(module: str) -> bool:
    return any(_within(module, name) for name in EXCLUDES)
