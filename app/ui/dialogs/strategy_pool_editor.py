"""One pool in the strategy editor (issue 17): its rule (a fixed price, below the floor by a
percentage with a cap, or one step above the top bid with a cap, a share of the floor and an
optional opening price; a ladder is kept as its file says) and its budget. `read()` gives the
`PoolStrategy`, or None with every broken rule at its field (the input stays as typed). The
rules are core's (`strategy_rules`); their messages are shown, never rewritten.

Prices are per item for ordinals, on the bid grid (the Bid tab's words when off it). A rune's
are per unit (exact fractions) and typed as the Bid tab types them: a total in sats
(`AmountEdit`) for a number of units, the unit price being their quotient."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import replace
from fractions import Fraction

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.limits import MIN_RUNE_PRICE_SATS, ORDINALS_PRICE_STEP_SATS
from app.core.pools import PoolKey
from app.core.strategy_rules import (
    AboveTopBid,
    BelowFloor,
    FixedPrice,
    InvalidStrategy,
    Ladder,
    PoolStrategy,
    PriceRule,
)
from app.core.strategy_targets import sats
from app.ui import strings
from app.ui.tabs.bid_form_lines import MessageLine, with_message
from app.ui.tabs.bid_messages import price_step_text
from app.ui.widgets import message_label
from app.ui.widgets.amount_edit import AmountEdit

FIXED, BELOW_FLOOR, ABOVE_TOP = 0, 1, 2
MAX_UNITS = 10**12


def core_message(exc: Exception) -> str:
    """A core rule's message as a sentence (core writes it in lower case, for logs too)."""
    text = str(exc)
    return text[:1].upper() + text[1:]


def pool_name(pool: PoolKey, rune: bool) -> str:
    if rune:
        return strings.EDITOR_POOL_RUNE.format(name=pool.collection_slug)
    if pool.trait is not None:
        return strings.EDITOR_POOL_TRAIT.format(
            slug=pool.collection_slug, trait=pool.trait.trait_type, value=pool.trait.value
        )
    return strings.EDITOR_POOL_COLLECTION.format(slug=pool.collection_slug)


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


def field_row(form: QFormLayout, label: str, widget: QWidget, hint: str = "") -> MessageLine:
    """A row with its message line under the field (its hint until a rule is broken)."""
    return labelled_row(form, label, widget, hint)[1]


def labelled_row(
    form: QFormLayout, label: str, widget: QWidget, hint: str = ""
) -> tuple[QLabel, MessageLine]:
    """`field_row`, its label given too (a label that changes with the form)."""
    line = MessageLine(message_label("hint"))
    line.set_hint(hint)
    row_label = QLabel(label)
    row_label.setBuddy(widget.focusProxy() or widget)
    form.addRow(row_label, with_message(widget, line))
    return row_label, line


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
        self.labels: dict[str, QLabel] = {}
        # A rune's per-unit prices as last typed: the units changing keeps them exactly (a
        # total rounded to whole sats alone would drift).
        self._unit_prices: dict[str, Fraction] = {}
        self._rescaling = False
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
                self.labels[key], self.lines[key] = labelled_row(page_form, label, widget, hint)
            self.pages.append(page)
        self.rule_line = MessageLine()
        self.budget = AmountEdit()
        if self.rune:
            self.lines["units"] = field_row(
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
        self.lines["budget"] = field_row(
            form, strings.EDITOR_POOL_BUDGET, self.budget, strings.EDITOR_POOL_BUDGET_HINT
        )
        self.budget.set_value(strategy.budget_sats)
        self.kind.currentIndexChanged.connect(self._show_kind)
        self.kind.currentIndexChanged.connect(self.changed)
        self.units.valueChanged.connect(self._units_changed)
        for amount in (self.price, self.below_cap, self.above_cap, self.opening, self.budget):
            amount.changed.connect(self.changed)
        if self.rune:  # each total's unit price under it, as it is typed
            for key, amount in self._rune_amounts():
                amount.changed.connect(lambda key=key, amount=amount: self._typed(key, amount))
                self._typed(key, amount)
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
        # A message line changed while its page was hidden keeps a height-for-width measured
        # then: without this a wrapped hint is shown cut to one line.
        for line in self.lines.values():
            layout = line.layout()
            if layout is not None:
                layout.invalidate()

    def _rune_amounts(self) -> tuple[tuple[str, AmountEdit], ...]:
        return (
            ("price", self.price),
            ("below_cap", self.below_cap),
            ("above_cap", self.above_cap),
            ("opening", self.opening),
        )

    def _typed(self, key: str, amount: AmountEdit) -> None:
        """A total typed: its unit price is what it says now (a rescale keeps the old one)."""
        if self._rescaling:
            return
        total = None if amount.error() else amount.value()
        if total:
            self._unit_prices[key] = Fraction(total, self.units.value())
        else:
            self._unit_prices.pop(key, None)
        self._show_unit_prices()

    def unit_price(self, key: str) -> Fraction | None:
        """A rune field's unit price: as typed, kept exactly across a change of units."""
        return self._unit_prices.get(key)

    def _show_unit_prices(self) -> None:
        units = self.units.value()
        for key, _amount in self._rune_amounts():
            label = strings.EDITOR_RUNE_PRICE if key == "price" else strings.EDITOR_RUNE_CAP
            if key != "opening":
                self.labels[key].setText(label.format(units=f"{units:,}"))
            unit = self.unit_price(key)
            hint = strings.EDITOR_OPENING_HINT if key == "opening" else ""
            if unit:
                hint = strings.EDITOR_PER_UNIT.format(price=sats(unit))
            self.lines[key].set_hint(hint)

    def _units_changed(self, units: int) -> None:
        """A rune's totals follow its units: the unit prices (the caps) stay exactly."""
        self._shown_units = units
        self._rescaling = True
        try:
            for key, amount in self._rune_amounts():
                unit = self.unit_price(key)
                if unit is not None:
                    amount.set_value(math.floor(unit * units))
        finally:
            self._rescaling = False
        self.changed.emit()

    def warn_over_total(self, total: int | None) -> None:
        """The budget's hint, or a warning while it is above the strategy's `total` budget."""
        budget = None if self.budget.error() else self.budget.value()
        if total is not None and budget is not None and budget > total:
            text = strings.EDITOR_POOL_BUDGET_OVER_TOTAL.format(total=sats(total))
            self.lines["budget"].set_hint(text, "warning")
        else:
            self.lines["budget"].set_hint(strings.EDITOR_POOL_BUDGET_HINT)

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
        # An ordinals price is on the bid grid; a rune's unit price buys as many units as the
        # room pays for (the plan keeps each bid at the service's minimum total or stops).
        if not self.rune and key != "budget":
            if value < ORDINALS_PRICE_STEP_SATS:
                minimum = sats(ORDINALS_PRICE_STEP_SATS)
                line.set_error(strings.EDITOR_PRICE_TOO_LOW.format(minimum=minimum))
                return None
            if value % ORDINALS_PRICE_STEP_SATS:
                line.set_error(price_step_text(ORDINALS_PRICE_STEP_SATS, value))  # the Bid tab's
                return None
        line.set_error("")
        if not self.rune or key == "budget":
            return Fraction(value)
        kept = self.unit_price(key)  # the typed unit price, exact across a change of units
        units = self.units.value()
        if kept is not None and math.floor(kept * units) == value:
            return kept
        return Fraction(value, units)

    def read(self) -> PoolStrategy | None:
        for line in self.lines.values():
            line.set_error("")
        self.rule_line.set_error("")
        budget = self._amount("budget", self.budget, strings.EDITOR_BUDGET_MISSING)
        rule = self.strategy.rule if self.ladder else self._read_rule()
        if budget is None or rule is None:
            return None
        try:
            return replace(self.strategy, rule=rule, budget_sats=int(budget))
        except InvalidStrategy as exc:  # the pool's own rules (e.g. an item's whole sats)
            self.rule_line.set_error(core_message(exc))
            return None

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
            self.rule_line.set_error(core_message(exc))
            return None


def _exact(value: Fraction) -> Fraction | int:
    """A whole number as an int (as the strategy file writes it), else the fraction."""
    return value.numerator if value.denominator == 1 else value
