"""The Bid tab's catalog against the sandbox: a collection's traits through the public
service's `GET /v1/collection` (with counts of what is inscribed), a slug it does not know,
and the suggestions (the sandbox's whole list; elsewhere our open bids' collections)."""

from __future__ import annotations

import secrets

import pytest

from app.net.marketplace_catalog import CatalogAnswer
from app.services.bids import BidSpec, place_bid
from app.services.catalog import Suggestions, lookup_collection, suggested_collections
from app.services.context import ServiceContext
from tests.services.conftest import TRAITS, SandboxControl, hour_from_now

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_collection_is_looked_up_by_slug_with_its_traits(
    ctx: ServiceContext, sandbox: SandboxControl, collection: str
) -> None:
    await sandbox.inscribe(ctx.ordinals_address, collection, {"hat": "red", "eyes": "laser"})
    await sandbox.inscribe(ctx.ordinals_address, collection, {"hat": "red"})

    answer = await lookup_collection(ctx, f" {collection} ")

    assert answer.offered and answer.collection is not None
    assert answer.collection.slug == collection and answer.collection.total_items == 2
    assert dict(answer.collection.traits) == {k: tuple(v) for k, v in TRAITS.items()}
    raw = await sandbox.http.get(
        "/v1/collection", params={"collection_id": collection, "categoryAttributes": "true"}
    )
    hats = raw.json()["data"]["collection"][0]["category_attributes"][0]
    assert hats == {
        "key": "hat",
        "values": [
            {"value": "red", "count": 2},
            {"value": "blue", "count": 0},
            {"value": "green", "count": 0},
        ],
    }


async def test_a_slug_the_service_does_not_know(ctx: ServiceContext) -> None:
    assert await lookup_collection(ctx, "no-such-collection") == CatalogAnswer(True, None)


def slugs(found: Suggestions) -> set[str]:
    return {c.slug for c in found.collections}


async def test_suggestions_are_the_sandbox_list_or_what_we_have_seen_named(
    bidder: ServiceContext, sandbox: SandboxControl, sandbox_url: str, collection: str
) -> None:
    listed = await suggested_collections(bidder, sandbox_url)
    assert listed.searchable and collection in slugs(listed)

    before = await suggested_collections(bidder, None)
    assert not before.searchable and collection not in slugs(before)
    # the market's latest activity is named: the sandbox's demo market
    market = bidder.clients.marketplace
    recent = await market.get_activity_bids(None, sort_by="createdAt", sort_direction="desc")
    assert recent.rows, "the sandbox serves a demo market"
    traded = {b.collection_slug for b in recent.rows if b.kind != "rune"}
    assert traded <= slugs(before)
    assert {b.collection_slug for b in recent.rows if b.kind == "rune"} <= set(before.runes)

    await place_bid(bidder, BidSpec.collection(collection, 2_000, 1, hour_from_now(bidder)))
    mine = await suggested_collections(bidder, None)
    assert collection in slugs(mine)


async def test_what_we_hold_is_suggested_with_its_name(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    held = f"held-{secrets.token_hex(4)}"
    await sandbox.create_collection(held)
    await sandbox.inscribe(ctx.ordinals_address, held)
    found = await suggested_collections(ctx, None)
    assert [c.name for c in found.collections if c.slug == held] == [held.replace("-", " ").title()]
