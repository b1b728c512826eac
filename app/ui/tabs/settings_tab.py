"""Settings: profiles (switch, add, remove), the selected profile's service, API key, fee
bounds, maker fee and lock timeout, and the theme. A new maker fee applies without
reconnecting: the pool figures refresh with it. New URLs or a new request rate reopen the
clients and leave the wallet as it was; only a new network starts the profile again (locked)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.services.maker_fee import AssumedMakerFee, service_default
from app.services.profiles import (
    ApiKeyUnavailableError,
    AppProfile,
    ProfileFileError,
    ProfileSettingsError,
    RequestRateError,
    Theme,
)
from app.ui import strings
from app.ui.async_tools import async_slot, exec_dialog, run_blocking
from app.ui.icons import icon_button
from app.ui.profile_session import NotReadyError, profile_session
from app.ui.tabs.bid_confirm_setting import ConfirmBidsSetting
from app.ui.tabs.settings_profile_form import ProfileForm
from app.ui.theme import apply_theme
from app.ui.widgets import message_label, set_message

if TYPE_CHECKING:
    from app.ui.context import AppContext
    from app.ui.controller import AppController


def connection_change(old: AppProfile, new: AppProfile) -> str | None:
    """What a save changed that the connection must be reopened for, said for the user (None:
    nothing; fee bounds, lock timeout and maker fee apply as they are)."""
    same_connection = replace(
        old,
        fee_bounds=new.fee_bounds,
        lock_timeout_s=new.lock_timeout_s,
        maker_fee=new.maker_fee,
    )
    if same_connection == new:
        return None
    if new.network != old.network:
        return strings.SETTINGS_SAVED_RECONNECT_NETWORK.format(network=new.network)
    if replace(same_connection, request_rate=new.request_rate) == new:
        return strings.SETTINGS_SAVED_RECONNECT_RATE
    return strings.SETTINGS_SAVED_RECONNECT_URLS


class SettingsTab(QWidget):
    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._controller = controller
        self.profiles = QListWidget()
        self.profiles.setMaximumWidth(260)
        self.switch_button = QPushButton(strings.SETTINGS_SWITCH)
        self.add_button = icon_button("add", strings.SETTINGS_ADD)
        self.remove_button = icon_button("remove", strings.SETTINGS_REMOVE)
        self.form = ProfileForm()
        self.save_button = icon_button("save", strings.SETTINGS_SAVE)
        self.save_button.setDefault(True)
        self.message = message_label("ok")
        self.message.hide()
        self.theme = QComboBox()
        for value, label in strings.SETTINGS_THEMES.items():
            self.theme.addItem(label, value)

        list_buttons = QHBoxLayout()
        for button in (self.switch_button, self.add_button, self.remove_button):
            list_buttons.addWidget(button)
        profiles_box = QGroupBox(strings.SETTINGS_PROFILES)
        profiles_layout = QVBoxLayout(profiles_box)
        profiles_layout.addWidget(self.profiles, 1)
        profiles_layout.addLayout(list_buttons)
        appearance = QGroupBox(strings.SETTINGS_APPEARANCE)
        appearance_form = QFormLayout(appearance)
        appearance_form.addRow(strings.SETTINGS_THEME, self.theme)
        self.notifications = QCheckBox(strings.SETTINGS_NOTIFICATIONS)
        self.notifications.setToolTip(strings.SETTINGS_NOTIFICATIONS_HINT)
        appearance_form.addRow(self.notifications)

        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.addWidget(self.form)
        save_row = QHBoxLayout()
        save_row.addWidget(self.message, 1)
        save_row.addWidget(self.save_button)
        right_layout.addLayout(save_row)
        right_layout.addWidget(appearance)
        self.confirm_bids = ConfirmBidsSetting(context)  # the question before a bid is signed
        right_layout.addWidget(self.confirm_bids)
        right_layout.addStretch(1)
        self.form_scroll = QScrollArea()
        self.form_scroll.setWidgetResizable(True)
        self.form_scroll.setWidget(right)
        layout = QHBoxLayout(self)
        layout.addWidget(profiles_box)
        layout.addWidget(self.form_scroll, 1)

        self.profiles.currentItemChanged.connect(self._selected)
        self.switch_button.clicked.connect(self.switch_profile)
        self.add_button.clicked.connect(self.add_profile)
        self.remove_button.clicked.connect(self.remove_profile)
        self.save_button.clicked.connect(self.save)
        self.form.save_key_button.clicked.connect(self.save_api_key)
        self.form.clear_key_button.clicked.connect(self.clear_api_key)
        self.theme.activated.connect(self.change_theme)
        self.notifications.toggled.connect(self.change_notifications)
        context.profile_changed.connect(self.reload)
        context.connection_changed.connect(self._connection_changed)
        self.reload()

    def reload(self) -> None:
        context = self._context
        selected = self.selected_name() or (context.profile.name if context.profile else None)
        self.profiles.blockSignals(True)
        self.profiles.clear()
        for profile in context.settings.profiles:
            active = context.profile is not None and context.profile.name == profile.name
            text = profile.name + (strings.SETTINGS_ACTIVE_SUFFIX if active else "")
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, profile.name)
            self.profiles.addItem(item)
            if profile.name == selected:
                self.profiles.setCurrentItem(item)
        self.profiles.blockSignals(False)
        self.theme.setCurrentIndex(max(0, self.theme.findData(context.settings.theme.value)))
        self.notifications.blockSignals(True)
        self.notifications.setChecked(context.settings.notifications)
        self.notifications.blockSignals(False)
        self._selected()

    def selected_name(self) -> str | None:
        item = self.profiles.currentItem()
        return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))

    def _selected(self, *_: object) -> None:
        # Reload the form only for another profile: a reload must not undo the user's edits.
        name = self.selected_name()
        shown = self.form.profile
        if shown is None or name is None or shown.name != name:
            self._load_form()
        else:
            self._update_buttons(name)

    def _connection_changed(self) -> None:
        shown = self.form.profile
        active = self._context.profile
        if shown is not None and active is not None and shown.name == active.name:
            sandbox = self._context.sandbox
            self.form.show_sandbox_url(None if sandbox is None else sandbox.url)
            self._refresh_maker_fee_default()
        self._update_buttons(self.selected_name())

    @async_slot()
    async def _refresh_maker_fee_default(self) -> None:
        """The active profile's default maker fee, once its service has said it (or not)."""
        default = await self._default_maker_fee()
        shown, active = self.form.profile, self._context.profile
        if shown is not None and active is not None and shown.name == active.name:
            self.form.maker_fee.set_default(default)

    def _update_buttons(self, name: str | None) -> None:
        profile = None if name is None else self._context.settings.get(name)
        active = self._context.profile is not None and self._context.profile.name == name
        self.form.setEnabled(profile is not None)
        self.save_button.setEnabled(profile is not None)
        self.switch_button.setEnabled(profile is not None and not active)
        self.remove_button.setEnabled(profile is not None and not active)

    @async_slot()
    async def _load_form(self) -> None:
        name = self.selected_name()
        profile = None if name is None else self._context.settings.get(name)
        self._update_buttons(name)
        active = self._context.profile is not None and self._context.profile.name == name
        if profile is None:
            return
        has_key = await self._context.api_key_for(profile) is not None
        sandbox = self._context.sandbox
        default_fee = await self._default_maker_fee() if active else None
        keychain = (await self._context.api_keys()).available
        if self.selected_name() != name:
            return  # another profile chosen while the keychain or the service answered
        sandbox_url = sandbox.url if sandbox is not None and active else None
        self.form.load(profile, has_key, sandbox_url, default_fee, keychain=keychain)

    async def _default_maker_fee(self) -> AssumedMakerFee | None:
        """What the active profile assumes without a maker fee of its own: the connected
        service's published fee (read once per connection), else the default; None when not
        connected (the form then says the default is read on connecting)."""
        session = profile_session(self._context)
        if not session.connected:
            return None
        try:
            await session.ensure_ready()
        except NotReadyError:
            return None
        return service_default(session.published_maker_fee)

    @async_slot()
    async def save(self) -> None:
        context = self._context
        shown = self.form.profile
        # Edit the stored version: the profile may have changed since the form was loaded
        # (its keys set up, for one); only the form's own fields come from the form.
        old = None if shown is None else context.settings.get(shown.name)
        if old is None:
            return
        try:
            new = self.form.edited_profile(old)
            await context.update_settings(lambda s: s.with_profile(new, previous_name=old.name))
            if self.form.profile is shown:  # not another profile chosen while it was written
                self.form.profile = new
        except RequestRateError as exc:  # said under the field, which may be far above Save
            self.form.show_request_rate_error(exc.reason)
            self.form_scroll.ensureWidgetVisible(self.form.request_rate)
            self.form.request_rate.setFocus()
            set_message(self.message, strings.SETTINGS_INVALID_RATE)
            return
        except (ProfileSettingsError, ProfileFileError) as exc:
            set_message(self.message, strings.SETTINGS_INVALID.format(reason=exc))
            return
        active = context.profile is not None and context.profile.name == new.name
        change = connection_change(old, new) if active else None
        set_message(self.message, change or strings.SETTINGS_SAVED, "ok")
        if change is None:
            return
        if new.network != old.network:  # keys derive per network: the profile starts again
            await self._controller.reconnect()
        else:  # the same keys on new clients: the wallet stays unlocked
            await self._controller.reopen_clients()
        # "Reconnecting…" was true until now: say how it ended.
        connection = context.connection
        if connection is None:
            set_message(self.message, strings.SETTINGS_SAVED_NOT_CONNECTED, "error")
        else:
            url = connection.marketplace_url
            set_message(self.message, strings.SETTINGS_SAVED_CONNECTED.format(url=url), "ok")

    @async_slot()
    async def save_api_key(self) -> None:
        profile = self.form.profile
        key = self.form.api_key.text().strip()
        if profile is None or not key:
            return
        store = await self._context.api_keys()
        try:
            await run_blocking(store.set, profile.name, key)
            text, role = strings.SETTINGS_API_KEY_SAVED, "ok"
        except ApiKeyUnavailableError:
            self._context.session_api_keys[profile.name] = key
            text, role = strings.API_KEY_NOT_STORED, "error"
        set_message(self.message, text, role)
        if self.form.profile is profile:  # the fields being edited stay as they are
            self.form.show_api_key(True, store.available)

    @async_slot()
    async def clear_api_key(self) -> None:
        profile = self.form.profile
        if profile is None:
            return
        self._context.session_api_keys.pop(profile.name, None)
        store = await self._context.api_keys()
        await run_blocking(store.delete, profile.name)
        set_message(self.message, strings.SETTINGS_API_KEY_CLEARED, "ok")
        if self.form.profile is profile:  # the fields being edited stay as they are
            self.form.show_api_key(False, store.available)

    @async_slot()
    async def switch_profile(self) -> None:
        name = self.selected_name()
        if name is not None:
            await self._controller.switch_profile(name)

    @async_slot()
    async def add_profile(self) -> None:
        await self._controller.add_profile()

    @async_slot()
    async def remove_profile(self) -> None:
        name = self.selected_name()
        if name is None:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            strings.SETTINGS_REMOVE.replace("&", ""),
            strings.SETTINGS_REMOVE_CONFIRM.format(name=name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        self._context.dialog_opened.emit(box)
        if await exec_dialog(box) == QMessageBox.StandardButton.Yes:
            await self._controller.remove_profile(name)

    @async_slot(bool)
    async def change_notifications(self, on: bool) -> None:
        context = self._context
        try:
            await context.update_settings(lambda s: replace(s, notifications=on))
        except ProfileFileError as exc:
            set_message(self.message, strings.SETTINGS_INVALID.format(reason=exc))

    @async_slot()
    async def change_theme(self) -> None:
        context = self._context
        theme = Theme(self.theme.currentData())
        try:
            await context.update_settings(lambda s: replace(s, theme=theme))
        except ProfileFileError as exc:
            set_message(self.message, strings.SETTINGS_INVALID.format(reason=exc))
            return
        app = QApplication.instance()
        if isinstance(app, QApplication):
            context.theme_changed.emit(apply_theme(app, theme))
