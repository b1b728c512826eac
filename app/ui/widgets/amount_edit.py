"""An amount field in sats or BTC: typed as the user likes ("20,000", "20000", "0.0002 BTC"),
read as whole sats. Up/Down (and the scroll wheel) step by `step` sats, so a price stays on
the spec's 1,000-sat grid. Sats typed as digits are grouped as they are typed ("100000" shows
"100,000"), the cursor kept after the same digit; Backspace or Delete at a separator removes
the digit beyond it. Any other text (BTC, a unit, a mistake) is left as typed."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QWheelEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QWidget

from app.ui import strings

SATS_PER_BTC = 100_000_000
MAX_SATS = 21_000_000 * SATS_PER_BTC
UNIT_SATS, UNIT_BTC = "sats", "btc"


class AmountParseError(ValueError):
    """The text is not an amount; the message says how to write one."""


def parse_amount(text: str, unit: str) -> int | None:
    """Whole sats from `text` in `unit`; None for an empty field."""
    cleaned = text.replace(",", "").replace("_", "").replace(" ", "").strip()
    for suffix in ("btc", "sats", "sat"):
        if cleaned.lower().endswith(suffix):
            unit = UNIT_BTC if suffix == "btc" else UNIT_SATS
            cleaned = cleaned[: -len(suffix)]
            break
    if not cleaned:
        return None
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        example = "0.0002" if unit == UNIT_BTC else "20,000"
        label = strings.UNIT_BTC if unit == UNIT_BTC else strings.UNIT_SATS
        raise AmountParseError(strings.AMOUNT_INVALID.format(unit=label, example=example)) from None
    if not value.is_finite() or value < 0:
        label = strings.UNIT_BTC if unit == UNIT_BTC else strings.UNIT_SATS
        raise AmountParseError(strings.AMOUNT_INVALID.format(unit=label, example="20,000"))
    sats = value * SATS_PER_BTC if unit == UNIT_BTC else value
    if sats != sats.to_integral_value():
        raise AmountParseError(strings.AMOUNT_TOO_PRECISE)
    return min(int(sats), MAX_SATS)


def format_amount(sats: int, unit: str) -> str:
    if unit == UNIT_BTC:
        text = format(Decimal(sats) / SATS_PER_BTC, "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    return f"{sats:,}"


GROUPED_DIGITS = re.compile(r"[0-9,]*[0-9][0-9,]*")  # what grouping may rewrite
GROUP_SEPARATOR = ","


def grouped(text: str, cursor: int) -> tuple[str, int]:
    """`text` of digits (and separators) grouped by thousands, and where `cursor` goes: after
    as many digits as were before it. Other text comes back unchanged."""
    if not GROUPED_DIGITS.fullmatch(text):
        return text, cursor
    digits_before = sum(c.isdigit() for c in text[:cursor])
    new = f"{int(text.replace(GROUP_SEPARATOR, '')):,}"
    if digits_before == 0:
        return new, 0
    seen = 0
    for position, char in enumerate(new):
        seen += char.isdigit()
        if seen == digits_before:
            return new, position + 1
    return new, len(new)


class _SteppingLineEdit(QLineEdit):
    stepped = Signal(int)  # +1 or -1

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.stepped.emit(1 if event.key() == Qt.Key.Key_Up else -1)
            event.accept()
            return
        self._step_over_separator(event.key())
        super().keyPressEvent(event)

    def _step_over_separator(self, key: int) -> None:
        """Backspace or Delete at a separator deletes the digit beyond it (grouping would put
        a deleted separator straight back, and the key would seem to do nothing)."""
        if self.hasSelectedText():
            return
        text, at = self.text(), self.cursorPosition()
        if key == Qt.Key.Key_Backspace and at > 0 and text[at - 1] == GROUP_SEPARATOR:
            self.setCursorPosition(at - 1)
        elif key == Qt.Key.Key_Delete and at < len(text) and text[at] == GROUP_SEPARATOR:
            self.setCursorPosition(at + 1)

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.hasFocus() and event.angleDelta().y():
            self.stepped.emit(1 if event.angleDelta().y() > 0 else -1)
            event.accept()
            return
        super().wheelEvent(event)


class AmountEdit(QWidget):
    """`value()` is whole sats or None (empty or unreadable: `error()` says which)."""

    changed = Signal()

    def __init__(self, step: int = 1_000, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.step = step
        self.edit = _SteppingLineEdit()
        self.edit.setPlaceholderText("0")
        self.unit = QComboBox()
        self.unit.addItem(strings.UNIT_SATS, UNIT_SATS)
        self.unit.addItem(strings.UNIT_BTC, UNIT_BTC)
        self.unit.setAccessibleName(strings.UNIT_SATS + " / " + strings.UNIT_BTC)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.unit)
        self.setFocusProxy(self.edit)
        self.edit.textEdited.connect(self._group)  # typed only: set_value formats itself
        self.edit.textChanged.connect(lambda _text: self.changed.emit())
        self.edit.stepped.connect(self._step)
        self._unit = UNIT_SATS
        self.unit.currentIndexChanged.connect(self._unit_changed)

    def value(self) -> int | None:
        try:
            return parse_amount(self.edit.text(), self._unit)
        except AmountParseError:
            return None

    def error(self) -> str:
        """Why the text is not an amount; "" when it is one (or empty)."""
        try:
            parse_amount(self.edit.text(), self._unit)
        except AmountParseError as exc:
            return str(exc)
        return ""

    def set_value(self, sats: int | None) -> None:
        self.edit.setText("" if sats is None else format_amount(sats, self._unit))

    def _group(self, text: str) -> None:
        if self._unit != UNIT_SATS:
            return  # a BTC amount has a decimal point, not thousands
        new, cursor = grouped(text, self.edit.cursorPosition())
        if new != text:
            self.edit.setText(new)
            self.edit.setCursorPosition(cursor)

    def _step(self, direction: int) -> None:
        current = self.value() or 0
        stepped = (current // self.step + direction) * self.step
        if direction < 0 and current % self.step:
            stepped = current // self.step * self.step  # down to the grid first
        self.set_value(max(0, stepped))

    def _unit_changed(self) -> None:
        sats = self.value()
        self._unit = str(self.unit.currentData())
        if sats is not None:
            self.set_value(sats)
        self.changed.emit()
