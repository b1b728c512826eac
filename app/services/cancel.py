"""Cancel open bids (spec 4.6), one or many, with a per-bid result.

Which address cancels: a bid's maker is the address the service lists it under. The spec
lists bids by the ordinals address; the public service may key them by the payment address
that signed them instead (`open_bids`). So the open bids are read (under both addresses) and
each id is cancelled with its own address's credential, a challenge signed by that address's
key (`cancel_credentials`), one request per address and per 100 ids. An id listed under
neither (already ended, someone else's, unknown) goes to the ordinals address first and,
when the service refuses it there, to the payment address: the service says what it is.

Refusals (403): a challenge we believe live may have expired, so a 403 is answered once by
fetching and signing a new one; a refusal of that fresh challenge is a refused credential
(`CredentialRefusedError`: that address may not cancel these bids), never reported as an
expired challenge. A bid of another maker (the sandbox's CANCEL_NOT_MAKER) is said as such.
When every address refused a request, a refused credential is what is said (the other
address's "not the maker" only says the bids are not its own). One foreign id makes the
service refuse its whole request, so a request of several ids refused as another maker's is
split in halves until each refusal names one bid: the others get the service's own answer.
When every request was refused, nothing was cancelled and the refusal is raised; otherwise
the ids of a refused request are failures in the report, each with a reason of its own.
A request whose answer is lost (a timeout, a dropped connection, a 5xx) may have been carried
out: the open bids are read again and an id no longer listed counts as cancelled, one still
listed as not (spec 4.2's rule for a lost answer: read the state before acting again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.net.errors import MarketplaceError, NetError, ServerError, TransportError
from app.net.marketplace_requests import CancelRequest
from app.net.marketplace_responses import CancelResult
from app.services.cancel_credentials import (
    EXPIRY_MARGIN_MS,
    UNKNOWN_EXPIRY_REUSE_MS,
    ChallengeCache,
    SignedChallenge,
    challenge_cache,
)
from app.services.context import ServiceContext
from app.services.errors import CredentialRefusedError, ServiceError
from app.services.open_bids import bid_addresses, listed_bids

__all__ = [
    "CHUNK",
    "EXPIRY_MARGIN_MS",
    "UNKNOWN_EXPIRY_REUSE_MS",
    "CancelItem",
    "CancelReport",
    "ChallengeCache",
    "SignedChallenge",
    "cancel_bid",
    "cancel_bids",
    "challenge_cache",
    "maker_addresses",
]

CHUNK = 100  # ids per request
_NOT_MAKER = "CANCEL_NOT_MAKER"


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
    """Cancel `bid_ids` (ours, each by the address it is listed under); a result for every
    id asked, in the order asked."""
    ids = list(dict.fromkeys(bid_ids))
    if not ids:
        return CancelReport(())
    cache = cache or challenge_cache(ctx)
    items: dict[str, CancelItem] = {}
    refusals: list[ServiceError] = []
    answered = 0  # requests the service carried out
    for makers, group in (await _by_maker(ctx, ids)).items():
        pending = [group[start : start + CHUNK] for start in range(0, len(group), CHUNK)]
        while pending:
            chunk = pending.pop(0)
            try:
                result = await _cancel_as_first_accepted(ctx, makers, chunk, cache)
            except (TransportError, ServerError) as exc:
                if isinstance(exc, TransportError) and not exc.may_have_been_applied:
                    raise
                # No answer, but the cancel may have been carried out: the list says.
                items.update((item.bid_id, item) for item in await _read_back(ctx, chunk, exc))
                answered += 1
                continue
            except _Refused as refused:
                if refused.not_maker and len(chunk) > 1:
                    half = len(chunk) // 2  # which of them are another maker's?
                    pending[:0] = [chunk[:half], chunk[half:]]
                    continue
                refusals.append(refused.error)
                items.update((i, CancelItem(i, False, refused.reason)) for i in chunk)
                continue
            answered += 1
            items.update((item.bid_id, item) for item in _items_of(chunk, result))
    if refusals and not answered:
        raise refusals[0]
    return CancelReport(tuple(items[i] for i in ids))


async def cancel_bid(
    ctx: ServiceContext, bid_id: str, *, cache: ChallengeCache | None = None
) -> CancelItem:
    return (await cancel_bids(ctx, [bid_id], cache=cache)).items[0]


async def maker_addresses(ctx: ServiceContext, bid_ids: Sequence[str]) -> tuple[str, ...]:
    """Every address of ours whose credential a cancel of `bid_ids` may present, in the order
    they are tried (a cancel signed elsewhere needs each one's challenge signed)."""
    groups = await _by_maker(ctx, list(dict.fromkeys(bid_ids)))
    return tuple(dict.fromkeys(address for makers in groups for address in makers))


class _Refused(Exception):
    """A 403 that a new challenge did not cure: `error` is what the user is told when nothing
    was cancelled, `reason` what each refused id's line says among the others' results;
    `not_maker` when the service said the bids are another maker's."""

    def __init__(self, error: ServiceError, reason: str, *, not_maker: bool = False) -> None:
        super().__init__(error.user_message)
        self.error = error
        self.reason = reason
        self.not_maker = not_maker


async def _by_maker(ctx: ServiceContext, ids: list[str]) -> dict[tuple[str, ...], list[str]]:
    """The ids by the makers to try, in order: the address each is listed under, or every
    address of ours for an id listed under none (or when the list cannot be read)."""
    addresses = bid_addresses(ctx)
    owners: dict[str, str | None] = {}
    if len(addresses) > 1:
        try:
            owners = {e.bid_id: e.listed_under for e in await listed_bids(ctx)}
        except NetError:
            owners = {}  # the service's answers will say whose they are
    groups: dict[tuple[str, ...], list[str]] = {}
    for bid_id in ids:
        owner = owners.get(bid_id)
        groups.setdefault((owner,) if owner in addresses else addresses, []).append(bid_id)
    return groups


async def _cancel_as_first_accepted(
    ctx: ServiceContext, makers: tuple[str, ...], ids: list[str], cache: ChallengeCache
) -> CancelResult:
    refusals: list[_Refused] = []
    for maker in makers:
        try:
            return await _cancel_chunk(ctx, maker, ids, cache)
        except _Refused as refused:
            refusals.append(refused)
    # A refused credential says more than another address's "not the maker": the bids may
    # well be the refused address's own.
    credential = [r for r in refusals if not r.not_maker]
    raise (credential or refusals)[0]


async def _cancel_chunk(
    ctx: ServiceContext, maker: str, ids: list[str], cache: ChallengeCache
) -> CancelResult:
    for retry in (False, True):
        signature = await cache.credential(ctx, maker)
        request = CancelRequest(maker, signature, tuple(ids))
        try:
            return await ctx.clients.marketplace.cancel(request)
        except MarketplaceError as exc:
            if exc.status != 403:
                raise ServiceError(f"The marketplace refused the cancel: {exc.message}") from exc
            if exc.error_code == _NOT_MAKER:
                raise _Refused(
                    ServiceError(
                        "Some of these bids are not yours (another maker placed them); "
                        "nothing was cancelled."
                    ),
                    "not yours: the marketplace says another maker placed it",
                    not_maker=True,
                ) from exc
            if retry:
                raise _Refused(
                    CredentialRefusedError(maker, exc.message),
                    f"the marketplace refused the cancel credential of {maker} "
                    f"(a fresh challenge signed by its key): {exc.message!r}",
                ) from exc
            cache.invalidate(maker)  # perhaps expired although we thought it live: once more
    raise AssertionError("unreachable")  # the loop returns or raises


LOST_AND_STILL_LISTED = "the cancel got no answer (or a server error) and the bid is still listed"


async def _read_back(ctx: ServiceContext, ids: list[str], lost: Exception) -> list[CancelItem]:
    """After a cancel whose answer was lost: an id no longer listed was cancelled (or ended
    meanwhile: either way it is no longer open), one still listed was not. The lost answer's
    error is raised when the list cannot be read either."""
    try:
        open_ids = {e.bid_id for e in await listed_bids(ctx)}
    except NetError:
        raise lost from None
    return [
        CancelItem(i, True) if i not in open_ids else CancelItem(i, False, LOST_AND_STILL_LISTED)
        for i in ids
    ]


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
