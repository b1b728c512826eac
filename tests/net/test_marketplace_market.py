"""`/collection-stats`, `/collection-stats/floors` and `/address/wallet-contents` in the shapes
the notes give (../shared/notes/satflow-market-data.md, section 2): [DOC] Satflow's docs (which
the sandbox serves), [MM] satflow-mm's reads where they differ."""

from __future__ import annotations

from typing import Any

import pytest
from net_router import Router

from app.net.errors import BadResponse, MarketplaceError
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_market import (
    CollectionFloor,
    CollectionStats,
    FloorsPage,
    HeldInscription,
    HeldRune,
    WalletContents,
)
from app.net.marketplace_requests import InvalidRequest

BASE = "http://market.test/v1"


def ok(data: Any) -> dict[str, Any]:
    return {"success": True, "data": data}


async def call(router: Router, method: str, *args: Any, **kwargs: Any) -> Any:
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        return await getattr(client, method)(*args, **kwargs)


STATS = {
    "floor": 25_000,
    "listedCount": 41,
    "volume1d": 120_000,
    "volume7d": 900_000,
    "volume30d": 3_000_000,
    "volume1dChange": -5_000,
    "volume1dChangePercent": "-73.0676",
    "volume7dChangePercent": "12",
    "volume30dChangePercent": "n/a",
    "metadata": {"_id": "x", "id": "puppets", "name": "Bitcoin Puppets", "total_items": 10_000},
}


async def test_doc_collection_stats(router: Router) -> None:
    """[DOC] the percentages are strings; metadata holds the slug, name and supply."""
    router.json("GET", "/v1/collection-stats", ok(STATS))
    stats = await call(router, "get_collection_stats", "puppets")
    assert stats == CollectionStats(
        "puppets", "Bitcoin Puppets", 25_000, 41, 10_000, 120_000, 900_000, 3_000_000,
        -73.0676, 12.0, None,
    )  # fmt: skip
    assert dict(router.last.url.params) == {"collectionId": "puppets"}


async def test_stats_with_missing_fields(router: Router) -> None:
    router.json("GET", "/v1/collection-stats", ok({"floor": None}))
    stats = await call(router, "get_collection_stats", "puppets")
    assert stats == CollectionStats("puppets", *([None] * 10))


async def test_stats_of_an_unknown_collection_is_none(router: Router) -> None:
    router.json("GET", "/v1/collection-stats", {"error": "Collection not found"}, 404)
    assert await call(router, "get_collection_stats", "nope") is None


async def test_stats_on_a_service_without_the_route_is_an_error(router: Router) -> None:
    with pytest.raises(MarketplaceError):
        await call(router, "get_collection_stats", "puppets")  # the router's {"detail"} 404


async def test_stats_of_the_wrong_shape(router: Router) -> None:
    router.json("GET", "/v1/collection-stats", ["floor"])
    with pytest.raises(BadResponse):
        await call(router, "get_collection_stats", "puppets")


async def test_doc_floors(router: Router) -> None:
    entries = [
        {"slug": "puppets", "floor": 25_000, "listedCount": 41, "ownerCount": 3_000,
         "oneDayChange": -2.5, "sevenDayChange": 10, "timestamp": "2026-11-25T22:00:00.000Z"},
        {"slug": "monkes", "floor": None},
        {"floor": 1},
        "junk",
    ]  # fmt: skip
    router.json("GET", "/v1/collection-stats/floors", ok(entries))
    page = await call(router, "get_collection_floors", "ordinals", ["puppets", "monkes"])
    assert page == FloorsPage(
        (
            CollectionFloor("puppets", 25_000, 41, 3_000, -2.5, 10.0, 1_795_644_000_000),
            CollectionFloor("monkes", None, None, None, None, None, None),
        ),
        skipped=2,
    )
    assert dict(router.last.url.params) == {"type": "ordinals", "slugs": "puppets,monkes"}


async def test_floors_none_known_and_bad_arguments(router: Router) -> None:
    router.json("GET", "/v1/collection-stats/floors", {"code": "NOT_FOUND", "error": "none"}, 404)
    assert await call(router, "get_collection_floors", "runes", ["X"]) == FloorsPage((), 0)
    with pytest.raises(InvalidRequest):
        await call(router, "get_collection_floors", "brc20", ["X"])
    with pytest.raises(InvalidRequest):
        await call(router, "get_collection_floors", "runes", [])


async def test_floors_of_the_wrong_shape(router: Router) -> None:
    router.json("GET", "/v1/collection-stats/floors", ok({"slug": "puppets"}))
    with pytest.raises(BadResponse):
        await call(router, "get_collection_floors", "ordinals", ["puppets"])


DOC_CONTENTS = {
    "results": {
        "ordinals": [
            {
                "collection": {"id": "puppets", "name": "Bitcoin Puppets"},
                "token": {"name": "Puppet #7", "inscription_id": "i7", "inscription_number": 70,
                          "image_url": None, "content_type": "image/png"},
                "listing": {"price": 30_000, "secureListing": True},
                "market": {},
            },
            {"collection": {"id": "puppets"}, "token": {"inscription_id": "i8"}, "listing": None},
            {"collection": {"id": "puppets"}, "token": {}},  # no inscription id
        ],
        "runes": [
            {
                "collection": {"id": "DOG•GO•TO•THE•MOON", "name": "DOG"},
                "token": {"name": "DOG•GO•TO•THE•MOON", "rune_utxo_id": "aa:1",
                          "rune_amount": "150000000", "rune_symbol": "🐕",
                          "rune_amount_formatted": "1500000", "rune_divisibility": 2,
                          "output": "aa:1"},
                "listing": {"price": 60_000, "price_per_rune_sats": "0.04"},
            },
        ],
    },
    "pending_orders": [],
    "nextCursor": 100,
}  # fmt: skip


async def test_doc_wallet_contents(router: Router) -> None:
    router.json("GET", "/v1/address/wallet-contents", ok(DOC_CONTENTS))
    contents = await call(router, "get_wallet_contents", "bc1pme", item_type="all", cursor=0)
    assert contents == WalletContents(
        inscriptions=(
            HeldInscription("puppets", "Bitcoin Puppets", "i7", 70, "Puppet #7", 30_000),
            HeldInscription("puppets", None, "i8", None, None, None),
        ),
        runes=(HeldRune("DOG•GO•TO•THE•MOON", 150_000_000, 2, "🐕", "aa:1", 60_000, 0.04),),
        next_cursor=100,
        skipped=1,
    )
    assert dict(router.last.url.params) == {
        "address": "bc1pme",
        "itemType": "all",
        "limit": "100",
        "cursor": "0",
    }


async def test_mm_rune_symbol_and_divisibility_on_the_collection(router: Router) -> None:
    """[MM] reads collection.rune_symbol and collection.rune_divisibility."""
    rune = {
        "collection": {"id": "UNCOMMON•GOODS", "rune_symbol": "⧉", "rune_divisibility": 0},
        "token": {"rune_amount": "12", "inscription_id": "bb:0"},
    }
    router.json("GET", "/v1/address/wallet-contents", ok({"results": {"runes": [rune]}}))
    contents = await call(
        router, "get_wallet_contents", "bc1pme", item_type="rune", listed_only=True
    )
    assert contents.runes == (HeldRune("UNCOMMON•GOODS", 12, 0, "⧉", None, None, None),)
    assert contents.inscriptions == () and contents.next_cursor is None
    assert dict(router.last.url.params)["listedOnly"] == "true"


@pytest.mark.parametrize(
    "body", [ok({"results": []}), ok({}), ok({"results": {"ordinals": {}}}), "x"]
)
async def test_wallet_contents_of_the_wrong_shape(router: Router, body: Any) -> None:
    router.json("GET", "/v1/address/wallet-contents", body)
    with pytest.raises(BadResponse):
        await call(router, "get_wallet_contents", "bc1pme")


async def test_wallet_contents_bad_arguments(router: Router) -> None:
    with pytest.raises(InvalidRequest):
        await call(router, "get_wallet_contents", "bc1pme", item_type="brc20")
    assert router.requests == []
