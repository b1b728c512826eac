"""Cancel open bids (spec 4.6), one or many, with a per-bid result.

The credential is the service's challenge (`GET /challenge`) signed by the ORDINALS key with
BIP-322 (the maker is the ordinals address). One signed challenge is reused until shortly
before it expires (`ChallengeCache`); when the service still answers 403 because it expired,
a new challenge is fetched and signed once, and the cancel retried once.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.net.errors import MarketplaceError, NetError
from app.net.marketplace_requests import CancelRequest
from app.net.marketplace_responses import CancelResult
from app.services.context import ServiceContext
from app.services.errors import ChallengeError, ServiceError
from app.wallet.addresses import Network
from app.wallet.keys import RoleKey
from app.wallet.message import MessageScheme, SignatureError, sign_message, verify_message

# Stop reusing a signed challenge this long before the service says it expires (clock skew
# and the request's own travel time).
EXPIRY_MARGIN_MS = 30_000
# A challenge without an announced expiry is reused this long (the public service's own
# client re-signs every 15 s).
UNKNOWN_EXPIRY_REUSE_MS = 15_000
CHUNK = 100  # ids per request
_NOT_MAKER = "CANCEL_NOT_MAKER"


@dataclass(frozen=True)
class SignedChallenge:
    challenge: str
    signature: str
    reuse_until_ms: int


class ChallengeCache:
    """The signed challenge of one ordinals address, reused until it is about to expire."""

    def __init__(self) -> None:
        self._current: SignedChallenge | None = None
        self.fetches = 0

    def invalidate(self) -> None:
        self._current = None

    async def credential(self, ctx: ServiceContext) -> str:
        current = self._current
        if current is not None and ctx.clock.now_ms() < current.reuse_until_ms:
            return current.signature
        return (await self._fresh(ctx)).signature

    async def _fresh(self, ctx: ServiceContext) -> SignedChallenge:
        keys = ctx.signing_keys()
        try:
            challenge = await ctx.clients.marketplace.get_challenge(ctx.ordinals_address)
        except NetError as exc:
            raise ChallengeError(
                f"Could not get a challenge to sign for cancelling ({type(exc).__name__})."
            ) from exc
        self.fetches += 1
        now = ctx.clock.now_ms()
        if challenge.expires_at_ms is None:
            reuse_until = now + UNKNOWN_EXPIRY_REUSE_MS
        else:
            reuse_until = challenge.expires_at_ms - EXPIRY_MARGIN_MS
        signature = await ctx.run_cpu(
            _sign_challenge, keys.ordinals, challenge.challenge, ctx.network
        )
        self._current = SignedChallenge(challenge.challenge, signature, reuse_until)
        return self._current


def _sign_challenge(key: RoleKey, challenge: str, network: Network) -> str:
    signed = sign_message(key, challenge, MessageScheme.BIP322_SIMPLE)
    try:
        verify_message(key.address, challenge, signed.signature, network=network)
    except SignatureError as exc:
        raise ChallengeError(
            f"Our own signature of the challenge did not verify ({type(exc).__name__})."
        ) from None
    return signed.signature


_caches: weakref.WeakKeyDictionary[ServiceContext, ChallengeCache] = weakref.WeakKeyDictionary()


def challenge_cache(ctx: ServiceContext) -> ChallengeCache:
    """The context's cache (one per connected profile)."""
    cache = _caches.get(ctx)
    if cache is None:
        cache = _caches[ctx] = ChallengeCache()
    return cache


@dataclass(frozen=True)
class CancelItem:
    bid_id: str
    cancelled: bool
    reason: str | None = None


@dataclass(frozen=True)
class CancelReport:
    items: tuple[CancelItem, ...]

    @property
    def cancelled_ids(self) -> tuple[str, ...]:
        return tuple(i.bid_id for i in self.items if i.cancelled)

    @property
    def failed(self) -> tuple[CancelItem, ...]:
        return tuple(i for i in self.items if not i.cancelled)

    @property
    def all_cancelled(self) -> bool:
        return not self.failed


async def cancel_bids(
    ctx: ServiceContext, bid_ids: Sequence[str], *, cache: ChallengeCache | None = None
) -> CancelReport:
    """Cancel `bid_ids` (ours, by the ordinals address); a result for every id asked."""
    ids = list(dict.fromkeys(bid_ids))
    if not ids:
        return CancelReport(())
    cache = cache or challenge_cache(ctx)
    items: list[CancelItem] = []
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        result = await _cancel_chunk(ctx, chunk, cache)
        items += _items_of(chunk, result)
    return CancelReport(tuple(items))


async def cancel_bid(
    ctx: ServiceContext, bid_id: str, *, cache: ChallengeCache | None = None
) -> CancelItem:
    return (await cancel_bids(ctx, [bid_id], cache=cache)).items[0]


async def _cancel_chunk(ctx: ServiceContext, ids: list[str], cache: ChallengeCache) -> CancelResult:
    for retry in (False, True):
        signature = await cache.credential(ctx)
        request = CancelRequest(ctx.ordinals_address, signature, tuple(ids))
        try:
            return await ctx.clients.marketplace.cancel(request)
        except MarketplaceError as exc:
            if exc.status != 403:
                raise ServiceError(f"The marketplace refused the cancel: {exc.message}") from exc
            if exc.error_code == _NOT_MAKER:
                raise ServiceError(
                    "Some of these bids are not yours (another maker placed them); nothing "
                    "was cancelled."
                ) from exc
            if retry:
                raise ChallengeError(
                    "The marketplace refused a freshly signed challenge: "
                    f"{exc.message} Nothing was cancelled."
                ) from exc
            cache.invalidate()  # most likely expired: sign a new one, once
    raise AssertionError("unreachable")  # the loop returns or raises


def _items_of(ids: list[str], result: CancelResult) -> list[CancelItem]:
    """Per-id results from the summary, else from explicit id lists, else the overall flag."""
    raw: Mapping[str, object] = result.raw
    reasons: dict[str, str] = {}
    summary = raw.get("summary")
    if isinstance(summary, list):
        for entry in summary:
            if isinstance(entry, Mapping) and isinstance(entry.get("reason"), str):
                reasons[str(entry.get("id"))] = str(entry["reason"])
    by_id = {o.bid_id: o.success for o in result.outcomes if o.bid_id is not None}
    cancelled_ids, failed_ids = raw.get("cancelledIds"), raw.get("failedIds")
    items = []
    for bid_id in ids:
        ok = by_id.get(bid_id)
        if ok is None and isinstance(cancelled_ids, list) and isinstance(failed_ids, list):
            ok = bid_id in cancelled_ids
        if ok is None:
            ok = result.success is True
        reason = None if ok else reasons.get(bid_id, "the marketplace did not cancel it")
        items.append(CancelItem(bid_id, bool(ok), reason))
    return items
