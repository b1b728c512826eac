"""The Bid tab as a user places bids: the form filled by typing (collection or rune, price,
quantity, traits ticked in the picker), Place pressed, the question before signing answered
(`BidConfirmPage`), and the tab's result line read.

    placed = app.bid.ready(slug).place_collection_bid(slug, 20_000, 3)
    assert placed.ok, placed.said          # "Placed: 3 bids in <slug>. Accepted at ..."
    placed.asked.values["pools"]           # what the question showed before signing

The functions after the classes are the same steps on a bare tab (older tests use them)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from app.ui.qa.actions import click, paste_into, set_spin, type_into
from app.ui.qa.app import App, DialogPage, Page
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.harness import AppHarness
from app.ui.qa.said import MessageWatch
from app.ui.tabs.bid_confirm import BidConfirmDialog

if TYPE_CHECKING:
    from app.ui.tabs.bid_tab import BidTab

BALANCE_TIMEOUT_MS = 20_000
QUESTION_TIMEOUT_MS = 10_000  # Place to the question (a locked wallet asks its password first)
PLACE_TIMEOUT_MS = 30_000  # sign, verify, send (retries included)
RUNE_TIMEOUT_MS = 20_000  # ord's answer to a rune's name


@dataclass(frozen=True)
class Placement:
    """How a placement ended: `said` the tab's result line ("Placed: 3 bids in ..." or "Not
    placed: ..."), `ok` whether it was placed, `asked` what the question before signing showed
    (None when it was not asked: "Don't ask again")."""

    said: str
    ok: bool
    asked: Asked | None


@dataclass(frozen=True)
class Asked:
    """The question before signing: `values` its rows (pools, price, quantity, expiry,
    fee_rate, market) and `message` the exact message signed."""

    values: dict[str, str]
    message: str


class BidConfirmPage(DialogPage[BidConfirmDialog]):
    """The question before a bid message is signed (app/ui/tabs/bid_confirm.py)."""

    name = "Bid confirmation"

    @property
    def asked(self) -> Asked:
        return Asked(dict(self.dialog.values), self.dialog.message.toPlainText())

    def sign(self, dont_ask_again: bool = False) -> None:
        """Tick "Don't ask again" when asked to, then press Sign."""
        if dont_ask_again and not self.dialog.dont_ask.isChecked():
            click(self.qtbot, self.dialog.dont_ask)
        click(self.qtbot, self.dialog.sign_button)

    def cancel(self) -> None:
        click(self.qtbot, self.dialog.cancel_button)


class BidPage(Page):
    name = "Bid"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self._pressed: PressedPlace | None = None

    @property
    def tab(self) -> BidTab:
        """The Bid tab, shown."""
        from app.ui.tabs.bid_tab import BidTab

        return self.app.tab("bid", BidTab)

    @property
    def widget(self) -> QWidget:
        return self.app.window.tab("bid")

    # -- reading ----------------------------------------------------------------------------

    @property
    def result(self) -> str:
        """The last placement's result line ("" once the form changed)."""
        return self.tab.result.text()

    @property
    def count_text(self) -> str:
        """The preview's count: "This request places 3 bids for 60,000 sats in all."."""
        return self.tab.count_label.text()

    @property
    def message(self) -> str:
        """The preview's message to be signed (or why there is none)."""
        return self.tab.message.toPlainText()

    def pools(self) -> list[list[str]]:
        """The preview's pools table, row by row: pool, committed, this request, balance, fits."""
        table = self.tab.pools
        cells = (
            [table.item(row, column) for column in range(table.columnCount())]
            for row in range(table.rowCount())
        )
        return [["" if item is None else item.text() for item in row] for row in cells]

    def field_error(self, field: str) -> str:
        """What the form says under `field` ("slug", "price", "quantity", "expiry", "traits",
        "kind"): "" when nothing is shown there."""
        tab = self.tab
        label = tab.form.messages.get(field)
        if label is None:
            known = ", ".join(tab.form.messages)
            raise ScenarioFailure(f"{self.name} page: no field {field!r} (fields: {known})")
        return label.text() if label.isVisibleTo(tab) else ""

    @property
    def can_place(self) -> bool:
        return self.tab.place_button.isEnabled()

    # -- what a user does -------------------------------------------------------------------

    def ready(self, slug: str | None = None, funded: bool = True) -> BidPage:
        """The tab shown with the balance read (`funded`: more than nothing in it) and, given
        `slug`, that collection offered for completion."""
        tab = self.tab

        def balance_read() -> bool:
            view = tab.state.view
            return view is not None and (not funded or view.balance.total > 0)

        expected = "the bidding wallet's balance" + (" (funded)" if funded else "")
        self.expect("ready", expected, balance_read, BALANCE_TIMEOUT_MS)
        if slug is not None:
            offered = tab.form.slug_names.stringList
            self.expect("ready", f"collection {slug!r} offered", lambda: slug in offered(),
                        BALANCE_TIMEOUT_MS)  # fmt: skip
        return self

    def choose_ordinals(self) -> None:
        click(self.qtbot, self.tab.form.ordinals_radio)

    def choose_runes(self) -> None:
        click(self.qtbot, self.tab.form.runes_radio)

    def fill_collection_bid(self, slug: str, price: int | str, quantity: int = 1) -> None:
        """Ordinals; the collection, the price per item and the quantity typed."""
        tab = self.tab
        if tab.form.runes:
            self.choose_ordinals()
        fill_collection_bid(self.qtbot, tab, slug, _typed(price), quantity)

    def tick_trait(self, label: str, search: str | None = None) -> None:
        """Tick the trait shown as `label` ("Hat: Crown") after typing `search` in the picker's
        search box (default: the label's last word; QTest cannot type every character, 🔥)."""
        tick_trait(self.qtbot, self.tab, search or label.split()[-1], label)

    def fill_rune_bid(self, rune: str, total_price: int | str, units: int) -> None:
        """Runes; the name pasted (the spacer • cannot be typed) and looked up in ord with
        Enter until the field holds the etched name; the total price and the units typed."""
        tab = self.tab
        form = tab.form
        if not form.runes:
            self.choose_runes()
        form.slug.clear()
        paste_into(self.qtbot, form.slug, rune)
        self.qtbot.keyClick(form.slug, Qt.Key.Key_Return)
        self.expect("fill_rune_bid", f"ord to confirm rune {rune!r}", form.rune_is_etched,
                    RUNE_TIMEOUT_MS)  # fmt: skip
        retype(self.qtbot, form.price.edit, _typed(total_price))
        set_spin(self.qtbot, form.quantity, units)

    def place(self, confirm: bool = True, dont_ask_again: bool = False) -> Placement:
        """Press Place; at the question Sign (`confirm`, ticking "Don't ask again" when asked
        to) or Cancel; how it ended. Without the question (turned off) it is placed at once."""
        self.press_place()
        if self.app.context.settings.confirm_bids:
            question = self.question()
            if confirm:
                question.sign(dont_ask_again)
            else:
                question.cancel()
        return self.outcome()

    def press_place(self) -> None:
        """Press Place (nothing more: a locked wallet asks its password, then the question
        comes: `question()`; then `outcome()`)."""
        tab = self.tab
        if not tab.place_button.isEnabled():
            raise ScenarioFailure(
                f"{self.name} page, place: expected Place enabled; it shows: {self.shown()}"
            )
        self._pressed = PressedPlace(len(self.app.harness.dialogs), MessageWatch(tab, [tab.result]))
        click(self.qtbot, tab.place_button)

    def question(self, timeout_ms: int = QUESTION_TIMEOUT_MS) -> BidConfirmPage:
        """The question before signing that the last Place opened, once it shows."""
        pressed = self._placing("question")
        dialogs = self.app.harness.dialogs

        def asked() -> BidConfirmDialog | None:
            found = [d for d in dialogs[pressed.dialogs :] if isinstance(d, BidConfirmDialog)]
            return found[0] if found and found[0].isVisible() else None

        self.expect("place", "the question before signing", lambda: asked() is not None,
                    timeout_ms)  # fmt: skip
        dialog = asked()
        assert dialog is not None
        pressed.question = page = BidConfirmPage(self.app, dialog)
        pressed.asked = page.asked
        return page

    def outcome(self, timeout_ms: int = PLACE_TIMEOUT_MS) -> Placement:
        """How the last Place ended, once it did: the result line (placed, not placed, or
        cancelled at the question)."""
        pressed = self._placing("outcome")
        tab = self.tab
        question = pressed.question

        def ended() -> bool:
            if question is not None:  # the tab is placing from the press to the end
                return not question.is_open and not tab.placing
            return pressed.watch.new() is not None and not tab.placing

        self.expect("place", "the result line to say how it ended", ended, timeout_ms)
        self._pressed = None
        said = tab.result.text()
        return Placement(said, tab.result.property("role") == "ok", pressed.asked)

    def place_collection_bid(
        self, slug: str, price: int | str, quantity: int = 1, confirm: bool = True
    ) -> Placement:
        self.fill_collection_bid(slug, price, quantity)
        return self.place(confirm)

    def place_trait_bid(
        self,
        slug: str,
        traits: Sequence[str],
        price: int | str,
        quantity: int = 1,
        confirm: bool = True,
    ) -> Placement:
        """A collection bid with `traits` ticked ("Type: value" each)."""
        self.fill_collection_bid(slug, price, quantity)
        self._traits_offered(slug)
        for label in traits:
            self.tick_trait(label)
        self.tab.form.traits.search.clear()
        return self.place(confirm)

    def place_rune_bid(
        self, rune: str, total_price: int | str, units: int, confirm: bool = True
    ) -> Placement:
        """A rune bid: `total_price` sats for `units` units of `rune`."""
        self.fill_rune_bid(rune, total_price, units)
        return self.place(confirm)

    # -- helpers ----------------------------------------------------------------------------

    def _traits_offered(self, slug: str) -> None:
        picker = self.tab.form.traits
        self.expect("place_trait_bid", f"the traits of {slug!r} listed",
                    lambda: picker.isEnabled() and picker.available() > 0,
                    BALANCE_TIMEOUT_MS)  # fmt: skip

    def _placing(self, action: str) -> PressedPlace:
        if self._pressed is None:
            raise ScenarioFailure(f"{self.name} page, {action}: Place was not pressed")
        return self._pressed


@dataclass
class PressedPlace:
    """A press of Place being followed: the dialogs opened before it, the result line's
    watch, the question once it showed."""

    dialogs: int
    watch: MessageWatch
    question: BidConfirmPage | None = None
    asked: Asked | None = None


def _typed(amount: int | str) -> str:
    """An amount as a user types it: 20000 -> "20,000" (the field groups digits)."""
    return f"{amount:,}" if isinstance(amount, int) else amount


# -- the same steps on a bare tab ---------------------------------------------------------------


def bid_page(qtbot: QtBot, app: AppHarness) -> BidPage:
    """The Bid page of a window opened without an `App` (the session loop is running)."""
    return BidPage(App(app, qtbot, asyncio.get_running_loop()))


def bid_tab_ready(qtbot: QtBot, app: AppHarness, slug: str | None = None) -> BidTab:
    """The Bid tab shown, with the balance loaded and (when `slug`) the collections offered."""
    return bid_page(qtbot, app).ready(slug).tab


def fill_collection_bid(qtbot: QtBot, tab: BidTab, slug: str, price: str, quantity: int) -> None:
    """Type a collection bid into the Bid tab's form, as a user does: slug, price, quantity
    (each typed over what the field held)."""
    retype(qtbot, tab.form.slug, slug)
    retype(qtbot, tab.form.price.edit, price)
    set_spin(qtbot, tab.form.quantity, quantity)


def retype(qtbot: QtBot, edit: QLineEdit, text: str) -> None:
    """Select what `edit` holds and type `text` over it."""
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)


def tick_trait(qtbot: QtBot, tab: BidTab, search: str, label: str) -> None:
    """Type `search` in the trait picker's search box, then tick the trait shown as `label`
    ("Type: value") with the space bar."""
    picker = tab.form.traits
    picker.search.clear()
    type_into(qtbot, picker.search, search)
    for row in range(picker.proxy.rowCount()):
        index = picker.proxy.index(row, 0)
        if index.data() == label:
            picker.view.setFocus()
            picker.view.setCurrentIndex(index)
            qtbot.keyClick(picker.view, Qt.Key.Key_Space)
            return
    raise AssertionError(f"no trait {label!r} among {picker.proxy.rowCount()} shown")


def place_from_bid_tab(qtbot: QtBot, app: AppHarness, tab: BidTab) -> dict[str, str]:
    """Press Place and sign at the question before signing; what it showed (pools, price,
    quantity, expiry, fee rate, and the message)."""
    page = bid_page(qtbot, app)
    page.press_place()
    question = page.question()
    shown = dict(question.asked.values, message=question.asked.message)
    question.sign()
    return shown
