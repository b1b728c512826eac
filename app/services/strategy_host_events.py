"""What the strategies' host tells the rest of the window (issue 17): the bids a strategy's
step cancelled and placed (`BidsActed`: the live updates take those cancels as ours, Open bids
reads again), and each approve, start and stop (`HostAction`: a line of the Activity log)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.services.strategy_cancel import ActionResult

__all__ = ["BidsActed", "HostAction", "bids_acted"]


@dataclass(frozen=True)
class BidsActed:
    """The bids a strategy's step cancelled and placed (a renewal does both). `step_done`
    False: one cancel told as soon as it is done, the step still going on."""

    policy_id: str
    cancelled: frozenset[str]
    placed: frozenset[str]
    step_done: bool = True


@dataclass(frozen=True)
class HostAction:
    """An approve, start or stop ("approve", "start", "stop"), or "ended": a strategy
    stopped on its own. `error`: it failed, in words; `cancelled`: a stop's bids cancelled
    (None: kept)."""

    kind: str
    policy_id: str
    error: str | None = None
    cancelled: int | None = None


def bids_acted(policy_id: str, results: Sequence[ActionResult]) -> BidsActed:
    """The bid ids in a step's results: a cancel's or renewal's `action.bid_id` once done, and
    the ids a placement's detail lists ("bids a, b")."""
    cancelled: set[str] = set()
    placed: set[str] = set()
    for result in results:
        kind, bid_id = result.action.kind, result.action.bid_id
        if not result.done:
            continue
        if kind in ("cancel", "renew") and bid_id is not None:
            cancelled.add(bid_id)
        if kind != "cancel" and result.detail.startswith("bids "):
            placed.update(i for i in result.detail.removeprefix("bids ").split(", ") if i)
    return BidsActed(policy_id, frozenset(cancelled), frozenset(placed))
