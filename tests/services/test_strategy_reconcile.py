"""Reconcile against a list of open bids where the user has a bid just like the strategy's
(same pool and price; the public API may list no expiry): which is ours is not known, so
none is taken for the strategy's (it could cancel the user's bid). Found by an attacker
review: a strategy's stop cancelled the user's bid and left its own open."""

from __future__ import annotations

from pathlib import Path

from app.core.strategy_policy import BidVerdict
from app.net.marketplace_bids import BidListEntry
from app.services.strategy_bid_log import StrategyBidLog
from app.services.strategy_journal import EntryState, StrategyJournal
from app.services.strategy_reconcile import AMBIGUOUS, own_bids, reconcile
from app.wallet.keys import WalletKeys
from tests.support.strategies import ManualClock, unsigned_bid

POLICY = "pol-1"


def _signed(journal: StrategyJournal, keys: WalletKeys, clock: ManualClock) -> int:
    request = unsigned_bid(keys, clock)  # one bid in "puppets" at 40,000 sats
    verdict = BidVerdict(POLICY, "the message", 40_400, 1, ())
    entry_id, _ = journal.record_decision(
        POLICY, request, "keep", clock.now_ms(), lambda _: verdict
    )
    journal.mark_signed(entry_id, "the message", clock.now_ms())
    return entry_id


def _listed(bid_id: str) -> BidListEntry:
    # As the public API may list it: no expiry.
    return BidListEntry(bid_id, "collection", 40_000, 1, None, "puppets")


def test_a_lost_answer_with_a_bid_alike_listed_claims_none(
    tmp_path: Path, keys: WalletKeys
) -> None:
    clock = ManualClock()
    journal = StrategyJournal.in_profile(tmp_path)
    log = StrategyBidLog.in_profile(tmp_path)
    entry_id = _signed(journal, keys, clock)  # the answer was lost
    listed = [_listed("users-own"), _listed("the-strategys")]
    report = reconcile(journal, log, POLICY, listed, clock.now_ms())
    entry = journal.entry(entry_id)
    assert entry.state is EntryState.PLACED and entry.bid_ids == ()
    assert entry.outcome == AMBIGUOUS and report.found == 1
    assert own_bids(journal, POLICY, listed) == {}  # nothing the strategy may cancel
    assert journal.open_exposure(POLICY, clock.now_ms()).sats == 40_400  # still counted


def test_one_match_is_found_and_a_bid_held_by_another_entry_is_never_taken(
    tmp_path: Path, keys: WalletKeys
) -> None:
    clock = ManualClock()
    journal = StrategyJournal.in_profile(tmp_path)
    log = StrategyBidLog.in_profile(tmp_path)
    first = _signed(journal, keys, clock)
    journal.mark_placed(first, clock.now_ms(), "placed", ["held"])
    second = _signed(journal, keys, clock)
    reconcile(journal, log, POLICY, [_listed("held"), _listed("new")], clock.now_ms())
    assert journal.entry(second).bid_ids == ("new",)
    assert journal.entry(first).bid_ids == ("held",)
