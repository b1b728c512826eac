"""`SandboxClient`'s fault calls against the sandbox app in-process: typed answers, the
sandbox's refusals as `HttpError`, and an answer it cannot read as `BadResponse`."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.net.errors import BadResponse, HttpError
from app.net.sandbox import SandboxClient
from tests.net.conftest import ROOT


async def test_an_armed_fault_is_typed_with_the_sandboxs_defaults(sandbox: SandboxClient) -> None:
    armed = await sandbox.arm_fault("error", "/sandbox/info", applied=True, times=2)
    assert (armed.kind, armed.method, armed.path, armed.left) == ("error", "*", "/sandbox/info", 2)
    assert armed.applied and armed.status == 503 and armed.hold_ms is None
    assert armed.description == "answer 503 after the request is applied"
    timeout = await sandbox.arm_fault("timeout", "/v1/*", method="POST", times=None)
    assert timeout.left is None and timeout.hold_ms == 60_000 and not timeout.applied


async def test_faults_lists_the_armed_and_what_fired(sandbox: SandboxClient) -> None:
    armed = await sandbox.arm_fault("error", "/sandbox/collections", status=502)
    with pytest.raises(HttpError) as failed:
        await sandbox.collections()
    assert failed.value.status == 502 and failed.value.error_code == "BAD_GATEWAY"

    listed = await sandbox.faults()
    assert listed.armed == ()
    (fired,) = listed.fired
    assert (fired.fault_id, fired.kind, fired.method, fired.path) == (
        armed.id,
        "error",
        "GET",
        "/sandbox/collections",
    )
    assert fired.left == 0 and fired.outcome == "answered 502 without applying it"


async def test_a_reply_sends_its_body_even_null(sandbox: SandboxClient) -> None:
    assert (await sandbox.arm_fault("reply", "/x", status=200, body={"a": 1})).body == {"a": 1}
    assert (await sandbox.arm_fault("reply", "/y", status=204)).body is None


async def test_an_error_naming_a_wait_is_sent_and_read_back(sandbox: SandboxClient) -> None:
    """The answer itself (envelope, Retry-After): tests/sandbox/http/test_faults.py."""
    armed = await sandbox.arm_fault("error", "/v1/*", status=429, retry_after_ms=10**15)
    assert (armed.status, armed.retry_after_ms, armed.applied) == (429, 10**15, False)
    assert (
        armed.description
        == "answer 429 with retryAfterMs 1000000000000000 without applying the request"
    )
    assert (await sandbox.faults()).armed[0].retry_after_ms == 10**15
    assert (await sandbox.arm_fault("error", "/x", applied=True)).retry_after_ms is None


async def test_a_reply_with_body_text_is_typed_and_answers_that_text(
    sandbox: SandboxClient,
) -> None:
    garbage = '{"retryAfterMs": Infinity}'
    armed = await sandbox.arm_fault("reply", "/sandbox/collections", status=200, body_text=garbage)
    assert (armed.body_text, armed.body) == (garbage, None)
    assert "given text" in armed.description
    with pytest.raises(BadResponse):  # the client's strict read of what is not JSON
        await sandbox.collections()
    with pytest.raises(HttpError) as both:
        await sandbox.arm_fault("reply", "/y", status=200, body={"a": 1}, body_text="x")
    assert both.value.status == 400 and "not both" in both.value.message


async def test_when_body_is_sent_and_read_back(sandbox: SandboxClient) -> None:
    armed = await sandbox.arm_fault("drop", "/v1/cancel", when_body={"makerAddress": "bcrt1q"})
    assert armed.when_body == {"makerAddress": "bcrt1q"}
    assert (await sandbox.faults()).armed[0].when_body == {"makerAddress": "bcrt1q"}
    assert (await sandbox.arm_fault("drop", "/v1/cancel")).when_body is None


async def test_remove_and_clear(sandbox: SandboxClient) -> None:
    first = await sandbox.arm_fault("drop", "/a")
    await sandbox.arm_fault("drop", "/b")
    await sandbox.arm_fault("drop", "/c")
    assert (await sandbox.remove_fault(first.id)).path == "/a"
    with pytest.raises(HttpError) as gone:
        await sandbox.remove_fault(first.id)
    assert gone.value.status == 404 and gone.value.error_code == "NOT_FOUND"
    assert await sandbox.clear_faults() == 2
    assert (await sandbox.faults()).armed == ()


async def test_the_tamper_catalogue(sandbox: SandboxClient) -> None:
    tampers = {t.name: t for t in await sandbox.fault_tampers()}
    assert {"redirect-payment", "sighash-none", "drop-utxo"} <= set(tampers)
    assert "/v1/intent/withdraw" in tampers["redirect-payment"].paths
    assert tampers["sighash-none"].refusal == "SIGHASH_NOT_ALLOWED"


async def test_a_refused_fault_is_the_sandboxs_message(sandbox: SandboxClient) -> None:
    with pytest.raises(HttpError) as refused:
        await sandbox.arm_fault("tamper", "/v1/intent/bid", tamper="steal-it")
    assert refused.value.status == 400 and refused.value.error_code == "INVALID_REQUEST"
    assert "the catalogue has redirect-payment" in refused.value.message


async def test_an_answer_it_cannot_read_is_a_bad_response(tmp_path: Path) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(201, json={"id": "one", "kind": "error"})

    async with SandboxClient(ROOT, transport=httpx.MockTransport(answer)) as client:
        with pytest.raises(BadResponse) as bad:
            await client.arm_fault("error", "/x")
    assert bad.value.field == "id"
