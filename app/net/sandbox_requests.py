"""The sandbox's request journal (`/sandbox/requests`, for QA and tests;
app/sandbox/http/routes_sandbox_requests.py, docs/sandbox-faults.md): what the sandbox
received, in order (what a test's proxy used to see), and forgetting it. `SandboxClient`
(app/net/sandbox.py) has these calls; answers are read strictly (a `BadResponse` names the
field).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.net.fields import Reader, is_int
from app.net.http import HttpClient

REQUESTS_PATH = "/sandbox/requests"


@dataclass(frozen=True)
class JournalFault:
    """The fault that hit a request: its id, kind and what it did."""

    id: int
    kind: str
    outcome: str


@dataclass(frozen=True)
class ReceivedRequest:
    """One request the sandbox received. `body` is its JSON body (None when it was empty or
    not JSON: `body_json` says which); `status` is None until answered, or when nothing was
    (a timeout, a dropped connection)."""

    id: int
    method: str
    path: str
    query: str  # as sent, without "?"
    at_ms: int  # the sandbox's clock when it arrived
    status: int | None
    body: Any
    body_json: bool
    body_bytes: int
    fault: JournalFault | None


class RequestCalls(HttpClient):
    """The request journal half of `SandboxClient`'s scenario API."""

    async def requests(
        self, *, method: str | None = None, path: str | None = None, since: int | None = None
    ) -> tuple[ReceivedRequest, ...]:
        """The requests received, oldest first (the last 5,000): of `method`, of `path` (a
        prefix when it ends in "*"), with an id above `since` (e.g. the last one read)."""
        given = {"method": method, "path": path, "since": since}
        params = {k: str(v) for k, v in given.items() if v is not None}
        r = Reader(self.service, REQUESTS_PATH)
        answer = await self.get_json(REQUESTS_PATH, params=params)
        return tuple(parse_request(r, item) for item in r.need_list(answer, "requests"))

    async def clear_requests(self) -> int:
        """Forget every recorded request; how many were forgotten."""
        body = self.json_or_raise(await self.send("DELETE", REQUESTS_PATH), None)
        return Reader(self.service, REQUESTS_PATH).need_int(body, "forgotten")


def parse_request(r: Reader, body: Any) -> ReceivedRequest:
    item = r.obj(body)
    size = r.need_int(item, "bodyBytes")
    query = item.get("query")
    if not isinstance(query, str):  # "" when there was none
        raise r.error(f"query is {type(query).__name__}, expected a string", "query")
    if size < 0:
        raise r.error(f"bodyBytes is {size}, expected a size", "bodyBytes")
    return ReceivedRequest(
        id=r.need_int(item, "id"),
        method=r.need_str(item, "method"),
        path=r.need_str(item, "path"),
        query=query,
        at_ms=r.need_int(item, "atMs"),
        status=r.optional_int(item, "status"),
        body=item.get("body"),
        body_json=r.need_bool(item, "bodyJson"),
        body_bytes=size,
        fault=_fault(r, item.get("fault")),
    )


def _fault(r: Reader, value: Any) -> JournalFault | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not is_int(value.get("id")):
        raise r.error("fault must be an object with an integer id, or null", "fault")
    return JournalFault(value["id"], r.need_str(value, "kind"), r.need_str(value, "outcome"))
