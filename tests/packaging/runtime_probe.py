"""Run one of the app's entry points with every load recorded; write what was loaded as JSON.

    python tests/packaging/runtime_probe.py OUT.json gui|wallet|sandbox-serve [ARGS...]

Recorded: every module imported (audit "import" events and sys.modules), every file opened
(audit "open"), every shared library mapped into the process (/proc/self/maps), every
distribution whose metadata was looked up by name and every entry-point group queried
(importlib.metadata and its importlib_metadata backport, which keyring uses on Python 3.11).
tests/packaging/test_bundle_manifest.py checks the PyInstaller manifest against this record.

Modes (run in a fresh process each, with HOME and the data dir pointing at a temp folder):
- gui: `bidwallet` with BIDWALLET_STARTUP_PROBE set (the window opens, then closes).
- wallet: what the app does with keys: the vault (keyring, Argon2id, ChaCha20-Poly1305), a
  demo key, a BIP-322 signature checked by the Rust verifier and Core's interpreter, and the
  network clients (httpx, TLS certificates).
- sandbox-serve: `bidwallet sandbox serve ARGS`, until the test sends SIGTERM.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

_imports: set[str] = set()
_opened: set[str] = set()
_dlopened: set[str] = set()
_metadata_names: set[str] = set()
_entry_point_groups: set[str] = set()


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "import":
        _imports.add(str(args[0]))
    elif event == "open":
        path = args[0]
        if isinstance(path, bytes):
            path = path.decode("utf-8", "replace")
        if isinstance(path, str):
            _opened.add(path)
    elif event == "ctypes.dlopen" and args[0]:
        _dlopened.add(str(args[0]))


def _patch_metadata_module(module: Any) -> None:
    """Record the names passed to Distribution.from_name (version(), metadata(), ...) and the
    groups passed to entry_points()."""
    distribution = module.Distribution
    original_from_name = distribution.from_name.__func__

    def from_name(cls: type, name: str) -> Any:
        _metadata_names.add(name)
        return original_from_name(cls, name)

    distribution.from_name = classmethod(from_name)
    original_entry_points = module.entry_points

    def entry_points(**params: Any) -> Any:
        _entry_point_groups.add(str(params.get("group", "*")))
        return original_entry_points(**params)

    module.entry_points = entry_points


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Patches importlib_metadata right after it is first imported (by whoever imports it),
    so the probe itself never imports a module the app does not."""

    def __init__(self, name: str, patch: Callable[[ModuleType], None]) -> None:
        self._name = name
        self._patch = patch

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self._name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original_exec = loader.exec_module
        patch = self._patch

        def exec_module(module: ModuleType) -> None:
            original_exec(module)
            patch(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _mapped_libraries() -> set[str]:
    found = set()
    for line in Path("/proc/self/maps").read_text().splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) == 6 and (".so" in parts[5]) and parts[5].startswith("/"):
            found.add(parts[5].strip())
    return found


def _module_files(preloaded: set[str]) -> dict[str, str | None]:
    """Modules the run loaded (not those the interpreter and site's .pth files had loaded
    before the probe started)."""
    files: dict[str, str | None] = {}
    for name, module in list(sys.modules.items()):
        if module is not None and name not in preloaded:
            files[name] = getattr(module, "__file__", None)
    for name in _imports - files.keys() - preloaded:
        files[name] = None  # imported, then removed from sys.modules
    return files


def run_gui() -> int:
    from app.__main__ import main

    return main([])


def run_wallet(data_dir: Path) -> int:
    import asyncio

    from app.net.clients import NetClients
    from app.net.config import ServiceConfig
    from app.services.sandbox_demo import create_demo_key
    from app.wallet.message import sign_message, verify_message
    from app.wallet.secp import assert_native_secp256k1
    from app.wallet.vault import open_default_vault

    assert_native_secp256k1()
    vault = open_default_vault(data_dir).vault
    keys = create_demo_key(vault, "probe")
    for key in (keys.payment, keys.ordinals):
        signed = sign_message(key, "bidwallet bundle probe")
        verify_message(signed.address, signed.message, signed.signature)

    async def open_clients() -> None:
        clients = NetClients.open(ServiceConfig.satflow(api_key=None))
        await clients.aclose()

    asyncio.run(open_clients())
    return 0


def run_sandbox_serve(args: list[str]) -> int:
    from app.__main__ import main

    return main(["sandbox", "serve", *args])


def main(argv: list[str]) -> int:
    out, mode, rest = Path(argv[0]), argv[1], argv[2:]
    preloaded = set(sys.modules)
    sys.addaudithook(_audit)
    import importlib.metadata

    _patch_metadata_module(importlib.metadata)
    sys.meta_path.insert(0, _PatchOnImport("importlib_metadata", _patch_metadata_module))
    if mode == "gui":
        code = run_gui()
    elif mode == "wallet":
        code = run_wallet(Path(rest[0]))
    elif mode == "sandbox-serve":
        code = run_sandbox_serve(rest)
    else:
        raise SystemExit(f"runtime_probe: unknown mode {mode!r}")
    record = {
        "mode": mode,
        "exit_code": code,
        "modules": _module_files(preloaded),
        "opened": sorted(_opened),
        "libraries": sorted(_mapped_libraries() | _dlopened),
        "metadata_names": sorted(_metadata_names),
        "entry_point_groups": sorted(_entry_point_groups),
    }
    out.write_text(json.dumps(record, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
