"""The sandbox's market scenario calls: the market's other participants (sandbox-held sellers
and bidders, `/sandbox/market/...`, docs/sandbox-marketplace.md "The market's other
participants") and the sandbox's own counterparties of a user's orders (`/sandbox/inscription-
bids/accept`, `/sandbox/listings/purchase`, app/sandbox/http/routes_sandbox_listings.py;
`/sandbox/bids/fill`, routes_sandbox_market.py). `SandboxClient` (app/net/sandbox.py) has
them.

The answers are `{"success": true, "data": ...}` (`/sandbox/bids/fill`'s is bare); the fields
a scenario acts on are required (a `BadResponse` naming the field otherwise), the whole `data`
is kept as `raw`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from app.net.fields import Reader, as_int, as_str
from app.net.http import HttpClient, segment
from app.net.marketplace_responses import CancelResult, parse_cancel_result

MARKET_LISTINGS_PATH = "/sandbox/market/listings"
MARKET_BIDS_PATH = "/sandbox/market/bids"
MARKET_SALE_PATH = "/sandbox/market/sale"
MARKET_FLOOR_PATH = "/sandbox/market/floor"
MARKET_SIMULATE_PATH = "/sandbox/market/simulate"
FILL_PATH = "/sandbox/bids/fill"
RUNESTONES_PATH = "/sandbox/market/runestones"
ACCEPT_INSCRIPTION_BID_PATH = "/sandbox/inscription-bids/accept"
PURCHASE_PATH = "/sandbox/listings/purchase"

BidKind = Literal["collection", "trait", "rune"]
RunestonesMode = Literal["none", "edict", "pointer"]


@dataclass(frozen=True)
class MarketListing:
    """A listing as `GET /v1/listings/{id}` shows it; `removed_by_txid` once a seller ended
    it (the item moved to the seller's own address)."""

    id: str
    status: str
    price: int
    inscription_id: str | None
    runes_output: str | None
    collection_slug: str | None
    seller_ord_address: str | None
    removed_by_txid: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class MarketBid:
    """A competing bid placed by the sandbox bidder `bidder`, with its bidding wallet."""

    bid_ids: tuple[str, ...]
    bidder: str
    bidder_address: str
    bidding_wallet: str
    wallet_balance: int | None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Purchase:
    """A listing bought by the sandbox's buyer (three transactions; the listing `sold`)."""

    listing_id: str
    inscription_id: str | None
    price: int
    purchase_txid: str
    transfer_txid: str | None
    buyer_token_receive_address: str | None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Fill:
    """A bid filled by a sandbox seller with an item it holds (minted to match if none)."""

    bid_id: str
    txid: str
    inscription_id: str
    seller_address: str | None
    cancelled_bid_ids: tuple[str, ...]  # the bidder's bids its lower balance no longer covers
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class FloorShift:
    slug: str
    floor: int
    changed: tuple[MarketListing, ...]  # the participants' listings repriced or added


@dataclass(frozen=True)
class SimulatedStep:
    step: int
    slug: str | None
    action: str | None
    done: bool
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Simulation:
    seed: int
    steps: tuple[SimulatedStep, ...]
    next_step: int  # the seed's step a next call starts at


@dataclass(frozen=True)
class AcceptedInscriptionBid:
    """The sandbox-held owner accepted a single-inscription bid and broadcast the sale."""

    bid_id: str
    txid: str
    inscription_id: str | None
    price: int
    seller_proceeds: int | None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


class MarketCalls(HttpClient):
    """The market half of `SandboxClient`'s scenario API."""

    async def market_bid(
        self,
        kind: BidKind,
        price: int,
        *,
        slug: str | None = None,
        rune: str | None = None,
        trait: tuple[str, str] | None = None,
        quantity: int = 1,
        bidder: str | None = None,
        expires_in_ms: int | None = None,
        expiry_ms: int | None = None,
        fund_sats: int | None = None,
    ) -> MarketBid:
        """A sandbox bidder (`bidder-1` by default) places a competing bid by the market's own
        rules: `slug` (collection, trait: `trait` = (type, value)) or `rune` (spaced name;
        `quantity` in units, `price` the total); 24 h unless `expires_in_ms` or `expiry_ms`;
        its bidding wallet funded with `fund_sats` (2,000,000 when empty by default)."""
        optional = {
            "slug": slug,
            "rune": rune,
            "bidder": bidder,
            "expiresInMs": expires_in_ms,
            "expiry": expiry_ms,
            "fundSats": fund_sats,
        }
        request: dict[str, Any] = {"kind": kind, "price": price, "quantity": quantity}
        request.update({k: v for k, v in optional.items() if v is not None})
        if trait is not None:
            request["trait"] = {"trait_type": trait[0], "value": trait[1]}
        body = await self.post_json(MARKET_BIDS_PATH, request)
        r = Reader(self.service, MARKET_BIDS_PATH)
        return MarketBid(
            bid_ids=tuple(str(i) for i in r.need_list(body, "bidIds")),
            bidder=r.need_str(body, "bidder"),
            bidder_address=r.need_str(body, "bidderAddress"),
            bidding_wallet=r.need_str(body, "biddingWallet"),
            wallet_balance=as_int(r.pick(body, "walletBalance")),
            raw=r.data(body),
        )

    async def cancel_market_bid(self, bid_id: str) -> CancelResult:
        """The sandbox bidder cancels its bid (a user's bid: 404 `BID_NOT_FOUND`)."""
        path = f"{MARKET_BIDS_PATH}/{segment(bid_id)}"
        body = self.json_or_raise(await self.send("DELETE", path), None)
        return parse_cancel_result(Reader(self.service, path), body)

    async def market_listing(
        self,
        price: int,
        *,
        slug: str | None = None,
        inscription_id: str | None = None,
        rune: str | None = None,
        amount: int | None = None,
        seller: str | None = None,
    ) -> MarketListing:
        """A sandbox seller (`seller-1` by default) lists an item of collection `slug` (the one
        it holds, `inscription_id`, or a new one), or `amount` units of `rune` on a new output
        (1,000 by default) for `price` the whole output."""
        optional = {
            "slug": slug,
            "inscriptionId": inscription_id,
            "rune": rune,
            "amount": amount,
            "seller": seller,
        }
        request: dict[str, Any] = {"price": price}
        request.update({k: v for k, v in optional.items() if v is not None})
        body = await self.post_json(MARKET_LISTINGS_PATH, request)
        r = Reader(self.service, MARKET_LISTINGS_PATH)
        return parse_market_listing(r, r.data(body))

    async def end_market_listing(self, listing_id: str) -> MarketListing:
        """The sandbox seller ends its listing by moving the item to its own address."""
        path = f"{MARKET_LISTINGS_PATH}/{segment(listing_id)}"
        body = self.json_or_raise(await self.send("DELETE", path), None)
        r = Reader(self.service, path)
        return parse_market_listing(r, r.data(body))

    async def market_buy(
        self, *, listing_id: str | None = None, slug: str | None = None, rune: str | None = None
    ) -> Purchase:
        """The sandbox's buyer buys `listing_id`, or the cheapest active listing (anyone's) of
        collection `slug` or of `rune` (per unit). Name exactly one."""
        named = {"listingId": listing_id, "slug": slug, "rune": rune}
        request = {k: v for k, v in named.items() if v is not None}
        body = await self.post_json(MARKET_SALE_PATH, request)
        return parse_purchase(Reader(self.service, MARKET_SALE_PATH), body)

    async def market_fill(self, bid_id: str, *, seller: str | None = None) -> Fill:
        """A sandbox seller (`seller`, or whichever holds a match; one minted otherwise) fills
        the collection or trait bid `bid_id`, a user's or a participant's."""
        request = {"bidId": bid_id} | ({} if seller is None else {"seller": seller})
        body = await self.post_json(MARKET_SALE_PATH, request)
        return parse_fill(Reader(self.service, MARKET_SALE_PATH), body)

    async def fill_bid(self, bid_id: str, *, seller_address: str | None = None) -> Fill:
        """One of the demo's collectors (sandbox keys `collector-1`..`-3`) sells a matching
        inscription it holds to the collection or trait bid `bid_id`, paid to `seller_address`
        (the collector's own by default); none is minted (409 FILL_NO_MATCHING_INSCRIPTION
        naming the address to inscribe one to)."""
        request = {"bidId": bid_id}
        if seller_address is not None:
            request["sellerAddress"] = seller_address
        body = await self.post_json(FILL_PATH, request)
        return parse_fill(Reader(self.service, FILL_PATH), body)

    async def market_floor(self, slug: str, price: int, *, seller: str | None = None) -> FloorShift:
        """Make `price` the lowest active listing of `slug` (the participants reprice, or a
        seller lists a new item); a cheaper listing not the sandbox's: 409 NOT_SANDBOX_HELD."""
        request = {"slug": slug, "price": price} | ({} if seller is None else {"seller": seller})
        body = await self.post_json(MARKET_FLOOR_PATH, request)
        r = Reader(self.service, MARKET_FLOOR_PATH)
        changed = tuple(
            parse_market_listing(r, r.obj(x, "changed[]")) for x in r.need_list(body, "changed")
        )
        return FloorShift(r.need_str(body, "collectionSlug"), r.need_int(body, "floor"), changed)

    async def market_simulate(self, seed: int, steps: int = 1) -> Simulation:
        """`steps` (1-50) more steps of the seeded market simulator, now (deterministic)."""
        body = await self.post_json(MARKET_SIMULATE_PATH, {"seed": seed, "steps": steps})
        r = Reader(self.service, MARKET_SIMULATE_PATH)
        report = []
        for entry in r.need_list(body, "steps"):
            step = r.obj(entry, "steps[]")
            report.append(
                SimulatedStep(
                    step=r.need_int(step, "step"),
                    slug=as_str(step.get("slug")),
                    action=as_str(step.get("action")),
                    done=step.get("done") is True,
                    raw=step,
                )
            )
        return Simulation(r.need_int(body, "seed"), tuple(report), r.need_int(body, "nextStep"))

    async def set_runestones(self, mode: RunestonesMode) -> str:
        """The runestone the service adds to secure rune listing and inscription bid PSBTs
        built from now on (`--service-runestones`)."""
        body = await self.post_json(RUNESTONES_PATH, {"mode": mode})
        return Reader(self.service, RUNESTONES_PATH).need_str(body, "mode")

    async def accept_inscription_bid(self, bid_id: str) -> AcceptedInscriptionBid:
        """The sandbox-held owner of the item accepts a single-inscription bid (signs, sends)."""
        body = await self.post_json(ACCEPT_INSCRIPTION_BID_PATH, {"bidId": bid_id})
        r = Reader(self.service, ACCEPT_INSCRIPTION_BID_PATH)
        return AcceptedInscriptionBid(
            bid_id=r.need_str(body, "bidId"),
            txid=r.need_str(body, "txid"),
            inscription_id=as_str(r.pick(body, "inscriptionId")),
            price=r.need_int(body, "price"),
            seller_proceeds=as_int(r.pick(body, "sellerProceeds")),
            raw=r.data(body),
        )

    async def purchase_listing(
        self,
        listing_id: str,
        *,
        buyer_token_receive_address: str | None = None,
        fee_rate: float | None = None,
    ) -> Purchase:
        """The sandbox's buyer buys an active secure listing (a user's): prep, purchase and
        transfer; the item goes to `buyer_token_receive_address` (the buyer's own by default)."""
        request: dict[str, Any] = {"listingId": listing_id}
        if buyer_token_receive_address is not None:
            request["buyerTokenReceiveAddress"] = buyer_token_receive_address
        if fee_rate is not None:
            request["feeRate"] = fee_rate
        body = await self.post_json(PURCHASE_PATH, request)
        return parse_purchase(Reader(self.service, PURCHASE_PATH), body)


def parse_market_listing(r: Reader, entry: Mapping[str, Any]) -> MarketListing:
    return MarketListing(
        id=r.need_str(entry, "id"),
        status=r.need_str(entry, "status"),
        price=r.need_int(entry, "price"),
        inscription_id=as_str(entry.get("inscriptionId")),
        runes_output=as_str(entry.get("runesOutput")),
        collection_slug=as_str(entry.get("collectionSlug")),
        seller_ord_address=as_str(entry.get("sellerOrdAddress")),
        removed_by_txid=as_str(entry.get("removedByTxid")),
        raw=entry,
    )


def parse_fill(r: Reader, body: Any) -> Fill:
    return Fill(
        bid_id=r.need_str(body, "bidId"),
        txid=r.need_str(body, "txid"),
        inscription_id=r.need_str(body, "inscriptionId"),
        seller_address=as_str(r.pick(body, "sellerAddress")),
        cancelled_bid_ids=tuple(str(i) for i in r.need_list(body, "cancelledBidIds")),
        raw=r.data(body),
    )


def parse_purchase(r: Reader, body: Any) -> Purchase:
    return Purchase(
        listing_id=r.need_str(body, "listingId"),
        inscription_id=as_str(r.pick(body, "inscriptionId")),
        price=r.need_int(body, "price"),
        purchase_txid=r.need_str(body, "purchaseTxid"),
        transfer_txid=as_str(r.pick(body, "transferTxid")),
        buyer_token_receive_address=as_str(r.pick(body, "buyerTokenReceiveAddress")),
        raw=r.data(body),
    )
