"""What a strategy's step tells the rest of the window (`bids_acted`): the bids cancelled
(cancels and renewals done) and placed (the ids a placement's detail lists); nothing for an
action that was not done."""

from __future__ import annotations

from app.core.pools import PoolKey
from app.core.strategy_plan import ActionKind, PlanAction
from app.services.strategy_cancel import ActionResult
from app.services.strategy_host_events import BidsActed, bids_acted

POOL = PoolKey("pixel-pals")


def _result(kind: ActionKind, bid_id: str | None, done: bool, detail: str) -> ActionResult:
    return ActionResult(PlanAction(kind, POOL, 11_000, 1, "why", bid_id), done, detail)


def test_cancels_renewals_and_placements_done_are_told_by_bid_id() -> None:
    results = [
        _result("cancel", "old-1", True, "bid old-1"),
        _result("cancel", "old-2", False, "HttpError"),  # still open: not ours to expect
        _result("renew", "old-3", True, "bids new-3"),
        _result("renew", "old-4", False, "the old bid was not cancelled: bid old-4"),
        _result("place", None, True, "bids new-1, new-2"),
        _result("place", None, False, "refused by the policy: price_cap"),
    ]
    assert bids_acted("s", results) == BidsActed(
        "s", frozenset({"old-1", "old-3"}), frozenset({"new-3", "new-1", "new-2"})
    )


def test_a_step_that_did_nothing_tells_nothing() -> None:
    acted = bids_acted("s", [])
    assert not acted.cancelled and not acted.placed and acted.step_done
