"""The Strategies tab's words, from a strategy's last check (no Qt window, no network): each
pool's status, target, live bids, budget used, last and next action; a refresh with the same
rows changes cells in place; the desktop notifications' words per kind of notice."""

from __future__ import annotations

from fractions import Fraction

from pytestqt.qtbot import QtBot

from app.core.pools import PoolKey
from app.core.strategy_plan import PlanAction, PoolPlan, StrategyPlan
from app.core.strategy_rules import FixedPrice, PoolStrategy
from app.core.strategy_settings import StrategyLimits
from app.core.strategy_targets import PoolRoom, PoolTarget, TargetLevel
from app.services.strategy_cancel import ActionResult
from app.services.strategy_engine import StrategyConfig, TickReport
from app.services.strategy_host import StrategyView
from app.services.strategy_journal import EntryState, JournalEntry
from app.services.strategy_notices import StrategyNotice
from app.services.strategy_reconcile import ReconcileReport
from app.ui.models.strategies_model import (
    J_REASON,
    J_STATE,
    P_BUDGET,
    P_LAST,
    P_LIVE,
    P_NEXT,
    P_STATUS,
    P_TARGET,
    S_BUDGET,
    S_STATUS,
    S_UNTIL,
    Acted,
    Row,
    clock_time,
    journal_rows,
    pool_rows,
    pools_model,
    remember_acted,
    strategy_row,
)
from app.ui.strategy_notice_text import notice_text
from app.ui.tabs.strategies_actions import _stopped_text

PUNKS, RUNE = PoolKey("pixel-punks"), PoolKey("DOG•GO•TO•THE•MOON")
NOW = 1_800_000_000_000
HOUR = 3_600_000
TICK_MS = 30_000


def _level(price: int, quantity: int, unit: Fraction) -> TargetLevel:
    return TargetLevel(price, quantity, unit, unit, price * quantity, "why")


def _entry(state: str, expiry: int, outcome: str | None = None, bids: int = 2) -> JournalEntry:
    facts = ("ordinals", "pixel-punks", ("pixel-punks",), 13_000, bids, bids, bids * 13_130)
    times = (expiry, NOW, NOW - 60_000, NOW)
    return JournalEntry(7, "pixel-pals", EntryState(state), "Open: none; place 2", *facts,
                        *times, None, None, ("a", "b"), outcome)  # fmt: skip


def _view(
    plans: tuple[PoolPlan, ...], results: tuple[ActionResult, ...], running: bool = True
) -> StrategyView:
    pools = (
        PoolStrategy(PUNKS, FixedPrice(13_000), 84_000, rune=False),
        PoolStrategy(RUNE, FixedPrice(Fraction(1, 4)), 20_000, rune=True),
    )
    config = StrategyConfig("pixel-pals", pools, StrategyLimits(104_000, 6), tick_ms=TICK_MS)
    plan = StrategyPlan(plans, (), sum(p.exposure_sats for p in plans), 0)
    report = TickReport(NOW, ReconcileReport(), plan, results)
    return StrategyView("pixel-pals", config, None, None, running, report,
                        {"pixel-punks": 14_000})  # fmt: skip


def test_a_pool_row_says_what_the_last_check_did_and_what_comes_next() -> None:
    place = PlanAction("place", PUNKS, 13_000, 2, "Open: 1 of the 3 bids wanted; place 2")
    failed = PlanAction("place", RUNE, 100, 400, "Open: none; place 1")
    punks = PoolPlan(
        PoolTarget(
            PUNKS,
            "bid",
            (_level(13_000, 3, Fraction(13_000)),),
            "above the top bid",
            Fraction(20_000),
            False,
        ),
        PoolRoom(70_000, 4, "the pool's budget"),
        ("kept-1",),
        (place,),
        42_000,
        3,
    )
    rune = PoolPlan(
        PoolTarget(
            RUNE,
            "bid",
            (_level(100, 400, Fraction(1, 4)),),
            "the fixed price",
            Fraction(1, 4),
            True,
        ),
        PoolRoom(20_000, 1, "the pool's budget"),
        (),
        (failed,),
        101,
        1,
    )
    view = _view((punks, rune), (ActionResult(place, True, "bids a, b"),
                                 ActionResult(failed, False, "BidRateLimited")))  # fmt: skip
    first, second = pool_rows(view, TICK_MS, NOW + 22_000)
    assert first.texts[P_STATUS] == "Bidding" and first.tips[P_STATUS] == "above the top bid"
    assert first.texts[P_TARGET] == "3 × 13,000 sats"
    assert first.texts[P_LIVE] == "3 of 3"  # one kept, two placed
    assert first.texts[P_BUDGET] == "56,000 of 84,000 sats"  # fills 14,000 + open 42,000
    assert first.texts[P_LAST] == "Placed 2 bids at 13,000 sats"
    assert first.texts[P_NEXT] == "Next check in 8 s"
    assert second.texts[P_TARGET] == "400 units at 0.25 sats per unit"
    assert second.texts[P_LIVE] == "0 of 1"
    assert second.texts[P_LAST] == "Place failed: BidRateLimited"
    assert second.texts[P_NEXT] == "Place 400 units at 0.25 sats per unit at the next check"
    assert "Open: none; place 1" in second.tips[P_NEXT]


def test_a_stopped_or_holding_pool_has_no_target_and_a_pool_not_checked_says_so() -> None:
    stop = PoolPlan(
        PoolTarget(
            PUNKS, "stop", (), "the floor 52,000 sats is above the band", Fraction(0), False
        ),
        PoolRoom(0, 0, "", "pool_budget"),
        (),
        (),
        0,
        0,
    )
    stopped, unchecked = pool_rows(_view((stop,), ()), TICK_MS, NOW + TICK_MS)
    assert stopped.texts[P_STATUS] == "Stopped" and "above the band" in stopped.tips[P_STATUS]
    # Why it stopped shows without hovering.
    assert stopped.texts[P_TARGET] == "the floor 52,000 sats is above the band"
    assert stopped.texts[P_LAST] == "No change needed"
    assert stopped.texts[P_NEXT] == "Checking now…"
    assert unchecked.texts[P_STATUS] == "First check running…"


def test_the_same_rows_refresh_in_place_and_new_ones_reset(qtbot: QtBot) -> None:
    model = pools_model()
    resets: list[int] = []
    changes: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    model.dataChanged.connect(lambda *_: changes.append(1))
    row = Row("a", ("a", "Bidding", "", "", "", "", "Next check in 9 s"))
    model.set_rows([row])
    model.set_rows([Row("a", ("a", "Bidding", "", "", "", "", "Next check in 8 s"))])
    assert (len(resets), len(changes)) == (1, 1)
    assert model.text(0, P_NEXT) == "Next check in 8 s"
    model.set_rows([row, Row("b", row.texts)])
    assert len(resets) == 2 and model.rowCount() == 2


def test_each_notice_in_words() -> None:
    filled = StrategyNotice("filled", "pixel-pals", PUNKS, sats=14_000, budget_left=70_000)
    assert notice_text(filled) == (
        "Bid filled — pixel-pals",
        "pixel-punks: 14,000 sats spent; 70,000 sats of the budget left to bid",
    )
    outbid = StrategyNotice("outbid", "pixel-pals", PUNKS, top=12_000, ours=11_000, rebid=12_100)
    assert notice_text(outbid) == (
        "Outbid — pixel-pals",
        "pixel-punks: top bid 12,000 sats: the strategy bid again at 12,100 sats",
    )
    above = StrategyNotice("outbid", "keep-pixel-punks", PUNKS, top=25_000, ours=12_100,
                           cap=20_000)  # fmt: skip
    assert notice_text(above) == (  # the pool's name is in the strategy's: not said twice
        "Outbid — keep-pixel-punks",
        "top bid 25,000 sats is above your cap of 20,000 sats: the strategy holds at 20,000 sats",
    )
    rune = StrategyNotice("outbid", "pixel-pals", RUNE, is_rune=True, top=1.5, ours=0.5)
    assert notice_text(rune)[1] == (
        f"{RUNE}: top bid 1.5 sats per unit, yours 0.5 sats per unit: the strategy bids again "
        "at its next check"
    )
    spent = StrategyNotice("budget_spent", "pixel-pals", PUNKS, reason="budget spent")
    assert notice_text(spent) == ("Budget spent — pixel-pals", "pixel-punks: budget spent")
    low = StrategyNotice("budget_spent", "pixel-pals", PUNKS, budget_left=18_000, bid_cost=21_000)
    assert notice_text(low)[1] == (
        "Budget too low for another bid in pixel-punks: 18,000 sats left, one bid costs 21,000 sats"
    )
    stopped = StrategyNotice("stopped", "pixel-pals", PUNKS, reason="floor\nout of band")
    title, text = notice_text(stopped)
    assert title == "Strategy pool stopped — pixel-pals"
    assert text == "pixel-punks: floor\ufffdout of band"  # no line of its own


def test_a_stopped_strategy_shows_what_it_left_open_and_what_it_last_did() -> None:
    place = PlanAction("place", PUNKS, 13_000, 2, "Open: none; place 2")
    target = PoolTarget(PUNKS, "bid", (_level(13_000, 2, Fraction(13_000)),), "why",
                        Fraction(20_000), False)  # fmt: skip
    plan = PoolPlan(target, PoolRoom(70_000, 4, "the pool's budget"), (), (place,), 26_260, 2)
    running = _view((plan,), (ActionResult(place, True, "bids a, b"),))
    memory: dict[str, Acted] = {}
    remember_acted(memory, running)
    # A later check that changes nothing does not hide what the last one did, nor when.
    quiet = _view((plan,), ())
    remember_acted(memory, quiet)
    (row, _rune) = pool_rows(quiet, TICK_MS, NOW + 5_000, acted=memory)
    assert row.texts[P_LAST] == f"Placed 2 bids at 13,000 sats · {clock_time(NOW, NOW)}"
    # Checks made while the tab was not shown: the journal's newest placement tells.
    (row, _rune) = pool_rows(quiet, TICK_MS, NOW + 5_000, entries=[_entry("placed", NOW + HOUR)])
    at = clock_time(NOW - 60_000, NOW)
    assert (row.texts[P_LAST], row.tips[P_LAST]) == (f"Placed 2 bids at 13,000 sats · {at}",
                                                     "Open: none; place 2")  # fmt: skip
    # Stopped, its bids kept: "Not running", and its open bids from the journal.
    stopped = _view((plan,), (), running=False)
    entries = [_entry("placed", NOW + HOUR), _entry("ended", NOW + HOUR, "filled 2")]
    (row, _rune) = pool_rows(stopped, TICK_MS, NOW + 5_000, acted=memory, entries=entries)
    assert row.texts[P_STATUS] == row.texts[P_NEXT] == "Not running"
    assert row.texts[P_TARGET] == "—"
    assert row.texts[P_LIVE] == "2 bids open"
    assert clock_time(NOW + HOUR, NOW) in row.tips[P_LIVE]
    assert row.texts[P_BUDGET] == f"{14_000 + 26_260:,} of 84,000 sats"  # fills + open bids
    assert "14,000 sats spent by fills + 26,260 sats in open bids" in row.tips[P_BUDGET]
    assert row.texts[P_LAST].startswith("Placed 2 bids at 13,000 sats · ")
    # Its bids expired: nothing open, nothing committed beyond the fills.
    (row, _rune) = pool_rows(stopped, TICK_MS, NOW + 2 * HOUR, entries=entries)
    assert (row.texts[P_LIVE], row.texts[P_BUDGET]) == ("None open", "14,000 of 84,000 sats")
    strategy = strategy_row(stopped, NOW + 5_000, entries)
    assert strategy.texts[S_STATUS] == "Stopped (approval revoked)"  # it ran: Stop revoked it
    assert strategy.texts[S_UNTIL] == "Revoked"
    assert strategy.texts[S_BUDGET] == f"{14_000 + 26_260:,} of 104,000 sats"
    assert strategy_row(stopped, NOW, []).texts[S_STATUS] == "Not approved"


def test_an_ended_journal_entry_says_how_its_bids_ended() -> None:
    rows = journal_rows([_entry("ended", NOW, "filled 2"), _entry("ended", NOW, "cancelled 2"),
                         _entry("ended", NOW, "expired 2"),
                         _entry("ended", NOW, "filled 1, cancelled 1"),
                         _entry("placed", NOW + HOUR)])  # fmt: skip
    states = [row.texts[J_STATE] for row in rows]
    assert states == ["Filled", "Cancelled", "Expired", "Filled 1, cancelled 1", "Placed"]
    assert rows[0].texts[J_REASON] == "Open: none; place 2"  # the outcome is in State


def test_one_message_for_every_strategy_stopped() -> None:
    kept = [_entry("placed", NOW + HOUR), _entry("placed", NOW + 2 * HOUR, bids=1)]
    until = clock_time(NOW + 2 * HOUR, NOW)
    assert _stopped_text(["a", "b"], False, 0, kept, NOW) == (
        "2 strategies stopped (a, b); their approvals are revoked. 3 bids stay open, the last "
        f"until {until} (Open bids tab); they can still be filled."
    )
    assert _stopped_text(["a"], False, 0, kept[1:], NOW) == (
        "a stopped; its approval is revoked. 1 bid stays open until "
        f"{until} (Open bids tab); it can still be filled."
    )
    assert _stopped_text(["a", "b"], True, 3, [], NOW) == (
        "2 strategies stopped (a, b); their approvals are revoked. 3 bids cancelled."
    )
    assert _stopped_text(["a"], False, 0, [], NOW) == "a stopped; its approval is revoked."
