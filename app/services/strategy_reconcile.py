"""The strategy's bids as the service lists them, set against the journal (issue 17).

Run before the engine acts, at its start (a crash may have left any state behind) and at
every tick (`unknown` entries, fills and expiries): synchronous file work, call it from an
executor. What it does, in order:

1. at a start, `abandon_intents`: an intent from before the start never handed its signature
   out, so nothing was sent;
2. a placed entry without bid ids gets the unclaimed listed bids matching it (pool, price,
   expiry);
3. an entry left `signed` or `unknown` (the process died, or the answer was lost) is
   `placed` when matching unclaimed bids are listed (spec retry rule 2: look before placing
   again); otherwise `unknown` while its message could still land (its timestamp is less than
   `MESSAGE_USABLE_MS` old: it keeps its exposure), then `not_placed`;
4. each placed bid no longer listed is ended in the bid log: cancelled (when the strategy asked
   to), expired (at or after its expiry), else filled; an entry whose bids are all gone is
   `ended` in the journal;
5. a cancel whose bid is still listed goes back to `open` (the plan decides again).

Nothing here signs or sends anything; the listed bids are read by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.net.marketplace_bids import BidListEntry
from app.services.open_bids import pool_key_of
from app.services.strategy_bid_log import GONE_STATES, StrategyBidLog
from app.services.strategy_journal import (
    MESSAGE_USABLE_MS,
    EntryState,
    JournalEntry,
    StrategyJournal,
)

AMBIGUOUS = (
    "more bids alike are listed than it placed: which are ours is not known, so none is "
    "cancelled by the strategy; its exposure counts until it expires"
)


@dataclass(frozen=True)
class ReconcileReport:
    abandoned: int = 0  # intents from before the start
    found: int = 0  # signed or unknown entries found among the open bids: placed
    unknown: int = 0  # entries still unknown (their message could still land)
    not_placed: int = 0  # signed or unknown, not listed, message too old
    ids_recorded: int = 0  # placed entries whose bid ids were learnt
    filled: int = 0
    expired: int = 0
    cancelled: int = 0
    ended: int = 0  # journal entries whose bids are all gone

    def summary(self) -> str:
        fields = vars(self)
        return ", ".join(f"{k} {v}" for k, v in fields.items() if v) or "nothing to reconcile"


@dataclass(frozen=True)
class OwnBid:
    """A listed bid of the strategy and the journal entry that placed it."""

    listed: BidListEntry
    entry: JournalEntry


def _matches(listed: BidListEntry, entry: JournalEntry) -> bool:
    pool = pool_key_of(listed)
    if pool is None or not entry.pools or str(pool) != entry.pools[0]:
        return False
    if listed.price is not None and listed.price != entry.price:
        return False
    return listed.expiration_ms is None or listed.expiration_ms == entry.bid_expiry


def _unclaimed_matches(
    listed: Sequence[BidListEntry], claimed: set[str], entry: JournalEntry
) -> tuple[str, ...] | None:
    """The listed bids no entry holds that match `entry`; none when more match than it
    placed: the user (or another strategy) has a bid alike (same pool, price, and an expiry
    the service does not list), and taking it for ours would let the strategy cancel it.
    The entry then keeps its exposure until it expires, its bids never cancelled by us.
    None when ambiguous, () when nothing matches."""
    found = [b.bid_id for b in listed if b.bid_id not in claimed and _matches(b, entry)]
    return tuple(found) if len(found) <= entry.bids else None


def reconcile(
    journal: StrategyJournal,
    log: StrategyBidLog,
    policy_id: str,
    listed: Sequence[BidListEntry],
    now_ms: int,
    *,
    started_ms: int | None = None,
) -> ReconcileReport:
    """Bring the journal and the bid log in line with the listed bids (module docstring)."""
    counts = dict.fromkeys(vars(ReconcileReport()), 0)
    if started_ms is not None:
        counts["abandoned"] = journal.abandon_intents(policy_id, started_ms, now_ms)
    placed = journal.placed(policy_id)
    claimed = journal.claimed_bid_ids()  # every policy's, ever: strategies may share a pool
    for entry in placed:
        if not entry.bid_ids:
            ids = _unclaimed_matches(listed, claimed, entry)
            if ids:
                journal.record_bid_ids(entry.entry_id, ids, now_ms)
                claimed.update(ids)
                counts["ids_recorded"] += 1
    for entry in journal.unsettled(policy_id):
        if entry.state is EntryState.INTENT:
            continue  # only during a signature of this process (sequential: none here)
        ids = _unclaimed_matches(listed, claimed, entry)
        if ids is None:  # placed or not, a bid alike is listed: count it, never cancel it
            journal.mark_placed(entry.entry_id, now_ms, AMBIGUOUS)
            counts["found"] += 1
        elif ids:
            journal.mark_placed(entry.entry_id, now_ms, "found among the open bids", ids)
            claimed.update(ids)
            counts["found"] += 1
        elif entry.timestamp + MESSAGE_USABLE_MS > now_ms:
            if entry.state is EntryState.SIGNED:
                journal.mark_unknown(entry.entry_id, now_ms, "not listed yet: look again")
            counts["unknown"] += 1
        else:
            journal.mark_not_placed(entry.entry_id, now_ms, "not among the open bids")
            counts["not_placed"] += 1
    _settle_gone(journal, log, policy_id, listed, now_ms, counts)
    return ReconcileReport(**counts)


def _settle_gone(
    journal: StrategyJournal,
    log: StrategyBidLog,
    policy_id: str,
    listed: Sequence[BidListEntry],
    now_ms: int,
    counts: dict[str, int],
) -> None:
    open_ids = {b.bid_id for b in listed}
    states = log.states(policy_id)
    for entry in journal.placed(policy_id):
        per_bid = entry.cost // max(1, entry.bids)
        pool = entry.pools[0] if entry.pools else entry.collection_slug
        for bid_id in entry.bid_ids:
            state = states.get(bid_id)
            if bid_id in open_ids or state in GONE_STATES:
                continue
            if state == "cancelling":
                end, why = "cancelled", "gone after the strategy's cancel"
            elif entry.bid_expiry <= now_ms:
                end, why = "expired", "gone at its expiry"
            else:
                end, why = "filled", "gone before its expiry, not cancelled by the strategy"
            log.set_state(policy_id, bid_id, pool, end, per_bid, why, now_ms)
            states[bid_id] = end
            counts[end] += 1
        counts["ended"] += end_if_all_gone(journal, log, entry, now_ms, states)
    for bid_id in log.in_state(policy_id, "cancelling"):
        if bid_id in open_ids:
            log.set_state(policy_id, bid_id, "", "open", 0, "still open after a cancel", now_ms)


def end_if_all_gone(
    journal: StrategyJournal,
    log: StrategyBidLog,
    entry: JournalEntry,
    now_ms: int,
    states: dict[str, str] | None = None,
) -> int:
    """End a placed entry in the journal once every one of its bids is gone (1 if it was)."""
    states = log.states(entry.policy_id) if states is None else states
    if not entry.bid_ids or not all(states.get(b) in GONE_STATES for b in entry.bid_ids):
        return 0
    if journal.entry(entry.entry_id).state is not EntryState.PLACED:
        return 0  # ended already (the entry was read before)
    ends = [states[b] for b in entry.bid_ids]
    outcome = ", ".join(f"{s} {ends.count(s)}" for s in GONE_STATES if s in ends)
    journal.mark_ended(entry.entry_id, now_ms, outcome)
    return 1


def own_bids(
    journal: StrategyJournal, policy_id: str, listed: Sequence[BidListEntry]
) -> dict[str, OwnBid]:
    """The listed bids the strategy placed (by the journal's bid ids), by bid id."""
    by_id = {b.bid_id: b for b in listed}
    out: dict[str, OwnBid] = {}
    for entry in journal.placed(policy_id):
        for bid_id in entry.bid_ids:
            if bid_id in by_id:
                out[bid_id] = OwnBid(by_id[bid_id], entry)
    return out
