"""The Strategies tab's tables: the strategies, and the selected one's pools, as rows of text
(with a tooltip per cell) read from the host's `StrategyView`s. A refresh with the same rows
(the same keys, in the same order) changes the cells in place, so the selection, the scroll
position and the column widths stay put while a running strategy ticks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from app.ui import strings

if TYPE_CHECKING:
    from app.core.pools import PoolKey
    from app.core.strategy_plan import PlanAction, PoolPlan
    from app.core.strategy_targets import PoolTarget
    from app.services.strategy_cancel import ActionResult
    from app.services.strategy_engine import TickReport
    from app.services.strategy_host import StrategyView
    from app.services.strategy_journal import JournalEntry

_Index = QModelIndex | QPersistentModelIndex
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter

S_ID, S_STATUS, S_POOLS, S_BUDGET, S_UNTIL = range(5)
P_POOL, P_STATUS, P_TARGET, P_LIVE, P_BUDGET, P_LAST, P_NEXT = range(7)


@dataclass(frozen=True)
class Row:
    key: str
    texts: tuple[str, ...]
    tips: tuple[str, ...] = ()  # a cell's tooltip; "" or missing: its text, when elided


class RowsModel(QAbstractTableModel):
    """Rows of text under fixed headers; `right` lists the columns of figures."""

    def __init__(self, headers: Sequence[str], right: Sequence[int] = ()) -> None:
        super().__init__()
        self._headers = tuple(headers)
        self._right = frozenset(right)
        self._rows: list[Row] = []

    def set_rows(self, rows: Sequence[Row]) -> None:
        rows = list(rows)
        if [r.key for r in rows] == [r.key for r in self._rows]:
            self._rows = rows
            if rows:
                last = self.index(len(rows) - 1, len(self._headers) - 1)
                self.dataChanged.emit(self.index(0, 0), last)
            return
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def key(self, row: int) -> str:
        return self._rows[row].key

    def row_of(self, key: str) -> int | None:
        return next((n for n, r in enumerate(self._rows) if r.key == key), None)

    def text(self, row: int, column: int) -> str:
        return self._rows[row].texts[column]

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = self._rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return row.texts[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = row.tips[column] if column < len(row.tips) else ""
            return tip or row.texts[column]
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self._right:
            return _RIGHT
        return None


def strategies_model() -> RowsModel:
    return RowsModel(strings.STRATEGIES_HEADERS, right=(S_POOLS, S_BUDGET))


def pools_model() -> RowsModel:
    return RowsModel(strings.STRATEGY_POOLS_HEADERS, right=(P_LIVE, P_BUDGET))


def local_time(ms: int, seconds: bool = False) -> str:
    moment = datetime.fromtimestamp(ms / 1000)
    return moment.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")


def clock_time(ms: int, now_ms: int) -> str:
    """The time of day alone when it is today, else the date too."""
    moment, today = datetime.fromtimestamp(ms / 1000), datetime.fromtimestamp(now_ms / 1000)
    if moment.date() == today.date():
        return moment.strftime("%H:%M:%S")
    return local_time(ms)


@dataclass(frozen=True)
class Acted:
    """A pool's last check that did something: when, and what (the tab remembers it, so the
    checks that change nothing after it do not hide it)."""

    at_ms: int
    results: tuple[ActionResult, ...]


def remember_acted(memory: dict[str, Acted], view: StrategyView) -> None:
    """Keep, per pool, the last check of `view` that acted there."""
    report = view.last_report
    if report is None:
        return
    for result in report.results:
        pool = str(result.action.pool)
        results = tuple(r for r in report.results if str(r.action.pool) == pool)
        memory[pool] = Acted(report.now_ms, results)


def open_entries(entries: Sequence[JournalEntry], now_ms: int) -> list[JournalEntry]:
    """The journal's entries whose bids may still be open: placed and not expired (as last
    known: a stopped strategy's kept bids can still fill, and nothing checks them)."""
    return [e for e in entries if str(e.state) == "placed" and e.bid_expiry > now_ms]


def open_bids_text(entries: Sequence[JournalEntry], now_ms: int) -> tuple[int, str]:
    """How many bids the entries hold, and until when the last of them is open ("" if none)."""
    count = sum(e.bids for e in entries)
    if not count:
        return 0, ""
    return count, clock_time(max(e.bid_expiry for e in entries), now_ms)


# -- the strategies ----------------------------------------------------------------------------


def strategy_status(view: StrategyView, has_run: bool = False) -> tuple[str, str]:
    """The status and its tooltip (why, in the host's words). `has_run`: its journal has
    entries, so a missing approval was revoked when it stopped."""
    if view.running:
        return strings.STRATEGY_RUNNING, ""
    if view.error:
        return strings.STRATEGY_FAILED, view.error
    if view.config is None:
        return strings.STRATEGY_UNREADABLE, view.problem or ""
    if view.policy is None:
        text = strings.STRATEGY_REVOKED if has_run else strings.STRATEGY_NOT_APPROVED
        return text, strings.STRATEGIES_START_NEEDS_APPROVAL
    return strings.STRATEGY_STOPPED, ""


def _exposure(view: StrategyView, still_open: Sequence[JournalEntry]) -> int:
    """What the strategy's bids commit: its last check's plan while it runs; stopped, what
    the journal holds as still open (its last check may be long past, bids cancelled since)."""
    report = view.last_report
    if not view.running:
        return sum(e.cost for e in still_open)
    if report is None or report.plan is None:
        return 0
    return report.plan.exposure_sats


def committed_text(spent: int, exposure: int, budget: int) -> tuple[str, str]:
    """The budget committed (spent by fills + held in open bids), the split in the tip."""
    text = strings.STRATEGY_BUDGET.format(used=spent + exposure, budget=budget)
    return text, strings.STRATEGY_BUDGET_TIP.format(spent=spent, exposure=exposure, budget=budget)


def strategy_row(
    view: StrategyView, now_ms: int, entries: Sequence[JournalEntry] | None = None
) -> Row:
    """`entries`: its journal (newest first), when read: a stopped strategy's open bids."""
    status, status_tip = strategy_status(view, bool(entries))
    config = view.config
    pools = f"{len(config.pools):,}" if config is not None else ""
    budget = budget_tip = ""
    if config is not None:
        spent = sum(view.spent_by_pool.values())
        exposure = _exposure(view, open_entries(entries or (), now_ms))
        budget, budget_tip = committed_text(spent, exposure, config.limits.total_budget_sats)
    until = until_tip = ""
    if view.policy is not None:
        until = local_time(view.policy.valid_until_ms)
        if view.policy.valid_until_ms <= now_ms:
            until = strings.STRATEGY_ENDED.format(until=until)
    elif status == strings.STRATEGY_REVOKED:
        until, until_tip = strings.STRATEGY_UNTIL_REVOKED, strings.STRATEGIES_START_NEEDS_APPROVAL
    id_tip = view.problem if config is None else ""
    return Row(
        view.policy_id,
        (view.policy_id, status, pools, budget, until),
        (id_tip or "", status_tip, "", budget_tip, until_tip),
    )


# -- the selected strategy's pools ---------------------------------------------------------------


def _price(sats: float, rune: bool) -> str:
    return strings.market_price(sats, rune)


def target_text(target: PoolTarget) -> str:
    """The levels bid for; for a pool holding or stopped, why (the plan's words): a newcomer
    sees the reason without hovering."""
    if target.status != "bid" or not target.levels:
        return target.reason or strings.POOL_NO_TARGET
    parts = []
    for level in target.levels:
        if target.is_rune:
            price = _price(float(level.unit_price), True)
            parts.append(strings.POOL_TARGET_UNITS.format(quantity=level.quantity, price=price))
        else:
            price = _price(level.price, False)
            parts.append(strings.POOL_TARGET_BIDS.format(quantity=level.quantity, price=price))
    return "; ".join(parts)


def _status(target: PoolTarget) -> str:
    return {"bid": strings.POOL_BIDDING, "hold": strings.POOL_HOLDING}.get(
        target.status, strings.POOL_STOPPED
    )


def _bids_of(action: PlanAction, rune: bool) -> int:
    """Open bids an action makes: a rune bid is one bid; an ordinals placement `quantity`."""
    return 1 if rune or action.kind == "renew" else action.quantity


def action_what(action: PlanAction, rune: bool) -> str:
    if rune:
        unit = action.price / action.quantity if action.quantity else 0
        return strings.POOL_ACTION_UNITS.format(count=action.quantity, price=_price(unit, True))
    count = _bids_of(action, rune) if action.kind == "place" else 1
    return strings.counted(strings.POOL_ACTION_BIDS, count, price=_price(action.price, False))


def _result_text(result: ActionResult, rune: bool) -> str:
    kind, what = result.action.kind, action_what(result.action, rune)
    if result.done:
        return strings.POOL_LAST_ACTION.format(verb=strings.POOL_ACTION_VERBS[kind], what=what)
    verb = strings.POOL_ACTION_FAILED_VERBS[kind]
    return strings.POOL_LAST_FAILED.format(verb=verb, detail=result.detail)


def last_action(
    results: Sequence[ActionResult],
    rune: bool,
    acted: Acted | None,
    now_ms: int,
    signed: JournalEntry | None = None,
) -> tuple[str, str]:
    """The last check's actions in the pool, else the last one that acted there: `acted`
    (remembered from the checks read), or `signed`, the pool's newest bid placed in the
    journal when newer (checks made while the tab was not shown); with its time."""
    if not results and signed is not None and (acted is None or signed.created_ms > acted.at_ms):
        what = _entry_what(signed, rune)
        text = strings.POOL_LAST_ACTION.format(verb=strings.POOL_ACTION_VERBS["place"], what=what)
        at = clock_time(signed.created_ms, now_ms)
        return strings.POOL_LAST_AT.format(text=text, time=at), signed.reason
    if not results and acted is not None:
        results = acted.results
    if not results:
        return strings.POOL_LAST_NONE, ""
    lines = [_result_text(r, rune) for r in results]
    details = [
        f"{line} — {r.action.reason} ({r.detail})" for line, r in zip(lines, results, strict=True)
    ]
    text = lines[-1]
    if len(lines) > 1:
        text = strings.POOL_LAST_MORE.format(text=text, count=len(lines) - 1)
    if acted is not None:
        text = strings.POOL_LAST_AT.format(text=text, time=clock_time(acted.at_ms, now_ms))
    return text, "\n".join(details)


def _entry_what(entry: JournalEntry, rune: bool) -> str:
    if rune:
        unit = entry.price / entry.quantity if entry.quantity else 0
        return strings.POOL_ACTION_UNITS.format(count=entry.quantity, price=_price(unit, True))
    return strings.counted(strings.POOL_ACTION_BIDS, entry.bids, price=_price(entry.price, False))


def _newest_placed(entries: Sequence[JournalEntry], pool: PoolKey) -> JournalEntry | None:
    """The pool's newest journal entry whose bids were placed (`entries` newest first)."""
    placed = ("placed", "ended")
    return next((e for e in entries if str(pool) in e.pools and str(e.state) in placed), None)


def next_action(
    plan: PoolPlan, results: Sequence[ActionResult], next_check_ms: int, rune: bool
) -> tuple[str, str]:
    """What the pool does next: the plan's actions the last check left undone (the rate's
    share, or a failure: the next check plans them again), else when the next check is."""
    done = {id(r.action) for r in results if r.done}
    pending = [a for a in plan.actions if id(a) not in done]
    if pending:
        first = pending[0]
        what = strings.POOL_ACTION_PENDING[first.kind] + " " + action_what(first, rune)
        text = strings.POOL_NEXT_PENDING.format(what=what)
        if len(pending) > 1:
            text = strings.POOL_LAST_MORE.format(text=text, count=len(pending) - 1)
        tip = "\n".join(
            f"{strings.POOL_ACTION_PENDING[a.kind]} {action_what(a, rune)} — {a.reason}"
            for a in pending
        )
        return text, tip
    if next_check_ms <= 0:
        return strings.POOL_CHECKING, ""
    return strings.POOL_NEXT_CHECK.format(seconds=max(1, -(-next_check_ms // 1000))), ""


def pool_rows(
    view: StrategyView,
    tick_ms: int,
    now_ms: int,
    *,
    acted: Mapping[str, Acted] | None = None,
    entries: Sequence[JournalEntry] = (),
) -> list[Row]:
    """A row per pool of the strategy, in its file's order: from its last check while it
    runs; stopped, from what it left open (`entries`: its journal). `acted`: per pool, the
    last check that acted there (`remember_acted`)."""
    config = view.config
    if config is None:
        return []
    report = view.last_report
    plans: dict[PoolKey, PoolPlan] = {}
    if report is not None and report.plan is not None:
        plans = {p.target.pool: p for p in report.plan.pools}
    still_open = open_entries(entries, now_ms)
    rows = []
    for pool in config.pools:
        spent = view.spent_by_pool.get(str(pool.pool), 0)
        last = (acted or {}).get(str(pool.pool)), _newest_placed(entries, pool.pool)
        if not view.running:
            pool_open = [e for e in still_open if str(pool.pool) in e.pools]
            rows.append(_stopped_pool_row(pool.pool, pool.budget_sats, spent, pool_open,
                                          last, pool.is_rune, now_ms))  # fmt: skip
            continue
        rows.append(_pool_row(pool.pool, pool.budget_sats, spent, plans.get(pool.pool), report,
                              last, tick_ms, now_ms))  # fmt: skip
    return rows


def _stopped_pool_row(
    pool: PoolKey,
    budget: int,
    spent: int,
    still_open: Sequence[JournalEntry],
    last: tuple[Acted | None, JournalEntry | None],
    rune: bool,
    now_ms: int,
) -> Row:
    """A pool of a strategy not running: the bids it left open (they can still fill), what
    they commit, and what it last did."""
    name, dash = str(pool), strings.POOL_NO_TARGET
    count, until = open_bids_text(still_open, now_ms)
    live = strings.counted(strings.POOL_KEPT_BIDS, count) if count else strings.POOL_NONE_OPEN
    live_tip = strings.counted(strings.POOL_KEPT_BIDS_TIP, count, until=until) if count else ""
    used, used_tip = committed_text(spent, sum(e.cost for e in still_open), budget)
    last_text, last_tip = last_action((), rune, last[0], now_ms, last[1])
    status = strings.POOL_NOT_RUNNING
    return Row(
        name,
        (name, status, dash, live, used, last_text, status),
        (name, "", "", live_tip, used_tip, last_tip, ""),
    )


def _pool_row(
    pool: PoolKey,
    budget: int,
    spent: int,
    plan: PoolPlan | None,
    report: TickReport | None,
    last: tuple[Acted | None, JournalEntry | None],
    tick_ms: int,
    now_ms: int,
) -> Row:
    name = str(pool)
    if plan is None or report is None:
        used, used_tip = committed_text(spent, 0, budget)
        dash = strings.POOL_NO_TARGET
        first = strings.POOL_FIRST_CHECK
        return Row(name, (name, first, dash, dash, used, dash, dash), ("", "", "", "", used_tip))
    target = plan.target
    rune = target.is_rune
    results = [r for r in report.results if r.action.pool == pool]
    made = sum(_bids_of(r.action, rune) for r in results if r.done and r.action.kind != "cancel")
    live = len(plan.kept) + made
    live_text = strings.POOL_LIVE_BIDS.format(live=live, wanted=plan.active_bids)
    live_tip = strings.POOL_LIVE_BIDS_TIP.format(
        live=live, kept=len(plan.kept), made=made, wanted=plan.active_bids
    )
    used, used_tip = committed_text(spent, plan.exposure_sats, budget)
    last_text, last_tip = last_action(results, rune, last[0], now_ms, last[1])
    next_text, next_tip = next_action(plan, results, report.now_ms + tick_ms - now_ms, rune)
    target_line = target_text(target)
    return Row(
        name,
        (name, _status(target), target_line, live_text, used, last_text, next_text),
        (name, target.reason, target_line, live_tip, used_tip, last_tip, next_tip),
    )


# -- the journal --------------------------------------------------------------------------------

J_TIME, J_KIND, J_POOL, J_PRICE, J_QUANTITY, J_STATE, J_REASON = range(7)


def journal_model() -> RowsModel:
    return RowsModel(strings.STRATEGY_JOURNAL_HEADERS, right=(J_PRICE, J_QUANTITY))


def journal_state(state: str, outcome: str) -> str:
    """The State column's word; an ended entry says how its bids ended (the reconcile's
    outcome, "filled 1, cancelled 1"): Filled, Cancelled, Expired, or each with its count."""
    if state != "ended" or not outcome:
        return strings.JOURNAL_STATES.get(state, state)
    ends = [part.split() for part in outcome.split(", ")]
    words = [strings.JOURNAL_ENDS.get(end[0]) for end in ends if end]
    if len(ends) == 1 and words[0] is not None:
        return words[0]
    if not all(words) or any(len(end) != 2 for end in ends):
        return strings.JOURNAL_STATES["ended"]
    parts = [f"{word} {end[1]}" for word, end in zip(words, ends, strict=True)]
    return ", ".join([parts[0], *(p.lower() for p in parts[1:])])


def journal_rows(entries: Sequence[JournalEntry]) -> list[Row]:
    """A row per signature asked for, newest first (as the journal gives them)."""
    rows = []
    for entry in entries:
        state = str(entry.state)
        outcome = entry.refusal or entry.outcome or ""
        reason = entry.reason
        # "placed" says no more than the State column; an end's outcome is in it
        if outcome and outcome != state and state != "ended":
            reason = strings.JOURNAL_OUTCOME_REASON.format(reason=reason, outcome=outcome)
        pools = ", ".join(entry.pools)
        texts = (
            local_time(entry.created_ms, seconds=True),
            strings.JOURNAL_KINDS.get(entry.kind, entry.kind),
            pools,
            strings.SATS.format(sats=entry.price),
            f"{entry.quantity:,}",
            journal_state(state, entry.outcome or ""),
            reason,
        )
        bids = ", ".join(entry.bid_ids)
        state_tip = f"{outcome}\n{bids}" if state == "ended" and bids else bids
        rows.append(Row(str(entry.entry_id), texts, ("", "", pools, "", "", state_tip, reason)))
    return rows
