"""Settings of the sandbox HTTP service (what `bidwallet sandbox serve` passes to `create_app`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from app.core.rate_limit import RateLimit

BiddingWalletKind = Literal["taproot", "p2wsh"]
ListingEscrow = Literal["per-item", "shared"]
LISTING_ESCROWS: tuple[ListingEscrow, ...] = ("per-item", "shared")
ServiceRunestones = Literal["none", "edict", "pointer"]
SERVICE_RUNESTONES: tuple[ServiceRunestones, ...] = ("none", "edict", "pointer")
BidsKeyedBy = Literal["ordinals", "payment"]
BIDS_KEYED_BY: tuple[BidsKeyedBy, ...] = ("ordinals", "payment")

DEFAULT_MAX_BODY_BYTES = 1024 * 1024
# Maker fee per collection/trait/rune bid (docs/sandbox-marketplace.md): third-party docs of
# the public service report a flat 1,000-sat fee per bid, so that is the default.
DEFAULT_MAKER_FEE_SATS = 1_000
DEFAULT_MAKER_FEE_BPS = 0
MAX_MAKER_FEE_SATS = 100_000_000
MAX_MAKER_FEE_BPS = 10_000


@dataclass(frozen=True)
class SandboxSettings:
    """Knobs of one running sandbox service.

    `api_key`: when set, the marketplace routes require it in the `x-api-key` header; it is a
    credential, so it is kept out of the repr.
    `bidding_wallet`: which kind of 1-of-2 bidding wallet the marketplace hands out to new
    wallets (a wallet keeps the kind it was created with).
    `max_body_bytes`: requests with a larger body get 413 before the body is read.
    `maker_fee_sats` / `maker_fee_bps`: the maker fee on each collection bid,
    `ceil(price * bps / 10,000) + sats`, counted in the bid pools and paid on a fill.
    `listing_escrow`: "per-item" (default) gives each listed item its own escrow output, so no
    two secure listing PSBTs have the same outputs; "shared" pays every listing's item to one
    escrow key, the double-sale layout of a careless marketplace, only to check that the app
    refuses the second colliding signature (docs/sandbox-listings.md).
    `service_runestones`: whether the service's secure rune listing and inscription bid PSBTs
    carry a runestone (the public service's habit is unknown): "none" (default: ord's default
    sends the runes to the first output), "edict" (an edict per rune on the item, amount 0 =
    all, to the output receiving the item) or "pointer" (the pointer at that output, on every
    inscription bid too). The scenario API changes it while running
    (`POST /sandbox/market/runestones`; docs/sandbox-listings.md).
    `bids_keyed_by`: the address `GET /address/bids` lists a bid under and `POST /cancel`
    wants as its maker: "ordinals" (default, the bid's `bidderTokenReceiveAddress`) or
    "payment" (its `bidderAddress`, the address that signs it). The public service does not
    document which one it uses, so clients are tested against both.
    `rate_limit`: when set, `/v1` requests beyond it get 429 RATE_LIMITED per API key (the
    public service's limit is undocumented; about 5/s with a burst of 10 is reported).
    """

    api_key: str | None = field(default=None, repr=False)
    bidding_wallet: BiddingWalletKind = "taproot"
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    block_interval_s: float | None = None
    maker_fee_sats: int = DEFAULT_MAKER_FEE_SATS
    maker_fee_bps: int = DEFAULT_MAKER_FEE_BPS
    listing_escrow: ListingEscrow = "per-item"
    bids_keyed_by: BidsKeyedBy = "ordinals"
    service_runestones: ServiceRunestones = "none"
    rate_limit: RateLimit | None = None

    def __post_init__(self) -> None:
        if self.bidding_wallet not in ("taproot", "p2wsh"):
            raise ValueError(
                f"bidding_wallet must be 'taproot' or 'p2wsh', not {self.bidding_wallet!r}"
            )
        if self.listing_escrow not in LISTING_ESCROWS:
            raise ValueError(
                f"listing_escrow must be 'per-item' or 'shared', not {self.listing_escrow!r}"
            )
        if self.service_runestones not in SERVICE_RUNESTONES:
            raise ValueError(
                "service_runestones must be 'none', 'edict' or 'pointer', not "
                f"{self.service_runestones!r}"
            )
        if self.bids_keyed_by not in BIDS_KEYED_BY:
            raise ValueError(
                f"bids_keyed_by must be 'ordinals' or 'payment', not {self.bids_keyed_by!r}"
            )
        if self.max_body_bytes < 1:
            raise ValueError("max_body_bytes must be positive")
        if self.block_interval_s is not None and self.block_interval_s <= 0:
            raise ValueError("block_interval_s must be positive")
        if not 0 <= self.maker_fee_sats <= MAX_MAKER_FEE_SATS:
            raise ValueError(f"maker_fee_sats must be 0-{MAX_MAKER_FEE_SATS}")
        if not 0 <= self.maker_fee_bps <= MAX_MAKER_FEE_BPS:
            raise ValueError(f"maker_fee_bps must be 0-{MAX_MAKER_FEE_BPS}")
        if self.api_key == "":
            raise ValueError("api_key must not be empty (leave it unset to disable the check)")
