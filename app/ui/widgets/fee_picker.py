"""A fee-rate picker: fast / normal / slow from the fee estimator, or a custom sat/vB.

The estimates arrive later (`set_estimates`), so the picker starts on Custom with a sane
default; once they arrive, Normal is chosen unless the user already typed a rate."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QHBoxLayout, QWidget

from app.ui import strings

# (label, confirmation target in blocks)
PRESETS = ((strings.FEE_FAST, 1), (strings.FEE_NORMAL, 3), (strings.FEE_SLOW, 6))
CUSTOM = -1
DEFAULT_CUSTOM_RATE = 2.0
MAX_RATE = 10_000.0


def rate_text(rate: float) -> str:
    return f"{rate:.1f}".rstrip("0").rstrip(".") if rate < 100 else f"{rate:.0f}"


def for_target(by_target: Mapping[int, float], blocks: int) -> float:
    """The estimate of the largest known target not above `blocks`, else the fastest
    (the rule of app.net's FeeEstimates, kept here so the picker needs no network types)."""
    eligible = [t for t in by_target if t <= blocks]
    return by_target[max(eligible) if eligible else min(by_target)]


class FeePicker(QWidget):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choice = QComboBox()
        self.custom = QDoubleSpinBox()
        self.custom.setDecimals(1)
        self.custom.setRange(0.1, MAX_RATE)
        self.custom.setSingleStep(1.0)
        self.custom.setValue(DEFAULT_CUSTOM_RATE)
        self.custom.setSuffix(strings.SUFFIX_SAT_VB)
        self.custom.setAccessibleName(strings.FEE_CUSTOM)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.choice, 1)
        layout.addWidget(self.custom)
        self.setFocusProxy(self.choice)
        self._user_typed = False
        self.set_estimates(None)
        self.choice.currentIndexChanged.connect(self._choice_changed)
        self.custom.valueChanged.connect(self._custom_changed)

    def set_estimates(self, by_target: Mapping[int, float] | None) -> None:
        """Fill the presets from the estimator (None: none known, custom only)."""
        previous = self.choice.currentData()
        self.choice.blockSignals(True)
        self.choice.clear()
        if by_target:
            for label, blocks in PRESETS:
                rate = for_target(by_target, blocks)
                self.choice.addItem(label.format(rate=rate_text(rate)), rate)
        self.choice.addItem(strings.FEE_CUSTOM, CUSTOM)
        self.choice.setToolTip("" if by_target else strings.FEE_NO_ESTIMATES)
        if by_target and not self._user_typed:
            self.choice.setCurrentIndex(1)  # Normal
        elif previous == CUSTOM or not by_target:
            self.choice.setCurrentIndex(self.choice.count() - 1)
        self.choice.blockSignals(False)
        self._choice_changed()

    def rate(self) -> Fraction:
        """The chosen rate in sat/vB."""
        data = self.choice.currentData()
        value = self.custom.value() if data == CUSTOM or data is None else float(data)
        return Fraction(str(value))

    def _choice_changed(self, *_: object) -> None:
        self.custom.setVisible(self.choice.currentData() == CUSTOM)
        self.changed.emit()

    def _custom_changed(self, *_: object) -> None:
        self._user_typed = True
        self.changed.emit()
