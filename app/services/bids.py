"""Collection, trait and rune bids: pre-flight, sign, verify our own signature, place.

    spec = BidSpec.trait("pixel-pals", [Trait("hat", "red")], price=20_000, quantity=2,
                         bid_expiry=ctx.clock.now_ms() + 3_600_000)
    outcome = await place_bid(ctx, spec)

`BidSpec.fee_rate` is the fee rate the bid asks to be filled at (`feeRate`, not signed: a
service may ignore it); the service's default (`fastestFee`) is not sent, so the service's
own default applies.

A rune is named by its etched spelling (`DOG•GO•TO•THE•MOON`): whatever the user typed
(`DOGGOTOTHEMOON`, other spacers) becomes the name of ord's rune entry before anything else
(`rune_names.canonical_rune_name`), and the outcome's spec carries that name.

Pre-flight (nothing is signed when it fails): the shared `app/core` validation
(`BidRejectedError` lists every broken rule) and the pool check against the open bids and the
bidding wallet's balance (`PoolDoesNotFitError` names each pool and the shortfall).
The message (`bid_message`) is signed with the payment key: BIP-322 by default, BIP-137 on
request where the address type has it (not Taproot). Each signature is checked by the
independent verifier before it is sent. Placement follows the spec's retry rules
(`bid_retry`). `place_bids` places many requests one after the other with progress; a cancel
(token or asyncio) stops between requests, never inside one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from app.core.bid_fee_rate import DEFAULT_BID_FEE_RATE, BidFeeRate
from app.core.bid_message import bid_message
from app.core.bid_request import META_TYPE_ORDINALS, META_TYPE_RUNES, CollectionBidRequest, Trait
from app.core.bid_validation import validate_bid_request
from app.core.pools import check_request_fits
from app.net.errors import NetError
from app.net.marketplace_bids import BidListEntry
from app.services.bid_retry import Placement, count_matching, place_with_retries
from app.services.bidding_wallet import bidding_wallet_balance
from app.services.context import CancelToken, ServiceContext
from app.services.errors import (
    BidRejectedError,
    OwnSignatureInvalidError,
    PoolDoesNotFitError,
    PoolShortfall,
    ServiceError,
)
from app.services.open_bids import fetch_open_bids, pooled_bids
from app.services.rune_names import canonical_rune_name
from app.wallet.addresses import AddressType, Network
from app.wallet.keys import RoleKey
from app.wallet.message import MessageScheme, SignatureError, sign_message, verify_message

_SIGNATURE_FIELD = "signedBiddingMessage"
_UNSIGNED = "-"  # stands in for the signature while the request is validated before signing


@dataclass(frozen=True)
class BidSpec:
    """What the user asks for; the request is built (and re-signed) from it per attempt."""

    collection_slug: str
    price: int
    quantity: int
    bid_expiry: int  # ms since the Unix epoch
    traits: tuple[Trait, ...] = ()
    meta_type: str = META_TYPE_ORDINALS
    fee_rate: BidFeeRate = DEFAULT_BID_FEE_RATE  # the rate of the fill, as asked

    @classmethod
    def collection(cls, slug: str, price: int, quantity: int, bid_expiry: int) -> BidSpec:
        return cls(slug, price, quantity, bid_expiry)

    @classmethod
    def trait(
        cls, slug: str, traits: Sequence[Trait], price: int, quantity: int, bid_expiry: int
    ) -> BidSpec:
        return cls(slug, price, quantity, bid_expiry, tuple(traits))

    @classmethod
    def rune(cls, rune: str, total_price: int, units: int, bid_expiry: int) -> BidSpec:
        """A rune bid: `total_price` sats for `units` whole units (spec 2.3). `rune` may be
        typed with or without spacers; placing it uses the etched spelling."""
        return cls(rune, total_price, units, bid_expiry, (), META_TYPE_RUNES)

    @property
    def is_rune(self) -> bool:
        return self.meta_type == META_TYPE_RUNES


async def canonical_spec(ctx: ServiceContext, spec: BidSpec) -> BidSpec:
    """`spec` with a rune named by its etched spelling (ord's entry); other specs as they are.
    Raises `UnknownRuneError` or `OrdUnavailableError` for a rune that cannot be named."""
    if not spec.is_rune:
        return spec
    name = await canonical_rune_name(ctx, spec.collection_slug)
    return spec if name == spec.collection_slug else replace(spec, collection_slug=name)


@dataclass(frozen=True)
class BidOutcome:
    spec: BidSpec
    placement: Placement


def scheme_for(address_type: AddressType, requested: MessageScheme | None) -> MessageScheme:
    """BIP-322 simple by default (BIP-137 for legacy P2PKH); BIP-137 on request, except for
    Taproot, where it is not defined."""
    if requested is MessageScheme.BIP137 and address_type is AddressType.P2TR:
        raise ServiceError(
            "BIP-137 signatures do not exist for Taproot payment addresses: use BIP-322."
        )
    if requested is not None:
        return requested
    return (
        MessageScheme.BIP137 if address_type is AddressType.P2PKH else MessageScheme.BIP322_SIMPLE
    )


@dataclass(frozen=True)
class BidderIdentity:
    """Who bids, as the request names them: payment address and key (hex), ordinals address."""

    payment_address: str
    payment_public_key: str
    ordinals_address: str

    @classmethod
    def of(cls, ctx: ServiceContext) -> BidderIdentity:
        return cls(ctx.payment_address, ctx.payment_public_key_hex, ctx.ordinals_address)


UNSIGNED = "-"  # the signature field of a request not signed yet (a preview's)


def bid_request(
    spec: BidSpec, who: BidderIdentity, timestamp: int, signature: str = UNSIGNED
) -> CollectionBidRequest:
    """The one mapping from what the user asks (and who asks) to the spec's request: the Bid
    tab's preview and every placement attempt build it here."""
    return CollectionBidRequest(
        price=spec.price,
        collection_slug=spec.collection_slug,
        bidder_address=who.payment_address,
        bidder_address_public_key=who.payment_public_key,
        bidder_token_receive_address=who.ordinals_address,
        quantity=spec.quantity,
        meta_type=spec.meta_type,
        bid_expiry=spec.bid_expiry,
        timestamp=timestamp,
        signed_bidding_message=signature,
        attributes=spec.traits,
        fee_rate=None if spec.fee_rate.is_default else spec.fee_rate,
    )


def build_request(
    ctx: ServiceContext, spec: BidSpec, timestamp: int, signature: str
) -> CollectionBidRequest:
    return bid_request(spec, BidderIdentity.of(ctx), timestamp, signature)


def sign_bid(
    unsigned: CollectionBidRequest, key: RoleKey, scheme: MessageScheme, network: Network
) -> CollectionBidRequest:
    """Sign the exact bid message and verify it before anyone else sees it (CPU work)."""
    message = bid_message(unsigned)
    signed = sign_message(key, message, scheme)
    try:
        checked = verify_message(key.address, message, signed.signature, network=network)
    except SignatureError as exc:
        raise OwnSignatureInvalidError(
            f"Our own {scheme} signature of the bid did not verify ({type(exc).__name__}); "
            "nothing was sent."
        ) from None
    if scheme is not MessageScheme.BIP137 and "bip322-rust" not in checked.detail:
        raise OwnSignatureInvalidError(
            f"The independent BIP-322 verifier did not check the bid signature "
            f"({checked.detail}); nothing was sent."
        )
    return replace(unsigned, signed_bidding_message=signed.signature)


def preflight(
    ctx: ServiceContext, spec: BidSpec, open_bids: Sequence[BidListEntry], balance: int
) -> CollectionBidRequest:
    """Every rule and every pool, before anything is signed; the unsigned request."""
    unsigned = build_request(ctx, spec, ctx.clock.now_ms(), _UNSIGNED)
    violations = [
        v for v in validate_bid_request(unsigned, ctx.clock.now_ms()) if v.field != _SIGNATURE_FIELD
    ]
    if violations:
        raise BidRejectedError(violations)
    pooled, _ = pooled_bids(open_bids)
    report = check_request_fits(balance, pooled, unsigned, ctx.maker_fee)
    if not report.fits:
        raise PoolDoesNotFitError([PoolShortfall.of(p) for p in report.short_pools])
    return unsigned


async def place_bid(
    ctx: ServiceContext,
    spec: BidSpec,
    *,
    scheme: MessageScheme | None = None,
    balance: int | None = None,
) -> BidOutcome:
    """Pre-flight, then place by the retry rules. `balance` skips re-reading it (bulk)."""
    keys = ctx.signing_keys()
    chosen = scheme_for(ctx.payment_public.address_type, scheme)
    spec = await canonical_spec(ctx, spec)
    if balance is None:
        balance = (await bidding_wallet_balance(ctx)).total
    entries = await fetch_open_bids(ctx)
    unsigned = preflight(ctx, spec, entries, balance)
    baseline = count_matching(entries, unsigned)

    async def sign(timestamp: int) -> CollectionBidRequest:
        fresh = build_request(ctx, spec, timestamp, _UNSIGNED)
        return await ctx.run_cpu(sign_bid, fresh, keys.payment, chosen, ctx.network)

    return BidOutcome(spec, await place_with_retries(ctx, sign, baseline))


@dataclass(frozen=True)
class BulkItem:
    index: int
    spec: BidSpec
    outcome: BidOutcome | None
    error: ServiceError | None


@dataclass(frozen=True)
class BulkProgress:
    done: int
    total: int
    last: BulkItem


@dataclass(frozen=True)
class BulkResult:
    items: tuple[BulkItem, ...]
    total: int
    cancelled: bool

    @property
    def placed(self) -> tuple[BulkItem, ...]:
        return tuple(i for i in self.items if i.outcome is not None)

    @property
    def failed(self) -> tuple[BulkItem, ...]:
        return tuple(i for i in self.items if i.error is not None)


async def place_bids(
    ctx: ServiceContext,
    specs: Sequence[BidSpec],
    *,
    scheme: MessageScheme | None = None,
    progress: Callable[[BulkProgress], None] | None = None,
    cancel: CancelToken | None = None,
) -> BulkResult:
    """Place each request in turn; a failed one is reported and the next one goes on.

    `cancel.cancel()` stops before the next request (result `cancelled=True`). An asyncio
    cancellation lets the request in flight finish (reported through `progress`), then
    propagates: a request is never half-submitted."""
    balance = (await bidding_wallet_balance(ctx)).total
    items: list[BulkItem] = []
    for index, spec in enumerate(specs):
        if cancel is not None and cancel.cancelled:
            return BulkResult(tuple(items), len(specs), True)
        task = asyncio.ensure_future(_one(ctx, index, spec, scheme, balance))
        try:
            item = await asyncio.shield(task)
        except asyncio.CancelledError:
            item = await task
            items.append(item)
            if progress is not None:
                progress(BulkProgress(len(items), len(specs), item))
            raise
        items.append(item)
        if progress is not None:
            progress(BulkProgress(len(items), len(specs), item))
    return BulkResult(tuple(items), len(specs), False)


async def _one(
    ctx: ServiceContext, index: int, spec: BidSpec, scheme: MessageScheme | None, balance: int
) -> BulkItem:
    try:
        outcome = await place_bid(ctx, spec, scheme=scheme, balance=balance)
    except ServiceError as exc:
        return BulkItem(index, spec, None, exc)
    except NetError as exc:
        failure = ServiceError(f"Request {index + 1} failed on the network ({exc}).")
        return BulkItem(index, spec, None, failure)
    return BulkItem(index, spec, outcome, None)
