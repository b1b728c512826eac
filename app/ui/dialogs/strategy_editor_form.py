"""The strategy editor's fields (issue 17): the name, each pool's rule and budget, the total
budget, the maximum of bids, the bids' lifetime and the approval's validity. `read()` gives the
`StrategyConfig` they describe, or None with every broken rule shown at its field (the input
stays as typed). The rules themselves are core's (`strategy_rules`, `strategy_settings`,
`StrategyPolicy.check_id`): their messages are shown, never rewritten.

Prices are per item for ordinals. A rune's are per unit (exact fractions) and typed as the Bid
tab types them: a total in sats (`AmountEdit`) for a number of units, the unit price being
their quotient."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.limits import MIN_RUNE_PRICE_SATS, ORDINALS_PRICE_STEP_SATS
from app.core.pools import PoolKey
from app.core.strategy_approval import HOUR_MS, VALIDITY_CHOICES_H
from app.core.strategy_policy import StrategyPolicy, StrategyPolicyError
from app.core.strategy_rules import (
    AboveTopBid,
    BelowFloor,
    FixedPrice,
    InvalidStrategy,
    Ladder,
    PoolStrategy,
    PriceRule,
)
from app.core.strategy_settings import LifecycleSettings, StrategyLimits
from app.core.strategy_targets import sats
from app.ui import strings
from app.ui.tabs.bid_form_lines import MessageLine, with_message
from app.ui.tabs.bid_messages import price_step_text
from app.ui.widgets import message_label
from app.ui.widgets.amount_edit import AmountEdit

if TYPE_CHECKING:
    from app.services.strategy_engine import StrategyConfig

FIXED, BELOW_FLOOR, ABOVE_TOP = 0, 1, 2
MAX_BIDS = 10_000
MAX_UNITS = 10**12
MINUTE_MS = 60_000
MAX_LIFETIME_MIN = 7 * 24 * 60


def pool_name(pool: PoolKey, rune: bool) -> str:
    if rune:
        return strings.EDITOR_POOL_RUNE.format(name=pool.collection_slug)
    if pool.trait is not None:
        return strings.EDITOR_POOL_TRAIT.format(
            slug=pool.collection_slug, trait=pool.trait.trait_type, value=pool.trait.value
        )
    return strings.EDITOR_POOL_COLLECTION.format(slug=pool.collection_slug)


def validity_text(hours: int) -> str:
    if hours == 168:
        return strings.EDITOR_VALIDITY_WEEK
    return strings.counted(strings.EDITOR_VALIDITY_HOURS, hours)


def rune_units_for(prices: Collection[Fraction]) -> int:
    """The units a rune's unit prices are shown for: each a whole total, the least at least the
    service's minimum bid where that takes few enough units."""
    units = math.lcm(1, *(p.denominator for p in prices))
    least = min(prices, default=Fraction(0))
    while least and least * units < MIN_RUNE_PRICE_SATS and units * 10 <= MAX_UNITS:
        units *= 10
    return units


def _rule_prices(rule: PriceRule) -> list[Fraction]:
    if isinstance(rule, FixedPrice):
        return [Fraction(rule.unit_price)]
    if isinstance(rule, BelowFloor):
        return [Fraction(rule.max_unit_price)]
    extra = [] if rule.opening_unit_price is None else [Fraction(rule.opening_unit_price)]
    return [Fraction(rule.max_unit_price), *extra]


def _field(form: QFormLayout, label: str, widget: QWidget, hint: str = "") -> MessageLine:
    """A row with its message line under the field (its hint until a rule is broken)."""
    line = MessageLine(message_label("hint"))
    line.set_hint(hint)
    row_label = QLabel(label)
    row_label.setBuddy(widget.focusProxy() or widget)
    form.addRow(row_label, with_message(widget, line))
    return line


def _percent_spin(value: float, low: float) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setDecimals(2)
    spin.setRange(low, 100)
    spin.setSuffix(" %")
    spin.setValue(value)
    spin.setMaximumWidth(140)
    return spin


def _percent(spin: QDoubleSpinBox) -> Fraction:
    return Fraction(round(spin.value() * 100), 100)


class PoolEditor(QGroupBox):
    """One pool: its rule (one of three kinds; a ladder is kept as its file says) and budget."""

    changed = Signal()

    def __init__(self, strategy: PoolStrategy, units: int | None = None) -> None:
        super().__init__(pool_name(strategy.pool, strategy.is_rune))
        self.strategy = strategy
        self.rune = strategy.is_rune
        rule = strategy.rule
        self.ladder = isinstance(rule, Ladder)
        form = QFormLayout(self)
        self.units = QSpinBox()
        self.units.setRange(1, 2_000_000_000)
        self.units.setSuffix(strings.EDITOR_RUNE_UNITS_SUFFIX)
        self.units.setGroupSeparatorShown(True)
        prices = [p for r, _ in strategy.price_rules() for p in _rule_prices(r)]
        self.units.setValue(units or rune_units_for(prices))
        self.units.setMaximumWidth(200)
        self.kind = QComboBox()
        for text in (
            strings.EDITOR_RULE_FIXED,
            strings.EDITOR_RULE_BELOW_FLOOR,
            strings.EDITOR_RULE_ABOVE_TOP,
        ):
            self.kind.addItem(text)
        step = MIN_RUNE_PRICE_SATS if self.rune else ORDINALS_PRICE_STEP_SATS
        self.price, self.below_cap, self.above_cap, self.opening = (
            AmountEdit(step=step) for _ in range(4)
        )
        self.percent_below = _percent_spin(10, 0)
        self.floor_share = _percent_spin(100, 0.01)
        self.pages: list[QWidget] = []  # one per kind, only the chosen one shown
        self.lines: dict[str, MessageLine] = {}
        price_label = strings.EDITOR_RUNE_PRICE if self.rune else strings.EDITOR_PRICE
        cap_label = strings.EDITOR_RUNE_CAP if self.rune else strings.EDITOR_CAP
        kinds = (
            (("price", price_label, self.price, ""),),
            (
                ("percent", strings.EDITOR_PERCENT_BELOW, self.percent_below, ""),
                ("below_cap", cap_label, self.below_cap, ""),
            ),
            (
                ("above_cap", cap_label, self.above_cap, ""),
                ("share", strings.EDITOR_FLOOR_SHARE, self.floor_share, ""),
                ("opening", strings.EDITOR_OPENING, self.opening, strings.EDITOR_OPENING_HINT),
            ),
        )
        for kind_fields, explained in zip(kinds, strings.EDITOR_RULE_EXPLAINED, strict=True):
            page = QWidget()
            page_form = QFormLayout(page)
            page_form.setContentsMargins(0, 0, 0, 0)
            what = message_label("hint")
            what.setText(explained)
            page_form.addRow(what)
            for key, label, widget, hint in kind_fields:
                self.lines[key] = _field(page_form, label, widget, hint)
            self.pages.append(page)
        self.rule_line = MessageLine()
        self.budget = AmountEdit()
        if self.rune:
            self.lines["units"] = _field(
                form, strings.EDITOR_RUNE_UNITS, self.units, strings.EDITOR_RUNE_PRICES_HINT
            )
        if self.ladder:
            kept = message_label("hint")
            kept.setText(strings.EDITOR_LADDER_KEPT)
            form.addRow(QLabel(strings.EDITOR_RULE), kept)
        else:
            kind_box = QWidget()
            kind_layout = QVBoxLayout(kind_box)
            kind_layout.setContentsMargins(0, 0, 0, 0)
            kind_layout.addWidget(self.kind)
            for page in self.pages:
                kind_layout.addWidget(page)
            kind_layout.addWidget(self.rule_line)
            form.addRow(QLabel(strings.EDITOR_RULE), kind_box)
            self._show_rule(rule)  # type: ignore[arg-type]
        self.lines["budget"] = _field(
            form, strings.EDITOR_POOL_BUDGET, self.budget, strings.EDITOR_POOL_BUDGET_HINT
        )
        self.budget.set_value(strategy.budget_sats)
        self.kind.currentIndexChanged.connect(self._show_kind)
        self.kind.currentIndexChanged.connect(self.changed)
        self.units.valueChanged.connect(self._units_changed)
        for amount in (self.price, self.below_cap, self.above_cap, self.opening, self.budget):
            amount.changed.connect(self.changed)
        if self.rune:  # each total's unit price under it, as it is typed
            self.changed.connect(self._show_unit_prices)
            self._show_unit_prices()
        for spin in (self.percent_below, self.floor_share):
            spin.valueChanged.connect(self.changed)
        self._shown_units = self.units.value()

    def _show_rule(self, rule: PriceRule) -> None:
        def total(price: Fraction | int | None) -> int | None:
            if price is None:
                return None
            return math.floor(Fraction(price) * self.units.value()) if self.rune else int(price)

        if isinstance(rule, FixedPrice):
            self.kind.setCurrentIndex(FIXED)
            self.price.set_value(total(rule.unit_price))
        elif isinstance(rule, BelowFloor):
            self.kind.setCurrentIndex(BELOW_FLOOR)
            self.percent_below.setValue(float(rule.percent_below))
            self.below_cap.set_value(total(rule.max_unit_price))
        else:
            self.kind.setCurrentIndex(ABOVE_TOP)
            self.above_cap.set_value(total(rule.max_unit_price))
            self.floor_share.setValue(float(rule.max_floor_percent))
            self.opening.set_value(total(rule.opening_unit_price))
        self._show_kind(self.kind.currentIndex())
        # The other kinds start from the same price, so a switch has something to start with.
        price = rule.unit_price if isinstance(rule, FixedPrice) else rule.max_unit_price
        for amount in (self.price, self.below_cap, self.above_cap):
            if amount.value() is None:
                amount.set_value(total(price))

    def _show_kind(self, index: int) -> None:
        """Only the kind chosen is shown and takes room: the budget below it stays near."""
        for page_index, page in enumerate(self.pages):
            page.setVisible(page_index == index)

    def _show_unit_prices(self) -> None:
        units = self.units.value()
        for key, amount in (
            ("price", self.price),
            ("below_cap", self.below_cap),
            ("above_cap", self.above_cap),
            ("opening", self.opening),
        ):
            total = amount.value()
            hint = strings.EDITOR_OPENING_HINT if key == "opening" else ""
            if total:
                hint = strings.EDITOR_PER_UNIT.format(price=sats(Fraction(total, units)))
            self.lines[key].set_hint(hint)

    def _units_changed(self, units: int) -> None:
        """A rune's totals follow its units: the unit prices stay what they were."""
        old, self._shown_units = self._shown_units, units
        for amount in (self.price, self.below_cap, self.above_cap, self.opening):
            if amount.value() is not None and old:
                amount.set_value(math.floor(Fraction(amount.value() or 0, old) * units))
        self.changed.emit()

    # -- reading ---------------------------------------------------------------------------

    def _amount(self, key: str, amount: AmountEdit, missing: str | None) -> Fraction | None:
        """The field's unit price (a rune's total over its units); None with its message shown
        when unreadable, or empty where `missing` says it must not be."""
        line = self.lines[key]
        if amount.error():
            line.set_error(amount.error())
            return None
        value = amount.value()
        if value is None or value == 0:
            line.set_error(missing or "")
            return None
        minimum = MIN_RUNE_PRICE_SATS if self.rune else ORDINALS_PRICE_STEP_SATS
        if value < minimum and key != "budget":
            line.set_error(strings.EDITOR_PRICE_TOO_LOW.format(minimum=sats(minimum)))
            return None
        if not self.rune and key != "budget" and value % ORDINALS_PRICE_STEP_SATS:
            line.set_error(price_step_text(ORDINALS_PRICE_STEP_SATS, value))  # the Bid tab's
            return None
        line.set_error("")
        return (
            Fraction(value, self.units.value())
            if self.rune and key != "budget"
            else Fraction(value)
        )

    def read(self) -> PoolStrategy | None:
        for line in self.lines.values():
            line.set_error("")
        self.rule_line.set_error("")
        budget = self._amount("budget", self.budget, strings.EDITOR_BUDGET_MISSING)
        rule = self.strategy.rule if self.ladder else self._read_rule()
        if budget is None or rule is None:
            return None
        return replace(self.strategy, rule=rule, budget_sats=int(budget))

    def _read_rule(self) -> PriceRule | None:
        kind = self.kind.currentIndex()
        try:
            if kind == FIXED:
                price = self._amount("price", self.price, strings.EDITOR_PRICE_MISSING)
                return None if price is None else FixedPrice(_exact(price))
            if kind == BELOW_FLOOR:
                cap = self._amount("below_cap", self.below_cap, strings.EDITOR_CAP_MISSING)
                percent = _percent(self.percent_below)
                return None if cap is None else BelowFloor(_exact(percent), _exact(cap))
            cap = self._amount("above_cap", self.above_cap, strings.EDITOR_CAP_MISSING)
            opening = self._amount("opening", self.opening, None)
            if self.opening.error() or (self.opening.value() and opening is None):
                return None
            if cap is not None and opening is not None and opening > cap:
                self.lines["opening"].set_error(
                    strings.EDITOR_OPENING_ABOVE_CAP.format(
                        opening=self.opening.edit.text(), cap=self.above_cap.edit.text()
                    )
                )
                return None
            if cap is None:
                return None
            share = _percent(self.floor_share)
            return AboveTopBid(
                _exact(cap), _exact(share), None if opening is None else _exact(opening)
            )
        except InvalidStrategy as exc:
            self.rule_line.set_error(str(exc))
            return None


def _exact(value: Fraction) -> Fraction | int:
    """A whole number as an int (as the strategy file writes it), else the fraction."""
    return value.numerator if value.denominator == 1 else value


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
        self.name_line = _field(top, strings.EDITOR_NAME, self.name, strings.EDITOR_NAME_HINT)
        self.pools = [PoolEditor(s, rune_units if s.is_rune else None) for s in start.pools]
        for editor in self.pools:
            layout.addWidget(editor)
            editor.changed.connect(self.changed)
        bottom = QFormLayout()
        layout.addLayout(bottom)
        self.total = AmountEdit()
        self.total.set_value(start.limits.total_budget_sats)
        self.total_line = _field(
            bottom, strings.EDITOR_TOTAL_BUDGET, self.total, strings.EDITOR_TOTAL_BUDGET_HINT
        )
        self.max_bids = QSpinBox()
        self.max_bids.setRange(1, MAX_BIDS)
        self.max_bids.setGroupSeparatorShown(True)
        self.max_bids.setValue(max(1, start.limits.max_active_bids))
        self.max_bids.setMaximumWidth(160)
        _field(bottom, strings.EDITOR_MAX_BIDS, self.max_bids)
        self.lifetime = QSpinBox()
        self.lifetime.setRange(1, MAX_LIFETIME_MIN)
        self.lifetime.setSuffix(strings.EDITOR_LIFETIME_SUFFIX)
        self.lifetime.setValue(start.lifecycle.bid_lifetime_ms // MINUTE_MS)
        self.lifetime.setMaximumWidth(160)
        self.lifetime_line = _field(
            bottom, strings.EDITOR_LIFETIME, self.lifetime, strings.EDITOR_LIFETIME_HINT
        )
        self.validity = QComboBox()
        for hours in VALIDITY_CHOICES_H:
            self.validity.addItem(validity_text(hours), hours * HOUR_MS)
        self.validity.setCurrentIndex(VALIDITY_CHOICES_H.index(24))
        _field(bottom, strings.EDITOR_VALIDITY, self.validity)
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
        except StrategyPolicyError as exc:
            self.name_line.set_error(str(exc))
            return None
        if self.new and name in self.taken:
            self.name_line.set_error(strings.EDITOR_NAME_TAKEN.format(name=name))
            return None
        self.name_line.set_error("")
        return name

    def _read_lifecycle(self) -> LifecycleSettings | None:
        try:
            lifecycle = replace(
                self.start.lifecycle, bid_lifetime_ms=self.lifetime.value() * MINUTE_MS
            )
        except InvalidStrategy as exc:
            self.lifetime_line.set_error(str(exc))
            return None
        self.lifetime_line.set_error("")
        return lifecycle


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
