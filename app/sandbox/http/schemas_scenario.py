"""Request and response bodies of the `/sandbox` scenario API.

Requests are strict (a JSON `true` is not an integer, `"5"` is not a number) and ignore unknown
fields; bounds keep every request cheap enough to serve.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from app.sandbox.chain.catalog import SLUG_PATTERN
from app.sandbox.chain.inscribe_items import MAX_BODY_BYTES, MAX_CONTENT_TYPE, MAX_POSTAGE
from app.sandbox.chain.node import MAX_BLOCKS_PER_CALL
from app.sandbox.chain.traffic import (
    MAX_TRAFFIC_FEE_RATE,
    MAX_TRAFFIC_VBYTES,
    MIN_TRAFFIC_VBYTES,
)
from app.sandbox.clock import MAX_ADVANCE_MS
from app.sandbox.http.params import INSCRIPTION_ID_PATTERN, MAX_ADDRESS_CHARS

# One faucet payment; larger amounts would drain the regtest subsidy quickly (it halves every
# 150 blocks).
MAX_FAUCET_SATS = 100 * 100_000_000
MAX_TEXT_CHARS = 200
MAX_TRAITS = 50
MAX_TRAIT_VALUES = 200

Address = Annotated[str, Field(min_length=1, max_length=MAX_ADDRESS_CHARS)]
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS)]
Slug = Annotated[str, Field(pattern=SLUG_PATTERN.pattern)]


class StrictRequest(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class FaucetRequest(StrictRequest):
    address: Address
    sats: Annotated[int, Field(ge=1, le=MAX_FAUCET_SATS)]


class FaucetResponse(BaseModel):
    txid: str
    vout: int


class MineRequest(StrictRequest):
    blocks: Annotated[int, Field(ge=1, le=MAX_BLOCKS_PER_CALL)] = 1


class MineResponse(BaseModel):
    height: int


class TraitSpec(StrictRequest):
    """A trait category of a collection and the values it may take."""

    trait_type: Text
    values: Annotated[list[Text], Field(max_length=MAX_TRAIT_VALUES)]


class Trait(StrictRequest):
    """One trait of one inscription."""

    trait_type: Text
    value: Text


class CreateCollectionRequest(StrictRequest):
    slug: Slug
    name: Text
    traits: Annotated[list[TraitSpec], Field(max_length=MAX_TRAITS)] = []


class CollectionTraitOut(BaseModel):
    trait_type: str
    values: list[str]


class Collection(BaseModel):
    slug: str
    name: str
    traits: list[CollectionTraitOut]
    createdAt: int
    inscriptionCount: int


class CreateInscriptionRequest(StrictRequest):
    address: Address
    collectionSlug: Slug | None = None
    attributes: Annotated[list[Trait], Field(max_length=MAX_TRAITS)] | None = None
    postage: Annotated[int, Field(ge=1, le=MAX_POSTAGE)] = 10_000
    # A TAP transfer's body is TAP's token-transfer JSON: give neither field with it.
    tapTransfer: bool = False
    # The envelope's content type and text body (default: UTF-8 text naming the item).
    contentType: Annotated[str, Field(min_length=1, max_length=MAX_CONTENT_TYPE)] | None = None
    body: Annotated[str, Field(max_length=MAX_BODY_BYTES)] | None = None


class InscriptionCreated(BaseModel):
    inscriptionId: str
    number: int
    outpoint: str


class CreateRunesRequest(StrictRequest):
    address: Address
    rune: Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS)]
    # ord keeps rune amounts as u128.
    amount: Annotated[int, Field(ge=1, le=2**128 - 1)]


class RunesCreated(BaseModel):
    outpoint: str


class TransferRequest(StrictRequest):
    inscriptionId: Annotated[str, Field(pattern=INSCRIPTION_ID_PATTERN)]
    toAddress: Address


class TransferResponse(BaseModel):
    txid: str


class ClockRequest(StrictRequest):
    advanceMs: Annotated[int, Field(ge=0, le=MAX_ADVANCE_MS)]


class ClockResponse(BaseModel):
    clockMs: int
    clockOffsetMs: int


class OrdMempoolMode(StrictRequest):
    """Whether `/ord/output` describes outputs of mempool transactions (`true`, the default)
    or answers `indexed: false` for them, as real ord does until they confirm (`false`)."""

    indexed: bool


class Info(BaseModel):
    # Later issues add fields (the service's public key); they pass through until modelled.
    model_config = ConfigDict(extra="allow")

    network: str
    tipHeight: int
    tipHash: str
    mempoolSize: int
    minRelayFeeRate: float
    feeEstimates: dict[str, float]
    clockMs: int
    clockOffsetMs: int
    # The marketplace's settings (docs/sandbox-marketplace.md), so a client's pre-flight
    # check counts the same maker fee.
    makerFeeSats: int | None = None
    makerFeeBps: int | None = None
    biddingWalletKind: str | None = None
    # "per-item" or "shared" (`--listing-escrow`, docs/sandbox-listings.md).
    listingEscrow: str | None = None
    servicePublicKey: str | None = None
    # `--rate-limit`: {"perSecond", "burst"} per API key on /v1, or null (no limit).
    rateLimit: dict[str, float] | None = None
    # True while `POST /sandbox/ord/mempool {"indexed": true}` is in force (not real ord).
    ordIndexesMempool: bool = False


class MempoolTrafficRequest(StrictRequest):
    """About `vbytes` of transactions paying `feeRate` sat/vB, added to the mempool."""

    feeRate: Annotated[float, Field(ge=1, le=MAX_TRAFFIC_FEE_RATE)]
    vbytes: Annotated[int, Field(ge=MIN_TRAFFIC_VBYTES, le=MAX_TRAFFIC_VBYTES)]


class MempoolTrafficResponse(BaseModel):
    txids: list[str]
    feeEstimates: dict[str, float]  # `GET /esplora/fee-estimates` with them in the mempool
