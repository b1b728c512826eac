"""A fee-rate picker: presets from the fee estimator, or a custom sat/vB.

The Fund panel's presets are fast / normal / slow (`FUND_PRESETS`), each shown only with its
estimate; the Bid tab's are the service's named rates (`FeePreset.label_unknown` keeps them
choosable before any estimate is known, since the service reads the name itself). The
estimates arrive later (`set_estimates`): a preset the user chose stays chosen; until then
the picker starts on its default preset, or on Custom with a sane rate when no preset can be
shown; a custom rate the user typed, or Custom picked, is kept."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QHBoxLayout, QWidget

from app.ui import strings


@dataclass(frozen=True)
class FeePreset:
    """One choice: `label` shows its estimate (`{rate}`); `label_unknown`, when given, is
    shown while no estimate is known (else the preset waits for one); `key` names it; `tip`,
    when given, is its tooltip (in the list, and on the box while it is chosen)."""

    label: str
    blocks: int  # the confirmation target it stands for
    label_unknown: str | None = None
    key: object = None
    tip: str = ""


FUND_PRESETS = (
    FeePreset(strings.FEE_FAST, 1),
    FeePreset(strings.FEE_NORMAL, 3),
    FeePreset(strings.FEE_SLOW, 6),
)
CUSTOM = -1
DEFAULT_CUSTOM_RATE = 2.0
MIN_RATE = 0.1
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

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        presets: Sequence[FeePreset] = FUND_PRESETS,
        default_preset: int = 1,
        min_rate: float = MIN_RATE,
    ) -> None:
        super().__init__(parent)
        self.presets = tuple(presets)
        self.default_preset = default_preset
        self._rates: dict[int, float] = {}  # preset index -> its estimate, when known
        self._estimated = False  # the presets show estimates
        self.choice = QComboBox()
        self.custom = QDoubleSpinBox()
        self.custom.setDecimals(1)
        self.custom.setRange(min_rate, MAX_RATE)
        self.custom.setSingleStep(1.0)
        self.custom.setValue(max(min_rate, DEFAULT_CUSTOM_RATE))
        self.custom.setSuffix(strings.SUFFIX_SAT_VB)
        self.custom.setAccessibleName(strings.FEE_CUSTOM)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.choice, 1)
        layout.addWidget(self.custom)
        self.setFocusProxy(self.choice)
        self._user_typed = False  # Custom is the user's: a rate typed, or Custom picked
        self.set_estimates(None)
        self.choice.currentIndexChanged.connect(self._choice_changed)
        self.choice.activated.connect(self._picked)
        self.custom.valueChanged.connect(self._custom_changed)

    def set_estimates(self, by_target: Mapping[int, float] | None) -> None:
        """Fill the presets from the estimator (None: none known)."""
        previous = self.choice.currentData()
        self.choice.blockSignals(True)
        self.choice.clear()
        self._rates = {}
        for index, preset in enumerate(self.presets):
            if by_target:
                self._rates[index] = rate = for_target(by_target, preset.blocks)
                self.choice.addItem(preset.label.format(rate=rate_text(rate)), index)
            elif preset.label_unknown is not None:
                self.choice.addItem(preset.label_unknown, index)
            else:
                continue
            if preset.tip:
                last = self.choice.count() - 1
                self.choice.setItemData(last, preset.tip, Qt.ItemDataRole.ToolTipRole)
        self.choice.addItem(strings.FEE_CUSTOM, CUSTOM)
        self._estimated = bool(by_target)
        shown = self.choice.findData(previous) if previous is not None else -1
        default = self.choice.findData(self.default_preset)
        if shown >= 0 and not (previous == CUSTOM and not self._user_typed and default >= 0):
            self.choice.setCurrentIndex(shown)  # what the user chose stays chosen
        elif default >= 0:
            self.choice.setCurrentIndex(default)
        else:
            self.choice.setCurrentIndex(self.choice.count() - 1)  # Custom
        self.choice.blockSignals(False)
        self._choice_changed()

    def preset(self) -> FeePreset | None:
        """The chosen preset; None for a custom rate."""
        data = self.choice.currentData()
        return None if data is None or data == CUSTOM else self.presets[int(data)]

    def estimate(self) -> float | None:
        """The chosen preset's current estimate (None: custom, or not known)."""
        data = self.choice.currentData()
        return None if data is None or data == CUSTOM else self._rates.get(int(data))

    def rate(self) -> Fraction:
        """The chosen rate in sat/vB: the preset's estimate, else the custom rate."""
        estimate = self.estimate()
        value = self.custom.value() if estimate is None else estimate
        return Fraction(str(value))

    def _choice_changed(self, *_: object) -> None:
        self.custom.setVisible(self.choice.currentData() == CUSTOM)
        preset = self.preset()
        tips = ["" if preset is None else preset.tip]
        tips.append("" if self._estimated else strings.FEE_NO_ESTIMATES)
        if len(self._rates) > 1 and len(set(self._rates.values())) == 1:
            tips.append(strings.FEE_ALL_SAME)  # why fast and slow read the same
        self.choice.setToolTip("\n".join(t for t in tips if t))
        self.changed.emit()

    def _picked(self, _index: int) -> None:
        """The user picked an entry (a click, a key): Custom picked stays when the estimates
        are read again, as a rate typed does, though nothing is typed yet."""
        if self.choice.currentData() == CUSTOM:
            self._user_typed = True

    def _custom_changed(self, *_: object) -> None:
        self._user_typed = True
        self.changed.emit()
