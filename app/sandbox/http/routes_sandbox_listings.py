"""`/sandbox` helpers of issue 6, for QA and tests: the sandbox-held owner of an inscription
accepts a single-inscription bid; the sandbox's own buyer buys a secure listing; the address of
a sandbox-held key, so a test over HTTP can create items (or buyers) the sandbox can sign for;
the runestone the service adds to its rune listing and inscription bid PSBTs
(`--service-runestones`, changed while running)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from app.sandbox.http.deps import NodeDep
from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.http.params import MAX_ADDRESS_CHARS
from app.sandbox.http.settings import ServiceRunestones
from app.sandbox.market.inscription_bids_accept import accept_bid
from app.sandbox.market.purchase_requests import sandbox_purchase

router = APIRouter(prefix="/sandbox", tags=["sandbox"], responses=error_responses(400, 500))

ObjectId = Annotated[str, Field(pattern=r"^[0-9a-f]{24}$")]


class AcceptRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    bidId: ObjectId


class PurchaseRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    listingId: ObjectId
    buyerTokenReceiveAddress: (
        Annotated[str, Field(min_length=1, max_length=MAX_ADDRESS_CHARS)] | None
    ) = None
    feeRate: float | str | None = None


class RunestonesMode(BaseModel):
    """`none`, `edict` or `pointer` (docs/sandbox-listings.md, "Runestones")."""

    model_config = ConfigDict(strict=True, extra="forbid")

    mode: ServiceRunestones


@router.post(
    "/market/runestones",
    response_model=RunestonesMode,
    summary="the runestone the service adds to secure rune listing and inscription bid PSBTs "
    "built from now on (`--service-runestones`)",
)
def post_runestones(body: RunestonesMode, market: MarketDep) -> Any:
    with market.lock:
        market.runestones = body.mode
    return {"mode": market.runestones}


@router.post(
    "/inscription-bids/accept",
    responses=error_responses(404, 409),
    summary="the sandbox-held owner accepts a single-inscription bid (signs input 0, broadcasts)",
)
def post_accept(body: AcceptRequest, market: MarketDep) -> Any:
    return {"success": True, "data": accept_bid(market, body.bidId)}


@router.post(
    "/listings/purchase",
    responses=error_responses(404, 409),
    summary="the sandbox's buyer buys an active secure listing (prep, purchase, transfer)",
)
def post_purchase(body: PurchaseRequest, market: MarketDep) -> Any:
    data = sandbox_purchase(market, body.listingId, body.buyerTokenReceiveAddress, body.feeRate)
    return {"success": True, "data": data}


@router.get(
    "/addresses/{label}",
    summary="the address of a sandbox-held key (stable per label and kind), e.g. a seller's",
)
def get_sandbox_address(
    node: NodeDep,
    label: Annotated[str, Path(min_length=1, max_length=64)],
    kind: Literal["p2tr", "p2wpkh"] = "p2tr",
) -> Any:
    return {"label": label, "kind": kind, "address": node.sandbox_address(label, kind)}
