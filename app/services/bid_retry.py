"""The spec's retry rules for `POST /bid/place` (section 4.2), exactly.

- Every attempt is a NEW request: a new timestamp (strictly later than the last one) and a new
  signature over the new message. A signed request is never sent twice.
- Before each attempt the per-address pace is kept (`BidPacer`: k traits -> k x 500 ms).
- 429: wait `retryAfterMs` (through the injected sleeper; a wait over `MAX_SERVICE_WAIT_MS`
  is not waited: the bid is reported not placed), read the open bids as after a 5xx (a 429
  should mean "not placed", but a service that placed it anyway must not get a second
  signature), then a new attempt.
- A timeout, a dropped connection or a 5xx may have placed the bid: FIRST read
  `GET /address/bids` (under both our addresses, `open_bids.fetch_open_bids`: the service may
  key bids by either) and retry only when the bid is not there. "There" means more listed bids
  match the request (collection or rune, price, quantity, expiry, traits) than before the
  attempt; a rune matches by its letters, whatever its spacers. If the list cannot be read,
  stop: the outcome is unknown and the user must look.
- COLLECTION_BID_SIGNATURE_USED: that message already placed a bid, so it is handled like a 5xx.
- A request that never reached the service (connect failed) is retried after a short pause.
- Any other refusal is final: `BidRequestRefusedError` (a `BidNotPlacedError`) with the
  service's code and message: the service said it did not place the bid.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from app.core.bid_request import BidKind, CollectionBidRequest, Trait
from app.core.limits import BID_RATE_INTERVAL_MS
from app.core.rate_limit import MAX_SERVICE_WAIT_S
from app.core.rune_names import same_rune
from app.net.errors import (
    MarketplaceError,
    NetError,
    RateLimited,
    ServerError,
    SignatureAlreadyUsed,
    TransportError,
)
from app.net.marketplace_bids import BidListEntry
from app.services.context import ServiceContext
from app.services.errors import BidNotPlacedError, BidRequestRefusedError
from app.services.open_bids import fetch_open_bids

MAX_ATTEMPTS = 6
MAX_SERVICE_WAIT_MS = int(MAX_SERVICE_WAIT_S * 1000)  # the longest 429 wait waited out
CONNECT_RETRY_PAUSE_MS = 1_000

# Signs a fresh request for the given timestamp (ms); never returns the same signature twice.
RequestSigner = Callable[[int], Awaitable[CollectionBidRequest]]


class AttemptResult(StrEnum):
    PLACED = "placed"
    FOUND_AFTER_ERROR = "found among open bids after an ambiguous error"
    NOT_FOUND_AFTER_ERROR = "not among open bids after an ambiguous error"
    RATE_LIMITED = "rate limited"
    NOT_SENT = "could not reach the service"
    REFUSED = "refused"


@dataclass(frozen=True)
class Attempt:
    timestamp: int
    result: AttemptResult
    error: str | None = None  # exception class and errorCode, never a body
    wait_ms: int = 0


# Hears each attempt's result as soon as it is known (`place_with_retries(on_attempt=...)`).
AttemptObserver = Callable[[Attempt], Awaitable[None]]


@dataclass(frozen=True)
class Placement:
    """A placed bid request and how it got there."""

    request: CollectionBidRequest
    attempts: tuple[Attempt, ...]

    @property
    def confirmed_by_listing(self) -> bool:
        return self.attempts[-1].result is AttemptResult.FOUND_AFTER_ERROR


def matches(entry: BidListEntry, req: CollectionBidRequest) -> bool:
    """Whether a listed bid is one this request would have placed. A field the service did
    not list cannot contradict; the ones it lists must agree."""
    slug = entry.rune_name if entry.is_rune_bid else entry.collection_slug
    slug = slug or entry.collection_slug
    if req.kind is BidKind.RUNE:
        listed_as_rune = entry.is_rune_bid or (entry.type is None and bool(entry.rune_name))
        if not listed_as_rune or slug is None or not same_rune(slug, req.collection_slug):
            return False
    elif slug != req.collection_slug:
        return False
    if entry.inscription_id is not None:
        return False
    checks = ((entry.price, req.price), (entry.expiration_ms, req.bid_expiry))
    if any(listed is not None and listed != wanted for listed, wanted in checks):
        return False
    # A rune bid is one row for all its units; an ordinals request is listed either as one
    # row per bid (quantity 1 each, as the sandbox does) or as one row carrying the quantity.
    quantities = (req.quantity,) if req.kind is BidKind.RUNE else (1, req.quantity)
    if entry.quantity is not None and entry.quantity not in quantities:
        return False
    traits = req.traits()
    if entry.attribute is None:
        return not traits
    return Trait(entry.attribute.trait_type, entry.attribute.value) in traits


def count_matching(entries: Sequence[BidListEntry], req: CollectionBidRequest) -> int:
    return sum(1 for e in entries if matches(e, req))


async def place_with_retries(
    ctx: ServiceContext,
    sign: RequestSigner,
    baseline: int,
    max_attempts: int = MAX_ATTEMPTS,
    on_attempt: AttemptObserver | None = None,
) -> Placement:
    """Place one bid request by the rules above. `baseline` is how many listed bids matched
    the request before the first attempt (from the pre-flight read of the open bids).
    `on_attempt` hears each attempt's result as soon as it is known, before the next one is
    signed (the strategy journal completes each signature's entry with it)."""
    address = ctx.ordinals_address  # the pace is per bidderTokenReceiveAddress
    attempts: list[Attempt] = []

    async def note(attempt: Attempt) -> None:
        attempts.append(attempt)
        if on_attempt is not None:
            await on_attempt(attempt)

    last_timestamp = 0
    for _ in range(max_attempts):
        await ctx.pacer.before_send(address, ctx.sleeper)
        timestamp = max(ctx.clock.now_ms(), last_timestamp + 1)
        last_timestamp = timestamp
        request = await sign(timestamp)
        units = request.rate_units()
        try:
            await ctx.clients.marketplace.place_collection_bid(request)
        except RateLimited as exc:
            ctx.pacer.sent(address, units)
            wait = exc.retry_after_ms
            wait = units * BID_RATE_INTERVAL_MS if wait is None else wait
            # A 429 says "not placed", but each new attempt is a new signature the service
            # could use, and a user told "try again" signs one too: look first, as after a 5xx.
            if await _was_placed(ctx, request, baseline, exc):
                await note(Attempt(timestamp, AttemptResult.FOUND_AFTER_ERROR, _label(exc)))
                return Placement(request, tuple(attempts))
            if wait > MAX_SERVICE_WAIT_MS:
                raise BidNotPlacedError(
                    f"The marketplace asks to wait {wait / 1000:,.0f} s before another bid; "
                    "that is not waited out here, and the bid is not among your open bids: "
                    "try again later.",
                    exc.error_code,
                ) from exc
            ctx.pacer.service_said_wait(address, wait)
            await note(Attempt(timestamp, AttemptResult.RATE_LIMITED, _label(exc), wait))
            continue
        except (ServerError, SignatureAlreadyUsed, TransportError) as exc:
            if isinstance(exc, TransportError) and not exc.may_have_been_applied:
                await note(Attempt(timestamp, AttemptResult.NOT_SENT, _label(exc)))
                await ctx.sleeper.sleep_ms(CONNECT_RETRY_PAUSE_MS)
                continue
            ctx.pacer.sent(address, units)
            if await _was_placed(ctx, request, baseline, exc):
                await note(Attempt(timestamp, AttemptResult.FOUND_AFTER_ERROR, _label(exc)))
                return Placement(request, tuple(attempts))
            await note(Attempt(timestamp, AttemptResult.NOT_FOUND_AFTER_ERROR, _label(exc)))
            continue
        except MarketplaceError as exc:
            ctx.pacer.sent(address, units)
            raise BidRequestRefusedError(
                f"The marketplace refused the bid: {exc.message}", exc.error_code
            ) from exc
        ctx.pacer.sent(address, units)
        await note(Attempt(timestamp, AttemptResult.PLACED))
        return Placement(request, tuple(attempts))
    last = attempts[-1].error if attempts else "no attempt"
    raise BidNotPlacedError(
        f"The bid could not be placed after {len(attempts)} attempts (last: {last}); "
        "each attempt was a new signed request and none was found among your open bids."
    )


async def _was_placed(
    ctx: ServiceContext, request: CollectionBidRequest, baseline: int, cause: NetError
) -> bool:
    try:
        entries = await fetch_open_bids(ctx)
    except NetError as exc:
        raise BidNotPlacedError(
            f"The bid request ended with {_label(cause)} and then the open bids could not be "
            f"read ({_label(exc)}), so it is unknown whether the bid was placed. Check your "
            "open bids before placing it again."
        ) from exc
    return count_matching(entries, request) > baseline


def _label(exc: NetError) -> str:
    code = getattr(exc, "error_code", None)
    status = getattr(exc, "status", None)
    parts = [type(exc).__name__] + [str(p) for p in (status, code) if p is not None]
    return " ".join(parts)
