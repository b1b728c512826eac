"""A scenario's faults on the sandbox (`/sandbox/faults`, docs/sandbox-faults.md): the next
requests of an endpoint answer an error, time out, lose their connection, are rate limited,
get a given answer, or are served a tampered PSBT; and what fired.

The session's sandbox serves every test, so a fault must not outlive the test that armed it:
`Sandbox.faults` is there only inside `Sandbox.fault_scope()`, which at both ends removes every
fault and forgets the firings and the request journal (`Sandbox.requests()`), so a test reads
only what was sent since it began. The plugin's `bidwallet_faults` fixture is that scope for
one test.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from app.services.sandbox_scenario import ArmedFault, FaultKind, FaultTamper, FiredFault

if TYPE_CHECKING:
    from app.ui.qa.sandbox import Sandbox


class SandboxFaults:
    """Arm, list and remove faults. `method` is "POST", "GET", ... or "*" (any); `path` is
    exact, or a prefix when it ends in "*" ("/v1/*"); `times` counts the requests it hits
    (None: until removed). By default a fault answers in the service's place (the request never
    reaches it, as the sandbox's own default); `applied=True`: the service handles the request
    fully first (a bid is stored), then the client gets the fault instead of its answer."""

    def __init__(self, sandbox: Sandbox) -> None:
        self._sandbox = sandbox

    def error(
        self,
        method: str,
        path: str,
        status: int = 503,
        applied: bool = False,
        times: int | None = 1,
        retry_after_ms: int | None = None,
    ) -> ArmedFault:
        """The error envelope with `status` (its code follows it: SERVICE_UNAVAILABLE, ...);
        with `retry_after_ms` it names that wait (`retryAfterMs` and Retry-After), e.g. a 429
        after the request was applied."""
        return self._arm(
            "error",
            method,
            path,
            times,
            status=status,
            applied=applied,
            retry_after_ms=retry_after_ms,
        )

    def timeout(
        self,
        method: str,
        path: str,
        hold_ms: int | None = None,
        applied: bool = False,
        times: int | None = 1,
    ) -> ArmedFault:
        """No answer: the connection held until the client gives up or `hold_ms` passes
        (the sandbox's 60 s by default)."""
        return self._arm("timeout", method, path, times, hold_ms=hold_ms, applied=applied)

    def drop(
        self, method: str, path: str, applied: bool = False, times: int | None = 1
    ) -> ArmedFault:
        """The connection closed at once without an answer."""
        return self._arm("drop", method, path, times, applied=applied)

    def rate_limit(
        self, method: str, path: str, retry_after_ms: int = 1_000, times: int | None = 1
    ) -> ArmedFault:
        """429 with `retryAfterMs` (and Retry-After); never applied."""
        return self._arm("rate-limit", method, path, times, retry_after_ms=retry_after_ms)

    def tamper(self, method: str, path: str, name: str, times: int | None = 1) -> ArmedFault:
        """The answer's PSBTs altered by the tamper `name` (`tampers()` lists them)."""
        return self._arm("tamper", method, path, times, tamper=name)

    def reply(
        self,
        method: str,
        path: str,
        status: int,
        body: Any = None,
        times: int | None = 1,
        body_text: str | None = None,
    ) -> ArmedFault:
        """`status` with `body` exactly as given, not applied (e.g. ord down); or with
        `body_text`, that exact text as application/json, JSON or not (a service answering
        garbage)."""
        return self._arm(
            "reply", method, path, times, status=status, body=body, body_text=body_text
        )

    def armed(self) -> tuple[ArmedFault, ...]:
        return self._sandbox.run(lambda c: c.faults()).armed

    def fired(self) -> tuple[FiredFault, ...]:
        """The recent firings, oldest first (since the scope began)."""
        return self._sandbox.run(lambda c: c.faults()).fired

    def remove(self, fault_id: int) -> ArmedFault:
        return self._sandbox.run(lambda c: c.remove_fault(fault_id))

    def clear(self) -> int:
        """Remove every armed fault and forget the firings; how many were armed."""
        return self._sandbox.run(lambda c: c.clear_faults())

    def tampers(self) -> list[FaultTamper]:
        return self._sandbox.run(lambda c: c.fault_tampers())

    def _arm(
        self, kind: FaultKind, method: str, path: str, times: int | None, **options: Any
    ) -> ArmedFault:
        return self._sandbox.run(
            lambda c: c.arm_fault(kind, path, method=method, times=times, **options)
        )


@contextmanager
def fault_scope(sandbox: Sandbox) -> Iterator[SandboxFaults]:
    """Faults armed within it; none left (armed or remembered as fired), and the request
    journal forgotten, at either end."""
    faults = SandboxFaults(sandbox)
    faults.clear()
    sandbox.clear_requests()
    try:
        yield faults
    finally:
        faults.clear()
        sandbox.clear_requests()
