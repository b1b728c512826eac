"""Faults on demand (`/sandbox/faults`): what QA arms, which requests it hits, what it did.

A `Fault` hits the next `times` requests (None: until removed) whose method is `method` ("*":
any) and whose path is `path` (exact, or a prefix when it ends in "*"; the query string is not
part of the path) and, with `when_body`, whose JSON body is an object holding each of those
top-level fields with those values (e.g. a cancel by one maker address).

`FaultBook` keeps the armed faults in arming order (the first match wins) and a bounded
history of firings; every arming and every firing is a line of this module's log, which the
served sandbox writes to its stderr (the app's `sandbox.log`). The fault API's own paths and
the request journal's are never hit, so a fault can always be removed. `fault_middleware.py`
applies them.

The book is touched on the event loop only (the middleware and the `async` routes).
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

log = logging.getLogger(__name__)

FaultKind = Literal["error", "timeout", "drop", "rate-limit", "tamper", "reply"]
FAULTS_PATH = "/sandbox/faults"
REQUESTS_PATH = "/sandbox/requests"  # the request journal's (request_journal.py)
FIRED_KEPT = 500  # firings remembered for GET /sandbox/faults (older ones are forgotten)
DEFAULT_HOLD_MS = 60_000
MAX_HOLD_MS = 600_000


def is_control_path(path: str) -> bool:
    """The fault and journal API's own paths: never hit by a fault, never recorded."""
    return path in (FAULTS_PATH, REQUESTS_PATH) or path.startswith(FAULTS_PATH + "/")


def path_matches(pattern: str, path: str) -> bool:
    """`path` is `pattern`, or starts with it when it ends in "*" (faults, the journal)."""
    if pattern.endswith("*"):
        return path.startswith(pattern[:-1])
    return path == pattern


@dataclass(frozen=True)
class Fault:
    """One armed fault. `left` counts the requests it will still hit (None: no limit)."""

    id: int
    kind: FaultKind
    method: str
    path: str
    left: int | None
    applied: bool = False  # error, timeout, drop: the app handles the request first
    status: int | None = None  # error, reply
    hold_ms: int | None = None  # timeout
    retry_after_ms: int | None = None  # rate-limit; error: when given
    tamper: str | None = None  # tamper: a name of faults_tampers.TAMPERS
    body: Any = None  # reply
    body_text: str | None = None  # reply: answered as this exact text instead of `body`
    only_paths: frozenset[str] | None = None  # a tamper hits only the intents it applies to
    when_body: Mapping[str, Any] | None = None  # top-level fields the JSON body must hold

    def matches(self, method: str, path: str, body: Any = None) -> bool:
        """Whether it hits this request; `body` is the decoded JSON body (None: not read or
        not JSON), looked at only with `when_body`."""
        if not self.matches_route(method, path):
            return False
        if self.when_body is None:
            return True
        return isinstance(body, Mapping) and all(
            k in body and body[k] == v for k, v in self.when_body.items()
        )

    def matches_route(self, method: str, path: str) -> bool:
        if self.method not in ("*", method):
            return False
        if self.only_paths is not None and path not in self.only_paths:
            return False
        return path_matches(self.path, path)

    def describe(self) -> str:
        """What it does, in a sentence fragment (log lines and the API's `description`)."""
        when = "after the request is applied" if self.applied else "without applying the request"
        if self.kind == "error":
            if self.retry_after_ms is not None:
                return f"answer {self.status} with retryAfterMs {self.retry_after_ms} {when}"
            return f"answer {self.status} {when}"
        if self.kind == "timeout":
            return f"hold the connection unanswered {when} (at most {self.hold_ms} ms)"
        if self.kind == "drop":
            return f"close the connection unanswered {when}"
        if self.kind == "rate-limit":
            return f"answer 429 with retryAfterMs {self.retry_after_ms} without applying"
        if self.kind == "tamper":
            return f"apply the request and serve its PSBT tampered by {self.tamper}"
        if self.body_text is not None:
            return f"answer {self.status} with the given text without applying the request"
        return f"answer {self.status} with the given body without applying the request"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "method": self.method,
            "path": self.path,
            "left": self.left,
            "applied": self.applied,
            "status": self.status,
            "holdMs": self.hold_ms,
            "retryAfterMs": self.retry_after_ms,
            "tamper": self.tamper,
            "body": self.body,
            "bodyText": self.body_text,
            "whenBody": None if self.when_body is None else dict(self.when_body),
            "description": self.describe(),
        }


@dataclass
class Firing:
    """One request a fault hit; `outcome` says what was done once it is known."""

    fault_id: int
    kind: FaultKind
    method: str
    path: str
    at_ms: int  # the sandbox's clock
    left: int | None
    outcome: str = "in progress"  # "holding ..." while a timeout holds the connection

    def to_json(self) -> dict[str, Any]:
        return {
            "faultId": self.fault_id,
            "kind": self.kind,
            "method": self.method,
            "path": self.path,
            "atMs": self.at_ms,
            "left": self.left,
            "outcome": self.outcome,
        }


@dataclass
class FaultBook:
    """The armed faults and the recent firings of one sandbox app."""

    now_ms: Callable[[], int]
    armed: list[Fault] = field(default_factory=list)
    fired: deque[Firing] = field(default_factory=lambda: deque(maxlen=FIRED_KEPT))
    _next_id: int = 1

    def arm(self, fault: Fault) -> Fault:
        """`fault` with a fresh id, armed after the others."""
        armed = replace(fault, id=self._next_id)
        self._next_id += 1
        self.armed.append(armed)
        log.info(
            "fault %d armed: %s %s%s: %s (%s)",
            armed.id,
            armed.method,
            armed.path,
            "" if armed.when_body is None else f" whose body has {json.dumps(armed.when_body)}",
            armed.describe(),
            _times(armed.left),
        )
        return armed

    def take(self, method: str, path: str, body: Any = None) -> tuple[Fault, Firing] | None:
        """The first armed fault hitting this request, counted, and its firing record."""
        if is_control_path(path):
            return None
        for i, fault in enumerate(self.armed):
            if not fault.matches(method, path, body):
                continue
            left = None if fault.left is None else fault.left - 1
            if left == 0:
                del self.armed[i]
            else:
                self.armed[i] = replace(fault, left=left)
            firing = Firing(fault.id, fault.kind, method, path, self.now_ms(), left)
            self.fired.append(firing)
            return fault, firing
        return None

    def done(self, firing: Firing, outcome: str) -> None:
        """Record and log what a firing did, e.g. "answered 503 after it was applied"."""
        firing.outcome = outcome
        log.info(
            "fault %d fired: %s %s %s (%s)",
            firing.fault_id,
            firing.method,
            firing.path,
            outcome,
            "until removed" if firing.left is None else f"{firing.left} left",
        )

    def remove(self, fault_id: int) -> Fault | None:
        for i, fault in enumerate(self.armed):
            if fault.id == fault_id:
                del self.armed[i]
                log.info("fault %d removed", fault_id)
                return fault
        return None

    def clear(self) -> int:
        """Remove every armed fault and forget the firings; returns how many were armed."""
        removed = len(self.armed)
        self.armed.clear()
        self.fired.clear()
        log.info("faults cleared (%d armed removed)", removed)
        return removed


def _times(left: int | None) -> str:
    if left is None:
        return "until removed"
    return "once" if left == 1 else f"{left} times"
