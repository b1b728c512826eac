"""The built bundle (packaging/build.sh) works without the venv. Slow, and skipped unless
BIDWALLET_BUNDLE names the bundle folder:

    packaging/build.sh --bundle
    BIDWALLET_BUNDLE=dist/bidwallet .venv/bin/pytest tests/packaging -m slow
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.packaging.manifest_file import PACKAGING, ROOT, load_manifest
from tests.packaging.probe_runs import isolated_env, read_ready_url
from tests.packaging.wheel import wheel_version

BUNDLE_ENV = "BIDWALLET_BUNDLE"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.environ.get(BUNDLE_ENV), reason=f"{BUNDLE_ENV} is not set"),
]


@pytest.fixture(scope="module")
def bundle() -> Path:
    path = (ROOT / os.environ[BUNDLE_ENV]).resolve()
    assert (path / "bidwallet").is_file(), f"no bundle at {path}: run packaging/build.sh"
    return path


def test_smoke_script_passes(bundle: Path) -> None:
    result = subprocess.run(
        [str(PACKAGING / "smoke_test.sh"), str(bundle)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "smoke test passed" in result.stdout


def test_bundle_reports_the_wheel_version(bundle: Path, built_wheel: Path) -> None:
    out = subprocess.run(
        [str(bundle / "bidwallet"), "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == f"bidwallet {wheel_version(built_wheel)}"


def test_bundle_holds_what_the_manifest_lists(bundle: Path) -> None:
    manifest = load_manifest()
    internal = bundle / "_internal"
    plugins = internal / manifest.QT_BINDINGS / "Qt" / "plugins"
    missing = [p for p in manifest.REQUIRED_QT_PLUGINS if not (plugins / p).is_file()]
    assert missing == []
    for library in manifest.NATIVE_LIBRARIES:
        assert (internal / library.package / library.relative_path()).is_file(), library
    for tree in manifest.DATA_TREES:
        assert (internal / tree.target).is_dir(), tree
    dist_infos = {p.name.split("-")[0].lower() for p in internal.glob("*.dist-info")}
    for distribution in manifest.METADATA:
        assert distribution.replace("-", "_").lower() in dist_infos, distribution


def _api_paths(command: list[str], home: Path) -> set[str]:
    proc = subprocess.Popen(
        [*command, "sandbox", "serve", "--port", "0", "--data", str(home / "data")],
        env=isolated_env(home),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        url = read_ready_url(proc, 120)
        with urllib.request.urlopen(url + "/openapi.json", timeout=30) as response:
            paths = set(json.load(response)["paths"])
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        return paths
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_bundle_serves_the_same_api_as_the_source_tree(bundle: Path, tmp_path: Path) -> None:
    # Routers the sandbox mounts only when their module is found by name are in the bundle too.
    frozen = _api_paths([str(bundle / "bidwallet")], tmp_path / "frozen")
    source = _api_paths([sys.executable, "-m", "app"], tmp_path / "source")
    assert frozen == source
    assert any(p.startswith("/v1/") for p in frozen)
