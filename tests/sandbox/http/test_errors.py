"""The error envelope: every error is `{"errorCode", "message"}` with a fitting status."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from app.sandbox.chain.errors import (
    BlockRejected,
    ChainError,
    Conflict,
    InsufficientFunds,
    InvalidRequest,
    NotFound,
    StorageError,
    TxRejected,
)
from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app
from app.sandbox.http.deps import require_api_key
from app.sandbox.http.errors import ApiError, chain_error_status
from app.sandbox.http.settings import SandboxSettings
from tests.sandbox.conftest import ASGI_BASE_URL
from tests.sandbox.txbuild import P2wpkhKey

SMALL_LIMIT = 1024
ENVELOPE = {"errorCode", "message"}


def assert_error(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == ENVELOPE
    assert body["errorCode"] == code
    assert body["message"]
    message: str = body["message"]
    return message


@pytest.fixture(scope="module")
def small_limit_app(sandbox_node: Node) -> FastAPI:
    return create_app(sandbox_node, SandboxSettings(max_body_bytes=SMALL_LIMIT))


@pytest.fixture
async def small_limit_client(small_limit_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=small_limit_app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url=ASGI_BASE_URL) as client:
        yield client


async def test_unknown_route_is_404(sandbox_client: httpx.AsyncClient) -> None:
    message = assert_error(await sandbox_client.get("/no/such/thing"), 404, "NOT_FOUND")
    assert message == "no such endpoint: GET /no/such/thing"


async def test_wrong_method_is_405_with_allow_header(sandbox_client: httpx.AsyncClient) -> None:
    response = await sandbox_client.delete("/sandbox/info")
    assert_error(response, 405, "METHOD_NOT_ALLOWED")
    assert response.headers["allow"] == "GET"


async def test_malformed_json_is_400_invalid_json(sandbox_client: httpx.AsyncClient) -> None:
    for body in (b"{", b'{"blocks": }', b"\xff\xfe"):
        response = await sandbox_client.post(
            "/sandbox/mine", content=body, headers={"content-type": "application/json"}
        )
        assert "not valid JSON" in assert_error(response, 400, "INVALID_JSON")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"address": "x"}, "body.sats"),  # missing
        ({"address": "x", "sats": True}, "body.sats"),  # a bool is not an integer
        ({"address": "x", "sats": "5000"}, "body.sats"),  # nor is a string
        ({"address": "x", "sats": 5000.0}, "body.sats"),  # nor a float
        ({"address": "x", "sats": 0}, "body.sats"),  # out of range
        ({"address": 7, "sats": 5000}, "body.address"),
        ([], "body"),
        ("text", "body"),
    ],
)
async def test_wrong_types_are_400_naming_the_field(
    sandbox_client: httpx.AsyncClient, body: object, field: str
) -> None:
    message = assert_error(
        await sandbox_client.post("/sandbox/faucet", json=body), 400, "INVALID_REQUEST"
    )
    assert message.startswith(field)


async def test_json_body_needs_a_json_content_type(sandbox_client: httpx.AsyncClient) -> None:
    response = await sandbox_client.post(
        "/sandbox/mine", content=b'{"blocks": 1}', headers={"content-type": "text/plain"}
    )
    assert_error(response, 400, "INVALID_REQUEST")


async def test_unknown_fields_are_ignored(sandbox_client: httpx.AsyncClient) -> None:
    before = int((await sandbox_client.get("/esplora/blocks/tip/height")).text)
    response = await sandbox_client.post("/sandbox/mine", json={"blocks": 1, "colour": "blue"})
    assert response.status_code == 200
    assert response.json() == {"height": before + 1}


async def test_oversized_body_announced_is_413_before_reading_it(
    small_limit_client: httpx.AsyncClient,
) -> None:
    chunks_read = 0

    async def body() -> AsyncIterator[bytes]:
        nonlocal chunks_read
        for _ in range(64):
            chunks_read += 1
            yield b"x" * 1024

    response = await small_limit_client.post(
        "/sandbox/faucet",
        content=body(),
        headers={"content-type": "application/json", "content-length": str(64 * 1024)},
    )
    assert_error(response, 413, "PAYLOAD_TOO_LARGE")
    assert chunks_read <= 1  # the transport may prefetch one chunk; the app read none


async def test_oversized_streamed_body_is_413(small_limit_client: httpx.AsyncClient) -> None:
    async def body() -> AsyncIterator[bytes]:
        for _ in range(4):
            yield b"0" * 512

    for path, content_type in (
        ("/sandbox/faucet", "application/json"),
        ("/esplora/tx", "text/plain"),
    ):
        response = await small_limit_client.post(
            path, content=body(), headers={"content-type": content_type}
        )
        message = assert_error(response, 413, "PAYLOAD_TOO_LARGE")
        assert str(SMALL_LIMIT) in message


async def test_body_at_the_limit_is_accepted(small_limit_client: httpx.AsyncClient) -> None:
    payload = b'{"blocks": 1, "pad": "' + b"p" * (SMALL_LIMIT - 24) + b'"}'
    assert len(payload) == SMALL_LIMIT
    response = await small_limit_client.post(
        "/sandbox/mine", content=payload, headers={"content-type": "application/json"}
    )
    assert response.status_code == 200, response.text


async def test_unexpected_exception_is_500_without_details(
    sandbox_client: httpx.AsyncClient,
    sandbox_node: Node,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken() -> dict[str, float]:
        raise RuntimeError("internal detail that must stay in the log")

    monkeypatch.setattr(sandbox_node, "fee_estimates", broken)
    with caplog.at_level(logging.ERROR):
        response = await sandbox_client.get("/esplora/fee-estimates")
    message = assert_error(response, 500, "INTERNAL_ERROR")
    assert "internal detail" not in response.text and "Traceback" not in response.text
    assert "see the service log" in message
    assert "internal detail that must stay in the log" in caplog.text


async def test_chain_refusals_keep_their_code(sandbox_client: httpx.AsyncClient) -> None:
    response = await sandbox_client.post(
        "/sandbox/faucet", json={"address": "nonsense", "sats": 5000}
    )
    assert_error(response, 400, "INVALID_ADDRESS")
    collection = {"slug": "dup-errors", "name": "Dup", "traits": []}
    assert (await sandbox_client.post("/sandbox/collections", json=collection)).status_code == 201
    response = await sandbox_client.post("/sandbox/collections", json=collection)
    assert response.status_code == 409
    assert set(response.json()) == ENVELOPE


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (NotFound("x"), 404),
        (InvalidRequest("x"), 400),
        (TxRejected("DUST", "dust", "x", 1), 400),
        (Conflict("x"), 409),
        (InsufficientFunds("x"), 409),
        (ChainError("x"), 409),
        (BlockRejected("x"), 500),
        (StorageError("x"), 500),
    ],
)
def test_chain_error_status(error: ChainError, status: int) -> None:
    assert chain_error_status(error) == status


def test_api_key_check_is_a_no_op_without_a_key() -> None:
    require_api_key(SandboxSettings(), None)
    require_api_key(SandboxSettings(), "anything")


def test_api_key_check_with_a_key() -> None:
    settings = SandboxSettings(api_key="s3cret")
    require_api_key(settings, "s3cret")
    for wrong in (None, "", "s3cret ", "other", "é"):
        with pytest.raises(ApiError) as info:
            require_api_key(settings, wrong)
        assert (info.value.status, info.value.code) == (401, "UNAUTHORIZED")
        assert "s3cret" not in info.value.message
    assert "s3cret" not in repr(settings)


def test_address_helper_is_regtest() -> None:
    assert P2wpkhKey.from_label("x").address.startswith("bcrt1q")
