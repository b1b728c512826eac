"""Settings' box for the question asked before a bid is signed (`bid_confirm`): ticked, the Bid
tab asks; "Don't ask again" in that question unticks it, and ticking it here turns the question
back on. Kept in the app settings (`AppSettings.confirm_bids`), for every profile."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QCheckBox, QGroupBox, QVBoxLayout, QWidget

from app.services.profiles import ProfileFileError
from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.widgets import message_label, set_message

if TYPE_CHECKING:
    from app.ui.context import AppContext


class ConfirmBidsSetting(QGroupBox):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(strings.SETTINGS_BIDS, parent)
        self._context = context
        self.check = QCheckBox(strings.SETTINGS_CONFIRM_BIDS)
        self.message = message_label("error")
        self.message.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.check)
        layout.addWidget(self.message)
        self.check.clicked.connect(self.save)  # the user's click only, not reload's
        context.profile_changed.connect(self.reload)  # settings saved anywhere (the question)
        self.reload()

    def reload(self) -> None:
        self.check.setChecked(self._context.settings.confirm_bids)

    @async_slot()
    async def save(self) -> None:
        context = self._context
        wanted = self.check.isChecked()
        try:
            await context.update_settings(lambda s: replace(s, confirm_bids=wanted))
        except ProfileFileError as exc:
            set_message(self.message, strings.SETTINGS_INVALID.format(reason=exc))
            self.reload()
            return
        set_message(self.message, "")
