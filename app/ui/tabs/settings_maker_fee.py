"""A profile's maker fee in Settings: the default (the service's published fee, else the
app's default, shown with its amount) or the user's own amount, sats per bid plus a share of
the price in basis points (`app.core.pools.MakerFee`, the spec's pool rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QSpinBox, QWidget

from app.core.pools import MakerFee
from app.services.maker_fee import (
    DEFAULT_MAKER_FEE,
    MAX_MAKER_FEE_BPS,
    MAX_MAKER_FEE_SATS,
    MakerFeeSource,
)
from app.ui import strings
from app.ui.maker_fee_note import maker_fee_text
from app.ui.widgets import message_label

if TYPE_CHECKING:
    from app.services.maker_fee import AssumedMakerFee


class MakerFeeBox(QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(strings.SETTINGS_MAKER_FEE, parent)
        self.use_default = QCheckBox(strings.SETTINGS_MAKER_FEE_USE_DEFAULT)
        self.sats = QSpinBox()
        self.sats.setRange(0, MAX_MAKER_FEE_SATS)
        self.sats.setSingleStep(100)
        self.sats.setSuffix(strings.SUFFIX_SATS)
        self.sats.setGroupSeparatorShown(True)
        self.bps = QSpinBox()
        self.bps.setRange(0, MAX_MAKER_FEE_BPS)
        self.bps.setSuffix(strings.SETTINGS_MAKER_FEE_BPS_SUFFIX)
        self.default_line = message_label("hint")
        hint = message_label("hint")
        hint.setText(strings.SETTINGS_MAKER_FEE_HINT)
        form = QFormLayout(self)
        form.addRow(self.use_default)
        form.addRow(strings.SETTINGS_MAKER_FEE_SATS, self.sats)
        form.addRow(strings.SETTINGS_MAKER_FEE_BPS, self.bps)
        form.addRow(self.default_line)
        form.addRow(hint)
        self._default = DEFAULT_MAKER_FEE
        self.use_default.toggled.connect(self._use_default_toggled)

    def load(self, setting: MakerFee | None, default: AssumedMakerFee | None) -> None:
        """Show the profile's `setting` (None: it uses the default) and the `default` it
        would use (None: not known here, its service is not the connected one)."""
        self.use_default.blockSignals(True)
        self.use_default.setChecked(setting is None)
        self.use_default.blockSignals(False)
        self.set_default(default)
        if setting is not None:
            self._show(setting, editable=True)

    def set_default(self, default: AssumedMakerFee | None) -> None:
        """The default shown (and, while it is used, the amounts shown): e.g. once the
        service has said its fee."""
        self._default = DEFAULT_MAKER_FEE if default is None else default.fee
        if default is None:
            text = strings.SETTINGS_MAKER_FEE_DEFAULT_UNREAD.format(
                fee=maker_fee_text(DEFAULT_MAKER_FEE)
            )
        elif default.source is MakerFeeSource.SERVICE:
            text = strings.SETTINGS_MAKER_FEE_DEFAULT_IS.format(fee=maker_fee_text(default.fee))
        else:
            text = strings.SETTINGS_MAKER_FEE_DEFAULT_NONE.format(fee=maker_fee_text(default.fee))
        self.default_line.setText(text)
        if self.use_default.isChecked():
            self._show(self._default, editable=False)

    def setting(self) -> MakerFee | None:
        """What the profile keeps: None for the default, else the amount entered."""
        if self.use_default.isChecked():
            return None
        return MakerFee(basis_points=self.bps.value(), flat_sats=self.sats.value())

    def _use_default_toggled(self, checked: bool) -> None:
        # Unticked, the amounts start from the default: the user edits from what applied.
        if checked:
            self._show(self._default, editable=False)
        else:
            self._show(MakerFee(self.bps.value(), self.sats.value()), editable=True)

    def _show(self, fee: MakerFee, *, editable: bool) -> None:
        self.sats.setValue(fee.flat_sats)
        self.bps.setValue(fee.basis_points)
        self.sats.setEnabled(editable)
        self.bps.setEnabled(editable)
