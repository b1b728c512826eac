"""docs/qa.md's scenarios, run as a QA engineer runs them: every test the page shows copied
into a directory of its own (no conftest, nothing of tests/), pytest in a child process with
the installed package's plugin, no display and no Qt platform chosen (the plugin's headless
default)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
FIRST = "# test_first_scenario.py"
RUN_TIMEOUT_S = 600


def python_blocks(markdown: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.DOTALL)


def test_the_scenarios_of_docs_qa_pass_from_a_directory_of_their_own(tmp_path: Path) -> None:
    blocks = [b for b in python_blocks((REPO / "docs" / "qa.md").read_text()) if "def test_" in b]
    assert len(blocks) >= 3 and FIRST in blocks[0]
    for n, block in enumerate(blocks):
        (tmp_path / f"test_docs_{n}.py").write_text(block)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "PYTEST_ADDOPTS"}
        and not k.startswith("PYTEST_XDIST")
    }
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "."],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert f"{len(blocks)} passed" in result.stdout
