"""The sandbox's faults on demand (`/sandbox/faults`, for QA and tests;
app/sandbox/http/routes_sandbox_faults.py, docs/sandbox-faults.md): arm a fault for the next
requests of an endpoint, list the armed ones and what fired, remove them, read the catalogue
of PSBT tampers. `SandboxClient` (app/net/sandbox.py) has these calls.

Answers are read strictly with a `Reader` (a `BadResponse` names the field); a refused body is
the `HttpError` of `HttpClient.http_error` (400 INVALID_REQUEST with the sandbox's message,
404 NOT_FOUND for a fault no longer armed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from app.net.fields import Reader
from app.net.http import HttpClient, segment

FAULTS_PATH = "/sandbox/faults"
FAULT_PATH = "/sandbox/faults/{id}"
TAMPERS_PATH = "/sandbox/faults/tampers"

FaultKind = Literal["error", "timeout", "drop", "rate-limit", "tamper", "reply"]


@dataclass(frozen=True)
class ArmedFault:
    """A fault as armed; `left` is None for one that lasts until removed."""

    id: int
    kind: str
    method: str
    path: str
    left: int | None
    applied: bool
    status: int | None
    hold_ms: int | None
    retry_after_ms: int | None
    tamper: str | None
    body: Any
    description: str
    when_body: Mapping[str, Any] | None = None  # the body fields a request must hold
    body_text: str | None = None  # a reply's exact text, answered in place of `body`


@dataclass(frozen=True)
class FiredFault:
    """A request a fault hit; `outcome` is "in progress" until known ("holding ..." while a
    timeout holds the connection)."""

    fault_id: int
    kind: str
    method: str
    path: str
    at_ms: int  # the sandbox's clock
    left: int | None
    outcome: str


@dataclass(frozen=True)
class Faults:
    armed: tuple[ArmedFault, ...]
    fired: tuple[FiredFault, ...]  # the recent firings, oldest first


@dataclass(frozen=True)
class FaultTamper:
    name: str
    description: str
    paths: tuple[str, ...]  # the intent endpoints it applies to
    refusal: str  # what the app's PSBT guard answers to it


class FaultCalls(HttpClient):
    """The fault half of `SandboxClient`'s scenario API."""

    async def arm_fault(
        self,
        kind: FaultKind,
        path: str,
        *,
        method: str = "*",
        times: int | None = 1,
        applied: bool | None = None,
        status: int | None = None,
        hold_ms: int | None = None,
        retry_after_ms: int | None = None,
        tamper: str | None = None,
        body: Any = None,
        body_text: str | None = None,
        when_body: Mapping[str, Any] | None = None,
    ) -> ArmedFault:
        """Arm a fault for the next `times` requests (None: until removed) of `method` ("*":
        any) and `path` (a prefix when it ends in "*"), and with `when_body` only those whose
        JSON body holds these top-level fields and values. Options left None are the
        sandbox's defaults; `retry_after_ms` is for a `rate-limit` or an `error`; `body` is
        sent for a `reply` only (its JSON body, null included) unless it has `body_text`
        (exact text, JSON or not; the sandbox refuses both given)."""
        request: dict[str, Any] = {"kind": kind, "path": path, "method": method, "times": times}
        optional = {
            "applied": applied,
            "status": status,
            "holdMs": hold_ms,
            "retryAfterMs": retry_after_ms,
            "tamper": tamper,
            "bodyText": body_text,
            "whenBody": None if when_body is None else dict(when_body),
        }
        request.update({k: v for k, v in optional.items() if v is not None})
        if kind == "reply" and (body_text is None or body is not None):
            request["body"] = body
        answer = await self.post_json(FAULTS_PATH, request)
        return parse_armed(Reader(self.service, FAULTS_PATH), answer)

    async def faults(self) -> Faults:
        r = Reader(self.service, FAULTS_PATH)
        body = r.obj(await self.get_json(FAULTS_PATH))
        return Faults(
            tuple(parse_armed(r, item) for item in r.need_list(body, "armed")),
            tuple(parse_fired(r, item) for item in r.need_list(body, "fired")),
        )

    async def remove_fault(self, fault_id: int) -> ArmedFault:
        """Remove one armed fault; `HttpError` 404 when it is not armed (any more)."""
        path = FAULT_PATH.format(id=segment(str(fault_id)))
        body = self.json_or_raise(await self.send("DELETE", path), None)
        return parse_armed(Reader(self.service, path), body)

    async def clear_faults(self) -> int:
        """Remove every armed fault and forget the firings; how many were armed."""
        body = self.json_or_raise(await self.send("DELETE", FAULTS_PATH), None)
        return Reader(self.service, FAULTS_PATH).need_int(body, "removed")

    async def fault_tampers(self) -> list[FaultTamper]:
        r = Reader(self.service, TAMPERS_PATH)
        found = []
        for item in r.need_list(await self.get_json(TAMPERS_PATH), "tampers"):
            paths = r.need_list(item, "paths")
            if not all(isinstance(p, str) for p in paths):
                raise r.error("paths must be strings", "paths")
            found.append(
                FaultTamper(
                    r.need_str(item, "name"),
                    r.need_str(item, "description"),
                    tuple(paths),
                    r.need_str(item, "refusal"),
                )
            )
        return found


def parse_armed(r: Reader, body: Any) -> ArmedFault:
    item = r.obj(body)
    return ArmedFault(
        id=r.need_int(item, "id"),
        kind=r.need_str(item, "kind"),
        method=r.need_str(item, "method"),
        path=r.need_str(item, "path"),
        left=r.optional_int(item, "left"),
        applied=r.need_bool(item, "applied"),
        status=r.optional_int(item, "status"),
        hold_ms=r.optional_int(item, "holdMs"),
        retry_after_ms=r.optional_int(item, "retryAfterMs"),
        tamper=_optional_str(r, item, "tamper"),
        body=item.get("body"),
        description=r.need_str(item, "description"),
        when_body=_optional_object(r, item, "whenBody"),
        body_text=_optional_str(r, item, "bodyText"),
    )


def parse_fired(r: Reader, body: Any) -> FiredFault:
    item = r.obj(body)
    return FiredFault(
        fault_id=r.need_int(item, "faultId"),
        kind=r.need_str(item, "kind"),
        method=r.need_str(item, "method"),
        path=r.need_str(item, "path"),
        at_ms=r.need_int(item, "atMs"),
        left=r.optional_int(item, "left"),
        outcome=r.need_str(item, "outcome"),
    )


def _optional_str(r: Reader, item: Mapping[str, Any], name: str) -> str | None:
    value = item.get(name)
    if value is None or isinstance(value, str):
        return value
    raise r.error(f"{name} is {type(value).__name__}, expected a string or null", name)


def _optional_object(r: Reader, item: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    value = item.get(name)
    if value is None or isinstance(value, Mapping):
        return value
    raise r.error(f"{name} is {type(value).__name__}, expected an object or null", name)
