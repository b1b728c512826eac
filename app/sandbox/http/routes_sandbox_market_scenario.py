"""`/sandbox/market/...`: the market scenario API (issue 16, no API key). The market's other
participants (sandbox-held sellers and bidders) add and remove listings and competing bids,
sales happen, the floor shifts, and a seeded simulator moves it all; every order goes through
the marketplace's own code (market_scenario.py, market_participants.py), into the stores the
`/v1` routes read. Documented in docs/sandbox-marketplace.md, "The market's other participants".
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from app.core.bid_request import Trait
from app.core.errors import ErrorCode
from app.core.limits import MIN_BID_EXPIRY_MS
from app.sandbox.chain.catalog import SLUG_PATTERN
from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.http.params import INSCRIPTION_ID_PATTERN
from app.sandbox.market import market_participants as parties
from app.sandbox.market import market_scenario as scenario
from app.sandbox.market.errors import MarketError
from app.sandbox.market.market_sim import MAX_STEPS_PER_CALL, simulate
from app.sandbox.market.service import Market

router = APIRouter(
    prefix="/sandbox/market", tags=["sandbox"], responses=error_responses(400, 404, 409, 500)
)

OBJECT_ID_PATTERN = r"^[0-9a-f]{24}$"
ObjectId = Annotated[str, Path(pattern=OBJECT_ID_PATTERN)]
Label = Annotated[str, Field(pattern=parties.LABEL_PATTERN)]
Slug = Annotated[str, Field(pattern=SLUG_PATTERN.pattern)]
Price = Annotated[int, Field(ge=1_000, le=21_000_000 * 100_000_000)]
DEFAULT_BID_LIFETIME_MS = 24 * 3_600_000
MAX_BID_LIFETIME_MS = 365 * 24 * 3_600_000
MAX_BIDDER_FUNDS = 10 * 100_000_000  # sats a request may add to a bidder's wallet (10 BTC)


def install(market: Market) -> None:
    parties.install(market)


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


RuneName = Annotated[str, Field(min_length=1, max_length=60)]
DEFAULT_RUNE_UNITS = 1_000


class ListingOrder(_Strict):
    slug: Slug | None = None
    rune: RuneName | None = None
    price: Price
    seller: Label | None = None
    inscriptionId: Annotated[str, Field(pattern=INSCRIPTION_ID_PATTERN)] | None = None
    amount: Annotated[int, Field(ge=1, le=10**15)] | None = None


class TraitBody(_Strict):
    trait_type: Annotated[str, Field(min_length=1, max_length=200)]
    value: Annotated[str, Field(min_length=1, max_length=200)]


class BidOrderBody(_Strict):
    kind: Literal["collection", "trait", "rune"]
    slug: Slug | None = None
    rune: RuneName | None = None
    trait: TraitBody | None = None
    price: Price
    quantity: Annotated[int, Field(ge=1, le=1_000_000_000)] = 1
    bidder: Label = "bidder-1"
    expiresInMs: Annotated[int, Field(ge=MIN_BID_EXPIRY_MS, le=MAX_BID_LIFETIME_MS)] | None = None
    expiry: Annotated[int, Field(ge=0)] | None = None
    fundSats: Annotated[int, Field(ge=0, le=MAX_BIDDER_FUNDS)] | None = None


class SaleOrder(_Strict):
    listingId: Annotated[str, Field(pattern=OBJECT_ID_PATTERN)] | None = None
    slug: Slug | None = None
    rune: RuneName | None = None
    bidId: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    seller: Label | None = None


class FloorOrder(_Strict):
    slug: Slug
    price: Price
    seller: Label | None = None


class SimulateOrder(_Strict):
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)]
    steps: Annotated[int, Field(ge=1, le=MAX_STEPS_PER_CALL)] = 1


def _ok(data: Any) -> Any:
    return {"success": True, "data": data}


@router.post(
    "/listings", summary="a sandbox seller lists an inscription (its own, or a new one) or runes"
)
def post_listing(body: ListingOrder, market: MarketDep) -> Any:
    if body.rune is not None and body.slug is None and body.inscriptionId is None:
        amount = body.amount or DEFAULT_RUNE_UNITS
        return _ok(scenario.add_rune_listing(market, body.rune, body.price, amount, body.seller))
    if body.slug is None or body.rune is not None or body.amount is not None:
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            "list an inscription of a collection (`slug`, optional `inscriptionId`) or a new "
            "runes output (`rune`: its name, optional `amount` in units), not both",
            field="slug",
        )
    listing = scenario.add_listing(market, body.slug, body.price, body.seller, body.inscriptionId)
    return _ok(listing)


@router.delete("/listings/{listingId}", summary="a sandbox seller ends its listing")
def delete_listing(listingId: ObjectId, market: MarketDep) -> Any:
    return _ok(scenario.remove_listing(market, listingId))


def _bid_order(body: BidOrderBody, market: Market) -> scenario.BidOrder:
    if body.kind == "rune":
        if body.rune is None or body.slug is not None or body.trait is not None:
            raise MarketError(
                ErrorCode.INVALID_FIELD,
                "a rune bid names the rune (its spaced name, e.g. 'DOG•GO•TO•THE•MOON') as "
                "`rune`, with no slug or trait; quantity counts rune units, price is the total",
                field="rune",
            )
        target = body.rune
    else:
        if body.slug is None or body.rune is not None:
            raise MarketError(
                ErrorCode.MISSING_FIELD,
                f"a {body.kind} bid names its collection as `slug` (and no rune)",
                field="slug",
            )
        if (body.kind == "trait") != (body.trait is not None):
            raise MarketError(
                ErrorCode.INVALID_FIELD,
                "a trait bid needs `trait` {trait_type, value}; a collection bid has none",
                field="trait",
            )
        target = body.slug
    now = market.now_ms()
    if body.expiry is not None and body.expiresInMs is not None:
        raise MarketError(
            ErrorCode.INVALID_FIELD, "send expiry or expiresInMs, not both", field="expiry"
        )
    expiry = body.expiry if body.expiry is not None else now + (
        body.expiresInMs or DEFAULT_BID_LIFETIME_MS
    )  # fmt: skip
    trait = None if body.trait is None else Trait(body.trait.trait_type, body.trait.value)
    return scenario.BidOrder(
        body.bidder, body.kind, target, body.price, body.quantity, expiry, trait, body.fundSats
    )


@router.post(
    "/bids",
    responses=error_responses(429),
    summary="a sandbox bidder places a competing collection, trait or rune bid (our rules)",
)
def post_bid(body: BidOrderBody, market: MarketDep) -> Any:
    return _ok(scenario.add_bid(market, _bid_order(body, market)))


@router.delete("/bids/{bidId}", summary="a sandbox bidder cancels its bid")
def delete_bid(bidId: ObjectId, market: MarketDep) -> Any:
    return _ok(scenario.remove_bid(market, bidId))


@router.post(
    "/sale",
    summary="a sale: the sandbox's buyer buys a listing (given, or the cheapest of a slug), or "
    "a sandbox seller fills a bid",
)
def post_sale(body: SaleOrder, market: MarketDep) -> Any:
    named = [n for n in ("listingId", "slug", "rune", "bidId") if getattr(body, n) is not None]
    if len(named) != 1:
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            "name exactly one of listingId (buy it), slug or rune (buy its cheapest listing) "
            f"or bidId (a sandbox seller fills it); got {', '.join(named) or 'none'}",
            field="listingId",
        )
    if body.bidId is not None:
        return _ok(scenario.fill_with_seller(market, body.bidId, body.seller))
    return _ok(scenario.buy_listing(market, body.listingId, body.slug, body.rune))


@router.post(
    "/floor", summary="make a price the collection's lowest listing (sellers reprice or list)"
)
def post_floor(body: FloorOrder, market: MarketDep) -> Any:
    return _ok(scenario.shift_floor(market, body.slug, body.price, body.seller))


@router.post(
    "/simulate", summary="advance the seeded market simulator by `steps` steps now (deterministic)"
)
def post_simulate(body: SimulateOrder, market: MarketDep) -> Any:
    return _ok(simulate(market, body.seed, body.steps))
