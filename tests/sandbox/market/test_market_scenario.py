"""The market scenario API (issue 16): sandbox-held sellers' listings and bidders' competing bids
round trip through the stores the `/v1` routes read, a sale changes the chain and the stores,
the floor shifts, and bad requests get a clear 4xx."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

from app.sandbox.chain.node import Node
from tests.sandbox.listings.selling import activate, inscribe, listing_body, new_seller
from tests.sandbox.market.helpers import error, ok
from tests.sandbox.scenario import mine_blocks

_slugs = itertools.count(1)
TRAITS = [
    {"trait_type": "Hat", "values": ["Cap", "Crown"]},
    {"trait_type": "Eyes", "values": ["Laser"]},
]


async def new_collection(client: httpx.AsyncClient) -> str:
    """A collection of this test's own, so other tests' listings do not move its floor."""
    slug = f"scenario-{next(_slugs)}"
    body = {"slug": slug, "name": slug, "traits": TRAITS}
    ok(await client.post("/sandbox/collections", json=body), 201)
    return slug


async def add_listing(client: httpx.AsyncClient, slug: str, price: int, seller: str) -> Any:
    body = {"slug": slug, "price": price, "seller": seller}
    return ok(await client.post("/sandbox/market/listings", json=body))


async def open_bids_of(client: httpx.AsyncClient, address: str) -> list[Any]:
    results: list[Any] = ok(await client.get("/v1/address/bids", params={"address": address}))[
        "results"
    ]
    return results


async def test_a_listing_is_a_real_inscription_in_the_listings_store(
    client: httpx.AsyncClient,
) -> None:
    slug = await new_collection(client)
    listing = await add_listing(client, slug, 31_000, "lister")
    assert (listing["status"], listing["price"], listing["collectionSlug"]) == (
        "active",
        31_000,
        slug,
    )
    await mine_blocks(client)  # ord knows the inscription once a block holds its reveal
    inscription = ok(await client.get(f"/ord/inscription/{listing['inscriptionId']}"))
    assert inscription["address"] == listing["sellerOrdAddress"]
    params = {"sellerOrdAddress": listing["sellerOrdAddress"]}
    listed = ok(await client.get("/v1/listings", params=params))["listings"]
    assert [x["id"] for x in listed] == [listing["id"]]

    removed = ok(await client.delete(f"/sandbox/market/listings/{listing['id']}"))
    assert removed["status"] == "item_moved" and removed["removedByTxid"]
    assert ok(await client.get(f"/v1/listings/{listing['id']}"))["status"] == "item_moved"
    again = await client.delete(f"/sandbox/market/listings/{listing['id']}")
    error(again, 409, "LISTING_NOT_ACTIVE")


async def test_a_seller_lists_an_item_it_holds_and_relisting_reprices_it(
    client: httpx.AsyncClient,
) -> None:
    slug = await new_collection(client)
    first = await add_listing(client, slug, 40_000, "relister")
    body = {
        "slug": slug,
        "price": 35_000,
        "seller": "relister",
        "inscriptionId": first["inscriptionId"],
    }
    second = ok(await client.post("/sandbox/market/listings", json=body))
    assert second["inscriptionId"] == first["inscriptionId"] and second["price"] == 35_000
    assert ok(await client.get(f"/v1/listings/{first['id']}"))["status"] == "replaced"


async def test_a_rune_seller_lists_a_runes_output_of_its_own(client: httpx.AsyncClient) -> None:
    rune = "SANDBOX•DEMO•RUNE"
    body = {"rune": "SANDBOXDEMORUNE", "amount": 2_000, "price": 9_000, "seller": "rune-seller"}
    listing = ok(await client.post("/sandbox/market/listings", json=body))
    assert (listing["status"], listing["price"], listing["collectionSlug"]) == (
        "active",
        9_000,
        rune,
    )
    await mine_blocks(client)  # ord indexes the runes' output once a block holds it
    output = ok(await client.get(f"/ord/output/{listing['runesOutput']}"))
    assert output["address"] == listing["sellerOrdAddress"]
    assert output["runes"][rune]["amount"] == 2_000
    removed = ok(await client.delete(f"/sandbox/market/listings/{listing['id']}"))
    assert removed["status"] == "item_moved"
    moved = ok(await client.get(f"/esplora/tx/{removed['removedByTxid']}"))
    assert moved["vout"][0]["scriptpubkey_address"] == listing["sellerOrdAddress"]

    cheap = ok(await client.post("/sandbox/market/listings", json={**body, "price": 4_000}))
    sale = ok(await client.post("/sandbox/market/sale", json={"rune": "SANDBOX•DEMO•RUNE"}))
    assert (sale["listingId"], sale["runesOutput"]) == (cheap["id"], cheap["runesOutput"])
    bad = {"rune": rune, "slug": "pixel-punks", "price": 4_000}
    error(await client.post("/sandbox/market/listings", json=bad), 400, "INVALID_FIELD")
    unknown = {"rune": "NOSUCHRUNE", "price": 4_000}
    error(await client.post("/sandbox/market/listings", json=unknown), 400, "UNKNOWN_COLLECTION")


async def test_competing_bids_round_trip_through_the_bid_store(client: httpx.AsyncClient) -> None:
    slug = await new_collection(client)
    collection = ok(
        await client.post(
            "/sandbox/market/bids",
            json={"kind": "collection", "slug": slug, "price": 12_000, "bidder": "rt-1"},
        )
    )
    trait = ok(
        await client.post(
            "/sandbox/market/bids",
            json={
                "kind": "trait",
                "slug": slug,
                "trait": {"trait_type": "Hat", "value": "Crown"},
                "price": 14_000,
                "quantity": 2,
                "bidder": "rt-2",
            },
        )
    )
    rune = ok(
        await client.post(
            "/sandbox/market/bids",
            json={
                "kind": "rune",
                "rune": "DOG•GO•TO•THE•MOON",
                "price": 30_000,
                "quantity": 10_000,
                "bidder": "rt-3",
            },
        )
    )
    assert trait["bidCount"] == 2 and collection["walletBalance"] > 0
    [listed] = await open_bids_of(client, collection["bidderTokenReceiveAddress"])
    assert (listed["bid_id"]["$oid"], listed["price"], listed["collectionSlug"]) == (
        collection["bidIds"][0],
        12_000,
        slug,
    )
    traits = await open_bids_of(client, trait["bidderTokenReceiveAddress"])
    assert {b["attribute"]["value"] for b in traits} == {"Crown"} and len(traits) == 2
    [rune_bid] = await open_bids_of(client, rune["bidderTokenReceiveAddress"])
    assert rune_bid["runes_metadata"]["runes"][0]["name"] == "DOG•GO•TO•THE•MOON"

    bid_id = collection["bidIds"][0]
    removed = ok(await client.delete(f"/sandbox/market/bids/{bid_id}"))
    assert removed["cancelledIds"] == [bid_id]
    assert await open_bids_of(client, collection["bidderTokenReceiveAddress"]) == []
    gone = await client.delete(f"/sandbox/market/bids/{bid_id}")
    assert ok(gone)["failedIds"] == [bid_id]


async def test_a_purchase_moves_the_item_to_the_buyer_and_marks_the_listing_sold(
    client: httpx.AsyncClient,
) -> None:
    slug = await new_collection(client)
    await add_listing(client, slug, 50_000, "sale-a")
    cheapest = await add_listing(client, slug, 45_000, "sale-b")
    sale = ok(await client.post("/sandbox/market/sale", json={"slug": slug}))
    assert (sale["kind"], sale["listingId"], sale["status"]) == ("purchase", cheapest["id"], "sold")
    assert ok(await client.get(f"/esplora/tx/{sale['purchaseTxid']}/status")) is not None
    await mine_blocks(client)  # ord shows where the last block left it
    inscription = ok(await client.get(f"/ord/inscription/{cheapest['inscriptionId']}"))
    assert inscription["address"] == sale["buyerTokenReceiveAddress"]
    assert ok(await client.get(f"/v1/listings/{cheapest['id']}"))["status"] == "sold"


async def test_a_seller_fills_a_competing_bid_with_an_item_of_its_own(
    client: httpx.AsyncClient,
) -> None:
    slug = await new_collection(client)
    trait = {"trait_type": "Eyes", "value": "Laser"}
    bid = ok(
        await client.post(
            "/sandbox/market/bids",
            json={
                "kind": "trait",
                "slug": slug,
                "trait": trait,
                "price": 20_000,
                "bidder": "fill-b",
            },
        )
    )
    [bid_id] = bid["bidIds"]
    sale = ok(await client.post("/sandbox/market/sale", json={"bidId": bid_id, "seller": "fill-s"}))
    assert (sale["kind"], sale["bidId"]) == ("fill", bid_id)
    await mine_blocks(client)  # ord shows where the last block left it
    inscription = ok(await client.get(f"/ord/inscription/{sale['inscriptionId']}"))
    assert inscription["address"] == bid["bidderTokenReceiveAddress"]
    assert ok(await client.get(f"/esplora/tx/{sale['txid']}"))["txid"] == sale["txid"]
    assert await open_bids_of(client, bid["bidderTokenReceiveAddress"]) == []


async def test_the_floor_shifts_by_repricing_or_listing(client: httpx.AsyncClient) -> None:
    slug = await new_collection(client)
    shifted = ok(await client.post("/sandbox/market/floor", json={"slug": slug, "price": 30_000}))
    assert shifted["floor"] == 30_000 and len(shifted["changed"]) == 1  # nothing listed: a listing
    await add_listing(client, slug, 60_000, "floor-b")
    down = ok(await client.post("/sandbox/market/floor", json={"slug": slug, "price": 25_000}))
    assert down["floor"] == 25_000 and [x["price"] for x in down["changed"]] == [25_000]
    up = ok(await client.post("/sandbox/market/floor", json={"slug": slug, "price": 40_000}))
    assert up["floor"] == 40_000 and [x["price"] for x in up["changed"]] == [40_000]


async def test_the_floor_cannot_rise_above_a_listing_the_sandbox_does_not_hold(
    client: httpx.AsyncClient, frozen_node: Node
) -> None:
    slug = await new_collection(client)
    seller = new_seller()
    inscription = inscribe(frozen_node, seller, collection_slug=slug)
    body = {**listing_body(seller, inscription, price=20_000), "collectionSlug": slug}
    await activate(client, seller, [body])
    refused = await client.post("/sandbox/market/floor", json={"slug": slug, "price": 30_000})
    assert error(refused, 409, "NOT_SANDBOX_HELD")["details"]["price"] == 20_000


async def test_bad_requests_get_a_clear_4xx(client: httpx.AsyncClient) -> None:
    slug = await new_collection(client)
    listings, bids, sale = (
        "/sandbox/market/listings",
        "/sandbox/market/bids",
        "/sandbox/market/sale",
    )
    unknown, bad = "UNKNOWN_COLLECTION", "INVALID_REQUEST"
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        (listings, {"slug": "no-such-slug", "price": 10_000}, 400, unknown),
        (listings, {"slug": slug, "price": 999}, 400, bad),
        (listings, {"slug": slug, "price": "10000"}, 400, bad),
        (listings, {"slug": slug, "price": 10_000, "seller": "Bad Label"}, 400, bad),
        (listings, {"slug": slug, "price": 10_000, "colour": "red"}, 400, bad),
        (bids, {"kind": "trait", "slug": slug, "price": 10_000}, 400, "INVALID_FIELD"),
        (bids, {"kind": "collection", "price": 10_000}, 400, "MISSING_FIELD"),
        (bids, {"kind": "rune", "slug": slug, "price": 10_000}, 400, "INVALID_FIELD"),
        (bids, {"kind": "auction", "slug": slug, "price": 10_000}, 400, bad),
        (bids, {"kind": "collection", "slug": slug, "price": 10_500, "bidder": "bad-1"},
         400, "COLLECTION_BID_PRICE_STEP"),
        (bids, {"kind": "collection", "slug": "no-such-slug", "price": 10_000, "bidder": "bad-2"},
         400, unknown),
        (sale, {"slug": slug, "bidId": "x"}, 400, "INVALID_FIELD"),
        (sale, {"slug": slug}, 404, "LISTING_NOT_FOUND"),
        (sale, {"bidId": "0" * 24}, 404, "BID_NOT_FOUND"),
        ("/sandbox/market/floor", {"slug": slug, "price": -1}, 400, bad),
        ("/sandbox/market/simulate", {"seed": 1, "steps": 0}, 400, bad),
    ]  # fmt: skip
    for path, body, status, code in cases:
        response = await client.post(path, json=body)
        assert response.status_code == status, (path, body, response.text)
        assert response.json()["errorCode"] == code, (path, body, response.text)
    error(await client.delete(f"/sandbox/market/bids/{'0' * 24}"), 404, "BID_NOT_FOUND")
    error(await client.delete(f"/sandbox/market/listings/{'0' * 24}"), 404, "LISTING_NOT_FOUND")
