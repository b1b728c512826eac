"""The strategy editor's fields (issue 17): the name, a `PoolEditor` per pool, the total
budget, the maximum of bids, the bids' lifetime and the approval's validity. `read()` gives the
`StrategyConfig` they describe, or None with every broken rule shown at its field (the input
stays as typed). The rules themselves are core's (`strategy_settings`,
`StrategyPolicy.check_id`): their messages are shown, never rewritten."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.limits import MIN_BID_EXPIRY_MS
from app.core.pools import PoolKey
from app.core.strategy_approval import HOUR_MS, VALIDITY_CHOICES_H
from app.core.strategy_policy import StrategyPolicy, StrategyPolicyError
from app.core.strategy_rules import InvalidStrategy, Ladder
from app.core.strategy_settings import EXPIRY_SLACK_MS, LifecycleSettings, StrategyLimits
from app.ui import strings
from app.ui.dialogs.strategy_pool_editor import PoolEditor, core_message, field_row
from app.ui.widgets import message_label
from app.ui.widgets.amount_edit import AmountEdit

if TYPE_CHECKING:
    from app.services.strategy_engine import StrategyConfig

MAX_BIDS = 10_000
MINUTE_MS = 60_000
DAY_MIN = 24 * 60
MAX_LIFETIME_MIN = 7 * DAY_MIN
# The service's 15 minutes and a minute to reach it (`LifecycleSettings` refuses less).
SHORTEST_LIFETIME_MIN = -(-(MIN_BID_EXPIRY_MS + EXPIRY_SLACK_MS) // MINUTE_MS)


def validity_text(hours: int) -> str:
    if hours == 168:
        return strings.EDITOR_VALIDITY_WEEK
    return strings.counted(strings.EDITOR_VALIDITY_HOURS, hours)


class StrategyFields(QWidget):
    """The whole strategy's fields, with a `PoolEditor` per pool."""

    changed = Signal()

    def __init__(
        self,
        start: StrategyConfig,
        *,
        new: bool,
        taken: Collection[str],
        rune_units: int | None = None,
        bid_tab_expiry_ms: int | None = None,
    ) -> None:
        super().__init__()
        self.start = start
        self.new = new
        self.taken = set(taken)
        layout = QVBoxLayout(self)
        top = QFormLayout()
        layout.addLayout(top)
        self.name = QLineEdit(start.policy_id)
        self.name.setMaxLength(64)
        self.name.setReadOnly(not new)  # an approved strategy keeps its name (its files')
        if not new:  # shown as text, not as a field to type in
            self.name.setFrame(False)
            self.name.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        name_hint = strings.EDITOR_NAME_HINT if new else ""
        self.name_line = field_row(top, strings.EDITOR_NAME, self.name, name_hint)
        self.pools = [PoolEditor(s, rune_units if s.is_rune else None) for s in start.pools]
        for editor in self.pools:
            layout.addWidget(editor)
            editor.changed.connect(self.changed)
        bottom = QFormLayout()
        layout.addLayout(bottom)
        self.total = AmountEdit()
        self.total.set_value(start.limits.total_budget_sats)
        self.total_line = field_row(
            bottom, strings.EDITOR_TOTAL_BUDGET, self.total, strings.EDITOR_TOTAL_BUDGET_HINT
        )
        self.max_bids = QSpinBox()
        self.max_bids.setRange(1, MAX_BIDS)
        self.max_bids.setGroupSeparatorShown(True)
        self.max_bids.setValue(max(1, start.limits.max_active_bids))
        self.max_bids.setMaximumWidth(160)
        field_row(bottom, strings.EDITOR_MAX_BIDS, self.max_bids)
        self.lifetime = QSpinBox()
        self.lifetime.setRange(1, MAX_LIFETIME_MIN)
        self.lifetime.setSuffix(strings.EDITOR_LIFETIME_SUFFIX)
        self.lifetime.setValue(start.lifecycle.bid_lifetime_ms // MINUTE_MS)
        self.lifetime.setMaximumWidth(160)
        lifetime_hint = strings.EDITOR_LIFETIME_HINT
        if bid_tab_expiry_ms is not None:  # "Keep this bid…": the form's expiry is not kept
            expiry = span_text(bid_tab_expiry_ms)
            lifetime_hint = strings.EDITOR_LIFETIME_NOT_BID_TAB.format(expiry=expiry)
        self.lifetime_line = field_row(
            bottom, strings.EDITOR_LIFETIME, self.lifetime, lifetime_hint
        )
        self.validity = QComboBox()
        for hours in VALIDITY_CHOICES_H:
            self.validity.addItem(validity_text(hours), hours * HOUR_MS)
        self.validity.setCurrentIndex(VALIDITY_CHOICES_H.index(24))
        field_row(bottom, strings.EDITOR_VALIDITY, self.validity)
        if not any(isinstance(e.strategy.rule, Ladder) for e in self.pools):
            ladder_hint = message_label("hint")
            ladder_hint.setText(strings.EDITOR_LADDER_HINT)
            layout.addWidget(ladder_hint)
        layout.addStretch(1)
        self.name.textEdited.connect(lambda _t: self.changed.emit())
        self.total.changed.connect(self.changed)
        self.max_bids.valueChanged.connect(self.changed)
        self.lifetime.valueChanged.connect(self.changed)
        self.validity.currentIndexChanged.connect(self.changed)
        self.changed.connect(self._warn_budgets)
        self._warn_budgets()

    def _warn_budgets(self) -> None:
        """A pool budget above the total budget is allowed, but the total binds first: said."""
        total = None if self.total.error() else self.total.value()
        for editor in self.pools:
            editor.warn_over_total(total or None)

    def first_error(self) -> QWidget | None:
        """The topmost field message showing a broken rule (to scroll it into view)."""
        marked = [
            label
            for label in self.findChildren(QLabel)
            if label.property("role") == "error" and label.text() and label.isVisibleTo(self)
        ]
        return min(marked, key=lambda label: label.mapTo(self, QPoint(0, 0)).y(), default=None)

    def valid_for_ms(self) -> int:
        return int(self.validity.currentData())

    def read(self) -> StrategyConfig | None:
        """The strategy the fields describe, or None with each broken rule at its field."""
        name = self._read_name()
        pools = [editor.read() for editor in self.pools]
        total = self.total.value()
        self.total_line.set_error(self.total.error())
        if not self.total.error() and not total:
            self.total_line.set_error(strings.EDITOR_BUDGET_MISSING)
        lifecycle = self._read_lifecycle()
        if name is None or not total or lifecycle is None or any(p is None for p in pools):
            return None
        limits = StrategyLimits(total, self.max_bids.value())
        chosen = tuple(p for p in pools if p is not None)
        return replace(self.start, policy_id=name, pools=chosen, limits=limits, lifecycle=lifecycle)

    def _read_name(self) -> str | None:
        name = self.name.text().strip()
        try:
            StrategyPolicy.check_id(name)
        except StrategyPolicyError:  # core's words name the file: said for the user
            self.name_line.set_error(strings.EDITOR_NAME_INVALID)
            return None
        if self.new and name in self.taken:
            self.name_line.set_error(strings.EDITOR_NAME_TAKEN.format(name=name))
            return None
        self.name_line.set_error("")
        return name

    def _read_lifecycle(self) -> LifecycleSettings | None:
        if self.lifetime.value() < SHORTEST_LIFETIME_MIN:  # core's rule, said in minutes
            text = strings.EDITOR_LIFETIME_TOO_SHORT.format(minutes=SHORTEST_LIFETIME_MIN)
            self.lifetime_line.set_error(text)
            return None
        try:
            lifecycle = replace(
                self.start.lifecycle, bid_lifetime_ms=self.lifetime.value() * MINUTE_MS
            )
        except InvalidStrategy as exc:
            self.lifetime_line.set_error(core_message(exc))
            return None
        self.lifetime_line.set_error("")
        return lifecycle


def span_text(ms: int) -> str:
    """A span in its largest unit, rounded ("1 day", "6 hours", "45 minutes"): the Bid tab's
    expiry is a date and time, a day from now being a few seconds or minutes over a day."""
    minutes = max(1, round(ms / MINUTE_MS))
    days = round(minutes / DAY_MIN)
    if days and abs(minutes - days * DAY_MIN) <= 60:
        return strings.counted(strings.EDITOR_SPAN_DAYS, days)
    if minutes >= 120 or minutes % 60 == 0:
        return strings.counted(strings.EDITOR_SPAN_HOURS, round(minutes / 60))
    return strings.counted(strings.EDITOR_SPAN_MINUTES, minutes)


def suggested_name(pool: PoolKey, taken: Collection[str]) -> str:
    """A policy id from the pool's name ("keep-pixel-pals"), not one already taken."""
    raw = (
        pool.collection_slug if pool.trait is None else f"{pool.collection_slug}-{pool.trait.value}"
    )
    cleaned = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in raw)
    base = ("keep-" + cleaned.strip("-").lower())[:58].rstrip("-") or "keep"
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    return name
