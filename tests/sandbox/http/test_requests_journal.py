"""`/sandbox/requests`: every request the sandbox received, in order, with what was sent (the
body as JSON, or its size), the status answered, the sandbox clock and the fault that hit it;
filtered by method, path and id; forgotten on DELETE; bounded."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app
from app.sandbox.http.request_journal import KEPT, RequestJournal
from app.sandbox.http.settings import SandboxSettings
from tests.sandbox.conftest import ASGI_BASE_URL
from tests.sandbox.market.helpers import advance, ok

PLACE = "/v1/bid/place"
DAY_MS = 86_400_000


@pytest.fixture(autouse=True)
def no_faults_left(sandbox_app: FastAPI) -> Any:
    yield
    sandbox_app.state.faults.clear()


async def journal(client: httpx.AsyncClient, **params: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = ok(await client.get("/sandbox/requests", params=params))[
        "requests"
    ]
    return found


async def test_each_request_is_recorded_in_order_with_what_was_sent_and_answered(
    sandbox_client: httpx.AsyncClient,
) -> None:
    wall_ms = int(time.time() * 1000)
    await advance(sandbox_client, DAY_MS)
    await sandbox_client.get("/sandbox/info")
    await sandbox_client.get("/v1/address/bids", params={"address": "bc1qnobody"})
    await sandbox_client.post(PLACE, json={"not": "a bid"})
    await sandbox_client.post(PLACE, content=b"\x00not json")

    *_, info, bids, bad_bid, not_json = await journal(sandbox_client)
    clock = ok(await sandbox_client.get("/sandbox/info"))["clockMs"]

    assert (info["method"], info["path"], info["status"]) == ("GET", "/sandbox/info", 200)
    assert bids["query"] == "address=bc1qnobody"
    assert (bad_bid["body"], bad_bid["bodyJson"]) == ({"not": "a bid"}, True)
    assert bad_bid["status"] == 400
    assert (not_json["body"], not_json["bodyJson"], not_json["bodyBytes"]) == (None, False, 9)
    assert [e["id"] for e in (info, bids, bad_bid, not_json)] == list(
        range(info["id"], info["id"] + 4)
    )
    assert wall_ms + DAY_MS <= info["atMs"] <= clock  # the sandbox's clock, not the wall's
    assert all(e["fault"] is None for e in (info, bids, bad_bid, not_json))


async def test_the_fault_and_journal_apis_are_not_recorded(
    sandbox_client: httpx.AsyncClient,
) -> None:
    ok(await sandbox_client.delete("/sandbox/requests"))
    await sandbox_client.get("/sandbox/faults")
    await sandbox_client.get("/sandbox/faults/tampers")
    await sandbox_client.post("/sandbox/faults", json={"kind": "nonsense", "path": "/"})
    await sandbox_client.get("/sandbox/requests")

    assert await journal(sandbox_client) == []


async def test_a_request_a_fault_answered_without_applying_is_recorded_with_its_body(
    sandbox_client: httpx.AsyncClient,
) -> None:
    ok(await sandbox_client.delete("/sandbox/requests"))  # the module's other tests posted too
    armed = ok(
        await sandbox_client.post(
            "/sandbox/faults", json={"kind": "error", "method": "POST", "path": PLACE}
        ),
        201,
    )
    await sandbox_client.post(PLACE, json={"bidId": "x"})

    (entry,) = await journal(sandbox_client, path=PLACE)

    assert (entry["status"], entry["body"]) == (503, {"bidId": "x"})
    assert entry["fault"] == {
        "id": armed["id"],
        "kind": "error",
        "outcome": "answered 503 without applying it",
    }


async def test_filters_by_method_path_and_prefix_and_since(
    sandbox_client: httpx.AsyncClient,
) -> None:
    ok(await sandbox_client.delete("/sandbox/requests"))
    await sandbox_client.get("/sandbox/info")
    await sandbox_client.get("/v1/address/bids", params={"address": "a"})
    await sandbox_client.post(PLACE, json={})
    await sandbox_client.get("/sandbox/info")

    everything = await journal(sandbox_client)
    first = everything[0]["id"]

    assert [e["path"] for e in await journal(sandbox_client, method="POST")] == [PLACE]
    assert len(await journal(sandbox_client, path="/sandbox/info")) == 2
    assert [e["path"] for e in await journal(sandbox_client, path="/v1/*")] == [
        "/v1/address/bids",
        PLACE,
    ]
    assert [e["id"] for e in await journal(sandbox_client, since=first + 1)] == [
        first + 2,
        first + 3,
    ]
    assert await journal(sandbox_client, path="/v1/*", method="GET", since=first + 1) == []


async def test_delete_forgets_and_ids_go_on_counting(sandbox_client: httpx.AsyncClient) -> None:
    await sandbox_client.get("/sandbox/info")
    (last,) = (await journal(sandbox_client))[-1:]
    forgotten = ok(await sandbox_client.delete("/sandbox/requests"))["forgotten"]
    await sandbox_client.get("/sandbox/info")

    (after,) = await journal(sandbox_client)

    assert forgotten >= 1
    assert after["id"] == last["id"] + 1


@pytest.mark.parametrize(
    "params",
    [{"method": "get"}, {"path": "v1/bid"}, {"since": -1}, {"since": "x"}],
)
async def test_a_bad_filter_is_refused(
    sandbox_client: httpx.AsyncClient, params: dict[str, Any]
) -> None:
    response = await sandbox_client.get("/sandbox/requests", params=params)
    assert response.status_code == 400, response.text


def test_the_journal_keeps_the_last_requests_only() -> None:
    kept = RequestJournal(now_ms=lambda: 0)
    for _ in range(KEPT + 2):
        kept.record("GET", "/x", "", b"", 0)

    ids = [e.id for e in kept.select()]

    assert (len(ids), ids[0], ids[-1]) == (KEPT, 3, KEPT + 2)


async def test_a_body_over_the_limit_is_recorded_by_size_only(sandbox_node: Node) -> None:
    app = create_app(sandbox_node, SandboxSettings(max_body_bytes=1_000))
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url=ASGI_BASE_URL) as client:

        async def streamed() -> AsyncIterator[bytes]:
            for _ in range(4):
                yield b"0" * 512

        announced = await client.post(PLACE, content=b"1" * 2_000)
        unannounced = await client.post(PLACE, content=streamed())
        said, read = await journal(client, path=PLACE)

    assert announced.status_code == unannounced.status_code == 413
    assert (said["status"], said["body"], said["bodyJson"]) == (413, None, False)
    assert said["bodyBytes"] == 0  # refused from its Content-Length, never read
    assert (read["status"], read["body"], read["bodyJson"]) == (413, None, False)
    assert read["bodyBytes"] > 1_000  # read until past the limit, then refused
