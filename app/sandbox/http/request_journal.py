"""The request journal (`/sandbox/requests`): every request the sandbox received, in order.

What a test used to read from its private proxy (`seen`, `paths()`): the method, path, query
and body the client sent, the status answered, the sandbox clock when it arrived and the fault
that hit it. `fault_middleware.py` records each request (it reads the body first, so a request
a fault answers without applying is recorded with its body too); the fault and journal API's
own requests are not recorded. Bounded: the oldest are forgotten past `KEPT`.

Touched on the event loop only (the middleware and the `async` routes).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from app.sandbox.http.faults import Firing, path_matches

KEPT = 5_000


@dataclass
class JournalEntry:
    """One request; `status` is None until answered (or when none was: a drop, a timeout)."""

    id: int
    method: str
    path: str
    query: str
    at_ms: int  # the sandbox's clock when it arrived
    body: Any  # the decoded JSON body; None when empty or not JSON
    body_json: bool
    body_bytes: int
    status: int | None = None
    firing: Firing | None = None

    def to_json(self) -> dict[str, Any]:
        fault = None
        if self.firing is not None:
            fault = {
                "id": self.firing.fault_id,
                "kind": self.firing.kind,
                "outcome": self.firing.outcome,
            }
        return {
            "id": self.id,
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "atMs": self.at_ms,
            "status": self.status,
            "body": self.body,
            "bodyJson": self.body_json,
            "bodyBytes": self.body_bytes,
            "fault": fault,
        }


@dataclass
class RequestJournal:
    now_ms: Callable[[], int]
    entries: deque[JournalEntry] = field(default_factory=lambda: deque(maxlen=KEPT))
    _next_id: int = 1

    def record(
        self, method: str, path: str, query: str, raw: bytes | None, size: int
    ) -> JournalEntry:
        """A new entry; `raw` is the whole body when it was read (None: over the body limit)."""
        body, is_json = None, False
        if raw:
            try:
                body, is_json = json.loads(raw), True
            except ValueError:
                body = None
        entry = JournalEntry(self._next_id, method, path, query, self.now_ms(), body, is_json, size)
        self._next_id += 1
        self.entries.append(entry)
        return entry

    def select(
        self, *, method: str | None = None, path: str | None = None, since: int | None = None
    ) -> Iterator[JournalEntry]:
        """The entries, oldest first, of `method`, `path` (a prefix when it ends in "*") and
        with an id above `since`."""
        for entry in self.entries:
            if since is not None and entry.id <= since:
                continue
            if method is not None and entry.method != method:
                continue
            if path is not None and not path_matches(path, entry.path):
                continue
            yield entry

    def clear(self) -> int:
        """Forget every entry (ids go on counting); how many were forgotten."""
        forgotten = len(self.entries)
        self.entries.clear()
        return forgotten
