"""Run the real `bidwallet sandbox serve` process from tests: start, wait for `ready URL`, stop.

Waiting is always for a condition with a deadline (the ready line, the process exit), never a
fixed sleep.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

READY_PREFIX = "ready "
# Generous: the first start of a fresh data dir mines the initial chain and the demo data, and
# the machine's two cores are shared with other test runs.
READY_DEADLINE_S = 90.0
EXIT_DEADLINE_S = 30.0


class SandboxProcessError(AssertionError):
    """The process did not become ready, or did not stop as expected. Carries its stderr."""


def bidwallet_command() -> list[str]:
    script = Path(sys.executable).with_name("bidwallet")
    return [str(script)] if script.exists() else [sys.executable, "-m", "app"]


class SandboxProcess:
    """One `bidwallet sandbox serve --port 0 [--data DIR]` process, started and ready.

    `argv` replaces the arguments after `bidwallet` (e.g. `["--sandbox"]`).
    """

    def __init__(
        self,
        log_dir: Path,
        data_dir: Path | None = None,
        extra_args: list[str] | None = None,
        env: dict[str, str] | None = None,
        argv: list[str] | None = None,
    ) -> None:
        self.data_dir = data_dir
        if argv is None:
            argv = ["sandbox", "serve", "--port", "0"]
            if data_dir is not None:
                argv += ["--data", str(data_dir)]
            argv += extra_args or []
        args = [*bidwallet_command(), *argv]
        log_dir.mkdir(parents=True, exist_ok=True)
        self.stderr_path = log_dir / f"sandbox-stderr-{time.monotonic_ns()}.log"
        self._stderr_file = self.stderr_path.open("wb")
        self.proc = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=self._stderr_file,
            stdin=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
            text=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.stdout_lines: list[str] = []
        assert self.proc.stdout is not None
        threading.Thread(target=self._pump, args=(self.proc.stdout,), daemon=True).start()
        self.url = self._wait_ready()

    def _pump(self, stream: IO[str]) -> None:
        with stream:
            for line in stream:
                self._lines.put(line.rstrip("\n"))
        self._lines.put(None)  # end of stream: the process exited

    def _wait_ready(self) -> str:
        deadline = time.monotonic() + READY_DEADLINE_S
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.kill()
                message = f"no ready line within {READY_DEADLINE_S}s"
                raise SandboxProcessError(f"{message}\n{self.stderr()}")
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                code = self.wait()
                raise SandboxProcessError(f"exited with {code} before ready\n{self.stderr()}")
            self.stdout_lines.append(line)
            if line.startswith(READY_PREFIX):
                return line[len(READY_PREFIX) :].strip()

    def remaining_stdout(self) -> list[str]:
        """Lines printed after the ready line; call after the process exited."""
        lines = []
        while True:
            line = self._lines.get(timeout=EXIT_DEADLINE_S)
            if line is None:
                return lines
            lines.append(line)

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")[-4000:]

    def terminate(self, sig: int = signal.SIGTERM) -> int:
        """Send `sig` and wait for the exit code."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        return self.wait()

    def kill(self) -> int:
        return self.terminate(signal.SIGKILL)

    def wait(self) -> int:
        try:
            code = self.proc.wait(timeout=EXIT_DEADLINE_S)
        except subprocess.TimeoutExpired as exc:
            self.proc.kill()
            self.proc.wait()
            message = f"did not exit within {EXIT_DEADLINE_S}s"
            raise SandboxProcessError(f"{message}\n{self.stderr()}") from exc
        finally:
            self._stderr_file.close()
        return code
