"""POST /v1/bid/place: every field rule and limit (spec 2.3, 8), both sides of each boundary,
against the (frozen) service clock. Each accepted request uses a new user, so the bid rate of
one case never touches another."""

from __future__ import annotations

import itertools
from typing import Any

import httpx
import pytest

from app.core.bid_request import Trait
from tests.sandbox.market.helpers import (
    MINUTE_MS,
    bid_body,
    error,
    funded_user,
    now_ms,
    ok,
    place,
)

_labels = itertools.count()
BIG = 3_000_000  # covers 1,000 bids of 2,000 sats (price + maker fee)
MANY_VALUES = [f"v{i:02d}" for i in range(60)]


async def new_user(client: httpx.AsyncClient, sats: int = 100_000) -> Any:
    user, _ = await funded_user(client, f"rules-{next(_labels)}", sats)
    return user


async def accepted(client: httpx.AsyncClient, **kwargs: Any) -> dict[str, Any]:
    user = await new_user(client, kwargs.pop("sats", 100_000))
    now = await now_ms(client)
    data: dict[str, Any] = ok(await place(client, bid_body(user, now, **kwargs)))
    return data


async def refused(client: httpx.AsyncClient, code: str, **kwargs: Any) -> dict[str, Any]:
    user = await new_user(client)
    now = await now_ms(client)
    return error(await place(client, bid_body(user, now, **kwargs)), 400, code)


@pytest.fixture(scope="module", autouse=True)
async def many_traits_collection(sandbox_node: Any) -> None:
    if sandbox_node.collection("many-traits") is None:
        sandbox_node.create_collection(
            "many-traits", "Many Traits", [{"trait_type": "Tag", "values": MANY_VALUES}]
        )


async def test_price_granularity_and_minimum(client: httpx.AsyncClient) -> None:
    assert (await accepted(client, price=1_000))["bidCount"] == 1
    assert (await accepted(client, price=2_000))["bidCount"] == 1
    body = await refused(client, "COLLECTION_BID_PRICE_STEP", price=1_500)
    assert body["field"] == "price"
    await refused(client, "COLLECTION_BID_PRICE_TOO_LOW", price=0)


async def test_rune_price_is_a_total_of_at_least_10000(client: httpx.AsyncClient) -> None:
    rune = {"slug": "DOG•GO•TO•THE•MOON", "meta_type": "runes", "quantity": 5_000}
    data = await accepted(client, price=10_000, **rune)
    assert data["bidCount"] == 1  # one bid for all its units
    await refused(client, "RUNE_BID_PRICE_TOO_LOW", price=9_999, **rune)
    await accepted(client, price=10_001, **rune)  # any step for runes


async def test_quantity_at_least_one(client: httpx.AsyncClient) -> None:
    assert (await accepted(client, quantity=1))["bidCount"] == 1
    await refused(client, "COLLECTION_BID_QUANTITY_INVALID", quantity=0)


async def test_expiry_at_least_15_minutes_after_the_request(client: httpx.AsyncClient) -> None:
    now = await now_ms(client)
    await accepted(client, expiry_ms=now + 15 * MINUTE_MS)
    body = await refused(
        client, "COLLECTION_BID_EXPIRY_TOO_SOON", expiry_ms=now + 15 * MINUTE_MS - 1
    )
    assert body["details"]["earliest"] == now + 15 * MINUTE_MS


async def test_timestamp_window_against_the_service_clock(client: httpx.AsyncClient) -> None:
    now = await now_ms(client)
    await accepted(client, timestamp=now - 2 * MINUTE_MS + 1)
    await refused(client, "COLLECTION_BID_TIMESTAMP_TOO_OLD", timestamp=now - 2 * MINUTE_MS)
    await accepted(client, timestamp=now + 30_000)
    body = await refused(client, "COLLECTION_BID_TIMESTAMP_IN_FUTURE", timestamp=now + 30_001)
    assert body["details"]["serverTime"] == now


async def test_at_most_50_traits(client: httpx.AsyncClient) -> None:
    traits = tuple(Trait("Tag", v) for v in MANY_VALUES)
    data = await accepted(client, slug="many-traits", traits=traits[:50])
    assert data["bidCount"] == 50
    body = await refused(
        client, "COLLECTION_BID_TOO_MANY_ATTRIBUTES", slug="many-traits", traits=traits[:51]
    )
    assert body["details"] == {"limit": 50, "requested": 51}


async def test_at_most_1000_bids_per_request(client: httpx.AsyncClient) -> None:
    traits = tuple(Trait("Tag", v) for v in MANY_VALUES[:20])
    data = await accepted(client, slug="many-traits", traits=traits, quantity=50, sats=BIG * 5)
    assert data["bidCount"] == 1_000
    body = await refused(client, "COLLECTION_BID_TOO_MANY_ORDERS", quantity=1_001)
    assert body["details"] == {"limit": 1_000, "requested": 1_001}
    assert body["field"] == "quantity"


async def test_collection_trait_and_rune_must_exist(client: httpx.AsyncClient) -> None:
    await accepted(client, traits=(Trait("Eyes", "🔥 Fire"), Trait("Background", "Ünïcødé Gold")))
    body = await refused(client, "UNKNOWN_COLLECTION", slug="no-such-collection")
    assert body["field"] == "collectionSlug"
    body = await refused(
        client, "UNKNOWN_TRAIT", traits=(Trait("Eyes", "Laser"), Trait("Eyes", "Closed"))
    )
    assert body["field"] == "attributes[1]"
    await refused(client, "UNKNOWN_TRAIT", traits=(Trait("Mood", "Happy 😺"),))  # other collection
    await refused(client, "UNKNOWN_COLLECTION", slug="NO•SUCH•RUNE", meta_type="runes")
    body = await refused(client, "UNKNOWN_COLLECTION", slug="DOGGOTOTHEMOON", meta_type="runes")
    assert "DOG•GO•TO•THE•MOON" in body["message"]  # the canonical spelling is suggested


async def test_ranges_take_plain_bids_but_no_traits(client: httpx.AsyncClient) -> None:
    assert (await accepted(client, slug="sub1k", quantity=2))["bidCount"] == 2
    await refused(
        client, "COLLECTION_BID_TRAITS_NOT_ALLOWED", slug="sub10k", traits=(Trait("Eyes", "Laser"),)
    )
    await refused(
        client,
        "COLLECTION_BID_TRAITS_NOT_ALLOWED",
        slug="DOG•GO•TO•THE•MOON",
        meta_type="runes",
        traits=(Trait("Eyes", "Laser"),),
    )


async def test_every_violation_is_reported_and_the_shape_is_checked(
    client: httpx.AsyncClient,
) -> None:
    user = await new_user(client)
    now = await now_ms(client)
    body = bid_body(user, now, price=1_500, quantity=0)
    response = error(await place(client, body), 400, "COLLECTION_BID_PRICE_STEP")
    assert [v["errorCode"] for v in response["violations"]] == [
        "COLLECTION_BID_PRICE_STEP",
        "COLLECTION_BID_QUANTITY_INVALID",
    ]
    for broken, code in (
        ({**body, "price": True}, "INVALID_FIELD"),
        ({**body, "attributez": []}, "UNKNOWN_FIELD"),
        ({k: v for k, v in body.items() if k != "timestamp"}, "MISSING_FIELD"),
    ):
        error(await place(client, broken), 400, code)
    response_raw = await client.post(
        "/v1/bid/place", content=b"{not json", headers={"content-type": "application/json"}
    )
    error(response_raw, 400, "INVALID_JSON")
