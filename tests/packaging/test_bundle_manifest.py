"""The PyInstaller spec carries everything the app loads at run time.

The app's entry points run in subprocesses (the window offscreen, the wallet's key, vault and
signature work, `sandbox serve` answering requests) with every module, shared library,
metadata lookup and file opened recorded. Each must be found by PyInstaller's static analysis,
bundled by a hook the manifest names (and the hook is run to prove it), or named in
packaging/pyinstaller/manifest.py. A new dependency loaded by name fails here, not in a user's
bundle. The built bundle itself is exercised by test_bundle_smoke.py.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from tests.packaging import bundle_coverage as coverage
from tests.packaging.manifest_file import ROOT, load_manifest
from tests.packaging.probe_runs import ProbeRecord, run_all


@pytest.fixture(scope="module")
def manifest() -> ModuleType:
    return load_manifest()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[ProbeRecord]:
    return run_all(tmp_path_factory.mktemp("probe"))


def test_the_probe_ran_every_part_of_the_app(records: list[ProbeRecord]) -> None:
    modules = coverage.merged_modules(records)
    for name in ("app.ui.main_window", "app.wallet.vault", "app.sandbox.http.server", "bip322"):
        assert name in modules, f"{name} never loaded: the probe no longer covers it"
    libraries = "\n".join(lib for r in records for lib in r.libraries)
    assert "libsecp256k1" in libraries and "libbitcoinkernel" in libraries
    assert "platforms/libqoffscreen.so" in libraries


def test_every_module_loaded_at_run_time_is_bundled(
    records: list[ProbeRecord], manifest: ModuleType
) -> None:
    assert coverage.unbundled_modules(records, manifest) == []


def test_no_excluded_module_is_loaded(records: list[ProbeRecord], manifest: ModuleType) -> None:
    assert coverage.excluded_but_loaded(records, manifest) == []


def test_metadata_read_at_run_time_is_bundled(
    records: list[ProbeRecord], manifest: ModuleType
) -> None:
    assert "bidwallet" in {n for r in records for n in r.metadata_names}  # --version's source
    assert coverage.missing_metadata(records, manifest) == []
    assert coverage.missing_entry_point_metadata(records, manifest) == []


def test_project_files_the_app_opens_are_data(
    records: list[ProbeRecord], manifest: ModuleType
) -> None:
    opened = [p for r in records for p in r.opened]
    assert any(p.endswith(".qss") for p in opened), "the styles were never read"
    assert coverage.project_files_outside_data(records, manifest) == []


def test_shared_libraries_loaded_by_path_are_bundled(
    records: list[ProbeRecord], manifest: ModuleType
) -> None:
    if shutil.which("readelf") is None:
        pytest.skip("readelf is not installed (Debian: binutils)")
    assert coverage.unbundled_libraries(records, manifest) == []


def test_manifest_entries_exist(manifest: ModuleType) -> None:
    for tree in manifest.DATA_TREES:
        assert (ROOT / tree.source).is_dir(), tree
    for library in manifest.NATIVE_LIBRARIES:
        spec = importlib.util.find_spec(library.package)
        assert spec is not None and spec.submodule_search_locations, library.package
        folder = Path(next(iter(spec.submodule_search_locations)))
        assert (folder / library.relative_path()).is_file(), library
    for name in manifest.HIDDEN_IMPORTS + manifest.COLLECT_SUBMODULES:
        assert importlib.util.find_spec(name) is not None, f"hidden import {name} not found"
    assert (ROOT / manifest.ENTRY_SCRIPT).is_file()


def test_hooks_the_manifest_relies_on_provide_those_modules(manifest: ModuleType) -> None:
    pytest.importorskip("PyInstaller")
    from tests.packaging.pyinstaller_checks import hook_hiddenimports

    for module, hook in manifest.HOOK_PROVIDED.items():
        assert module in hook_hiddenimports(hook), f"{hook} no longer bundles {module}"


def test_qt_plugins_the_app_loads_are_collected(
    records: list[ProbeRecord], manifest: ModuleType
) -> None:
    pytest.importorskip("PyInstaller")
    from tests.packaging.pyinstaller_checks import collected_qt_plugin_types

    reached = coverage.reached_modules(records, manifest)
    types = collected_qt_plugin_types(manifest.QT_BINDINGS, reached)
    wanted = coverage.loaded_qt_plugins(records, manifest) | set(manifest.REQUIRED_QT_PLUGINS)
    assert "platforms/libqoffscreen.so" in wanted
    missing = sorted(p for p in wanted if p.rpartition("/")[0] not in types)
    assert missing == [], f"PyInstaller's Qt hooks would not collect {missing}"


def test_spec_builds_from_the_manifest(manifest: ModuleType) -> None:
    pytest.importorskip("PyInstaller")
    from tests.packaging.pyinstaller_checks import run_spec

    build = run_spec()
    analysis = build.analysis
    assert analysis["scripts"] == [str(ROOT / manifest.ENTRY_SCRIPT)]
    hidden = set(analysis["hiddenimports"])
    assert set(manifest.HIDDEN_IMPORTS) <= hidden
    # collect_submodules really ran: the sandbox, started as `bidwallet sandbox serve`, is in.
    assert {"app.sandbox.http.server", "keyring.backends.SecretService"} <= hidden
    datas = {(Path(src).name, dest) for src, dest in analysis["datas"]}
    assert ("resources", "app/resources") in datas
    dist_infos = {name for name, _ in datas if name.endswith(".dist-info")}
    for distribution in manifest.METADATA:
        prefix = coverage.normalized(distribution).replace("-", "_") + "-"
        assert any(d.lower().startswith(prefix) for d in dist_infos), distribution
    binaries = {(Path(src).name, dest) for src, dest in analysis["binaries"]}
    assert ("libbitcoinkernel.so", "pbk/_libs") in binaries
    assert any(
        n.startswith("libsecp256k1_linux") and d == "embit/util/prebuilt" for n, d in binaries
    )
    assert set(analysis["excludes"]) == set(manifest.EXCLUDES)
    assert build.exe["name"] == build.collect["name"] == manifest.APP_NAME
