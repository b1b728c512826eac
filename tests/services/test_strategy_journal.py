"""The strategy journal: states moving only forward, append-only facts enforced by the
database, the open exposure each state counts, and what survives a reopen (a restart)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.core.strategy_policy import BidVerdict, OpenExposure, StrategyRefusal, StrategyRefusalCode
from app.services.strategy_journal import (
    JOURNAL_FILE,
    MAX_REASON_CHARS,
    MESSAGE_USABLE_MS,
    EntryState,
    JournalError,
    StrategyJournal,
    message_digest,
)
from app.wallet.keys import WalletKeys
from tests.support.strategies import HOUR_MS, ManualClock, unsigned_bid

S = EntryState


@pytest.fixture
def journal(tmp_path: Path) -> StrategyJournal:
    return StrategyJournal.in_profile(tmp_path)


def _approve(cost: int, bids: int = 1, policy_id: str = "pol-1") -> BidVerdict:
    return BidVerdict(policy_id, "the message", cost, bids, ())


def _refuse() -> BidVerdict:
    refusal = StrategyRefusal(StrategyRefusalCode.PRICE_ABOVE_CAP, "too dear")
    return BidVerdict("pol-1", "", 0, 0, (refusal,))


def _intent(
    journal: StrategyJournal,
    keys: WalletKeys,
    clock: ManualClock,
    cost: int,
    policy_id: str = "pol-1",
) -> int:
    request = unsigned_bid(keys, clock)
    entry_id, _ = journal.record_decision(
        policy_id, request, "keep the floor", clock.now_ms(), lambda _: _approve(cost, 1, policy_id)
    )
    return entry_id


def test_an_entry_records_the_request_the_reason_and_the_decision(
    journal: StrategyJournal, keys: WalletKeys
) -> None:
    clock = ManualClock()
    seen: list[OpenExposure] = []

    def decide(open_exposure: OpenExposure) -> BidVerdict:
        seen.append(open_exposure)
        return _approve(41_000)

    request = unsigned_bid(keys, clock)
    entry_id, verdict = journal.record_decision("pol-1", request, "outbid", clock.now_ms(), decide)
    assert seen == [OpenExposure(0, 0)] and verdict.approved
    entry = journal.entry(entry_id)
    assert (entry.state, entry.reason, entry.collection_slug, entry.pools) == (
        S.INTENT,
        "outbid",
        "puppets",
        ("puppets",),
    )
    assert (entry.price, entry.quantity, entry.bids, entry.cost) == (40_000, 1, 1, 41_000)
    assert (entry.bid_expiry, entry.timestamp) == (request.bid_expiry, request.timestamp)
    journal.mark_signed(entry_id, "the message", clock.now_ms())
    journal.mark_placed(entry_id, clock.now_ms(), bid_ids=["bid-1"])
    placed = journal.entry(entry_id)
    assert placed.state is S.PLACED and placed.bid_ids == ("bid-1",)
    assert placed.message_sha256 == message_digest("the message")

    refused_id, _ = journal.record_decision(
        "pol-1", request, "outbid", clock.now_ms(), lambda _: _refuse()
    )
    refused = journal.entry(refused_id)
    assert refused.state is S.REFUSED and refused.refusal == "PRICE_ABOVE_CAP: too dear"
    assert [e.entry_id for e in journal.entries("pol-1")] == [refused_id, entry_id]
    long_id, _ = journal.record_decision(
        "pol-1", request, "x" * 10_000, clock.now_ms(), lambda _: _refuse()
    )
    assert len(journal.entry(long_id).reason) == MAX_REASON_CHARS


@pytest.mark.parametrize(
    ("path", "counted"),
    [
        ((), True),  # intent
        ((S.SIGNED,), True),
        ((S.SIGNED, S.PLACED), True),
        ((S.SIGNED, S.UNKNOWN), True),
        ((S.SIGNED, S.PLACED, S.ENDED), False),
        ((S.SIGNED, S.UNKNOWN, S.ENDED), False),
        ((S.SIGNED, S.REJECTED), False),
        ((S.ABANDONED,), False),
    ],
)
def test_what_each_state_counts_as_open_exposure(
    journal: StrategyJournal, keys: WalletKeys, path: tuple[EntryState, ...], counted: bool
) -> None:
    clock = ManualClock()
    entry_id = _intent(journal, keys, clock, 41_000)
    moves = {
        S.SIGNED: lambda: journal.mark_signed(entry_id, "m", clock.now_ms()),
        S.PLACED: lambda: journal.mark_placed(entry_id, clock.now_ms()),
        S.UNKNOWN: lambda: journal.mark_unknown(entry_id, clock.now_ms(), "timeout"),
        S.ENDED: lambda: journal.mark_ended(entry_id, clock.now_ms(), "filled"),
        S.ABANDONED: lambda: journal.mark_abandoned(entry_id, clock.now_ms(), "crash"),
        S.REJECTED: lambda: journal.mark_rejected(entry_id, clock.now_ms(), "429"),
    }
    for state in path:
        moves[state]()
    expected = OpenExposure(41_000, 1) if counted else OpenExposure()
    assert journal.open_exposure("pol-1", clock.now_ms()) == expected
    assert journal.open_exposure("another-policy", clock.now_ms()) == OpenExposure()
    # Nothing counts once the bid has expired.
    assert journal.open_exposure("pol-1", clock.now_ms() + HOUR_MS) == OpenExposure()


def test_a_refused_message_counts_until_the_service_would_refuse_it_as_too_old(
    journal: StrategyJournal, keys: WalletKeys
) -> None:
    clock = ManualClock()
    entry_id = _intent(journal, keys, clock, 41_000)
    journal.mark_signed(entry_id, "m", clock.now_ms())
    journal.mark_not_placed(entry_id, clock.now_ms(), "PRICE_TOO_LOW")
    timestamp = journal.entry(entry_id).timestamp
    assert journal.open_exposure("pol-1", timestamp + MESSAGE_USABLE_MS - 1).sats == 41_000
    assert journal.open_exposure("pol-1", timestamp + MESSAGE_USABLE_MS).sats == 0


@pytest.mark.parametrize(
    ("path", "forbidden"),
    [
        ((), S.PLACED),  # never placed without a signature
        ((), S.ENDED),
        ((S.SIGNED,), S.ABANDONED),  # a signature that left the process is never abandoned
        ((S.SIGNED, S.PLACED), S.NOT_PLACED),
        ((S.SIGNED, S.UNKNOWN), S.REJECTED),  # an unknown is settled by the open bids
        ((S.SIGNED, S.REJECTED), S.PLACED),
        ((S.SIGNED, S.PLACED, S.ENDED), S.PLACED),
        ((S.ABANDONED,), S.SIGNED),
    ],
)
def test_states_only_move_forward(
    journal: StrategyJournal, keys: WalletKeys, path: tuple[EntryState, ...], forbidden: EntryState
) -> None:
    clock = ManualClock()
    entry_id = _intent(journal, keys, clock, 1_000)
    for state in path:
        journal._move(entry_id, state, clock.now_ms())
    with pytest.raises(JournalError, match="cannot move"):
        journal._move(entry_id, forbidden, clock.now_ms())
    assert journal.entry(entry_id).state is (path[-1] if path else S.INTENT)


def test_the_database_refuses_deletes_and_changed_facts(
    journal: StrategyJournal, keys: WalletKeys, tmp_path: Path
) -> None:
    entry_id = _intent(journal, keys, ManualClock(), 41_000)
    raw = sqlite3.connect(tmp_path / JOURNAL_FILE)
    for sql in (
        "DELETE FROM signatures",
        "UPDATE signatures SET price = 1",
        "UPDATE signatures SET cost = 0",
        "UPDATE signatures SET reason = 'x'",
        "UPDATE signatures SET state = 'ended'",
    ):
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(sql)
    raw.close()
    assert journal.entry(entry_id).cost == 41_000


def test_bid_ids_are_recorded_once_on_a_placed_entry(
    journal: StrategyJournal, keys: WalletKeys
) -> None:
    clock = ManualClock()
    entry_id = _intent(journal, keys, clock, 1_000)
    with pytest.raises(JournalError):
        journal.record_bid_ids(entry_id, ["b1"], clock.now_ms())
    journal.mark_signed(entry_id, "m", clock.now_ms())
    journal.mark_placed(entry_id, clock.now_ms())
    with pytest.raises(JournalError):  # never more ids than the bids it placed (one)
        journal.record_bid_ids(entry_id, ["b1", "b2"], clock.now_ms())
    journal.record_bid_ids(entry_id, ["b1"], clock.now_ms())
    assert journal.entry(entry_id).bid_ids == ("b1",)
    with pytest.raises(JournalError):
        journal.record_bid_ids(entry_id, ["b3"], clock.now_ms())


def test_a_restart_finds_every_entry_and_abandons_unfinished_intents(
    journal: StrategyJournal, keys: WalletKeys, tmp_path: Path
) -> None:
    clock = ManualClock()
    unfinished = _intent(journal, keys, clock, 1_000)
    out = _intent(journal, keys, clock, 2_000)
    journal.mark_signed(out, "m", clock.now_ms())
    journal.close()  # the process ends; nothing else is written

    clock.advance(5_000)
    reopened = StrategyJournal.in_profile(tmp_path)
    assert reopened._conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert [e.entry_id for e in reopened.unsettled("pol-1")] == [unfinished, out]
    assert reopened.abandon_intents("pol-1", clock.now_ms(), clock.now_ms()) == 1
    assert reopened.entry(unfinished).state is S.ABANDONED
    # The signed one may have reached the service: it stays to reconcile, and counts.
    assert [e.entry_id for e in reopened.unsettled()] == [out]
    assert reopened.open_exposure("pol-1", clock.now_ms()) == OpenExposure(2_000, 1)


def test_a_start_abandons_only_its_own_policys_intents(
    journal: StrategyJournal, keys: WalletKeys
) -> None:
    # Two strategies in one window: starting the second must not abandon an intent the
    # first is signing at that moment (its signature may still be handed out).
    clock = ManualClock()
    running = _intent(journal, keys, clock, 1_000, policy_id="pol-2")
    stale = _intent(journal, keys, clock, 1_000)
    clock.advance(1_000)
    assert journal.abandon_intents("pol-1", clock.now_ms(), clock.now_ms()) == 1
    assert journal.entry(stale).state is S.ABANDONED
    assert journal.entry(running).state is S.INTENT


def test_claimed_bid_ids_are_every_bid_any_entry_ever_held(
    journal: StrategyJournal, keys: WalletKeys
) -> None:
    clock = ManualClock()
    for policy_id, bid_id in (("pol-1", "b1"), ("pol-2", "b2")):
        entry_id = _intent(journal, keys, clock, 1_000, policy_id=policy_id)
        journal.mark_signed(entry_id, "m", clock.now_ms())
        journal.mark_placed(entry_id, clock.now_ms(), "placed", [bid_id])
    ended = _intent(journal, keys, clock, 1_000, policy_id="pol-3")
    journal.mark_signed(ended, "m", clock.now_ms())
    journal.mark_placed(ended, clock.now_ms(), "placed", ["b3"])
    journal.mark_ended(ended, clock.now_ms(), "filled 1")
    abandoned = _intent(journal, keys, clock, 1_000, policy_id="pol-3")
    journal.mark_abandoned(abandoned, clock.now_ms(), "never sent")
    assert journal.claimed_bid_ids() == {"b1", "b2", "b3"}  # an ended entry's too


def test_entries_page_newest_first(journal: StrategyJournal, keys: WalletKeys) -> None:
    clock = ManualClock()
    ids = [_intent(journal, keys, clock, 1_000) for _ in range(5)]
    first = journal.entries(limit=2)
    assert [e.entry_id for e in first] == ids[:-3:-1]
    rest = journal.entries(before_id=first[-1].entry_id)
    assert [e.entry_id for e in rest] == ids[-3::-1]
