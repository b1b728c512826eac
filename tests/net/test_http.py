"""The shared HTTP base: headers, timeouts, JSON decoding, transport errors, logging."""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections.abc import AsyncIterator

import httpx
import pytest
from net_router import Router

from app.net.errors import (
    BadResponse,
    ConnectFailed,
    ConnectionLost,
    MarketplaceError,
    NotJson,
    RequestTimeout,
    TransportError,
)
from app.net.http import API_KEY_HEADER, HttpClient, Timeouts, segment, tls_context_for
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_requests import WithdrawSubmission

KEY = "sk_live_7f3a9c2e5b1d4f60a8e2"
BASE = "http://market.test/v1"


def _raiser(exc: Exception):  # type: ignore[no-untyped-def]
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    return handler


async def test_api_key_header_sent_when_configured(router: Router) -> None:
    router.json("GET", "/v1/challenge", {"data": {"challenge": "c"}})
    async with MarketplaceClient(BASE, api_key=KEY, transport=router.transport) as client:
        await client.get_challenge("bc1qaddr")
    assert router.last.headers[API_KEY_HEADER] == KEY


@pytest.mark.parametrize("key", [None, ""])
async def test_no_api_key_header_without_a_key(router: Router, key: str | None) -> None:
    router.json("GET", "/v1/challenge", {"data": {"challenge": "c"}})
    async with MarketplaceClient(BASE, api_key=key, transport=router.transport) as client:
        await client.get_challenge("bc1qaddr")
    assert API_KEY_HEADER not in router.last.headers


async def test_repr_hides_the_key(router: Router) -> None:
    async with MarketplaceClient(BASE, api_key=KEY, transport=router.transport) as client:
        assert KEY not in repr(client)
        assert "api_key=set" in repr(client)


async def test_timeouts_reach_each_request(router: Router) -> None:
    router.json("GET", "/v1/challenge", {"data": {"challenge": "c"}})
    timeouts = Timeouts(connect=1.5, read=7.0, write=8.0, pool=2.0)
    async with MarketplaceClient(BASE, timeouts=timeouts, transport=router.transport) as client:
        await client.get_challenge("bc1qaddr")
    assert router.last.extensions["timeout"] == {
        "connect": 1.5,
        "read": 7.0,
        "write": 8.0,
        "pool": 2.0,
    }


async def test_base_url_path_is_kept(router: Router) -> None:
    router.json("GET", "/v1/challenge", {"data": {"challenge": "c"}})
    async with MarketplaceClient(BASE + "/", transport=router.transport) as client:
        await client.get_challenge("bc1q")
    assert str(router.last.url) == "http://market.test/v1/challenge?address=bc1q"


async def test_non_json_body_raises_not_json(router: Router) -> None:
    router.add(
        "GET",
        "/v1/challenge",
        httpx.Response(200, text="<html>maintenance</html>", headers={"content-type": "text/html"}),
    )
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        with pytest.raises(NotJson) as caught:
            await client.get_challenge("bc1q")
    assert isinstance(caught.value, BadResponse)
    assert "not JSON" in str(caught.value) and "text/html" in str(caught.value)
    assert "maintenance" not in str(caught.value)  # bodies are not echoed


@pytest.mark.parametrize(
    ("exc", "kind", "applied"),
    [
        (httpx.ReadTimeout("read timed out"), RequestTimeout, True),
        (httpx.WriteTimeout("write timed out"), RequestTimeout, True),
        (httpx.RemoteProtocolError("peer closed"), ConnectionLost, True),
        (httpx.ReadError("reset"), ConnectionLost, True),
        (httpx.ConnectError("refused"), ConnectFailed, False),
        (httpx.ConnectTimeout("connect timed out"), ConnectFailed, False),
        (httpx.PoolTimeout("pool"), ConnectFailed, False),
    ],
)
async def test_transport_errors_say_whether_applied(
    router: Router, exc: Exception, kind: type[TransportError], applied: bool
) -> None:
    router.add("POST", "/v1/bid/place", _raiser(exc))
    async with MarketplaceClient(BASE, api_key=KEY, transport=router.transport) as client:
        with pytest.raises(kind) as caught:
            await client.place_collection_bid({"price": 1000})
    assert caught.value.may_have_been_applied is applied
    assert ("may have been applied" in str(caught.value)) is applied
    assert "POST /v1/bid/place" in str(caught.value)
    assert KEY not in str(caught.value)


async def test_logs_method_path_status_but_no_body_query_or_key(
    router: Router, caplog: pytest.LogCaptureFixture
) -> None:
    router.json("POST", "/v1/withdraw", {"data": {"txid": "ab" * 32}})
    router.json("GET", "/v1/challenge/verify", {"error": "bad"}, status=400)
    caplog.set_level(logging.DEBUG)
    async with MarketplaceClient(BASE, api_key=KEY, transport=router.transport) as client:
        await client.withdraw(WithdrawSubmission(signed_withdraw_psbt="cHNidP8BAFIgSIGNED"))
        with pytest.raises(MarketplaceError, match="bad"):
            await client.verify_challenge("bc1qaddr", "SIGNATUREVALUE")
    ours = [r.getMessage() for r in caplog.records if r.name == "app.net.marketplace"]
    assert any(m.startswith("POST /v1/withdraw -> 200 in ") for m in ours)
    assert any(m.startswith("GET /v1/challenge/verify -> 400 in ") for m in ours)
    everything = "\n".join(r.getMessage() for r in caplog.records)
    assert "cHNidP8BAFIgSIGNED" not in everything
    assert "SIGNATUREVALUE" not in "\n".join(ours)
    assert KEY not in everything


async def test_server_echoing_the_key_is_redacted(router: Router) -> None:
    router.json("GET", "/v1/challenge", {"error": f"bad key {KEY}"}, status=401)
    async with MarketplaceClient(BASE, api_key=KEY, transport=router.transport) as client:
        with pytest.raises(MarketplaceError) as caught:
            await client.get_challenge("bc1q")
    assert caught.value.status == 401
    assert KEY not in str(caught.value)
    assert "[redacted]" in str(caught.value)


def test_segment_quotes_hostile_values() -> None:
    assert segment("bc1qxyz") == "bc1qxyz"
    assert segment("ab:0") == "ab:0"
    assert segment("a/b?c=d#e") == "a%2Fb%3Fc%3Dd%23e"
    for bad in ("", ".", ".."):
        with pytest.raises(ValueError):
            segment(bad)


async def test_generic_client_posts_preserialised_json_byte_for_byte(router: Router) -> None:
    seen: list[bytes] = []

    def echo(request: httpx.Request) -> httpx.Response:
        seen.append(request.content)
        return httpx.Response(200, json={"ok": True})

    router.add("POST", "/x", echo)
    async with HttpClient("http://h.test", service="t", transport=router.transport) as client:
        assert await client.post_json("/x", '{"b":1, "a":2}') == {"ok": True}
    assert seen == [b'{"b":1, "a":2}']
    assert router.last.headers["content-type"] == "application/json"


# --- real loopback sockets: the httpx/httpcore stack, not a mock ----------------------------


@pytest.fixture
async def silent_server() -> AsyncIterator[int]:
    """Accepts connections and reads, never answers."""
    held: list[asyncio.StreamWriter] = []

    async def on_connect(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(on_connect, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    yield port
    for writer in held:
        writer.close()
    server.close()
    await server.wait_closed()


async def test_real_read_timeout_is_a_request_timeout(
    silent_server: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    timeouts = Timeouts(connect=2.0, read=0.05, write=2.0, pool=2.0)
    url = f"http://127.0.0.1:{silent_server}/v1"
    async with MarketplaceClient(url, api_key=KEY, timeouts=timeouts) as client:
        with pytest.raises(RequestTimeout) as caught:
            await client.place_collection_bid({"price": 1000})
    assert caught.value.may_have_been_applied
    # Every logger, httpx and httpcore included, at DEBUG: the key never shows.
    for record in caplog.records:
        assert KEY not in record.getMessage()
        assert KEY not in repr(record.args)


async def test_real_refused_connection_is_connect_failed() -> None:
    # A bound socket that does not listen refuses connections and keeps the port ours.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        async with MarketplaceClient(f"http://127.0.0.1:{port}/v1", api_key=KEY) as client:
            with pytest.raises(ConnectFailed) as caught:
                await client.get_challenge("bc1q")
    assert caught.value.may_have_been_applied is False
    assert "not applied" in str(caught.value)


def _no_proxy_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


def test_tls_context_verifies_and_is_shared_by_https_clients(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _no_proxy_environment(monkeypatch)
    context = tls_context_for("https://market.example/v1")
    assert context is tls_context_for("https://esplora.example/api")
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] > 0  # a trust store is loaded


def test_tls_context_of_a_plain_http_service_trusts_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _no_proxy_environment(monkeypatch)
    context = tls_context_for("http://127.0.0.1:8123/v1")
    assert context is not tls_context_for("https://market.example/v1")
    # Were it ever used, every certificate would be refused.
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.cert_store_stats()["x509_ca"] == 0


def test_tls_context_of_a_plain_http_service_behind_an_https_proxy_verifies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _no_proxy_environment(monkeypatch)
    monkeypatch.setenv("HTTP_PROXY", "https://proxy.example:3128")
    context = tls_context_for("http://127.0.0.1:8123/v1")
    assert context is tls_context_for("https://market.example/v1")


async def test_plain_http_client_reaches_a_loopback_server() -> None:
    # The real transport (no mock) with the trust-nothing context: plain http is unaffected.
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        body = b'{"ok": true}'
        writer.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body)
        )
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with HttpClient(f"http://127.0.0.1:{port}/v1", service="test") as client:
            response = await client.send("GET", "/ping")
        assert response.json() == {"ok": True}
    finally:
        server.close()
        await server.wait_closed()
