"""Secure listings: pick inscriptions or runes the ordinals address holds (each marked listed at
its price, not listed, or unknown when the service gives no list, and signed at a price when our
own ledger holds a live signature on it, whatever the service says), price each (or all at once),
then review every PSBT in one table -> sign with a cancellable progress bar -> submit; or export
them for an offline signer and import the signed files later. Items listed already are named
first, with what a new listing does (`listings_relist`). Below, the user's listings with their
state, and End listing (of the listing selected there, or of the one ticked item signed by us):
the item moved back to the ordinals address, through the PSBT runner."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.dialogs.psbt_review_flow import connection_key, public_context
from app.ui.dialogs.qr_scan_dialog import ScanButton
from app.ui.file_dialogs import ask_folder
from app.ui.icons import icon_button
from app.ui.models.listings_model import HeldItemsModel
from app.ui.models.review_model import RowsModel
from app.ui.profile_session import NotReadyError, failure_text, profile_session
from app.ui.state.market_watch import MarketWatch
from app.ui.tabs.listings_flow import ListingsFlow
from app.ui.tabs.listings_items import (
    MAX_PER_REQUEST,
    batch_problem,
    listable_together,
    listing_key,
    marks_for,
    mine_row,
)
from app.ui.tabs.listings_relist import RelistDialog
from app.ui.tabs.listings_tables import HeldItemsView, listings_table
from app.ui.widgets import message_label, set_message
from app.ui.widgets.amount_edit import AmountEdit
from app.ui.widgets.fee_picker import FeePicker
from app.ui.widgets.progress_panel import ProgressPanel

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from app.services.context import ServiceContext
    from app.services.listings_inventory import HeldItem, SellerListing, SignedOutput
    from app.services.watch import MarketReading
    from app.ui.context import AppContext
    from app.ui.controller import AppController


LISTING_COLUMN = 3  # of strings.LISTINGS_MINE_HEADERS: the listing's id


class ListingsTab(QWidget):
    refreshed = Signal()

    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._controller = controller
        self.held: list[HeldItem] | None = None
        self.mine: list[SellerListing] | None = None
        self._held_of = connection_key(context)
        self._refreshes = 0  # refreshes started; only the latest one's answer shows
        self._chosen_listing: str | None = None  # the listing selected in Your listings

        self.held_hint = message_label("hint")
        self.refresh_button = QPushButton(strings.REFRESH)
        self.items_model = HeldItemsModel()
        self.items_view = HeldItemsView(self.items_model, context)
        self.price_all = AmountEdit(step=1_000)
        self.apply_price = QPushButton(strings.LISTINGS_APPLY_PRICE)
        self.select_all = QPushButton(strings.LISTINGS_SELECT_ALL)
        self.select_none = QPushButton(strings.LISTINGS_SELECT_NONE)
        self.receive_label = QLabel()
        self.selection_label = message_label("hint")
        self.problem_label = message_label("error")
        # Two lines reserved, used or not: nothing below the table moves under the cursor.
        self.problem_label.setFixedHeight(2 * self.problem_label.fontMetrics().lineSpacing())
        self._left_out = ""  # what "Select all" left out, and why
        self.sign_button = icon_button("sign", strings.LISTINGS_SIGN)
        self.export_button = icon_button("export", strings.LISTINGS_EXPORT)
        self.import_button = icon_button("open", strings.LISTINGS_IMPORT)
        self.scan_button = ScanButton(self, self.import_folder)  # Import signed, from a QR
        self.progress = ProgressPanel()
        self.status = message_label("hint")
        self.status.setText("X\nX")  # reserved: an export's message takes two lines at 1024 px
        self.status.setMinimumHeight(self.status.sizeHint().height())
        self.status.setText("")
        self.mine_model = RowsModel(strings.LISTINGS_MINE_HEADERS)
        self.mine_view = listings_table("listings_mine")
        self.mine_view.setModel(self.mine_model)
        self.mine_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.mine_hint = message_label("hint")
        # One line reserved, used or not: the table below stays put when the first listing
        # arrives (the hint "no listings" goes then).
        self.mine_hint.setMinimumHeight(self.mine_hint.fontMetrics().lineSpacing())
        self.end_fee = FeePicker()
        self.end_fee.setMinimumWidth(240)
        self.end_button = QPushButton(strings.END_LISTING)
        self.end_button.setToolTip(strings.END_LISTING_TIP)
        self.end_hint = message_label("hint")
        self.flow = ListingsFlow(self, context, controller)
        self._layout()

        self.refresh_button.clicked.connect(self.refresh)
        self.apply_price.clicked.connect(self._apply_price)
        self.select_all.clicked.connect(self._select_all)
        self.select_none.clicked.connect(lambda: self.items_model.check_all(False))
        self.items_model.selection_changed.connect(self._selection_changed)
        self.sign_button.clicked.connect(self.sign_selected)
        self.export_button.clicked.connect(self.export_selected)
        self.import_button.clicked.connect(self.import_signed)
        self.end_button.clicked.connect(self.end_selected)
        self.mine_view.selectionModel().selectionChanged.connect(self._mine_selection_changed)
        profile_session(context).changed.connect(self._session_changed)
        MarketWatch.of(context).listings_changed.connect(self._listings_changed)
        MarketWatch.of(context).reading.connect(self._reading)
        self._selection_changed()
        self._mine_selection_changed()

    def _layout(self) -> None:
        held = QGroupBox(strings.LISTINGS_HELD)
        held_layout = QVBoxLayout(held)
        top = QHBoxLayout()
        top.addWidget(self.held_hint, 1)
        top.addWidget(self.refresh_button)
        held_layout.addLayout(top)
        held_layout.addWidget(self.items_view, 1)
        prices = QHBoxLayout()
        price_label = QLabel(strings.LISTINGS_PRICE_ALL)
        price_label.setBuddy(self.price_all)
        prices.addWidget(price_label)
        prices.addWidget(self.price_all)
        prices.addWidget(self.apply_price)
        prices.addStretch(1)
        prices.addWidget(self.select_all)
        prices.addWidget(self.select_none)
        held_layout.addLayout(prices)
        receive = QHBoxLayout()
        receive.addWidget(QLabel(strings.LISTINGS_RECEIVE))
        receive.addWidget(self.receive_label, 1)
        held_layout.addLayout(receive)
        held_layout.addWidget(self.selection_label)
        held_layout.addWidget(self.problem_label)
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.scan_button)
        buttons.addStretch(1)
        buttons.addWidget(self.flow.qr_button)  # "Show as QR…": the latest export
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.sign_button)
        held_layout.addLayout(buttons)
        held_layout.addWidget(self.progress)
        held_layout.addWidget(self.status)
        mine = QGroupBox(strings.LISTINGS_MINE)
        mine_layout = QVBoxLayout(mine)
        mine_layout.addWidget(self.mine_hint)
        mine_layout.addWidget(self.mine_view, 1)
        end = QHBoxLayout()
        fee_label = QLabel(strings.END_LISTING_FEE)
        fee_label.setBuddy(self.end_fee)
        end.addWidget(fee_label)
        end.addWidget(self.end_fee)
        end.addWidget(self.end_hint, 1)
        end.addWidget(self.end_button)
        mine_layout.addLayout(end)
        # The items to list get most of the room; the user can move the divider.
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(held)
        splitter.addWidget(mine)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

    # -- selection --------------------------------------------------------------------------

    def batch(self) -> tuple[list[HeldItem], list[int | None], str]:
        """The selected items, their prices, and why they cannot be sent ("" when they can)."""
        chosen = self.items_model.selected()
        items = [i for i, _ in chosen]
        prices = [p for _, p in chosen]
        return items, prices, batch_problem(items, prices)

    def _selection_changed(self) -> None:
        items, _, problem = self.batch()
        self.selection_label.setText(
            strings.LISTINGS_SELECTED.format(count=len(items), limit=MAX_PER_REQUEST)
        )
        if not items:
            self._left_out = ""
        if problem and problem != strings.LISTINGS_NEED_PRICE:
            set_message(self.problem_label, problem)
        else:  # prices come next: a step, not an error
            set_message(
                self.problem_label, " ".join(t for t in (self._left_out, problem) if t), "hint"
            )
        # The line keeps its height when empty: nothing below the table moves under the cursor.
        self.problem_label.setVisible(True)
        ready = bool(items) and not problem and not self.flow.busy
        self.sign_button.setEnabled(ready)
        self.export_button.setEnabled(ready)
        self.import_button.setEnabled(not self.flow.busy)
        self.scan_button.setEnabled(not self.flow.busy)
        self._mine_selection_changed()

    def _select_all(self) -> None:
        """Tick what can be listed together, never a batch that is an error by itself."""
        marks = self.items_model.marks
        listed = {key for key, mark in marks.items() if mark.asks_before_relisting}
        chosen, left_out = listable_together(self.items_model.items, listed)
        self._left_out = left_out
        self.items_model.check_only([i.key for i in chosen])
        if not chosen and left_out:  # nothing ticked: the line still says why
            set_message(self.problem_label, left_out, "hint")

    def _apply_price(self) -> None:
        price = self.price_all.value()
        if price:
            self.items_model.price_selected(price)

    def row_of(self, key: str) -> int:
        return next(r for r, i in enumerate(self.items_model.items) if i.key == key)

    # -- lists ------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.held is None and profile_session(self._context).connected:
            self.refresh()

    def _session_changed(self) -> None:
        key = connection_key(self._context)
        if key != self._held_of:
            self.held = self.mine = None
            self._held_of = key
            self.items_model.set_items([])
        if self.isVisible() and profile_session(self._context).connected:
            self.refresh()

    def _listings_changed(self) -> None:
        """The live updates saw our listings change (a sale, an ended listing): read the
        items and listings again, now if shown, else when next shown."""
        if self.isVisible():
            self.refresh()
        else:
            self.held = None

    def _reading(self, reading: MarketReading) -> None:
        """A live reading whose listings differ from the ones shown: read them again. The
        first reading of a connection tells no change (`listings_changed`), so a sale between
        this tab's load and that reading was never shown ("Active" until Refresh)."""
        if reading.listings is None or self.mine is None:
            return
        if _states(reading.listings) != _states(self.mine):
            self._listings_changed()

    @async_slot()
    async def refresh(self) -> None:
        """Read the held items, our listings and the fee estimates together; only the latest
        of overlapping refreshes shows (and says `refreshed`), so an older answer never
        overwrites a newer one."""
        services = self._context.connection
        self._refreshes += 1
        this = self._refreshes
        try:
            ctx = await public_context(self._context)  # the services modules loaded first
            from app.services.listings_inventory import held_items

            held, (mine, unread), (signed, unsigned), estimates = await asyncio.gather(
                held_items(ctx),
                self._read_mine(ctx),
                self._read_signed(ctx),
                self._fee_estimates(ctx),
            )
        except NotReadyError as exc:
            if this == self._refreshes:
                self.held_hint.setText(exc.user_message)
                self.refreshed.emit()
            return
        except Exception as exc:
            if this == self._refreshes:
                if self._context.connection is services:
                    self.held_hint.setText(failure_text(exc))
                self.refreshed.emit()
            return
        if this != self._refreshes:
            return
        if mine is not None:  # the active ones first, each group in the service's order
            mine = sorted(mine, key=lambda m: m.state != "active")
        self.held, self.mine = held, mine
        self.items_model.set_items(held)
        self.items_model.set_marks(marks_for(held, mine, unread, signed, unsigned))
        self.end_fee.set_estimates(estimates)
        hint = strings.LISTINGS_HELD_BY.format(address=ctx.ordinals_address)
        self.held_hint.setText(hint if held else strings.LISTINGS_NONE_HELD)
        self.receive_label.setText(f"{ctx.payment_address} ({strings.LISTINGS_RECEIVE_HINT})")
        self._show_mine(mine, unread)
        self.refreshed.emit()

    async def _read_mine(self, ctx: ServiceContext) -> tuple[list[SellerListing] | None, str]:
        """Our listings, or None and why not: the held items still show, marked unknown."""
        from app.services.listings_inventory import my_listings

        try:
            return await my_listings(ctx), ""
        except Exception as exc:  # the service's list is beyond the spec: never fatal here
            return None, failure_text(exc)

    async def _read_signed(self, ctx: ServiceContext) -> tuple[dict[str, SignedOutput] | None, str]:
        """Our live listing signatures by output (the ledger, read in the executor), or None
        and why not: the marks then say the ledger could not be read."""
        from app.services.listings_inventory import signed_outputs

        try:
            return await signed_outputs(ctx), ""
        except Exception as exc:  # the marks fall back to the service's word, saying so
            return None, failure_text(exc)

    async def _fee_estimates(self, ctx: ServiceContext) -> dict[int, float] | None:
        from app.services.funding import fee_estimates

        try:
            return await fee_estimates(ctx)
        except Exception:  # the picker offers a custom rate without estimates
            return None

    def _show_mine(self, mine: list[SellerListing] | None, unread: str = "") -> None:
        rows = [mine_row(m) for m in mine or []]
        keep = self._chosen_listing
        self.mine_model.set_rows(rows)
        row = next((r for r, m in enumerate(mine or []) if listing_key(m) == keep), None)
        if row is not None:  # the listing chosen before the refresh stays chosen
            self.mine_view.selectRow(row)
        self._chosen_listing = keep
        self._mine_selection_changed()
        if unread:
            set_message(self.mine_hint, strings.LISTINGS_MINE_UNREAD.format(reason=unread), "hint")
        elif mine is None:
            set_message(self.mine_hint, strings.LISTINGS_MINE_UNAVAILABLE, "hint")
        else:
            set_message(self.mine_hint, "" if mine else strings.LISTINGS_MINE_NONE, "hint")
        self.mine_hint.setVisible(True)  # its line stays: see __init__

    def state_of(self, item_key: str) -> str | None:
        return next((m.state for m in self.mine or [] if m.item == item_key), None)

    # -- actions (the flows live in listings_flow) ------------------------------------------

    def show_status(self, text: str, role: str = "hint") -> None:
        set_message(self.status, text, role)
        self.status.setVisible(True)  # its line stays: the table above keeps its size

    @async_slot()
    async def sign_selected(self) -> None:
        items, prices, problem = self.batch()
        if items and not problem and await self.relisting_confirmed(items):
            await self.flow.sign_and_submit(items, [p or 0 for p in prices])
            self.refresh()

    @async_slot()
    async def export_selected(self) -> None:
        items, prices, problem = self.batch()
        if not items or problem or not await self.relisting_confirmed(items):
            return
        folder = await self.ask_folder(self, strings.LISTINGS_EXPORT_FOLDER)
        if folder is not None:
            await self.flow.export(items, [p or 0 for p in prices], folder)

    @async_slot()
    async def import_signed(self) -> None:
        folder = await self.ask_folder(self, strings.LISTINGS_IMPORT_FOLDER)
        if folder is not None:
            await self.import_folder(folder)

    async def import_folder(self, folder: Path) -> None:
        await self.flow.import_and_submit(folder)
        self.refresh()

    async def relisting_confirmed(self, items: list[HeldItem]) -> bool:
        """True unless some items are listed already (the service's word, or a live signature
        of ours on the item's output) and the user keeps them as they are."""
        marks = self.items_model.marks
        listed = [(i, m) for i in items if (m := marks.get(i.key)) and m.asks_before_relisting]
        if not listed:
            return True
        if await self._controller.show_dialog(RelistDialog(listed, self)):
            return True
        self.show_status(strings.RELIST_CANCELLED)
        return False

    # -- ending a listing -------------------------------------------------------------------

    def selected_listing(self) -> SellerListing | None:
        """The listing of the row selected in Your listings, by the id that row shows (the
        table and `self.mine` differ for a moment while a refresh lands)."""
        rows = self.mine_view.selectionModel().selectedRows()
        if len(rows) != 1:
            return None
        shown = self.mine_model.cell(rows[0].row(), LISTING_COLUMN).text
        item = self.mine_model.cell(rows[0].row(), 0).tooltip
        return next(
            (m for m in self.mine or [] if (m.listing_id or "—") == shown and m.item == item),
            None,
        )

    def held_item_of(self, listing: SellerListing) -> HeldItem | None:
        return next((i for i in self.held or [] if i.key == listing.item), None)

    def end_target(self) -> tuple[HeldItem, int | None] | None:
        """What End listing would end, and at what price it is listed: the item of the active
        listing selected in Your listings, else the one ticked held item that carries a live
        signature of ours (the service need not list it: the signature sells it all the same)."""
        listing = self.selected_listing()
        if listing is not None and listing.state == "active":
            item = self.held_item_of(listing)
            return None if item is None else (item, listing.price)
        ticked = [i for i, _ in self.items_model.selected()]
        mark = self.items_model.marks.get(ticked[0].key) if len(ticked) == 1 else None
        if mark is not None and mark.signed is not None:
            return ticked[0], mark.signed_price
        return None

    def _end_problem(self) -> str:
        """Why End listing cannot run now ("" when it can)."""
        listing = self.selected_listing()
        if self._context.watch_only:
            return strings.END_LISTING_WATCH_ONLY
        if listing is not None and listing.state == "active" and not self.held_item_of(listing):
            return strings.END_LISTING_NOT_HELD
        return "" if self.end_target() is not None else strings.END_LISTING_PICK

    def _mine_selection_changed(self, *_: object) -> None:
        listing = self.selected_listing()
        self._chosen_listing = None if listing is None else listing_key(listing)
        problem = self._end_problem()
        self.end_hint.setText(problem)
        self.end_button.setEnabled(not problem and not self.flow.busy)

    @async_slot()
    async def end_selected(self) -> None:
        target = self.end_target()
        if target is None or self._end_problem():
            return
        item, price = target
        await self.flow.end_listing(item, price, self.end_fee.rate())
        self.refresh()

    # A folder chosen by the user (tests monkeypatch it on the class).
    ask_folder = staticmethod(ask_folder)


def _states(listings: Iterable[SellerListing]) -> set[tuple[str, str, int | None]]:
    return {(m.listing_id, m.state, m.price) for m in listings}
