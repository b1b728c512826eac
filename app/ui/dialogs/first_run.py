"""First run (and "Add profile"): the sandbox, the public service, or custom URLs."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from app.services.profiles import (
    NETWORKS,
    SATFLOW_API_URL,
    AppProfile,
    ProfileSettingsError,
    ServiceKind,
)
from app.ui import strings
from app.ui.widgets import make_default, message_label, set_message


@dataclass(frozen=True)
class FirstRunChoice:
    profile: AppProfile
    api_key: str | None  # to store in the keychain; never written to the profiles file


def unique_name(base: str, taken: set[str]) -> str:
    name, number = base, 2
    while name in taken:
        name, number = f"{base} {number}", number + 1
    return name


class FirstRunDialog(QDialog):
    def __init__(
        self, taken_names: set[str], parent: QWidget | None = None, *, keychain: bool = True
    ) -> None:
        """`keychain`: whether a system keychain keeps API keys (without one, a key typed
        here lasts until the app quits, and the fields say so)."""
        super().__init__(parent)
        self._keychain = keychain
        self.setWindowTitle(strings.FIRST_RUN_TITLE)
        self.setMinimumWidth(560)
        self._taken = taken_names
        self.choice: FirstRunChoice | None = None

        self.sandbox_radio = QRadioButton(strings.CHOICE_SANDBOX)
        self.satflow_radio = QRadioButton(strings.CHOICE_SATFLOW)
        self.custom_radio = QRadioButton(strings.CHOICE_CUSTOM)
        self.sandbox_radio.setChecked(True)
        group = QButtonGroup(self)
        for radio in (self.sandbox_radio, self.satflow_radio, self.custom_radio):
            group.addButton(radio)
            radio.toggled.connect(self._update_enabled)

        self.satflow_key = self._secret_edit()
        self.custom_name = QLineEdit(unique_name("Custom", taken_names))
        self.marketplace_url = QLineEdit()
        self.marketplace_url.setPlaceholderText("https://market.example/v1")
        self.esplora_url = QLineEdit()
        self.esplora_url.setPlaceholderText("https://esplora.example/api")
        self.ord_url = QLineEdit()
        self.ord_url.setPlaceholderText("https://ord.example")
        self.network = QComboBox()
        self.network.addItems(list(NETWORKS))
        self.custom_key = self._secret_edit()
        self.error = message_label("error")
        self.error.hide()

        self.satflow_fields = QWidget()
        form = QFormLayout(self.satflow_fields)
        form.addRow(strings.LABEL_API_KEY, self.satflow_key)
        self.custom_fields = QWidget()
        form = QFormLayout(self.custom_fields)
        form.addRow(strings.LABEL_PROFILE_NAME, self.custom_name)
        form.addRow(strings.LABEL_MARKETPLACE_URL, self.marketplace_url)
        form.addRow(strings.LABEL_ESPLORA_URL, self.esplora_url)
        form.addRow(strings.LABEL_ORD_URL, self.ord_url)
        form.addRow(strings.LABEL_NETWORK, self.network)
        form.addRow(strings.LABEL_CUSTOM_API_KEY, self.custom_key)

        self.buttons = QDialogButtonBox()
        self.continue_button = self.buttons.addButton(
            strings.BUTTON_CONTINUE, QDialogButtonBox.ButtonRole.AcceptRole
        )
        cancel = self.buttons.addButton(
            strings.BUTTON_CANCEL, QDialogButtonBox.ButtonRole.RejectRole
        )
        make_default(self.continue_button, cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        intro = message_label("title")
        intro.setText(strings.FIRST_RUN_INTRO)
        layout.addWidget(intro)
        for radio, help_text, fields in (
            (self.sandbox_radio, strings.CHOICE_SANDBOX_HELP, None),
            (
                self.satflow_radio,
                strings.CHOICE_SATFLOW_HELP.format(url=SATFLOW_API_URL),
                self.satflow_fields,
            ),
            (self.custom_radio, strings.CHOICE_CUSTOM_HELP, self.custom_fields),
        ):
            layout.addWidget(radio)
            hint = message_label("hint")
            hint.setText(help_text)
            hint.setContentsMargins(24, 0, 0, 4)
            layout.addWidget(hint)
            if fields is not None:
                fields.setContentsMargins(16, 0, 0, 0)
                layout.addWidget(fields)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self._update_enabled()
        self.sandbox_radio.setFocus()

    def showEvent(self, event: QShowEvent) -> None:
        """At least as tall as its wrapped texts need at its narrowest: a window is sized by
        its layout's minimum, which counts each wrapped text at its own preferred width, so
        the text fields were squeezed (placeholders cut) under the app's fonts."""
        layout = self.layout()
        if layout is not None:
            self.setMinimumHeight(layout.totalHeightForWidth(self.minimumWidth()))
        super().showEvent(event)

    def _secret_edit(self) -> QLineEdit:
        edit = QLineEdit()
        edit.setEchoMode(QLineEdit.EchoMode.Password)
        edit.setPlaceholderText(strings.api_key_placeholder(self._keychain))
        return edit

    def _update_enabled(self) -> None:
        self.satflow_fields.setEnabled(self.satflow_radio.isChecked())
        self.custom_fields.setEnabled(self.custom_radio.isChecked())
        set_message(self.error, "")

    def accept(self) -> None:
        try:
            self.choice = self._build_choice()
        except ValueError as exc:
            set_message(self.error, str(exc))
            return
        super().accept()

    def _build_choice(self) -> FirstRunChoice:
        if self.sandbox_radio.isChecked():
            return FirstRunChoice(AppProfile.sandbox(unique_name("Sandbox", self._taken)), None)
        if self.satflow_radio.isChecked():
            key = self.satflow_key.text().strip()
            if not key:
                self.satflow_key.setFocus()
                raise ValueError(strings.API_KEY_REQUIRED)
            return FirstRunChoice(AppProfile.satflow(unique_name("Satflow", self._taken)), key)
        name = self.custom_name.text().strip()
        if name in self._taken:
            self.custom_name.setFocus()
            raise ValueError(strings.NAME_TAKEN)
        urls = [e.text().strip() for e in (self.marketplace_url, self.esplora_url, self.ord_url)]
        labels = (strings.LABEL_MARKETPLACE_URL, strings.LABEL_ESPLORA_URL, strings.LABEL_ORD_URL)
        for edit, url, label in zip(
            (self.marketplace_url, self.esplora_url, self.ord_url), urls, labels, strict=True
        ):
            if not url.startswith(("http://", "https://")):
                edit.setFocus()
                field = label.replace("&", "").rstrip(":")  # the field's label, as shown
                raise ValueError(strings.URL_INVALID.format(field=field))
        try:
            profile = AppProfile(
                name=name,
                kind=ServiceKind.CUSTOM,
                network=self.network.currentText(),
                marketplace_url=urls[0],
                esplora_url=urls[1],
                ord_url=urls[2],
            )
        except ProfileSettingsError as exc:
            raise ValueError(str(exc)) from None
        return FirstRunChoice(profile, self.custom_key.text().strip() or None)
