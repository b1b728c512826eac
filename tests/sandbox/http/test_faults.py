"""`/sandbox/faults`: each kind of fault, applied or not, counted, matched by method and path,
written to the log; bad bodies refused with a specific message. Faults that close or hold a
connection are tried on the app served by uvicorn on loopback, as the sandbox process serves it.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from app.sandbox.faults_tampers import TAMPER_ADDRESS_LABEL, TAMPERS
from app.sandbox.http.fault_middleware import FaultMiddleware
from app.sandbox.http.faults import Fault, FaultBook
from app.sandbox.http.request_journal import RequestJournal
from app.wallet.addresses import decode_address
from app.wallet.psbt_io import parse_psbt
from tests.sandbox.market.helpers import User, bid_body, error, funded_user, now_ms, ok, place
from tests.sandbox.sandbox_process import SandboxProcess

PLACE = "/v1/bid/place"


@pytest.fixture(autouse=True)
def no_faults_left(sandbox_app: FastAPI) -> Iterator[None]:
    yield
    sandbox_app.state.faults.clear()


async def arm(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    armed: dict[str, Any] = ok(await client.post("/sandbox/faults", json=body), 201)
    return armed


async def bidder(client: httpx.AsyncClient, label: str) -> User:
    user, _ = await funded_user(client, label, 500_000)
    return user


async def bids_of(client: httpx.AsyncClient, user: User) -> list[dict[str, Any]]:
    params = {"address": user.ordinals.address}
    found: list[dict[str, Any]] = ok(await client.get("/v1/address/bids", params=params))["results"]
    return found


async def faults(client: httpx.AsyncClient) -> dict[str, Any]:
    listed: dict[str, Any] = ok(await client.get("/sandbox/faults"))
    return listed


# --- error, rate-limit, reply --------------------------------------------------------------


@pytest.mark.parametrize("applied", [False, True])
async def test_an_error_answers_the_envelope_and_stores_the_bid_only_when_applied(
    sandbox_client: httpx.AsyncClient, applied: bool
) -> None:
    user = await bidder(sandbox_client, f"fault-error-{applied}")
    await arm(sandbox_client, kind="error", method="POST", path=PLACE, applied=applied)

    response = await place(sandbox_client, bid_body(user, await now_ms(sandbox_client)))

    body = error(response, 503, "SERVICE_UNAVAILABLE")
    assert "injected fault" in body["message"]
    assert "retryAfterMs" not in body and "retry-after" not in response.headers
    assert len(await bids_of(sandbox_client, user)) == (1 if applied else 0)
    (fired,) = (await faults(sandbox_client))["fired"]
    assert fired["outcome"].startswith(
        "answered 503 after it was applied (the app answered 200)"
        if applied
        else "answered 503 without applying it"
    )


@pytest.mark.parametrize("applied", [False, True])
async def test_an_error_naming_a_wait_says_it_in_body_and_header_applied_or_not(
    sandbox_client: httpx.AsyncClient, applied: bool
) -> None:
    user = await bidder(sandbox_client, f"fault-error-wait-{applied}")
    years = 10**15  # what a broken service may name; the app must not wait it out
    armed = await arm(
        sandbox_client, kind="error", path=PLACE, status=429, applied=applied, retryAfterMs=years
    )
    assert (
        armed["retryAfterMs"] == years and "retryAfterMs 1000000000000000" in armed["description"]
    )

    response = await place(sandbox_client, bid_body(user, await now_ms(sandbox_client)))

    assert error(response, 429, "RATE_LIMITED")["retryAfterMs"] == years
    assert response.headers["retry-after"] == str(years // 1000)
    assert len(await bids_of(sandbox_client, user)) == (1 if applied else 0)
    (fired,) = (await faults(sandbox_client))["fired"]
    assert fired["outcome"].startswith(f"answered 429 retryAfterMs {years} ")


async def test_an_error_takes_any_4xx_or_5xx_status(sandbox_client: httpx.AsyncClient) -> None:
    await arm(sandbox_client, kind="error", path="/sandbox/info", status=418)
    error(await sandbox_client.get("/sandbox/info"), 418, "HTTP_418")


async def test_a_rate_limit_answers_429_with_retry_after_and_applies_nothing(
    sandbox_client: httpx.AsyncClient,
) -> None:
    user = await bidder(sandbox_client, "fault-rate-limit")
    await arm(sandbox_client, kind="rate-limit", path="/v1/*", retryAfterMs=2500, times=2)

    response = await place(sandbox_client, bid_body(user, await now_ms(sandbox_client)))
    body = error(response, 429, "SUBMIT_BID_RATE_LIMITED")
    assert body["retryAfterMs"] == 2500 and response.headers["retry-after"] == "3"
    other = await sandbox_client.get("/v1/address/bids", params={"address": "x"})
    assert error(other, 429, "RATE_LIMITED")["retryAfterMs"] == 2500
    assert await bids_of(sandbox_client, user) == []


async def test_a_reply_answers_the_armed_status_and_body_without_applying(
    sandbox_client: httpx.AsyncClient,
) -> None:
    user = await bidder(sandbox_client, "fault-reply")
    down = {"message": "ord is down"}
    await arm(sandbox_client, kind="reply", method="POST", path=PLACE, status=502, body=down)

    response = await place(sandbox_client, bid_body(user, await now_ms(sandbox_client)))

    assert response.status_code == 502 and response.json() == down
    assert await bids_of(sandbox_client, user) == []


async def test_a_reply_with_body_text_answers_that_text_as_json_however_malformed(
    sandbox_client: httpx.AsyncClient,
) -> None:
    garbage = '{"retryAfterMs": Infinity}'  # not JSON: the service answering garbage
    armed = await arm(sandbox_client, kind="reply", path=PLACE, status=429, bodyText=garbage)
    assert (armed["bodyText"], armed["body"]) == (garbage, None)

    response = await sandbox_client.post(PLACE, json={})

    assert response.status_code == 429 and response.text == garbage
    assert response.headers["content-type"] == "application/json"
    (fired,) = (await faults(sandbox_client))["fired"]
    assert fired["outcome"] == "answered 429 with the armed text without applying it"


# --- matching and counting -----------------------------------------------------------------


async def test_times_counts_down_then_the_fault_is_gone(sandbox_client: httpx.AsyncClient) -> None:
    armed = await arm(sandbox_client, kind="error", path="/sandbox/info", times=2)
    assert armed["left"] == 2
    assert (await sandbox_client.get("/sandbox/info")).status_code == 503
    assert [f["left"] for f in (await faults(sandbox_client))["armed"]] == [1]
    assert (await sandbox_client.get("/sandbox/info")).status_code == 503
    assert (await sandbox_client.get("/sandbox/info")).status_code == 200
    listed = await faults(sandbox_client)
    assert listed["armed"] == []
    assert [(f["faultId"], f["left"]) for f in listed["fired"]] == [
        (armed["id"], 1),
        (armed["id"], 0),
    ]


async def test_null_times_lasts_until_removed(sandbox_client: httpx.AsyncClient) -> None:
    armed = await arm(sandbox_client, kind="error", path="/sandbox/info", times=None)
    for _ in range(3):
        assert (await sandbox_client.get("/sandbox/info")).status_code == 503
    removed = ok(await sandbox_client.delete(f"/sandbox/faults/{armed['id']}"))
    assert removed["id"] == armed["id"]
    assert (await sandbox_client.get("/sandbox/info")).status_code == 200
    error(await sandbox_client.delete(f"/sandbox/faults/{armed['id']}"), 404, "NOT_FOUND")


async def test_a_prefix_matches_below_it_and_the_method_must_match(
    sandbox_client: httpx.AsyncClient,
) -> None:
    await arm(sandbox_client, kind="error", method="GET", path="/esplora/blocks/*", times=None)
    assert (await sandbox_client.get("/esplora/blocks/tip/height")).status_code == 503
    assert (await sandbox_client.get("/esplora/blocks/tip/hash")).status_code == 503
    assert (await sandbox_client.get("/esplora/fee-estimates")).status_code == 200
    await arm(sandbox_client, kind="error", method="POST", path="/sandbox/info")
    assert (await sandbox_client.get("/sandbox/info")).status_code == 200


async def test_an_exact_path_ignores_the_query_string_only(
    sandbox_client: httpx.AsyncClient,
) -> None:
    await arm(sandbox_client, kind="error", path="/v1/address/bids", times=None)
    faulted = await sandbox_client.get("/v1/address/bids", params={"address": "x"})
    assert faulted.status_code == 503
    assert (await sandbox_client.get("/v1/address/bids/more")).status_code == 404


async def test_the_fault_api_itself_is_never_hit_and_delete_all_clears(
    sandbox_client: httpx.AsyncClient,
) -> None:
    await arm(sandbox_client, kind="error", path="/*", times=None)
    await arm(sandbox_client, kind="error", path="/sandbox/*", times=None)
    assert (await sandbox_client.get("/sandbox/info")).status_code == 503
    assert ok(await sandbox_client.delete("/sandbox/faults")) == {"removed": 2}
    assert await faults(sandbox_client) == {"armed": [], "fired": []}
    assert (await sandbox_client.get("/sandbox/info")).status_code == 200


async def test_when_body_hits_only_requests_whose_body_holds_those_fields(
    sandbox_client: httpx.AsyncClient,
) -> None:
    """A bid of one bidder fails, another's goes through (its body still reaches the app)."""
    target = await bidder(sandbox_client, "fault-body-target")
    other = await bidder(sandbox_client, "fault-body-other")
    when = {"bidderTokenReceiveAddress": target.ordinals.address}
    armed = await arm(sandbox_client, kind="error", path="/*", whenBody=when, times=None)
    assert armed["whenBody"] == when

    now = await now_ms(sandbox_client)
    ok(await place(sandbox_client, bid_body(other, now)))
    error(await place(sandbox_client, bid_body(target, now)), 503, "SERVICE_UNAVAILABLE")
    assert (await sandbox_client.get("/sandbox/info")).status_code == 200
    assert [len(await bids_of(sandbox_client, u)) for u in (target, other)] == [0, 1]
    assert [f["path"] for f in (await faults(sandbox_client))["fired"]] == [PLACE]


# --- tamper --------------------------------------------------------------------------------


async def withdraw_intent(client: httpx.AsyncClient, label: str, amount: int) -> httpx.Response:
    user, _ = await funded_user(client, label, 300_000)
    ok(await client.post("/sandbox/mine", json={"blocks": 1}))
    body = {"userAddress": user.payment.address, "amount": amount}
    return await client.post("/v1/intent/withdraw", json=body)


async def test_a_tamper_rewrites_the_served_psbt_in_base64_and_hex(
    sandbox_client: httpx.AsyncClient,
) -> None:
    thief = ok(await sandbox_client.get(f"/sandbox/addresses/{TAMPER_ADDRESS_LABEL}?kind=p2wpkh"))
    await arm(sandbox_client, kind="tamper", path="/v1/intent/*", tamper="redirect-payment")

    served = ok(await withdraw_intent(sandbox_client, "fault-tamper", 100_000))

    psbt = parse_psbt(served["unsignedPSBTBase64"])
    assert parse_psbt(served["unsignedPSBTHex"]).serialize() == psbt.serialize()
    assert psbt.outputs[0].script_pubkey.data == decode_address(thief["address"]).script_pubkey
    (fired,) = (await faults(sandbox_client))["fired"]
    assert fired["outcome"].startswith("served the PSBT tampered by redirect-payment: output 0")


async def test_a_tamper_that_cannot_apply_answers_500_saying_why(
    sandbox_client: httpx.AsyncClient,
) -> None:
    """A sweep (the whole balance) has no change output for raise-fee to cut."""
    await arm(sandbox_client, kind="tamper", path="/v1/intent/withdraw", tamper="raise-fee")
    response = await withdraw_intent(sandbox_client, "fault-tamper-sweep", 300_000)
    assert "no change output" in error(response, 500, "FAULT_NOT_APPLICABLE")["message"]


async def test_a_refused_intent_is_served_untampered(sandbox_client: httpx.AsyncClient) -> None:
    await arm(sandbox_client, kind="tamper", path="/v1/intent/withdraw", tamper="cut-payment")
    refused = await sandbox_client.post("/v1/intent/withdraw", json={"userAddress": "x"})
    assert refused.status_code == 400
    (fired,) = (await faults(sandbox_client))["fired"]
    assert fired["outcome"] == "not tampered: the app answered 400"


async def test_the_catalogue_lists_each_tamper_with_its_description(
    sandbox_client: httpx.AsyncClient,
) -> None:
    listed = ok(await sandbox_client.get("/sandbox/faults/tampers"))["tampers"]
    assert [t["name"] for t in listed] == [t.name for t in TAMPERS]
    assert all(t["description"] and t["paths"] and t["refusal"] for t in listed)


# --- the log -------------------------------------------------------------------------------


async def test_arming_and_firing_are_log_lines(
    sandbox_client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    user = await bidder(sandbox_client, "fault-log")
    caplog.set_level(logging.INFO, logger="app.sandbox.http.faults")
    armed = await arm(sandbox_client, kind="error", method="POST", path=PLACE, applied=True)
    await place(sandbox_client, bid_body(user, await now_ms(sandbox_client)))

    lines = [r.getMessage() for r in caplog.records if r.name == "app.sandbox.http.faults"]
    n = armed["id"]
    assert lines == [
        f"fault {n} armed: POST {PLACE}: answer 503 after the request is applied (once)",
        f"fault {n} fired: POST {PLACE} answered 503 after it was applied "
        "(the app answered 200) (0 left)",
    ]


# --- bad bodies ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"kind": "explode", "path": "/x"}, "kind"),
        ({"kind": "error"}, "path"),
        ({"kind": "error", "path": "x"}, "path"),
        ({"kind": "error", "path": "/x", "times": 0}, "times"),
        ({"kind": "error", "path": "/x", "tims": 2}, "tims"),
        ({"kind": "error", "path": "/x", "whenBody": [1]}, "whenBody"),
        ({"kind": "error", "path": "/x", "status": 302}, "status 302 is not an error"),
        ({"kind": "drop", "path": "/x", "status": 500}, "status does not apply to kind drop"),
        ({"kind": "rate-limit", "path": "/x", "applied": True}, "applied does not apply"),
        ({"kind": "reply", "path": "/x", "body": {}}, "a reply needs the status"),
        (
            {"kind": "reply", "path": "/x", "status": 200, "body": None, "bodyText": "x"},
            "body or bodyText, not both",
        ),
        ({"kind": "error", "path": "/x", "bodyText": "x"}, "bodyText does not apply"),
        ({"kind": "drop", "path": "/x", "retryAfterMs": 1}, "retryAfterMs does not apply"),
        ({"kind": "rate-limit", "path": "/x", "retryAfterMs": 3_600_001}, "over rate-limit's"),
        ({"kind": "error", "path": "/x", "retryAfterMs": 2**53}, "retryAfterMs"),
        ({"kind": "timeout", "path": "/x", "holdMs": 10**9}, "holdMs"),
        ({"kind": "tamper", "path": "/v1/intent/bid"}, "needs tamper: one of redirect-payment"),
        (
            {"kind": "tamper", "path": "/v1/intent/bid", "tamper": "steal"},
            "unknown tamper 'steal': the catalogue has redirect-payment, cut-payment",
        ),
        (
            {"kind": "tamper", "path": "/v1/bid/place", "tamper": "sighash-none"},
            "which * /v1/bid/place does not match",
        ),
    ],
)
async def test_a_bad_body_is_refused_with_a_specific_message(
    sandbox_client: httpx.AsyncClient, body: dict[str, Any], says: str
) -> None:
    refused = error(await sandbox_client.post("/sandbox/faults", json=body), 400, "INVALID_REQUEST")
    assert says in refused["message"]
    assert (await faults(sandbox_client))["armed"] == []


# --- timeout and drop, served --------------------------------------------------------------


@asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[str]:
    """`app` served by uvicorn on a loopback socket listening before the server starts, in
    the test's own event loop (an async fixture would run it in the session's)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    server = uvicorn.Server(uvicorn.Config(app, log_level="critical", lifespan="off"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        await task
        sock.close()


@asynccontextmanager
async def served_client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with serving(app) as url, httpx.AsyncClient(base_url=url, timeout=60.0) as client:
        yield client


@pytest.mark.parametrize("applied", [False, True])
async def test_a_drop_closes_the_connection_unanswered(sandbox_app: FastAPI, applied: bool) -> None:
    async with served_client(sandbox_app) as client:
        user = await bidder(client, f"fault-drop-{applied}")
        await arm(client, kind="drop", method="POST", path=PLACE, applied=applied)
        with pytest.raises(httpx.RemoteProtocolError):
            await place(client, bid_body(user, await now_ms(client)))
        assert len(await bids_of(client, user)) == (1 if applied else 0)


async def test_a_timeout_before_applying_holds_until_the_client_gives_up(
    sandbox_app: FastAPI,
) -> None:
    async with served_client(sandbox_app) as client:
        user = await bidder(client, "fault-timeout-before")
        await arm(client, kind="timeout", method="POST", path=PLACE)
        with pytest.raises(httpx.ReadTimeout):
            await client.post(
                PLACE,
                json=bid_body(user, await now_ms(client)),
                timeout=httpx.Timeout(60, read=0.3),
            )
        assert await bids_of(client, user) == []


async def test_a_timeout_after_applying_holds_the_stored_bids_answer(
    sandbox_app: FastAPI,
) -> None:
    """The client gives up; the bid was stored before the hold began (the firing says
    "holding" once the app has answered, which the test waits for by asking, never by time)."""
    async with served_client(sandbox_app) as client:
        user = await bidder(client, "fault-timeout-after-client")
        await arm(client, kind="timeout", method="POST", path=PLACE, applied=True)
        with pytest.raises(httpx.ReadTimeout):
            await client.post(
                PLACE,
                json=bid_body(user, await now_ms(client)),
                timeout=httpx.Timeout(60, read=0.3),
            )
        outcome = ""
        for _ in range(10_000):  # requests, not time: until the server has applied it
            fired = (await faults(client))["fired"]
            outcome = fired[0]["outcome"] if fired else ""
            if outcome not in ("", "in progress"):
                break
        assert outcome.startswith("holding the connection unanswered after it was applied") or (
            outcome.startswith("held the connection unanswered after it was applied")
        ), outcome
        assert len(await bids_of(client, user)) == 1


async def test_a_timeout_after_applying_closes_unanswered_when_its_hold_ends(
    sandbox_app: FastAPI,
) -> None:
    async with served_client(sandbox_app) as client:
        user = await bidder(client, "fault-timeout-after")
        await arm(client, kind="timeout", method="POST", path=PLACE, applied=True, holdMs=1)
        with pytest.raises(httpx.RemoteProtocolError):
            await place(client, bid_body(user, await now_ms(client)))
        assert len(await bids_of(client, user)) == 1
        (fired,) = (await faults(client))["fired"]
        assert fired["outcome"].endswith("until 1 ms passed, then closed it")


async def test_a_held_request_ends_when_the_client_disconnects() -> None:
    """The hold watches the connection: a client that gives up ends it, nothing is sent."""
    book = FaultBook(now_ms=lambda: 0)
    book.arm(Fault(0, "timeout", "*", "/x", 1, hold_ms=600_000))
    sent: list[Any] = []

    async def never_called(*_: Any) -> None:
        raise AssertionError("a fault not applying the request reached the app")

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    journal = RequestJournal(now_ms=lambda: 0)
    middleware = FaultMiddleware(never_called, book, journal, node=None, max_body_bytes=1000)  # type: ignore[arg-type]
    await middleware({"type": "http", "method": "GET", "path": "/x"}, receive, send)
    (fired,) = book.fired
    assert (
        fired.outcome
        == "held the connection unanswered without applying it until the client gave up"
    )
    assert sent == []


async def test_the_sandbox_process_writes_each_firing_to_its_stderr(
    sandbox_server: SandboxProcess,
) -> None:
    """The served sandbox's log (stderr; the app's sandbox.log) has the line by the time the
    client has the answer."""
    async with httpx.AsyncClient(base_url=sandbox_server.url, timeout=60.0) as client:
        armed = await arm(client, kind="error", path="/sandbox/info", status=500)
        assert (await client.get("/sandbox/info")).status_code == 500
    log = sandbox_server.stderr_path.read_text()
    n = armed["id"]
    assert (
        f"fault {n} armed: * /sandbox/info: answer 500 without applying the request (once)" in log
    )
    assert f"fault {n} fired: GET /sandbox/info answered 500 without applying it (0 left)" in log


async def test_an_app_failing_on_an_applied_request_is_recorded_and_raised() -> None:
    book = FaultBook(now_ms=lambda: 0)
    book.arm(Fault(0, "error", "*", "/x", 1, applied=True, status=503))

    async def failing(*_: Any) -> None:
        raise RuntimeError("boom")

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: Any) -> None:
        raise AssertionError("nothing is sent: the catch-all outside answers 500")

    journal = RequestJournal(now_ms=lambda: 0)
    middleware = FaultMiddleware(failing, book, journal, node=None, max_body_bytes=1000)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError):
        await middleware({"type": "http", "method": "GET", "path": "/x"}, receive, send)
    (fired,) = book.fired
    assert fired.outcome.startswith("not done: the app failed")
    (entry,) = journal.entries
    assert (entry.status, entry.firing) == (500, fired)  # what the catch-all answers
