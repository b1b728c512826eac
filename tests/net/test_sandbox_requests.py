"""`SandboxClient.requests` / `clear_requests` against the sandbox app in-process: typed
entries in order, filters sent as the query, and an answer it cannot read as `BadResponse`."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.net.errors import BadResponse, HttpError
from app.net.sandbox import SandboxClient
from tests.net.conftest import ROOT


async def test_requests_are_typed_in_order_with_the_fault_that_hit_them(
    sandbox: SandboxClient,
) -> None:
    await sandbox.info()
    armed = await sandbox.arm_fault("error", "/sandbox/collections", status=502)
    with pytest.raises(HttpError):
        await sandbox.collections()

    info, collections = await sandbox.requests()

    assert (info.method, info.path, info.status, info.fault) == ("GET", "/sandbox/info", 200, None)
    assert (info.body, info.body_json, info.body_bytes, info.query) == (None, False, 0, "")
    assert collections.id == info.id + 1 and collections.at_ms >= info.at_ms
    assert collections.status == 502
    assert collections.fault is not None
    assert (collections.fault.id, collections.fault.kind) == (armed.id, "error")
    assert collections.fault.outcome == "answered 502 without applying it"


async def test_filters_and_clear(sandbox: SandboxClient) -> None:
    await sandbox.info()
    await sandbox.collections()
    await sandbox.advance_clock(1)
    (first, *_) = await sandbox.requests()

    assert [r.path for r in await sandbox.requests(method="POST")] == ["/sandbox/clock"]
    assert [r.path for r in await sandbox.requests(path="/sandbox/c*")] == [
        "/sandbox/collections",
        "/sandbox/clock",
    ]
    (posted,) = await sandbox.requests(path="/sandbox/clock", since=first.id)
    assert posted.body_json and posted.body == {"advanceMs": 1}
    assert await sandbox.clear_requests() == 3
    assert await sandbox.requests() == ()


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"id": "1"}, "id"),
        ({"status": "200"}, "status"),
        ({"bodyBytes": -1}, "bodyBytes"),
        ({"fault": {"kind": "error"}}, "fault"),
        ({"fault": {"id": 1, "kind": "error"}}, "outcome"),
    ],
)
async def test_an_entry_it_cannot_read_is_a_bad_response(entry: dict[str, Any], field: str) -> None:
    good = {
        "id": 1,
        "method": "GET",
        "path": "/x",
        "query": "",
        "atMs": 0,
        "status": 200,
        "body": None,
        "bodyJson": False,
        "bodyBytes": 0,
        "fault": None,
    }

    def answer(_: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"requests": [good | entry]})

    async with SandboxClient(ROOT, transport=httpx.MockTransport(answer)) as client:
        with pytest.raises(BadResponse) as bad:
            await client.requests()
    assert bad.value.field == field
