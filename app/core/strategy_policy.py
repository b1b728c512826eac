"""The signing authority of a bid strategy: the policy the user approves, and the check
(`authorize`) that every bid message a strategy signs passes first (docs/strategies.md).

    policy = StrategyPolicy(policy_id, identity, pools=(AllowedPool.collection("puppets",
                            max_price=50_000),), max_exposure=500_000, maker_fee=fee,
                            valid_from_ms=now, valid_until_ms=now + DAY_MS)
    verdict = authorize(policy, unsigned_request, OpenExposure(sats, bids), now_ms)
    if verdict.approved: sign exactly verdict.message
    else: verdict.refusals (each a stable code and a sentence naming the rule)

The threat is the strategy engine itself (a bug, or code that was compromised) and a lying
server steering it (a fake floor, a fake top bid). Whatever they ask, only a bid message that
stays inside what the user approved is authorized:
- the bidder is exactly the policy's payment address and public key, and won items go to the
  policy's ordinals address (a message naming another receive address would pay for items
  delivered to a stranger);
- the request passes every rule of the spec (`bid_validation`, with the checker's clock: a
  timestamp far ahead would keep a signed message usable for longer than the spec allows);
- each pool it touches is allowed, with its kind: a collection (or range) pool by its exact
  slug, a trait pool by slug and trait, a rune pool by the rune's letters whatever its
  spacers (the request spelling it as ord does: A-Z, '•' or '.'). A collection pool does not
  allow trait bids in it, nor the other way round;
- its price is at most the cap of every pool it touches: per item for ordinals; for runes the
  cap is per unit, so a rune bid's total `price` is bounded by `quantity x cap` (and, like any
  bid, by the exposure left);
- what it commits (every bid it places: price plus the maker fee, `pools.bid_cost`; a trait
  bid places `quantity` bids per trait) fits within the exposure left, and its bids within the
  maximum number of open bids;
- the policy is valid now, and the bid expires no later than the policy does.

`authorize` never raises on a hostile request: every problem is a refusal. A malformed policy
or a negative exposure (a caller's bug) raises `StrategyPolicyError`. The policy's stored form
is `policy_to_json` / `policy_from_json` (strict: unknown or missing fields are refused).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final

from app.core.bid_message import bid_message
from app.core.bid_request import META_TYPE_ORDINALS, META_TYPE_RUNES, BidKind, CollectionBidRequest
from app.core.bid_request import Trait as Trait
from app.core.bid_validation import validate_bid_request
from app.core.errors import CoreError
from app.core.pools import MakerFee, PoolKey, bid_cost, request_pools
from app.core.rune_names import RuneNameError, parse_spaced_rune, parse_typed_rune, rune_letters

_SIGNATURE_FIELD: Final = "signedBiddingMessage"


class StrategyPolicyError(CoreError, ValueError):
    """A policy that cannot be approved or read (no pools, a cap of 0, ...), or a negative
    exposure given to `authorize`: a caller's bug or a damaged stored policy."""


class PoolKind(StrEnum):
    ORDINALS = META_TYPE_ORDINALS  # a collection, a trait within one, or a sub1k.. range
    RUNES = META_TYPE_RUNES


class StrategyRefusalCode(StrEnum):
    POLICY_NOT_YET_VALID = "POLICY_NOT_YET_VALID"
    POLICY_EXPIRED = "POLICY_EXPIRED"
    POLICY_REVOKED = "POLICY_REVOKED"  # the signer's: its stored policy was revoked or replaced
    WRONG_BIDDER = "WRONG_BIDDER"
    WRONG_RECEIVE_ADDRESS = "WRONG_RECEIVE_ADDRESS"
    INVALID_REQUEST = "INVALID_REQUEST"
    POOL_NOT_ALLOWED = "POOL_NOT_ALLOWED"
    TRAIT_NOT_ALLOWED = "TRAIT_NOT_ALLOWED"
    PRICE_ABOVE_CAP = "PRICE_ABOVE_CAP"
    EXPOSURE_ABOVE_CAP = "EXPOSURE_ABOVE_CAP"
    TOO_MANY_OPEN_BIDS = "TOO_MANY_OPEN_BIDS"
    BID_OUTLIVES_POLICY = "BID_OUTLIVES_POLICY"


@dataclass(frozen=True)
class BidderIdentity:
    """Who bids and who receives, as the bid message names them."""

    payment_address: str
    payment_public_key: str  # hex, as sent in bidderAddressPublicKey
    receive_address: str  # the ordinals address that receives won items


@dataclass(frozen=True)
class AllowedPool:
    """One pool the strategy may bid in, with its price cap: sats per item for ordinals,
    sats per unit for runes (a Fraction: a rune unit may be worth less than a sat)."""

    kind: PoolKind
    pool: PoolKey
    max_price: Fraction

    def __post_init__(self) -> None:
        if not self.pool.collection_slug:
            raise StrategyPolicyError("an allowed pool needs a collection slug or rune name")
        if self.max_price <= 0:
            raise StrategyPolicyError(f"the price cap of pool {self.pool} must be positive")
        if self.kind is PoolKind.RUNES:
            if self.pool.trait is not None:
                raise StrategyPolicyError("a rune pool has no trait")
            try:
                parse_typed_rune(self.pool.collection_slug)
            except RuneNameError as exc:
                raise StrategyPolicyError(f"rune pool {self.pool}: {exc}") from None

    @classmethod
    def collection(cls, slug: str, max_price: int | Fraction) -> AllowedPool:
        return cls(PoolKind.ORDINALS, PoolKey(slug), Fraction(max_price))

    @classmethod
    def trait(cls, slug: str, trait: Trait, max_price: int | Fraction) -> AllowedPool:
        return cls(PoolKind.ORDINALS, PoolKey(slug, trait), Fraction(max_price))

    @classmethod
    def rune(cls, name: str, max_unit_price: int | Fraction) -> AllowedPool:
        return cls(PoolKind.RUNES, PoolKey(name), Fraction(max_unit_price))

    @property
    def match_key(self) -> tuple[str, str, Trait | None]:
        """What a request's pool must equal: kind, slug (a rune's letters), trait."""
        slug = self.pool.collection_slug
        if self.kind is PoolKind.RUNES:
            slug = rune_letters(slug)
        return (self.kind.value, slug, self.pool.trait)

    def describe_cap(self) -> str:
        unit = "unit" if self.kind is PoolKind.RUNES else "item"
        return f"{_sats(self.max_price)} per {unit}"


@dataclass(frozen=True)
class StrategyPolicy:
    """What the user approved when starting a strategy. Immutable: a change is a new policy,
    approved again (its stored form is authenticated: `app/services/strategy_policies.py`)."""

    policy_id: str
    bidder: BidderIdentity
    pools: tuple[AllowedPool, ...]
    max_exposure: int  # sats committed by all its open bids, maker fee included
    maker_fee: MakerFee  # the fee counted per bid, fixed when approved
    valid_from_ms: int
    valid_until_ms: int
    max_open_bids: int | None = None

    def __post_init__(self) -> None:
        self.check_id(self.policy_id)
        if not self.pools:
            raise StrategyPolicyError("a policy allows at least one pool")
        keys = [p.match_key for p in self.pools]
        if len(set(keys)) != len(keys):
            raise StrategyPolicyError("a pool is allowed twice in the policy")
        if self.max_exposure <= 0:
            raise StrategyPolicyError("the maximum exposure must be positive")
        if self.valid_until_ms <= self.valid_from_ms:
            raise StrategyPolicyError("the policy must end after it starts")
        if self.max_open_bids is not None and self.max_open_bids < 1:
            raise StrategyPolicyError("the maximum number of open bids must be at least 1")

    @staticmethod
    def check_id(policy_id: str) -> None:
        if not _POLICY_ID.fullmatch(policy_id):
            raise StrategyPolicyError(
                "a policy id is 1 to 64 letters, digits, '-' or '_' (it names its file)"
            )

    def allowed(self, kind: str, pool: PoolKey) -> AllowedPool | None:
        slug = (
            rune_letters(pool.collection_slug) if kind == META_TYPE_RUNES else pool.collection_slug
        )
        return self._by_key().get((kind, slug, pool.trait))

    def _by_key(self) -> Mapping[tuple[str, str, Trait | None], AllowedPool]:
        return {p.match_key: p for p in self.pools}


_POLICY_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class OpenExposure:
    """What the strategy's bids that may still be open commit: sats (maker fee included) and
    bids (a trait bid on k traits counts k x quantity)."""

    sats: int = 0
    bids: int = 0

    def __post_init__(self) -> None:
        if self.sats < 0 or self.bids < 0:
            raise StrategyPolicyError("an open exposure cannot be negative")


@dataclass(frozen=True)
class StrategyRefusal:
    code: StrategyRefusalCode
    message: str


@dataclass(frozen=True)
class BidVerdict:
    """`authorize`'s decision. `message` is the exact text that may be signed ('' when
    refused); `cost` and `bids` what the request adds to the open exposure."""

    policy_id: str
    message: str
    cost: int
    bids: int
    refusals: tuple[StrategyRefusal, ...]

    @property
    def approved(self) -> bool:
        return not self.refusals

    @property
    def codes(self) -> tuple[StrategyRefusalCode, ...]:
        return tuple(r.code for r in self.refusals)

    def reasons(self) -> tuple[str, ...]:
        return tuple(r.message for r in self.refusals)


def request_cost(request: CollectionBidRequest, fee: MakerFee) -> tuple[int, int]:
    """(sats, bids) the request commits once placed: each bid's price plus the maker fee on
    it. A rune bid is one bid of its total price; a trait bid `quantity` bids per trait."""
    bids = sum(request_pools(request).values())
    return bids * bid_cost(request.price, fee), bids


def authorize(
    policy: StrategyPolicy, request: CollectionBidRequest, open_exposure: OpenExposure, now_ms: int
) -> BidVerdict:
    """Whether `request` may be signed under `policy` at `now_ms`, given what the strategy's
    bids that may still be open commit. Every refusal is listed (see the module docstring)."""
    refusals = list(_refusals(policy, request, open_exposure, now_ms))
    valid = StrategyRefusalCode.INVALID_REQUEST not in (r.code for r in refusals)
    # The cost of a request the spec refuses (a negative price...) means nothing: 0.
    cost, bids = request_cost(request, policy.maker_fee) if valid else (0, 0)
    message = "" if refusals else bid_message(request)
    return BidVerdict(policy.policy_id, message, cost, bids, tuple(refusals))


def _refusals(
    policy: StrategyPolicy, request: CollectionBidRequest, open_exposure: OpenExposure, now_ms: int
) -> Iterator[StrategyRefusal]:
    yield from _check_time(policy, request, now_ms)
    yield from _check_identity(policy.bidder, request)
    violations = [v for v in validate_bid_request(request, now_ms) if v.field != _SIGNATURE_FIELD]
    for violation in violations:
        yield _refuse(StrategyRefusalCode.INVALID_REQUEST, violation.message)
    if violations:
        return  # pools, prices and costs of a request the spec refuses mean nothing
    yield from _check_pools_and_price(policy, request)
    yield from _check_exposure(policy, request, open_exposure)


def _check_time(
    policy: StrategyPolicy, request: CollectionBidRequest, now_ms: int
) -> Iterator[StrategyRefusal]:
    if now_ms < policy.valid_from_ms:
        yield _refuse(
            StrategyRefusalCode.POLICY_NOT_YET_VALID,
            f"The policy is valid from {policy.valid_from_ms} (ms), {now_ms} now: nothing is "
            f"signed before it starts.",
        )
    if now_ms >= policy.valid_until_ms:
        yield _refuse(
            StrategyRefusalCode.POLICY_EXPIRED,
            f"The policy expired at {policy.valid_until_ms} (ms): approve a new one to go on.",
        )
    if isinstance(request.bid_expiry, int) and request.bid_expiry > policy.valid_until_ms:
        yield _refuse(
            StrategyRefusalCode.BID_OUTLIVES_POLICY,
            f"The bid would expire at {request.bid_expiry} (ms), after the policy ends at "
            f"{policy.valid_until_ms}: a bid may not outlive the policy that signed it.",
        )


def _check_identity(
    who: BidderIdentity, request: CollectionBidRequest
) -> Iterator[StrategyRefusal]:
    if (request.bidder_address, request.bidder_address_public_key) != (
        who.payment_address,
        who.payment_public_key,
    ):
        yield _refuse(
            StrategyRefusalCode.WRONG_BIDDER,
            f"The bid names bidder {request.bidder_address} with key "
            f"{request.bidder_address_public_key}, not the policy's payment address "
            f"{who.payment_address} and its key.",
        )
    if request.bidder_token_receive_address != who.receive_address:
        yield _refuse(
            StrategyRefusalCode.WRONG_RECEIVE_ADDRESS,
            f"Won items would go to {request.bidder_token_receive_address}, not to the "
            f"policy's ordinals address {who.receive_address}.",
        )


def _check_pools_and_price(
    policy: StrategyPolicy, request: CollectionBidRequest
) -> Iterator[StrategyRefusal]:
    kind = PoolKind.RUNES if request.kind is BidKind.RUNE else PoolKind.ORDINALS
    if kind is PoolKind.RUNES:
        try:  # ord's own spelling (letters A-Z, '•' or '.'), not a look-alike read kindly
            parse_spaced_rune(request.collection_slug)
        except RuneNameError as exc:
            yield _refuse(
                StrategyRefusalCode.POOL_NOT_ALLOWED,
                f"{request.collection_slug!r} is not a rune name as ord writes it: {exc}.",
            )
            return
    for pool in request_pools(request):
        allowed = policy.allowed(kind.value, pool)
        if allowed is None:
            yield _pool_refusal(policy, kind, pool)
            continue
        cap = allowed.max_price
        if kind is PoolKind.RUNES:
            if request.price > cap * request.quantity:
                yield _refuse(
                    StrategyRefusalCode.PRICE_ABOVE_CAP,
                    f"{_sats(request.price)} for {request.quantity:,} units of {pool} is "
                    f"{_sats(Fraction(request.price, request.quantity))} per unit, above the "
                    f"cap of {allowed.describe_cap()} (at most {_sats(cap * request.quantity)}"
                    f" for these units).",
                )
        elif request.price > cap:
            yield _refuse(
                StrategyRefusalCode.PRICE_ABOVE_CAP,
                f"{_sats(request.price)} per item in {pool} is above the cap of "
                f"{allowed.describe_cap()}.",
            )


def _pool_refusal(policy: StrategyPolicy, kind: PoolKind, pool: PoolKey) -> StrategyRefusal:
    collection_allowed = any(
        p.kind is kind and p.pool.collection_slug == pool.collection_slug for p in policy.pools
    )
    if pool.trait is not None and collection_allowed:
        return _refuse(
            StrategyRefusalCode.TRAIT_NOT_ALLOWED,
            f"The trait {pool.trait.trait_type}: {pool.trait.value} of "
            f"{pool.collection_slug} is not among the pools the policy allows.",
        )
    what = "rune" if kind is PoolKind.RUNES else "pool"
    return _refuse(
        StrategyRefusalCode.POOL_NOT_ALLOWED,
        f"The {what} {pool} is not among the pools the policy allows "
        f"({', '.join(_pool_names(policy))}).",
    )


def _pool_names(policy: StrategyPolicy) -> list[str]:
    return [f"{p.pool}{' (rune)' if p.kind is PoolKind.RUNES else ''}" for p in policy.pools]


def _check_exposure(
    policy: StrategyPolicy, request: CollectionBidRequest, open_exposure: OpenExposure
) -> Iterator[StrategyRefusal]:
    cost, bids = request_cost(request, policy.maker_fee)
    if open_exposure.sats + cost > policy.max_exposure:
        left = max(0, policy.max_exposure - open_exposure.sats)
        yield _refuse(
            StrategyRefusalCode.EXPOSURE_ABOVE_CAP,
            f"The bid commits {_sats(cost)} (maker fee included) but only {_sats(left)} of the "
            f"policy's {_sats(policy.max_exposure)} exposure is left "
            f"({_sats(open_exposure.sats)} is committed by its open bids).",
        )
    limit = policy.max_open_bids
    if limit is not None and open_exposure.bids + bids > limit:
        yield _refuse(
            StrategyRefusalCode.TOO_MANY_OPEN_BIDS,
            f"The request places {_count(bids, 'bid')} next to "
            f"{_count(open_exposure.bids, 'open one')}; the policy allows at most "
            f"{_count(limit, 'open bid')}.",
        )


def _refuse(code: StrategyRefusalCode, message: str) -> StrategyRefusal:
    return StrategyRefusal(code, message)


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _sats(amount: int | Fraction) -> str:
    if isinstance(amount, Fraction) and amount.denominator != 1:
        return f"{float(amount):,.4f}".rstrip("0").rstrip(".") + " sats"
    return f"{int(amount):,} sats"
