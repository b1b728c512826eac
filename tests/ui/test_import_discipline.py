"""How app/ui imports (issue 13): at the top of each module, except what would slow the window.

The window is built before httpx, embit and the vault's cryptography are loaded: the controller
imports them in the executor (`controller.PRELOAD_MODULES`, `profile_session.SERVICE_MODULES`),
so importing them never freezes the window and the window shows sooner. A module of app/ui
therefore imports a heavy module inside the function that uses it (typed through
`if TYPE_CHECKING:` imports at its top), and everything else at its top. These tests keep it
so: a function-level import must name a heavy module (`DEFERRED`), never one the window loads
at start anyway, and the modules the window loads at start pull in no heavy library. Also:
no class told apart by comparing its name as a string (`isinstance` says it).

No Qt application is needed: the source is read with `ast`; the start-up imports are listed by
a child interpreter.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UI = REPO / "app" / "ui"

# What a function of app/ui may import, and why each is heavy. A name matches an entry equal to
# it or below it (`app.services` covers `app.services.funding`).
DEFERRED: dict[str, str] = {
    # the use cases: through app.net they load httpx; most load embit (PSBTs, keys), the
    # vault's use cases cryptography, argon2 and keyring; app.services.errors the PSBT guard
    "app.services": "httpx, embit, cryptography, argon2, keyring (the use cases)",
    "app.net": "httpx",  # reached through app.services only (import-linter); listed for clarity
    "app.wallet": "embit, cryptography, argon2, keyring",
    "httpx": "a few hundred ms with its dependencies",
    "embit": "secp256k1 bindings and the PSBT model",
    "cryptography": "the vault's cipher",
    "argon2": "the vault's key derivation",
    "keyring": "the OS keychain backends",
    # the PSBT guard: ~40 ms of policy and review modules the window does not need to show
    "app.core.signing_policy": "the PSBT guard's policies (~40 ms)",
    "app.ui.dialogs.psbt_review_dialog": "draws a Review: the PSBT guard (~40 ms)",
    # dialogs whose module imports the vault's use cases at its top
    "app.ui.dialogs.key_setup": "app.services.key_setup and key_vault (embit, cryptography)",
    "app.ui.dialogs.unlock": "app.services.key_vault (embit, cryptography, argon2, keyring)",
    # the QR encoder: a QR shows only once asked for (the Fund panel's "Show QR")
    "segno": "the QR encoder (~10 ms with its writers)",
    # the camera of the QR scan dialog (looked for once the dialog opens; it loads FFmpeg)
    "PySide6.QtMultimedia": "Qt Multimedia, for a camera only",
    # only with --smoke-test: it imports every flow tab and drives the window
    "app.ui.smoke_test": "every flow tab, for the packaged app's check only",
}

# Libraries the window must not load while it is being built (the preload loads them).
HEAVY_LIBRARIES = ("httpx", "embit", "cryptography", "argon2", "keyring")

# The modules the window imports to show itself: the launch, and every tab (the window opens
# on the tab it was left on, so any tab's module may be imported before it is shown).
_STARTUP_PROBE = """
import importlib, json, sys
import app.ui.launch
from app.ui.tabs import TABS
for spec in TABS:
    importlib.import_module(spec.factory.partition(":")[0])
print(json.dumps(sorted(sys.modules)))
"""


def is_deferred(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in DEFERRED)


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_repo_module(name: str) -> bool:
    path = REPO.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imported_module(node: ast.Import | ast.ImportFrom, alias: ast.alias, module: str) -> str:
    """The module an import loads: `from app.ui import strings` loads app.ui.strings, `from
    app.ui.strings import X` app.ui.strings; relative imports resolved against `module`."""
    if isinstance(node, ast.Import):
        return alias.name
    package = module.split(".")[: -node.level] if node.level else []
    base = ".".join([*package, node.module] if node.module else package)
    submodule = f"{base}.{alias.name}"
    return submodule if _is_repo_module(submodule) else base


def _is_type_checking(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name | ast.Attribute)
        and ast.unparse(node.test) in {"TYPE_CHECKING", "typing.TYPE_CHECKING"}
    )


def function_imports(source: str, module: str) -> Iterator[tuple[int, str]]:
    """(line, module) of each import run inside a function of `source` (not type-only ones)."""

    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[int, str]]:
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child):
                continue
            if in_function and isinstance(child, ast.Import | ast.ImportFrom):
                names = {_imported_module(child, alias, module) for alias in child.names}
                yield from ((child.lineno, name) for name in sorted(names))
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            yield from walk(child, inside)

    yield from walk(ast.parse(source), False)


def class_name_comparisons(source: str) -> Iterator[int]:
    """Lines comparing `type(x).__name__` or `x.__class__.__name__` (or __qualname__)."""

    def names_a_class(node: ast.expr) -> bool:
        if not (isinstance(node, ast.Attribute) and node.attr in {"__name__", "__qualname__"}):
            return False
        owner = node.value
        is_type_call = (
            isinstance(owner, ast.Call)
            and isinstance(owner.func, ast.Name)
            and owner.func.id == "type"
        )
        return is_type_call or (isinstance(owner, ast.Attribute) and owner.attr == "__class__")

    def sides(node: ast.Compare) -> Iterator[ast.expr]:
        for side in (node.left, *node.comparators):
            yield side
            if isinstance(side, ast.Tuple | ast.List | ast.Set):  # `in {...}`
                yield from side.elts

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(names_a_class(side) for side in sides(node)):
            yield node.lineno


# The QA plugin (pytest fixtures and page objects) is test tooling the window never loads
# (tests/ui/test_qa_plugin.py checks that); its imports follow pytest's needs, not start-up's.
QA = UI / "qa"


def _ui_sources() -> list[Path]:
    return sorted(p for p in UI.rglob("*.py") if QA not in p.parents)


@pytest.fixture(scope="module")
def startup_modules() -> set[str]:
    result = subprocess.run(
        [sys.executable, "-c", _STARTUP_PROBE],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return set(json.loads(result.stdout))


def test_functions_import_only_heavy_modules() -> None:
    light = [
        f"{path.relative_to(REPO)}:{line} imports {name}"
        for path in _ui_sources()
        for line, name in function_imports(path.read_text(encoding="utf-8"), _module_name(path))
        if not is_deferred(name)
    ]
    assert light == [], "import these at the module's top (or list the module in DEFERRED)"


def test_functions_do_not_import_what_the_window_loads_at_start(
    startup_modules: set[str],
) -> None:
    loaded_anyway = [
        f"{path.relative_to(REPO)}:{line} imports {name}"
        for path in _ui_sources()
        for line, name in function_imports(path.read_text(encoding="utf-8"), _module_name(path))
        if name in startup_modules
    ]
    assert loaded_anyway == [], "already loaded when the window shows: import at the top"


def test_the_window_starts_without_the_heavy_libraries(startup_modules: set[str]) -> None:
    loaded = [name for name in HEAVY_LIBRARIES if name in startup_modules]
    assert loaded == [], "a module the window imports at start imports these at its top"


def test_no_class_is_told_apart_by_its_name() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line}"
        for path in _ui_sources()
        for line in class_name_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "compare classes with isinstance, not their names"


# -- the scans themselves ------------------------------------------------------------------------

SAMPLE = """
from typing import TYPE_CHECKING
import os
if TYPE_CHECKING:
    from app.services.bids import BidSpec

def light():
    from app.ui import strings
    if TYPE_CHECKING:
        from app.ui.context import AppContext

class Tab:
    async def heavy(self):
        from app.services.funding import fee_estimates
        def inner():
            import json
        from . import sibling
        from .. import strings as s2

def compare(x, y, f):
    same = type(x).__name__ == "Tab"
    listed = "Tab" in {y.__class__.__qualname__}
    return f.__name__ == "compare" or log(type(x).__name__) or isinstance(x, Tab)
"""


def test_the_import_scan_finds_function_level_imports_only() -> None:
    found = list(function_imports(SAMPLE, "app.ui.tabs.sample"))
    assert found == [
        (8, "app.ui.strings"),
        (14, "app.services.funding"),
        (16, "json"),
        (17, "app.ui.tabs"),  # app/ui/tabs/sibling.py does not exist: the package
        (18, "app.ui.strings"),
    ]
    assert [name for _, name in found if not is_deferred(name)] == [
        "app.ui.strings",
        "json",
        "app.ui.tabs",
        "app.ui.strings",
    ]


def test_the_name_scan_finds_class_name_comparisons() -> None:
    assert sorted(class_name_comparisons(SAMPLE)) == [21, 22]


def test_the_window_never_imports_the_qa_plugin(startup_modules: set[str]) -> None:
    """app/ui/qa is test tooling (pytest, pytest-qt): no module of the window names it, and
    the window's start-up never loads it."""

    def imported(node: ast.AST) -> list[str]:
        if isinstance(node, ast.ImportFrom):
            return [node.module or ""]
        return [a.name for a in node.names] if isinstance(node, ast.Import) else []

    naming = [
        f"{path.relative_to(REPO)} imports {name}"
        for path in _ui_sources()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        for name in imported(node)
        if name == "app.ui.qa" or name.startswith("app.ui.qa.")
    ]
    assert naming == []
    assert sorted(m for m in startup_modules if m.startswith("app.ui.qa")) == []
