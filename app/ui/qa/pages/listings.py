"""The Listings tab as a seller uses it: the held items ticked and priced, listed through the
review (one item or a bulk of up to 100), the question before relisting, End listing of a
listing chosen in Your listings, and the offline round trip (export for signing, import the
signed folder; the folder the tab asks for is answered by the page, as a user picks it)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QAbstractButton, QAbstractItemView, QLineEdit, QWidget

from app.ui import strings
from app.ui.models.listings_model import CHECK, LISTED, PRICE
from app.ui.qa.actions import click, type_into
from app.ui.qa.app import DialogPage, Page
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.pages.form_steps import FeeRate, choose_fee_rate, expect_dialog, replace_text
from app.ui.qa.said import MessageWatch
from app.ui.tabs.listings_relist import RelistDialog
from app.ui.tabs.listings_tab import LISTING_COLUMN, ListingsTab

if TYPE_CHECKING:
    from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
    from app.ui.qa.pages.review import ReviewPage

LOAD_TIMEOUT_MS = 30_000
FLOW_TIMEOUT_MS = 60_000  # a bulk of PSBTs requested, reviewed, signed and submitted
OPEN_TIMEOUT_MS = 60_000  # every PSBT of a bulk requested and checked before the review opens

Prices = int | Sequence[int]


class ListingsPage(Page):
    name = "Listings"

    @property
    def widget(self) -> ListingsTab:
        tab = self.app.window.tab("listings")
        assert isinstance(tab, ListingsTab)
        return tab

    # -- reading what the tab shows ---------------------------------------------------------

    def open(self, timeout_ms: int = LOAD_TIMEOUT_MS) -> ListingsPage:
        """The tab shown, once it has read the items the ordinals address holds."""
        tab = self.app.tab("listings", ListingsTab)
        self.expect("open", "the held items read", lambda: tab.held is not None, timeout_ms)
        return self

    def held(self) -> list[str]:
        """The held items' keys (inscription ids, runes outpoints) in the table's order."""
        return [i.key for i in self.widget.items_model.items]

    def mark(self, key: str) -> str:
        """What the Listed column says of `key` ("Not listed", "Listed · 30,000 sats", ...)."""
        model = self.widget.items_model
        return str(model.index(self._row(key, "mark"), LISTED).data())

    def mark_tip(self, key: str) -> str:
        model = self.widget.items_model
        index = model.index(self._row(key, "mark_tip"), LISTED)
        return str(index.data(Qt.ItemDataRole.ToolTipRole))

    def ticked(self) -> list[str]:
        return [i.key for i, _ in self.widget.items_model.selected()]

    def price_of(self, key: str) -> int | None:
        """The price typed for `key` (kept, though shown only while the row is ticked)."""
        return self.widget.items_model.prices[self._row(key, "price_of")]

    @property
    def problem(self) -> str:
        """Why the ticked items cannot be listed together, or the next step ("" when none)."""
        return self.widget.problem_label.text()

    @property
    def selection(self) -> str:
        return self.widget.selection_label.text()

    @property
    def status(self) -> str:
        """The line under the buttons: how the last action ended."""
        return self.widget.status.text()

    def can_list(self) -> bool:
        tab = self.widget
        return tab.sign_button.isEnabled() and tab.export_button.isEnabled()

    # -- choosing and pricing ---------------------------------------------------------------

    def tick(self, key: str, ticked: bool = True) -> None:
        """Tick (or untick) `key`'s check box with the space bar, as with the keyboard."""
        tab = self.widget
        model = tab.items_model
        row = self._row(key, "tick")
        if model.checked[row] != ticked:
            self._key_on(tab.items_view, model.index(row, CHECK), Qt.Key.Key_Space)
        said = f"{key} {'ticked' if ticked else 'unticked'}"
        self.expect("tick", said, lambda: model.checked[row] == ticked, 1_000)

    def select(self, keys: Sequence[str]) -> None:
        """Tick exactly `keys`: Select none, then each."""
        click(self.qtbot, self.widget.select_none)
        for key in keys:
            self.tick(key)

    def select_all(self) -> str:
        """Press Select all; what the line under the table says it left out ("" when none)."""
        click(self.qtbot, self.widget.select_all)
        return self.problem

    def price_all(self, price: int) -> None:
        """Type `price` in "Price for all" and press Apply: every ticked item gets it."""
        replace_text(self.qtbot, self.widget.price_all.edit, f"{price:,}")
        click(self.qtbot, self.widget.apply_price)

    def price_item(self, key: str, price: int) -> None:
        """Type `price` in `key`'s Price cell (F2, the number, Enter): it ticks the row."""
        tab = self.widget
        index = tab.items_model.index(self._row(key, "price_item"), PRICE)
        self._key_on(tab.items_view, index, Qt.Key.Key_F2)
        editor = tab.items_view.indexWidget(index)
        if editor is None:
            raise ScenarioFailure(
                f"{self.name} page, price_item: no editor opened on {key}'s price"
            )
        if isinstance(editor, QLineEdit):
            editor.selectAll()  # a price typed before is replaced, as a user overtypes it
        type_into(self.qtbot, editor, str(price))
        self.qtbot.keyClick(editor, Qt.Key.Key_Return)
        self.expect("price_item", f"{key}'s price {price:,}", lambda: self.price_of(key) == price)

    def choose(self, keys: Sequence[str], prices: Prices) -> None:
        """Tick exactly `keys` and price them: one price for all (Price for all, Apply), or a
        price per item typed in its cell."""
        self.select(keys)
        if isinstance(prices, int):
            self.price_all(prices)
            return
        if len(prices) != len(keys):
            raise ValueError(f"{len(keys)} items but {len(prices)} prices")
        for key, price in zip(keys, prices, strict=True):
            self.price_item(key, price)

    # -- listing ----------------------------------------------------------------------------

    def start_listing(self, keys: Sequence[str], prices: Prices) -> ReviewPage:
        """Choose and price `keys`, press Review and sign: the review of their PSBTs (one
        table for a bulk). Items listed already are asked about first: `start_relisting`."""
        self.choose(keys, prices)
        return self.review_selected("start_listing")

    def review_selected(self, action: str = "review_selected") -> ReviewPage:
        """Press Review and sign on the items ticked and priced now: their review."""
        return self._review_after(self.widget.sign_button, action)

    def start_relisting(self, keys: Sequence[str], prices: Prices) -> RelistQuestion:
        """As `start_listing` for items listed already: the question asked before."""
        self.choose(keys, prices)
        before = len(self.app.harness.dialogs)
        click(self.qtbot, self.widget.sign_button)
        return self._question(before, "start_relisting")

    def list_items(self, keys: Sequence[str], prices: Prices) -> str:
        """List `keys` at `prices` as a user does: chosen, priced, reviewed, approved, signed
        and submitted; the tab's line once done and the lists read again (LISTINGS_DONE)."""
        return self.approve(self.start_listing(keys, prices), "list_items")

    def approve(self, review: ReviewPage, action: str = "approve") -> str:
        """Approve `review` (of this tab's flow) and wait until the flow ended and the tab read
        its lists again; the tab's line, saying how it ended."""
        with self._refreshes() as refreshed:
            review.approve()
            self.expect(
                action,
                "the flow to end and the lists to be read again",
                lambda: not self.widget.flow.busy and refreshed(),
                FLOW_TIMEOUT_MS,
            )
        return self.status

    @contextmanager
    def cancelling_signing_after(self, signed: int) -> Iterator[None]:
        """Within: press the progress panel's Cancel once `signed` PSBTs are signed."""
        tab = self.widget

        def cancel(value: int) -> None:
            if value == signed and tab.progress.label.text() == strings.LISTINGS_SIGNING:
                click(self.qtbot, tab.progress.cancel_button)

        tab.progress.bar.valueChanged.connect(cancel)
        try:
            yield
        finally:
            tab.progress.bar.valueChanged.disconnect(cancel)

    # -- offline signing --------------------------------------------------------------------

    def start_export(self, keys: Sequence[str], prices: Prices, folder: Path) -> ReviewPage:
        """Choose and price `keys`, press Export for offline signing and pick `folder`: the
        review (its button exports; nothing is signed here)."""
        self.choose(keys, prices)
        with self._folder_answered(folder, strings.LISTINGS_EXPORT_FOLDER, "start_export"):
            return self._review_after(self.widget.export_button, "start_export")

    def export(self, keys: Sequence[str], prices: Prices, folder: Path) -> str:
        """Export `keys` at `prices` to `folder` through the review; the tab's line once
        written (LISTINGS_EXPORTED)."""
        said = self.start_export(keys, prices, folder).approve()  # the flow's outcome
        written = strings.counted(strings.LISTINGS_EXPORTED, len(keys), folder=folder)
        if said != written:
            raise ScenarioFailure(
                f"{self.name} page, export: expected the status {written!r}; it says {said!r}"
            )
        return said

    def start_import(self, folder: Path) -> ReviewPage:
        """Press Import signed and pick `folder`: the signed PSBTs reviewed again."""
        with self._folder_answered(folder, strings.LISTINGS_IMPORT_FOLDER, "start_import"):
            return self._review_after(self.widget.import_button, "start_import")

    def show_export_qr(self) -> AnimatedQrDialog:
        """Press Show as QR… after an export: the animated QR dialog of that export (read its
        frames with tests/support's decoders; close it with `reject()`)."""
        from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog

        if self.widget.flow.last_export() is None:
            raise ScenarioFailure(f"{self.name} page, show_export_qr: nothing exported yet")
        before = len(self.app.harness.dialogs)
        click(self.qtbot, self.widget.flow.qr_button)
        return expect_dialog(self, "show_export_qr", "the animated QR dialog", AnimatedQrDialog,
                             before)  # fmt: skip

    def import_signed(self, folder: Path) -> str:
        """Import the signed `folder`, approve its review, submit; the tab's line once done."""
        return self.approve(self.start_import(folder), "import_signed")

    # -- your listings and End listing ------------------------------------------------------

    def your_listings(self) -> list[tuple[str, ...]]:
        """Your listings as shown: (item, price, state, listing id) per row."""
        model = self.widget.mine_model
        columns = range(model.columnCount())
        return [tuple(model.cell(r, c).text for c in columns) for r in range(model.rowCount())]

    def choose_listing(self, key: str, state: str = "active") -> None:
        """Click the row of Your listings of item `key` in `state` (a LISTINGS_STATES key)."""
        tab = self.widget
        shown_state = strings.LISTINGS_STATES.get(state, state)
        model = tab.mine_model
        row = next(
            (
                r
                for r in range(model.rowCount())
                if model.cell(r, 0).tooltip == key and model.cell(r, 2).text == shown_state
            ),
            None,
        )
        if row is None:
            raise ScenarioFailure(
                f"{self.name} page, choose_listing: no {shown_state!r} listing of {key} among"
                f" {self.your_listings()}"
            )
        self._click_cell(tab.mine_view, model.index(row, LISTING_COLUMN))

    def chosen_listing_row(self) -> tuple[str, ...] | None:
        rows = self.widget.mine_view.selectionModel().selectedRows()
        return self.your_listings()[rows[0].row()] if len(rows) == 1 else None

    def start_end_listing(self, fee_rate: FeeRate = None) -> ReviewPage:
        """Choose `fee_rate` for the move (sat/vB typed as Custom, a preset's name such as
        "Fast", None: as it is), press End listing (of the listing chosen, else the one ticked
        item signed by us): the review of the move back to the ordinals address."""
        choose_fee_rate(self.qtbot, self.widget.end_fee, fee_rate)
        return self._review_after(self.widget.end_button, "start_end_listing")

    def end_listing(self, key: str | None = None, fee_rate: FeeRate = None) -> str:
        """End the active listing of `key` (chosen in Your listings; None: what is chosen or
        ticked now) at `fee_rate` through the review; the tab's line ("Sent <txid>: ...")."""
        if key is not None:
            self.choose_listing(key)
        return self.approve(self.start_end_listing(fee_rate), "end_listing")

    @property
    def end_hint(self) -> str:
        """Why End listing is disabled ("" when it is not)."""
        return self.widget.end_hint.text()

    def refresh(self) -> None:
        """Press Refresh and wait until the lists are read again."""
        with self._refreshes() as refreshed:
            click(self.qtbot, self.widget.refresh_button)
            self.expect("refresh", "the lists read again", refreshed, LOAD_TIMEOUT_MS)

    # -- helpers ----------------------------------------------------------------------------

    def _row(self, key: str, action: str) -> int:
        keys = self.held()
        if key not in keys:
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected {key} among the {len(keys)} held items;"
                f" it shows: {self.shown()}"
            )
        return keys.index(key)

    def _key_on(self, view: QAbstractItemView, index: QModelIndex, key: Qt.Key) -> None:
        view.scrollTo(index)
        view.setFocus()
        view.setCurrentIndex(index)  # the keyboard's cursor on the cell, as arrows put it
        self.qtbot.keyClick(view, key)

    def _click_cell(self, view: QAbstractItemView, index: QModelIndex) -> None:
        view.scrollTo(index)
        at = view.visualRect(index).center()
        self.qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=at)

    def _review_after(self, button: QAbstractButton, action: str) -> ReviewPage:
        """Click `button`, expect the review to open; a relist question instead, or an error
        on the tab's line before any review (the PSBTs could not be made), fails at once,
        quoting it. The review's page."""
        from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog

        dialogs = self.app.harness.dialogs
        before = len(dialogs)
        watch = MessageWatch(self.widget, [self.widget.status])
        failed: list[str] = []
        click(self.qtbot, button)

        def opened() -> bool:
            if any(isinstance(d, PsbtReviewDialog | RelistDialog) for d in dialogs[before:]):
                return True
            said = watch.new(("error",))
            if said is not None:
                failed.append(said)
            return bool(failed)

        self.expect(action, "the review to open", opened, OPEN_TIMEOUT_MS)
        asked = next((d for d in dialogs[before:] if isinstance(d, RelistDialog)), None)
        if asked is not None:
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected the review to open; the relist question"
                f" opened instead: {asked.head.text()!r}"
            )
        if failed and not any(isinstance(d, PsbtReviewDialog) for d in dialogs[before:]):
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected the review to open; the tab says:"
                f" error {failed[0]!r}"
            )
        return self.app.review(before)

    def _question(self, before: int, action: str) -> RelistQuestion:
        """Expect the question before relisting (the review opening instead fails, saying so:
        reject it with `app.review()`)."""
        from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog

        dialogs = self.app.harness.dialogs

        def opened() -> bool:
            return any(isinstance(d, PsbtReviewDialog | RelistDialog) for d in dialogs[before:])

        self.expect(action, "the question before relisting", opened, OPEN_TIMEOUT_MS)
        dialog = next((d for d in dialogs[before:] if isinstance(d, RelistDialog)), None)
        if dialog is None:
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected the question before relisting; the"
                " review opened instead (nothing ticked is listed)"
            )
        self.expect(action, "the question before relisting shown", dialog.isVisible)
        return RelistQuestion(self, dialog)

    @contextmanager
    def _folder_answered(self, folder: Path, question: str, action: str) -> Iterator[None]:
        """Within: the tab's folder question answered with `folder` (a file dialog cannot be
        driven offscreen); it must be the question `question`."""
        tab = self.widget
        asked: list[str] = []

        async def answer(parent: QWidget, title: str) -> Path | None:
            asked.append(title)
            return folder

        tab.ask_folder = answer  # an instance's own: the class's stays for other tabs
        try:
            yield
        finally:
            del tab.ask_folder
        if asked != [question]:
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected the question {question!r}; asked {asked}"
            )

    @contextmanager
    def _refreshes(self) -> Iterator[Callable[[], bool]]:
        """Within: whether the tab said `refreshed` since."""
        seen: list[bool] = []

        def note() -> None:
            seen.append(True)

        self.widget.refreshed.connect(note)
        try:
            yield lambda: bool(seen)
        finally:
            self.widget.refreshed.disconnect(note)


class RelistQuestion(DialogPage[RelistDialog]):
    """The question before listing items listed already: keep them, or list them again."""

    name = "Relist question"

    def __init__(self, listings: ListingsPage, dialog: RelistDialog) -> None:
        super().__init__(listings.app, dialog)
        self.listings = listings

    @property
    def head(self) -> str:
        return self.dialog.head.text()

    @property
    def explain(self) -> str:
        return self.dialog.explain.text()

    def keep(self) -> str:
        """Keep them as they are: nothing is sent; the tab's line (RELIST_CANCELLED)."""
        click(self.qtbot, self.dialog.no_button)
        cancelled = strings.RELIST_CANCELLED
        self.listings.expect(
            "keep", f"the status {cancelled!r}", lambda: self.listings.status == cancelled
        )
        return self.listings.status

    def list_again(self) -> ReviewPage:
        """List them again: the review of the new listings."""
        from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog

        dialogs = self.app.harness.dialogs
        before = len(dialogs)
        click(self.qtbot, self.dialog.yes_button)
        self.listings.expect(
            "list_again",
            "the review to open",
            lambda: any(isinstance(d, PsbtReviewDialog) for d in dialogs[before:]),
            OPEN_TIMEOUT_MS,
        )
        return self.app.review(before)
