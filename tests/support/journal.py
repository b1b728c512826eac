"""Picking a test's own requests out of the sandbox's request journal (`GET /sandbox/requests`,
`SandboxFaults.requests` in tests/services/conftest.py): the journal holds every client's
requests since it was last forgotten, so a test keeps those that name its own addresses or ids,
in the path, the query string or anywhere in the JSON body."""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import unquote_plus

from app.net.sandbox_requests import ReceivedRequest


def naming(received: Iterable[ReceivedRequest], *values: str) -> list[ReceivedRequest]:
    """The requests, in order, whose path, query or JSON body holds one of `values` (as a
    whole string value or a part of one, e.g. an outpoint's txid)."""
    if not values:
        raise ValueError("naming() needs at least one value to look for")
    return [r for r in received if any(v in _text_of(r) for v in values)]


def lines(received: Iterable[ReceivedRequest]) -> list[str]:
    """ "METHOD /path" of each request, in order (what the proxy's `paths()` gave)."""
    return [f"{r.method} {r.path}" for r in received]


def _text_of(request: ReceivedRequest) -> str:
    body = json.dumps(request.body) if request.body_json else ""
    return f"{request.path} {unquote_plus(request.query)} {body}"
