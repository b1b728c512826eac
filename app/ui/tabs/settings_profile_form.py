"""The settings of one profile: URLs, API key, network, request rate, fee bounds, maker fee,
lock timeout."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.services.profiles import NETWORKS, AppProfile, FeeBounds, ServiceKind
from app.ui import strings
from app.ui.tabs.settings_maker_fee import MakerFeeBox
from app.ui.widgets import mark_invalid, message_label, set_message

if TYPE_CHECKING:
    from app.services.maker_fee import AssumedMakerFee


class ProfileForm(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profile: AppProfile | None = None
        self.kind = QLineEdit()
        self.kind.setReadOnly(True)
        self.network = QComboBox()
        self.network.addItems(list(NETWORKS))
        self.marketplace_url = QLineEdit()
        self.esplora_url = QLineEdit()
        self.ord_url = QLineEdit()
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.save_key_button = QPushButton(strings.SETTINGS_API_KEY_SAVE)
        self.clear_key_button = QPushButton(strings.SETTINGS_API_KEY_CLEAR)
        self.min_rate = self._rate_spin()
        self.max_rate = self._rate_spin()
        self.max_fee = QSpinBox()
        self.max_fee.setRange(1, 100_000_000)
        self.max_fee.setSingleStep(1000)
        self.max_fee.setSuffix(strings.SUFFIX_SATS)
        self.max_fee.setGroupSeparatorShown(True)
        self.request_rate = QLineEdit()
        self.request_rate.setToolTip(strings.SETTINGS_REQUEST_RATE_HINT)
        self.request_rate_error = message_label("error")  # under the field, when refused
        self.request_rate_error.hide()
        self.request_rate.textEdited.connect(lambda _text: self.show_request_rate_error(None))
        self.lock_minutes = QSpinBox()
        self.lock_minutes.setRange(1, 24 * 60)
        self.lock_minutes.setSuffix(strings.SETTINGS_LOCK_SUFFIX)

        key_row = QHBoxLayout()
        key_row.addWidget(self.api_key, 1)
        key_row.addWidget(self.save_key_button)
        key_row.addWidget(self.clear_key_button)
        service = QGroupBox(strings.SETTINGS_SERVICE)
        form = QFormLayout(service)
        form.addRow(strings.SETTINGS_KIND, self.kind)
        form.addRow(strings.LABEL_NETWORK, self.network)
        form.addRow(strings.LABEL_MARKETPLACE_URL, self.marketplace_url)
        form.addRow(strings.LABEL_ESPLORA_URL, self.esplora_url)
        form.addRow(strings.LABEL_ORD_URL, self.ord_url)
        key_label = QLabel(strings.LABEL_API_KEY)
        key_label.setBuddy(self.api_key)  # a row holding a layout gets no buddy by itself
        form.addRow(key_label, key_row)
        rate_label = QLabel(strings.SETTINGS_REQUEST_RATE)
        rate_label.setBuddy(self.request_rate)
        rate_column = QVBoxLayout()  # the field, and under it why a value was refused
        rate_column.setSpacing(2)
        rate_column.addWidget(self.request_rate)
        rate_column.addWidget(self.request_rate_error)
        form.addRow(rate_label, rate_column)
        guard = QGroupBox(strings.SETTINGS_PSBT_GUARD)
        form = QFormLayout(guard)
        form.addRow(strings.SETTINGS_MIN_RATE, self.min_rate)
        form.addRow(strings.SETTINGS_MAX_RATE, self.max_rate)
        form.addRow(strings.SETTINGS_MAX_FEE, self.max_fee)
        self.maker_fee = MakerFeeBox()
        security = QGroupBox(strings.SETTINGS_SECURITY)
        form = QFormLayout(security)
        form.addRow(strings.SETTINGS_LOCK_TIMEOUT, self.lock_minutes)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for group in (service, guard, self.maker_fee, security):
            layout.addWidget(group)

    @staticmethod
    def _rate_spin() -> QDoubleSpinBox:
        spin = QDoubleSpinBox()
        spin.setRange(0.1, 100_000)
        spin.setDecimals(1)
        spin.setSuffix(strings.SUFFIX_SAT_VB)
        return spin

    def show_api_key(self, has_api_key: bool, keychain: bool) -> None:
        """The API key field emptied, saying whether a key is kept (and where one would be);
        the other fields as they are (a key saved or cleared keeps the edits not saved yet)."""
        self.api_key.clear()
        self.api_key.setPlaceholderText(
            strings.SETTINGS_API_KEY_SET if has_api_key else strings.api_key_placeholder(keychain)
        )
        self.clear_key_button.setEnabled(has_api_key)

    def load(
        self,
        profile: AppProfile,
        has_api_key: bool,
        sandbox_url: str | None,
        default_maker_fee: AssumedMakerFee | None = None,
        keychain: bool = True,
    ) -> None:
        """Show `profile`; `default_maker_fee` is what it assumes without a maker fee of its
        own (None: not known here, its service is not the connected one); `keychain`: whether
        a system keychain keeps API keys (without one, a key lasts until the app quits)."""
        self.profile = profile
        self.kind.setText(strings.SETTINGS_KINDS[profile.kind.value])
        self.network.setCurrentText(profile.network)
        # Keys are derived for one network: it may change only before keys exist.
        self.network.setEnabled(profile.kind is ServiceKind.CUSTOM and profile.key_name is None)
        sandbox = profile.kind is ServiceKind.SANDBOX
        for edit, value in (
            (self.marketplace_url, profile.marketplace_url),
            (self.esplora_url, profile.esplora_url),
            (self.ord_url, profile.ord_url),
        ):
            edit.setText(value or "")
            edit.setPlaceholderText("")
            edit.setReadOnly(sandbox)
        self.marketplace_url.setReadOnly(profile.kind is not ServiceKind.CUSTOM)
        if sandbox:
            self.show_sandbox_url(sandbox_url)
        self.show_api_key(has_api_key, keychain)
        bounds = profile.fee_bounds
        self.min_rate.setValue(bounds.min_sat_vb)
        self.max_rate.setValue(bounds.max_sat_vb)
        self.max_fee.setValue(bounds.max_fee_sats)
        self.lock_minutes.setValue(max(1, round(profile.lock_timeout_s / 60)))
        self.maker_fee.load(profile.maker_fee, default_maker_fee)
        self.request_rate.setText(profile.request_rate or "")
        self.show_request_rate_error(None)
        default = profile.kind is not ServiceKind.SANDBOX
        self.request_rate.setPlaceholderText(
            strings.SETTINGS_REQUEST_RATE_DEFAULT if default else strings.SETTINGS_REQUEST_RATE_NONE
        )

    def show_request_rate_error(self, reason: str | None) -> None:
        """Say under the request rate why it was refused, and mark the field (None: clear)."""
        set_message(self.request_rate_error, reason or "")
        mark_invalid(self.request_rate, reason is not None)

    def show_sandbox_url(self, url: str | None) -> None:
        """A sandbox profile's URLs are those of the running process (read-only)."""
        if self.profile is None or self.profile.kind is not ServiceKind.SANDBOX:
            return
        for edit, suffix in (
            (self.marketplace_url, "/v1"),
            (self.esplora_url, "/esplora"),
            (self.ord_url, "/ord"),
        ):
            edit.setText(f"{url}{suffix}" if url else "")
            edit.setPlaceholderText(strings.SETTINGS_SANDBOX_URL)

    def edited_profile(self, profile: AppProfile) -> AppProfile:
        """`profile` (its current stored version) with the form's values; ProfileSettingsError
        says what is wrong."""
        bounds = FeeBounds(self.min_rate.value(), self.max_rate.value(), self.max_fee.value())
        edited = replace(
            profile,
            network=self.network.currentText(),
            fee_bounds=bounds,
            lock_timeout_s=self.lock_minutes.value() * 60,
            maker_fee=self.maker_fee.setting(),
            request_rate=self.request_rate.text().strip().lower() or None,
        )
        if profile.kind is ServiceKind.SANDBOX:
            return edited
        marketplace = profile.marketplace_url
        if profile.kind is ServiceKind.CUSTOM:
            marketplace = self.marketplace_url.text().strip()
        return replace(
            edited,
            marketplace_url=marketplace,
            esplora_url=self.esplora_url.text().strip(),
            ord_url=self.ord_url.text().strip(),
        )
