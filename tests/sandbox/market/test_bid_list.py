"""GET /v1/address/bids: open bids only, one entry per bid, the fields a user needs."""

from __future__ import annotations

import httpx

from app.core.bid_request import Trait
from tests.sandbox.market.helpers import (
    MINUTE_MS,
    User,
    advance,
    bid_body,
    funded_user,
    now_ms,
    ok,
    open_bids,
    place,
)

TRAIT = Trait("Eyes", "🔥 Fire")


async def test_entries_of_collection_trait_and_rune_bids(client: httpx.AsyncClient) -> None:
    user, _ = await funded_user(client, "list-kinds", 500_000)
    now = await now_ms(client)
    expiry = now + 30 * MINUTE_MS
    placed = ok(await place(client, bid_body(user, now, quantity=2, expiry_ms=expiry)))
    await advance(client, 500)
    ok(await place(client, bid_body(user, now + 500, traits=(TRAIT,), price=5_000)))
    await advance(client, 500)
    rune = "SANDBOX•DEMO•RUNE"
    ok(
        await place(
            client,
            bid_body(user, now + 1_000, slug=rune, meta_type="runes", quantity=700, price=70_000),
        )
    )
    entries = await open_bids(client, user)
    assert len(entries) == 4
    plain, _, trait, rune_bid = entries
    assert {e["bid_id"]["$oid"] for e in entries[:2]} == set(placed["bidIds"])
    assert all(len(e["bid_id"]["$oid"]) == 24 for e in entries)
    assert len({e["bid_id"]["$oid"] for e in entries}) == 4
    assert plain["type"] == "collection" and "attribute" not in plain
    assert (plain["price"], plain["quantity"], plain["expiration"]) == (10_000, 1, expiry)
    assert (plain["collectionSlug"], plain["metaType"]) == ("pixel-punks", "ordinals")
    assert trait["type"] == "collection"
    assert trait["attribute"] == {"trait_type": "Eyes", "value": "🔥 Fire"}
    assert trait["price"] == 5_000
    assert rune_bid["type"] == "rune" and "attribute" not in rune_bid
    assert (rune_bid["collectionSlug"], rune_bid["quantity"], rune_bid["price"]) == (
        rune,
        700,
        70_000,
    )
    assert rune_bid["metaType"] == "runes"
    assert all(e["createdAt"] <= now + 1_000 for e in entries)
    # The public service's documented fields, which its market maker matches on.
    assert all(e["inscription_id"] is None for e in entries)
    for entry in (plain, trait):
        assert entry["inscription_metadata"] == {"collection": {"id": "pixel-punks"}}
        assert entry["runes_metadata"] is None
    assert rune_bid["inscription_metadata"] is None
    assert rune_bid["runes_metadata"] == {
        "runes": [{"name": rune, "amount": 700, "divisibility": 0}]
    }


async def test_bids_past_expiry_are_not_open(client: httpx.AsyncClient) -> None:
    user, _ = await funded_user(client, "list-expiry", 100_000)
    now = await now_ms(client)
    ok(await place(client, bid_body(user, now, expiry_ms=now + 15 * MINUTE_MS)))
    await advance(client, 500)
    ok(await place(client, bid_body(user, now + 500, expiry_ms=now + 16 * MINUTE_MS)))
    await advance(client, 15 * MINUTE_MS - 501)  # 1 ms before the first expiry
    assert len(await open_bids(client, user)) == 2
    await advance(client, 1)
    [left] = await open_bids(client, user)
    assert left["expiration"] == now + 16 * MINUTE_MS


async def test_expired_bids_no_longer_count_in_their_pool(client: httpx.AsyncClient) -> None:
    user, _ = await funded_user(client, "list-expiry-pool", 11_000)
    now = await now_ms(client)
    ok(await place(client, bid_body(user, now, expiry_ms=now + 15 * MINUTE_MS)))
    await advance(client, 15 * MINUTE_MS)
    later = await now_ms(client)
    ok(await place(client, bid_body(user, later)))  # the pool is free again


async def test_unknown_address_is_an_empty_list(client: httpx.AsyncClient) -> None:
    assert await open_bids(client, User.make("list-nobody")) == []
    response = await client.get("/v1/address/bids", params={"address": "not-an-address"})
    assert ok(response) == {"results": []}


async def test_trait_text_is_escaped_in_the_listing(client: httpx.AsyncClient) -> None:
    value = 'say "hi" \\ 🙂\u2028'
    traits = [{"trait_type": 'Q"uote', "values": [value]}]
    collection = {"slug": "quoted", "name": "Quoted", "traits": traits}
    ok(await client.post("/sandbox/collections", json=collection), 201)
    user, _ = await funded_user(client, "list-escape", 100_000)
    body = bid_body(user, await now_ms(client), slug="quoted", traits=(Trait('Q"uote', value),))
    ok(await place(client, body))
    [entry] = await open_bids(client, user)
    assert entry["attribute"] == {"trait_type": 'Q"uote', "value": value}
