"""The Settings tab as a user changes it: the profile chosen in the list, its form read and typed
into (URLs, request rate, fee bounds, lock timeout, maker fee), Save pressed and its message
read once the save ended (a reconnect included), the theme chosen with the keyboard.

A save or a theme change runs as a task of the tab's slot: the page waits for that task to end
(`_slot_ended`), then reads what the tab says, so a message that is the same as before (saved
twice) is still the answer to this press."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QLineEdit, QSpinBox

from app.ui.qa.actions import click
from app.ui.qa.app import Page
from app.ui.qa.expect import DEFAULT_TIMEOUT_MS, ScenarioFailure
from app.ui.qa.pages.form_steps import replace_text
from app.ui.tabs.settings_tab import SettingsTab

SAVE_TIMEOUT_MS = 30_000  # a save that reopens the connection waits for it
TEXT_FIELDS = ("marketplace_url", "esplora_url", "ord_url", "request_rate")


@dataclass(frozen=True)
class ProfileShown:
    """The profile form as it shows now (numbers as the fields read them)."""

    name: str
    kind: str
    network: str
    marketplace_url: str
    esplora_url: str
    ord_url: str
    request_rate: str
    min_rate: float
    max_rate: float
    max_fee: int
    lock_minutes: int
    maker_fee_default: bool  # "Use the service's" ticked
    maker_fee_sats: int
    maker_fee_bps: int


class SettingsPage(Page):
    name = "Settings"

    @property
    def widget(self) -> SettingsTab:
        tab = self.app.window.tab("settings")
        assert isinstance(tab, SettingsTab)
        return tab

    def open(self, profile: str | None = None) -> SettingsPage:
        """The tab shown, its form loaded (with `profile`, when named: chosen in the list)."""
        tab = self.app.tab("settings", SettingsTab)
        if profile is not None and tab.selected_name() != profile:
            self.choose_profile(profile)

        def loaded() -> bool:
            shown = tab.form.profile
            return shown is not None and (profile is None or shown.name == profile)

        self.expect("open", f"the form of {profile or 'a profile'}", loaded)
        return self

    def profiles(self) -> list[str]:
        """The profiles listed, as shown (the active one with its suffix)."""
        listed = self.widget.profiles
        return [listed.item(row).text() for row in range(listed.count())]

    def choose_profile(self, name: str) -> None:
        """Click `name` in the list of profiles; its form loads."""
        tab = self.widget
        listed = tab.profiles
        rows = [
            r
            for r in range(listed.count())
            if listed.item(r).data(Qt.ItemDataRole.UserRole) == name
        ]
        if not rows:
            raise ScenarioFailure(
                f"{self.name} page, choose_profile: no profile {name!r} among {self.profiles()}"
            )
        item = listed.item(rows[0])
        listed.scrollToItem(item)
        at = listed.visualItemRect(item).center()
        self.qtbot.mouseClick(listed.viewport(), Qt.MouseButton.LeftButton, pos=at)
        shown = tab.form
        self.expect("choose_profile", f"the form of {name!r}",
                    lambda: shown.profile is not None and shown.profile.name == name)  # fmt: skip

    def form(self) -> ProfileShown:
        form = self.widget.form
        fee = form.maker_fee
        return ProfileShown(
            name="" if form.profile is None else form.profile.name,
            kind=form.kind.text(),
            network=form.network.currentText(),
            marketplace_url=form.marketplace_url.text(),
            esplora_url=form.esplora_url.text(),
            ord_url=form.ord_url.text(),
            request_rate=form.request_rate.text(),
            min_rate=form.min_rate.value(),
            max_rate=form.max_rate.value(),
            max_fee=form.max_fee.value(),
            lock_minutes=form.lock_minutes.value(),
            maker_fee_default=fee.use_default.isChecked(),
            maker_fee_sats=fee.sats.value(),
            maker_fee_bps=fee.bps.value(),
        )

    # -- typing into the form -------------------------------------------------------------

    def type_field(self, field: str, text: str) -> None:
        """Type `text` over what field `field` (one of TEXT_FIELDS) holds."""
        if field not in TEXT_FIELDS:
            raise ValueError(f"{field!r} is none of the text fields {TEXT_FIELDS}")
        edit = getattr(self.widget.form, field)
        assert isinstance(edit, QLineEdit)
        replace_text(self.qtbot, edit, text)

    def set_request_rate(self, rate: str) -> None:
        """Type `rate` ("5/10": requests per seconds; "" for the default) as the request rate."""
        self.type_field("request_rate", rate)

    @property
    def request_rate_error(self) -> str:
        """Why the request rate was refused, under the field ("" when it is not)."""
        form = self.widget.form
        label = form.request_rate_error
        return label.text() if label.isVisibleTo(self.widget) else ""

    def set_fee_bounds(
        self,
        min_rate: float | None = None,
        max_rate: float | None = None,
        max_fee: int | None = None,
    ) -> None:
        """Type the fee bounds given (sat/vB, sat/vB, sats); the others stay."""
        form = self.widget.form
        for spin, value in ((form.min_rate, min_rate), (form.max_rate, max_rate),
                            (form.max_fee, max_fee)):  # fmt: skip
            if value is not None:
                self._type_number(spin, value)

    def set_lock_minutes(self, minutes: int) -> None:
        self._type_number(self.widget.form.lock_minutes, minutes)

    def set_maker_fee(self, sats: int, bps: int = 0) -> None:
        """A maker fee of the profile's own: "Use the service's" unticked, the amounts typed."""
        fee = self.widget.form.maker_fee
        if fee.use_default.isChecked():
            click(self.qtbot, fee.use_default)
        self._type_number(fee.sats, sats)
        self._type_number(fee.bps, bps)

    def use_default_maker_fee(self) -> None:
        """Tick "Use the service's" (the amounts shown are then the default's)."""
        fee = self.widget.form.maker_fee
        if not fee.use_default.isChecked():
            click(self.qtbot, fee.use_default)

    @property
    def maker_fee_default(self) -> str:
        """The line saying what the profile assumes without a fee of its own."""
        return self.widget.form.maker_fee.default_line.text()

    # -- saving and the theme ---------------------------------------------------------------

    @property
    def message(self) -> str:
        """The line beside Save ("" while hidden)."""
        label = self.widget.message
        return label.text() if label.isVisibleTo(self.widget) else ""

    def save(self, timeout_ms: int = SAVE_TIMEOUT_MS) -> str:
        """Press Save and wait until the save ended (a reconnect it started included); what
        the line beside Save then says (SETTINGS_SAVED, SETTINGS_INVALID_RATE, ...)."""
        tab = self.widget

        def press() -> None:
            click(self.qtbot, tab.save_button)

        self._slot_ended("save", "SettingsTab.save", press, timeout_ms)
        return self.message

    @property
    def theme(self) -> str:
        """The theme chosen, as the list shows it ("Dark")."""
        return self.widget.theme.currentText()

    def set_theme(self, label: str) -> None:
        """Choose the theme shown as `label` (a value of strings.SETTINGS_THEMES) with the
        keyboard; returns once it is saved and applied."""
        choice = self.widget.theme
        labels = [choice.itemText(i) for i in range(choice.count())]
        if label not in labels:
            raise ValueError(f"no theme {label!r} among {labels}")
        if choice.currentText() == label:
            return
        wanted = labels.index(label)

        def choose() -> None:
            choice.setFocus()
            key = Qt.Key.Key_Down if wanted > choice.currentIndex() else Qt.Key.Key_Up
            while choice.currentIndex() != wanted:
                self.qtbot.keyClick(choice, key)  # each step is saved, as a user's is

        self._slot_ended("set_theme", "SettingsTab.change_theme", choose, DEFAULT_TIMEOUT_MS)
        saved = choice.itemData(wanted)
        self.expect("set_theme", f"the theme {label!r} saved",
                    lambda: self.app.context.settings.theme.value == saved)  # fmt: skip

    # -- helpers ----------------------------------------------------------------------------

    def _type_number(self, spin: QAbstractSpinBox, value: float) -> None:
        """Select the box's number and type `value` (its suffix stays), as a user would."""
        spin.setFocus()
        spin.selectAll()
        typed = f"{value:g}" if isinstance(spin, QDoubleSpinBox) else str(int(value))
        self.qtbot.keyClicks(spin, typed)
        if isinstance(spin, QSpinBox | QDoubleSpinBox) and spin.value() != value:
            raise ScenarioFailure(
                f"{self.name} page: typed {typed!r}, the box reads {spin.text()!r}"
            )

    def _slot_ended(
        self, action: str, slot: str, press: Callable[[], None], timeout_ms: int
    ) -> None:
        """Do `press`, then wait until the tasks of the async slot `slot` (its qualified name)
        it started have ended (a task the press ran to its end already is ended)."""
        loop = self.app.loop

        def running() -> set[asyncio.Task[object]]:
            return {t for t in asyncio.all_tasks(loop) if _qualname(t) == slot}

        before = running()
        press()
        started = running() - before  # all_tasks holds unfinished ones: taken right away
        self.expect(action, f"{slot} to end", lambda: all(t.done() for t in started), timeout_ms)


def _qualname(task: asyncio.Task[object]) -> str:
    """The qualified name of the coroutine `task` runs ("SettingsTab.save")."""
    return str(getattr(task.get_coro(), "__qualname__", ""))
