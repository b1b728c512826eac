"""The Strategies tab's tables: the strategies, and the selected one's pools, as rows of text
(with a tooltip per cell) read from the host's `StrategyView`s. A refresh with the same rows
(the same keys, in the same order) changes the cells in place, so the selection, the scroll
position and the column widths stay put while a running strategy ticks."""

from __future__ import annotations

from collections.abc import Sequence
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


# -- the strategies ----------------------------------------------------------------------------


def strategy_status(view: StrategyView) -> tuple[str, str]:
    """The status and its tooltip (why, in the host's words)."""
    if view.running:
        return strings.STRATEGY_RUNNING, ""
    if view.error:
        return strings.STRATEGY_FAILED, view.error
    if view.config is None:
        return strings.STRATEGY_UNREADABLE, view.problem or ""
    if view.policy is None:
        return strings.STRATEGY_NOT_APPROVED, strings.STRATEGIES_START_NEEDS_APPROVAL
    return strings.STRATEGY_STOPPED, ""


def _exposure(view: StrategyView) -> int:
    """What the strategy's bids commit: counted from its last check while it runs (a stopped
    strategy's last check may be long past, its bids cancelled since)."""
    report = view.last_report
    if not view.running or report is None or report.plan is None:
        return 0
    return report.plan.exposure_sats


def strategy_row(view: StrategyView, now_ms: int) -> Row:
    status, status_tip = strategy_status(view)
    config = view.config
    pools = f"{len(config.pools):,}" if config is not None else ""
    budget = budget_tip = ""
    if config is not None:
        spent = sum(view.spent_by_pool.values())
        exposure = _exposure(view)
        budget = strings.STRATEGY_BUDGET.format(
            used=spent + exposure, budget=config.limits.total_budget_sats
        )
        budget_tip = (
            strings.STRATEGY_BUDGET_TIP.format(spent=spent, exposure=exposure)
            if view.running
            else strings.STRATEGY_BUDGET_SPENT_TIP.format(spent=spent)
        )
    until = ""
    if view.policy is not None:
        until = local_time(view.policy.valid_until_ms)
        if view.policy.valid_until_ms <= now_ms:
            until = strings.STRATEGY_ENDED.format(until=until)
    id_tip = view.problem if config is None else ""
    return Row(
        view.policy_id,
        (view.policy_id, status, pools, budget, until),
        (id_tip or "", status_tip, "", budget_tip, ""),
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


def last_action(results: Sequence[ActionResult], rune: bool) -> tuple[str, str]:
    """The last check's last action in the pool (and how many more), every one in the tip."""
    if not results:
        return strings.POOL_LAST_NONE, ""
    lines = [_result_text(r, rune) for r in results]
    details = [
        f"{line} — {r.action.reason} ({r.detail})" for line, r in zip(lines, results, strict=True)
    ]
    text = lines[-1]
    if len(lines) > 1:
        text = strings.POOL_LAST_MORE.format(text=text, count=len(lines) - 1)
    return text, "\n".join(details)


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


def pool_rows(view: StrategyView, tick_ms: int, now_ms: int) -> list[Row]:
    """A row per pool of the strategy, in its file's order, from its last check."""
    config = view.config
    if config is None:
        return []
    report = view.last_report
    plans: dict[PoolKey, PoolPlan] = {}
    if report is not None and report.plan is not None:
        plans = {p.target.pool: p for p in report.plan.pools}
    rows = []
    for pool in config.pools:
        spent = view.spent_by_pool.get(str(pool.pool), 0)
        plan = plans.get(pool.pool)
        rows.append(_pool_row(view, pool.pool, pool.budget_sats, spent, plan, report, tick_ms,
                              now_ms))  # fmt: skip
    return rows


def _pool_row(
    view: StrategyView,
    pool: PoolKey,
    budget: int,
    spent: int,
    plan: PoolPlan | None,
    report: TickReport | None,
    tick_ms: int,
    now_ms: int,
) -> Row:
    name = str(pool)
    if plan is None or report is None:
        status = strings.POOL_FIRST_CHECK if view.running else strings.POOL_NOT_RUNNING
        used = strings.STRATEGY_BUDGET.format(used=spent, budget=budget)
        dash = strings.POOL_NO_TARGET
        return Row(name, (name, status, dash, dash, used, dash, dash))
    target = plan.target
    rune = target.is_rune
    results = [r for r in report.results if r.action.pool == pool]
    made = sum(_bids_of(r.action, rune) for r in results if r.done and r.action.kind != "cancel")
    live = len(plan.kept) + made
    live_text = strings.POOL_LIVE_BIDS.format(live=live, wanted=plan.active_bids)
    live_tip = strings.POOL_LIVE_BIDS_TIP.format(
        live=live, kept=len(plan.kept), made=made, wanted=plan.active_bids
    )
    exposure = plan.exposure_sats if view.running else 0
    used = strings.STRATEGY_BUDGET.format(used=spent + exposure, budget=budget)
    used_tip = strings.STRATEGY_BUDGET_TIP.format(spent=spent, exposure=exposure)
    last, last_tip = last_action(results, rune)
    if view.running:
        next_text, next_tip = next_action(plan, results, report.now_ms + tick_ms - now_ms, rune)
    else:
        next_text, next_tip = strings.POOL_NOT_RUNNING, ""
    target_line = target_text(target)
    return Row(
        name,
        (name, _status(target), target_line, live_text, used, last, next_text),
        (name, target.reason, target_line, live_tip, used_tip, last_tip, next_tip),
    )


# -- the journal --------------------------------------------------------------------------------

J_TIME, J_KIND, J_POOL, J_PRICE, J_QUANTITY, J_STATE, J_REASON = range(7)


def journal_model() -> RowsModel:
    return RowsModel(strings.STRATEGY_JOURNAL_HEADERS, right=(J_PRICE, J_QUANTITY))


def journal_rows(entries: Sequence[JournalEntry]) -> list[Row]:
    """A row per signature asked for, newest first (as the journal gives them)."""
    rows = []
    for entry in entries:
        state = str(entry.state)
        outcome = entry.refusal or entry.outcome or ""
        reason = entry.reason
        if outcome and outcome != state:  # "placed" says no more than the State column
            reason = strings.JOURNAL_OUTCOME_REASON.format(reason=reason, outcome=outcome)
        pools = ", ".join(entry.pools)
        texts = (
            local_time(entry.created_ms, seconds=True),
            strings.JOURNAL_KINDS.get(entry.kind, entry.kind),
            pools,
            strings.SATS.format(sats=entry.price),
            f"{entry.quantity:,}",
            strings.JOURNAL_STATES.get(state, state),
            reason,
        )
        bids = ", ".join(entry.bid_ids)
        rows.append(Row(str(entry.entry_id), texts, ("", "", pools, "", "", bids, reason)))
    return rows
