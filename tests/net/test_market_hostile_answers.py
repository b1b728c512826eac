"""Market reads against a service that lies (a compromised server, or a man in the middle on a
plain-http custom service): numbers no float can hold, NaN and Infinity (Python's JSON reads
them), prices above all the bitcoin there is, pages far longer than asked. Each is read within
bounds, as rows skipped and counted or fields left unread, never as an exception other than the
client's own errors."""

from __future__ import annotations

import gzip
from typing import Any

import httpx
import pytest
from net_router import Router

from app.core.limits import MAX_MONEY_SATS
from app.net.errors import BodyTooLarge, NetError
from app.net.http import MAX_BODY_BYTES
from app.net.marketplace import MARKET_PAGE_BYTES, MarketplaceClient
from app.net.marketplace_activity import MAX_PAGE_SIZE
from app.net.marketplace_market import MAX_ROWS

BASE = "http://market.test/v1"
HUGE = "1" + "0" * 400  # a JSON integer: Python reads it, no float holds it


async def call(router: Router, method: str, *args: Any, **kwargs: Any) -> Any:
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        return await getattr(client, method)(*args, **kwargs)


def raw(router: Router, path: str, text: str) -> None:
    """An answer written by hand: JSON that `json.dumps` would not write."""
    headers = {"content-type": "application/json"}
    router.add("GET", path, httpx.Response(200, content=text.encode(), headers=headers))


def row(row_id: str, price: str) -> str:
    return f'{{"id": "{row_id}", "orderType": "bid", "unitPrice": {price}, "collectionSlug": "p"}}'


async def test_prices_no_float_holds_nan_infinity_or_above_all_bitcoin_are_skipped(
    router: Router,
) -> None:
    prices = [HUGE, "NaN", "Infinity", "1e308", str(MAX_MONEY_SATS + 1), f'"{HUGE}"', "5000"]
    rows = ", ".join(row(f"b{i}", p) for i, p in enumerate(prices))
    raw(router, "/v1/activity/bids", f'{{"data": {{"items": [{rows}]}}}}')
    page = await call(router, "get_activity_bids", "p")
    assert [(b.bid_id, b.unit_price) for b in page.rows] == [(f"b{len(prices) - 1}", 5000)]
    assert page.skipped == len(prices) - 1


async def test_a_listing_priced_past_all_bitcoin_is_skipped(router: Router) -> None:
    rows = f'[{{"id": "a", "orderType": "ask", "unitPrice": {HUGE}}}, {{"id": "b", "price": 9e99}}]'
    raw(router, "/v1/activity/listings", f'{{"data": {{"items": {rows}}}}}')
    page = await call(router, "get_activity_listings", "p")
    assert page.rows == () and page.skipped == 2


async def test_a_page_longer_than_any_asked_for_is_read_to_the_bound(router: Router) -> None:
    rows = [{"id": f"b{i}", "unitPrice": 1_000 + i, "collectionSlug": "p"} for i in range(5_000)]
    router.json("GET", "/v1/activity/bids", {"data": {"items": rows}})
    page = await call(router, "get_activity_bids", "p", page_size=100)
    assert len(page.rows) == MAX_PAGE_SIZE and page.skipped == 5_000 - MAX_PAGE_SIZE


async def test_wallet_contents_prices_and_numbers_out_of_bounds(router: Router) -> None:
    listed = '{"price": %s, "price_per_rune_sats": %s}'
    ordinals = [
        f'{{"collection": {{"id": "p"}}, "token": {{"inscription_id": "i{n}"}}, "listing": '
        f'{{"price": {price}}}}}'
        for n, price in enumerate([HUGE, "-5", "0", str(MAX_MONEY_SATS + 1), "25000"])
    ]
    runes = [
        '{"collection": {"id": "DOG"}, "token": {"output": "t:0"}, "listing": '
        + listed % (HUGE, per_rune)
        + "}"
        for per_rune in (HUGE, "NaN", "-Infinity", '"Infinity"')
    ]
    results = f'{{"ordinals": [{", ".join(ordinals)}], "runes": [{", ".join(runes)}]}}'
    body = f'{{"data": {{"results": {results}}}}}'
    raw(router, "/v1/address/wallet-contents", body)
    contents = await call(router, "get_wallet_contents", "bc1pme")
    assert [h.listing_price for h in contents.inscriptions] == [None, None, None, None, 25_000]
    assert [(r.listing_price, r.listing_price_per_rune) for r in contents.runes] == [
        (None, None)
    ] * 4


async def test_floors_with_numbers_no_float_holds(router: Router) -> None:
    entry = f'{{"slug": "p", "floor": {HUGE}, "oneDayChange": {HUGE}, "sevenDayChange": NaN}}'
    raw(router, "/v1/collection-stats/floors", f'{{"data": [{entry}]}}')
    floors = await call(router, "get_collection_floors", "ordinals", ["p"])
    (floor,) = floors.floors
    assert (floor.floor, floor.one_day_change, floor.seven_day_change) == (None, None, None)


async def test_wallet_contents_longer_than_any_page_is_read_to_the_bound(router: Router) -> None:
    held = [{"collection": {"id": "p"}, "token": {"inscription_id": f"i{n}"}} for n in range(3_000)]
    router.json("GET", "/v1/address/wallet-contents", {"data": {"results": {"ordinals": held}}})
    contents = await call(router, "get_wallet_contents", "bc1pme")
    assert len(contents.inscriptions) == MAX_ROWS and contents.skipped == 3_000 - MAX_ROWS


DEEP = "[" * 100_000 + "]" * 100_000  # deeper than Python's JSON parser recurses


@pytest.mark.parametrize("status", [200, 400, 404, 429, 500])
async def test_json_nested_too_deep_is_an_answer_that_is_not_json(
    router: Router, status: int
) -> None:
    headers = {"content-type": "application/json", "retry-after": "0"}
    answer = httpx.Response(status, content=DEEP.encode(), headers=headers)
    router.add("GET", "/v1/activity/bids", answer)
    with pytest.raises(NetError):  # not a RecursionError, which no caller expects
        await call(router, "get_activity_bids", "p")
    router.add("GET", "/v1/collection", answer)
    if status in (400, 404):  # the catalog's "no such collection" or "not offered"
        await call(router, "get_collection", "p")
    else:
        with pytest.raises(NetError):
            await call(router, "get_collection", "p")


async def test_an_answer_larger_than_any_read_is_refused_unread(router: Router) -> None:
    rows = [{"id": f"b{i}", "unitPrice": 1_000, "note": "x" * 1_000} for i in range(40)]
    router.json("GET", "/v1/activity/bids", {"data": {"items": rows}})
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        client.max_body_bytes = 20_000
        with pytest.raises(BodyTooLarge, match="larger than 20,000 bytes"):
            await client.get_activity_bids("p")
        router.json("GET", "/v1/activity/bids", {"data": {"items": rows[:10]}})
        page = await client.get_activity_bids("p")  # within the bound: read as ever
        assert len(page.rows) == 10


async def test_a_body_is_bounded_once_decoded_not_as_sent(router: Router) -> None:
    """A compressed answer (a gzip bomb) is bounded by what it decodes to."""
    body = gzip.compress(b'{"data": {"items": [' + b" " * 5_000_000 + b"]}}")
    headers = {"content-type": "application/json", "content-encoding": "gzip"}
    router.add("GET", "/v1/activity/bids", httpx.Response(200, content=body, headers=headers))
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        client.max_body_bytes = 1_000_000
        with pytest.raises(BodyTooLarge):
            await client.get_activity_bids("p")
    assert len(body) < 100_000


async def test_a_declared_length_past_the_bound_is_not_read(router: Router) -> None:
    def streamed(_request: httpx.Request) -> httpx.Response:
        async def never_read() -> Any:
            raise AssertionError("the body was read")
            yield b""  # an async generator

        headers = {"content-type": "application/json", "content-length": str(10**9)}
        return httpx.Response(200, headers=headers, stream=_Stream(never_read()))

    router.add("GET", "/v1/activity/bids", streamed)
    with pytest.raises(BodyTooLarge):
        await call(router, "get_activity_bids", "p")


class _Stream(httpx.AsyncByteStream):
    def __init__(self, chunks: Any) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> Any:
        async for chunk in self._chunks:
            yield chunk


async def test_a_market_page_is_bounded_lower_than_other_answers(router: Router) -> None:
    """Its JSON is decoded on the window's thread: a page past MARKET_PAGE_BYTES is not read,
    though the client's general bound is higher."""
    pad = "x" * (MARKET_PAGE_BYTES + 1)
    assert MARKET_PAGE_BYTES + 1_000 < MAX_BODY_BYTES
    router.json("GET", "/v1/activity/listings", {"data": {"items": [], "pad": pad}})
    router.json("GET", "/v1/address/wallet-contents", {"data": {"results": {}, "pad": pad}})
    with pytest.raises(BodyTooLarge, match=f"{MARKET_PAGE_BYTES:,}"):
        await call(router, "get_activity_listings", "p")
    with pytest.raises(BodyTooLarge, match=f"{MARKET_PAGE_BYTES:,}"):
        await call(router, "get_wallet_contents", "bc1pme")
