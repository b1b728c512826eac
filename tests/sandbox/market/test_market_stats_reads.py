"""`GET /v1/collection-stats`, `/v1/collection-stats/floors` and
`/v1/address/wallet-contents` (issue 16): floors from active listings, owners from the chain,
volumes from sales in rolling windows at the service clock, and a wallet's items with the
listing of ours at its price."""

from __future__ import annotations

import httpx

from app.sandbox.chain.node import Node
from tests.sandbox.listings.selling import activate, inscribe, listing_body, new_seller
from tests.sandbox.market.helpers import advance, error, ok
from tests.sandbox.market.market_reads import competing_bid, competing_listing, new_collection

DAY_MS = 86_400_000


async def stats(client: httpx.AsyncClient, slug: str) -> dict[str, object]:
    data: dict[str, object] = ok(
        await client.get("/v1/collection-stats", params={"collectionId": slug})
    )
    return data


async def floors(client: httpx.AsyncClient, kind: str, *slugs: str) -> list[dict[str, object]]:
    params = {"type": kind, "slugs": ",".join(slugs)}
    data: list[dict[str, object]] = ok(
        await client.get("/v1/collection-stats/floors", params=params)
    )
    return data


async def test_stats_floor_and_volumes_follow_listings_and_sales(
    client: httpx.AsyncClient,
) -> None:
    slug = await new_collection(client, "stats")
    empty = await stats(client, slug)
    assert (empty["floor"], empty["listedCount"], empty["volume1d"]) == (None, 0, 0)
    assert empty["volume1dChangePercent"] is None  # nothing sold in either window

    for price in (7_000, 4_000, 12_000):
        await competing_listing(client, slug, price)
    before = await stats(client, slug)
    assert (before["floor"], before["listedCount"]) == (4_000, 3)
    metadata = before["metadata"]
    assert isinstance(metadata, dict)
    assert metadata["id"] == slug and metadata["name"] == f"Reads {slug}"
    assert metadata["total_items"] == 3
    assert metadata["inscription_min"] < metadata["inscription_max"]
    assert metadata["category_attributes"][0]["key"] == "Hat"

    ok(await client.post("/sandbox/market/sale", json={"slug": slug}))  # buys the 4,000 one
    sold = await stats(client, slug)
    assert (sold["floor"], sold["listedCount"]) == (7_000, 2)
    assert (sold["volume1d"], sold["volume7d"], sold["volume30d"]) == (4_000, 4_000, 4_000)
    assert sold["volume1dChange"] == 4_000 and sold["volume1dChangePercent"] is None

    await advance(client, DAY_MS)  # the sale leaves the one-day window for the one before
    later = await stats(client, slug)
    assert (later["volume1d"], later["volume7d"]) == (0, 4_000)
    assert later["volume1dChange"] == -4_000
    assert later["volume1dChangePercent"] == "-100.0000"
    assert later["volume7dChange"] == 4_000


async def test_floors_of_several_collections(client: httpx.AsyncClient) -> None:
    cheap, dear, bare = [await new_collection(client, stem) for stem in ("cheap", "dear", "bare")]
    await competing_listing(client, cheap, 2_000)
    await competing_listing(client, cheap, 3_000)
    await competing_listing(client, dear, 50_000)
    entries = await floors(client, "ordinals", dear, cheap, bare, "no-such")
    assert [e["slug"] for e in entries] == [dear, cheap, bare]  # the unknown one left out
    by_slug = {e["slug"]: e for e in entries}
    assert (by_slug[cheap]["floor"], by_slug[cheap]["listedCount"]) == (2_000, 2)
    assert (by_slug[dear]["floor"], by_slug[dear]["listedCount"]) == (50_000, 1)
    assert (by_slug[bare]["floor"], by_slug[bare]["listedCount"]) == (None, 0)
    # Each listing minted an item for a seller of its own: two holders of `cheap`.
    assert (by_slug[cheap]["ownerCount"], by_slug[bare]["ownerCount"]) == (2, 0)
    assert by_slug[cheap]["oneDayChange"] is None  # no floor a day ago
    assert isinstance(by_slug[cheap]["timestamp"], str)

    await advance(client, DAY_MS)
    ok(await client.post("/sandbox/market/floor", json={"slug": cheap, "price": 1_000}))
    moved = {e["slug"]: e for e in await floors(client, "ordinals", cheap)}
    assert moved[cheap]["floor"] == 1_000
    assert moved[cheap]["oneDayChange"] == -50.0  # 2,000 a day ago


async def test_demo_collection_owners_come_from_the_chain(client: httpx.AsyncClient) -> None:
    [punks] = await floors(client, "ordinals", "pixel-punks")
    collectors = {
        ok(await client.get(f"/sandbox/addresses/collector-{n}"))["address"] for n in (1, 2, 3)
    }
    assert punks["ownerCount"] >= len(collectors) - 1  # demo items at two or three collectors


async def test_rune_floors_name_the_rune(client: httpx.AsyncClient) -> None:
    [entry] = await floors(client, "runes", "DOGGOTOTHEMOON")
    assert entry["slug"] == "DOG•GO•TO•THE•MOON" and entry["ownerCount"] >= 1
    error(
        await client.get(
            "/v1/collection-stats/floors", params={"type": "runes", "slugs": "pixel-punks"}
        ),
        404,
        "NOT_FOUND",
    )


async def test_stats_and_floors_refuse_bad_or_unknown_input(client: httpx.AsyncClient) -> None:
    error(
        await client.get("/v1/collection-stats", params={"collectionId": "no-such"}),
        404,
        "NOT_FOUND",
    )
    error(await client.get("/v1/collection-stats"), 400, "INVALID_REQUEST")
    floors_url = "/v1/collection-stats/floors"
    error(
        await client.get(floors_url, params={"type": "ordinals", "slugs": "a,,b"}),
        400,
        "BAD_REQUEST",
    )
    error(
        await client.get(floors_url, params={"type": "brc20", "slugs": "a"}), 400, "INVALID_REQUEST"
    )
    error(await client.get(floors_url, params={"type": "ordinals"}), 400, "INVALID_REQUEST")
    body = error(
        await client.get(floors_url, params={"type": "ordinals", "slugs": "x,y"}), 404, "NOT_FOUND"
    )
    assert "x, y" in body["message"]


async def test_wallet_contents_shows_our_listed_item_at_its_price(
    client: httpx.AsyncClient, frozen_node: Node
) -> None:
    slug = await new_collection(client, "held")
    seller = new_seller()
    address = seller.ordinals.address
    listed = inscribe(frozen_node, seller, collection_slug=slug)
    kept = inscribe(frozen_node, seller, collection_slug=slug)
    [listing] = await activate(client, seller, [listing_body(seller, listed, price=42_000)])
    await competing_listing(client, slug, 30_000)  # the collection's floor, someone else's
    top = await competing_bid(client, slug=slug, price=25_000)
    assert top

    data = ok(await client.get("/v1/address/wallet-contents", params={"address": address}))
    assert data["nextCursor"] is None and data["pending_orders"] == []
    assert data["results"]["runes"] == []
    items = {o["token"]["inscription_id"]: o for o in data["results"]["ordinals"]}
    assert set(items) == {listed, kept}
    mine = items[listed]
    assert mine["listing"]["price"] == 42_000 and mine["listing"]["secureListing"] is True
    assert mine["listing"]["listingId"] == listing["id"]
    assert mine["collection"] == {"id": slug, "name": f"Reads {slug}"}
    assert mine["token"]["inscription_number"] > 0 and mine["token"]["content_type"]
    assert mine["market"] == {"floor": 30_000, "topBid": 25_000, "listedCount": 2}
    assert items[kept]["listing"] is None

    only_listed = ok(
        await client.get(
            "/v1/address/wallet-contents", params={"address": address, "listedOnly": "true"}
        )
    )
    assert [o["token"]["inscription_id"] for o in only_listed["results"]["ordinals"]] == [listed]


async def test_wallet_contents_pages_with_a_cursor_and_filters(
    client: httpx.AsyncClient, frozen_node: Node
) -> None:
    slug, other = await new_collection(client, "paged"), await new_collection(client, "other")
    seller = new_seller()
    address = seller.ordinals.address
    ids = [inscribe(frozen_node, seller, collection_slug=slug) for _ in range(3)]
    stray = inscribe(frozen_node, seller, collection_slug=other)
    runes = frozen_node.create_runes(address, "SANDBOX•DEMO•RUNE", 250)["outpoint"]
    url = "/v1/address/wallet-contents"

    first = ok(await client.get(url, params={"address": address, "limit": 2}))
    assert [o["token"]["inscription_id"] for o in first["results"]["ordinals"]] == ids[:2]
    assert first["nextCursor"] == 2 and first["total"] == 5
    second = ok(await client.get(url, params={"address": address, "limit": 2, "cursor": 2}))
    assert [o["token"]["inscription_id"] for o in second["results"]["ordinals"]] == [ids[2], stray]
    third = ok(await client.get(url, params={"address": address, "limit": 2, "cursor": 4}))
    assert third["nextCursor"] is None and third["results"]["ordinals"] == []
    [rune] = third["results"]["runes"]
    assert (
        rune["token"]["rune_utxo_id"] == runes and rune["collection"]["id"] == "SANDBOX•DEMO•RUNE"
    )
    assert rune["token"]["rune_amount"] == rune["token"]["rune_amount_formatted"] == "250"
    assert rune["collection"]["rune_divisibility"] == 0  # as the sandbox etched it

    by_collection = ok(await client.get(url, params={"address": address, "collection": other}))
    assert [o["token"]["inscription_id"] for o in by_collection["results"]["ordinals"]] == [stray]
    only_runes = ok(await client.get(url, params={"address": address, "itemType": "rune"}))
    assert only_runes["results"]["ordinals"] == [] and len(only_runes["results"]["runes"]) == 1

    error(
        await client.get(url, params={"address": address, "itemType": "brc20"}),
        400,
        "INVALID_REQUEST",
    )
    error(await client.get(url, params={"address": address, "limit": 0}), 400, "INVALID_REQUEST")
    error(await client.get(url, params={"address": address, "cursor": -1}), 400, "INVALID_REQUEST")
    bad = await client.get(url, params={"address": "not-an-address"})
    assert bad.status_code == 400, bad.text


async def test_a_rune_listing_is_priced_per_unit(
    client: httpx.AsyncClient, frozen_node: Node
) -> None:
    seller = new_seller()
    output = frozen_node.create_runes(seller.ordinals.address, "DOG•GO•TO•THE•MOON", 400)[
        "outpoint"
    ]
    [listing] = await activate(
        client, seller, [listing_body(seller, runes_output=output, price=10_000)]
    )
    rune = ok(await client.get("/ord/rune/DOG•GO•TO•THE•MOON"))["entry"]
    units = 400 / 10 ** rune["divisibility"]

    rows = ok(
        await client.get(
            "/v1/activity/listings", params={"collectionSlug": "DOGGOTOTHEMOON", "pageSize": 500}
        )
    )["items"]
    row = next(r for r in rows if r["id"] == listing["id"])
    assert row["collectionSlug"] == "DOG•GO•TO•THE•MOON" and row["inscriptionId"] is None
    assert (row["price"], row["unitPrice"]) == (10_000, 10_000 / units)
    assert row["runes"] == {"name": "DOG•GO•TO•THE•MOON", "amount": "400", "output": output}

    data = ok(
        await client.get("/v1/address/wallet-contents", params={"address": seller.ordinals.address})
    )
    [held] = data["results"]["runes"]
    assert held["listing"]["price"] == 10_000
    assert held["listing"]["price_per_rune_sats"] == 10_000 / units
    [entry] = await floors(client, "runes", "DOG•GO•TO•THE•MOON")
    assert entry["floor"] is not None and entry["floor"] <= 10_000 / units
    assert entry["listedCount"] >= 1


async def test_a_sale_waits_in_pending_orders_until_mined(
    client: httpx.AsyncClient, frozen_node: Node
) -> None:
    slug = await new_collection(client, "pending")
    seller = new_seller()
    item = inscribe(frozen_node, seller, collection_slug=slug)
    [listing] = await activate(client, seller, [listing_body(seller, item, price=15_000)])
    url = "/v1/address/wallet-contents"
    params = {"address": seller.ordinals.address}
    assert ok(await client.get(url, params=params))["pending_orders"] == []

    bought = ok(await client.post("/sandbox/market/sale", json={"listingId": listing["id"]}))
    [pending] = ok(await client.get(url, params=params))["pending_orders"]
    assert (pending["side"], pending["listingId"], pending["price"]) == (
        "sell",
        listing["id"],
        15_000,
    )
    assert pending["inscriptionId"] == item and pending["txid"] == bought["purchaseTxid"]
    buyer = {"address": bought["buyerTokenReceiveAddress"]}
    buys = ok(await client.get(url, params=buyer))["pending_orders"]  # the sandbox's one buyer
    assert [o["side"] for o in buys if o["listingId"] == listing["id"]] == ["buy"]

    ok(await client.post("/sandbox/mine", json={"blocks": 1}))
    assert ok(await client.get(url, params=params))["pending_orders"] == []
