"""The clients against the bodies the sandbox itself builds, for the endpoints only it offers
(`GET /sandbox/info`, `GET /sandbox/collections`, `GET /v1/listings`,
`GET /v1/address/inscription-bids`). Each body comes from the sandbox's own code (its response
models and entry builders), so a field renamed on one side fails here, without starting it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from app.net.marketplace import MarketplaceClient
from app.net.marketplace_states import InscriptionBidState
from app.net.sandbox import CollectionInfo, SandboxClient
from app.sandbox.http.schemas_scenario import Collection, CollectionTraitOut, Info
from app.sandbox.market.inscription_bids import bid_entry
from app.sandbox.market.inscription_bids_store import InscriptionBid
from app.sandbox.market.listings_store import SecureListing
from app.sandbox.market.listings_view import listing_entry
from tests.contract.samples.satflow import INSCRIPTION, ORD, PAY, TXID, envelope
from tests.net.net_router import Router

ROOT = "http://sandbox.test"
KEY = "03" + "5b" * 32
BID_ID = "6650c0ffee0000000000beef"


def info_body() -> dict[str, Any]:
    # app/sandbox/http/schemas_scenario.py `Info`, as routes_scenario.py serves it.
    return Info(
        network="regtest",
        tipHeight=321,
        tipHash="11" * 32,
        mempoolSize=2,
        minRelayFeeRate=1.0,
        feeEstimates={"1": 3.0, "6": 2.0},
        clockMs=1_767_225_600_000,
        clockOffsetMs=60_000,
        makerFeeSats=1_000,
        makerFeeBps=25,
        biddingWalletKind="taproot",
        listingEscrow="per-item",
        servicePublicKey=KEY,
    ).model_dump(mode="json")


async def test_sandbox_info(router: Router) -> None:
    router.json("GET", "/sandbox/info", info_body())
    async with SandboxClient(ROOT, transport=router.transport) as c:
        info = await c.info()
    assert (info.maker_fee_sats, info.maker_fee_bps, info.clock_ms) == (
        1_000,
        25,
        1_767_225_600_000,
    )
    assert info.service_public_key == bytes.fromhex(KEY)


async def test_sandbox_collections(router: Router) -> None:
    trait = CollectionTraitOut(trait_type="Background", values=["Orange", "Blue"])
    body = [
        Collection(
            slug="nodemonkes", name="NodeMonkes", traits=[trait], createdAt=1, inscriptionCount=3
        ).model_dump(mode="json")
    ]
    router.json("GET", "/sandbox/collections", body)
    async with SandboxClient(ROOT, transport=router.transport) as c:
        collections = await c.collections()
    assert collections == [
        CollectionInfo("nodemonkes", "NodeMonkes", (("Background", ("Orange", "Blue")),))
    ]


async def test_seller_listings(router: Router) -> None:
    listing = SecureListing(
        id="6650c0ffee000000000000aa",
        intent_txid=TXID,
        item_outpoint=f"{TXID}:0",
        inscription_id=INSCRIPTION,
        runes_output=None,
        seller_ord_address=ORD,
        seller_receive_address=PAY,
        collection_slug="nodemonkes",
        price=90_000,
        taker_fee=1_800,
        signed_psbt=b"",
        status="sold",
        created_ms=1,
        ended_ms=2,
        end_txid=TXID,
    )
    # app/sandbox/http/routes_v1_listings.py `get_listings` around listings_view.listing_entry.
    router.json("GET", "/v1/listings", envelope({"listings": [listing_entry(listing)]}))
    async with MarketplaceClient(f"{ROOT}/v1", transport=router.transport) as c:
        listings = await c.get_seller_listings(ORD)
    assert listings is not None
    ((row),) = listings
    assert (row.listing_id, row.inscription_id, row.runes_output, row.price, row.state) == (
        "6650c0ffee000000000000aa",
        INSCRIPTION,
        None,
        90_000,
        "sold",
    )
    assert router.last.url.params["sellerOrdAddress"] == ORD


def inscription_bid_entry() -> dict[str, Any]:
    bid = InscriptionBid(
        id=BID_ID,
        intent_txid=TXID,
        inscription_id=INSCRIPTION,
        price=25_000,
        bidder_address=PAY,
        token_address=ORD,
        signed_psbt=b"",
        status="accepted",
        created_ms=1,
        ended_ms=2,
        end_txid=TXID,
    )
    # bid_entry reads only the inscription's collection from the market's node.
    market: Any = SimpleNamespace(
        node=SimpleNamespace(ord_inscription=lambda _id: {"collection": "nodemonkes"})
    )
    return bid_entry(market, bid)


async def test_inscription_bid_states(router: Router) -> None:
    # app/sandbox/http/routes_v1_inscription_bids.py around inscription_bids.bid_entry.
    body = envelope({"results": [inscription_bid_entry()]})
    router.json("GET", "/v1/address/inscription-bids", body)
    async with MarketplaceClient(f"{ROOT}/v1", transport=router.transport) as c:
        states = await c.get_inscription_bid_states(ORD)
    assert states == [InscriptionBidState(BID_ID, INSCRIPTION, 25_000, "accepted", TXID)]


async def test_inscription_bid_as_an_open_bids_entry(router: Router) -> None:
    # The same builder makes the sandbox's /address/bids entry of a single-inscription bid.
    body = envelope({"results": [{**inscription_bid_entry(), "status": "open"}]})
    router.json("GET", "/v1/address/bids", body)
    async with MarketplaceClient(f"{ROOT}/v1", transport=router.transport) as c:
        (bid,) = await c.get_bids(PAY)
    assert (bid.bid_id, bid.type, bid.inscription_id, bid.price, bid.quantity) == (
        BID_ID,
        "individual",
        INSCRIPTION,
        25_000,
        1,
    )
    assert (bid.collection_slug, bid.is_non_custodial, bid.listed_under) == (
        "nodemonkes",
        True,
        PAY,
    )
