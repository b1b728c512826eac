"""Bid on one inscription: id and price (10,000 sats minimum; each field says what is wrong
under it once the user has left it, in a line that keeps its height), the fee rate asked of the
service (the review says whether its transaction pays it), review ("you pay ... you
receive inscription ... at ..."), sign, place; below, the user's inscription bids with their state,
refreshed on a timer and after every action. A watch-only profile exports the reviewed PSBT
for the wallet that holds its keys, and imports what it signed (`sign_elsewhere`)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.bid_validation import validate_single_inscription_price
from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.dialogs.psbt_review_flow import (
    connection_key,
    public_context,
)
from app.ui.fee_rate_asked_note import (
    MIN_ASKED_RATE,
    asked_rate,
    fee_rate_notes,
    fee_rate_warnings,
)
from app.ui.models.review_model import SIZE_FROM_ROWS, RowsModel
from app.ui.profile_session import NotReadyError, failure_text, profile_session, tracked
from app.ui.psbt_flow_runner import FlowSteps, PsbtFlowRunner
from app.ui.sign_elsewhere import SignElsewhere, import_button, qr_button, scan_button
from app.ui.state.fee_estimates import FeeEstimateState
from app.ui.tabs.bid_form_lines import MessageLine, with_message
from app.ui.tabs.inscription_bid_list import bid_cells
from app.ui.widgets import message_label, set_message
from app.ui.widgets.amount_edit import AmountEdit
from app.ui.widgets.fee_picker import FeePicker

if TYPE_CHECKING:
    from app.core.psbt_review import Review
    from app.services.context import ServiceContext
    from app.services.inscription_bid import (
        InscriptionBidPlaced,
        InscriptionBidPlan,
        InscriptionBids,
    )
    from app.ui.context import AppContext
    from app.ui.controller import AppController

INSCRIPTION_ID = re.compile(r"^[0-9a-f]{64}i[0-9]+$")
REFRESH_MS = 20_000


def sats(n: int) -> str:
    return strings.SATS.format(sats=n)


class InscriptionBidTab(QWidget):
    refreshed = Signal()

    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._controller = controller
        self._busy = False
        self.bids: InscriptionBids | None = None
        self._reads = 0  # reads started: an older one ending last is not shown
        self.last_bid_id: str | None = None
        self._bids_of = connection_key(context)

        self.inscription = QLineEdit()
        self.inscription.setPlaceholderText(strings.INSCRIPTION_BID_ID_PLACEHOLDER)
        # Each field's line keeps its height (nothing below moves) and is red only once the
        # user has left the field (or after a refusal): never while they are still typing.
        self.inscription_line = MessageLine()
        self.inscription_error = self.inscription_line.error
        self.price = AmountEdit(step=1_000)
        price_hint = message_label("hint")
        price_hint.setText(strings.INSCRIPTION_BID_PRICE_HINT)
        self.price_line = MessageLine(price_hint)
        self.price_error = self.price_line.error
        self._left: set[QWidget] = set()  # fields the user has typed in and left
        self.fee = FeePicker(min_rate=MIN_ASKED_RATE)
        # The network's estimates, shared with the other pickers: re-read once a minute old.
        self.estimates = FeeEstimateState.of(context)
        self.estimates.bind(self.fee)
        self.fee_hint = message_label("hint")
        self.fee_hint.setText(strings.INSCRIPTION_BID_FEE_HINT)
        self.review_button = QPushButton(strings.INSCRIPTION_BID_REVIEW)
        self.import_button = import_button(context)  # watch-only: signed in another wallet
        self.scan_button = scan_button(context)  # watch-only: its signed PSBT as a QR
        self.qr_button = qr_button(self, context)  # watch-only: the export as a QR
        self.status = message_label("hint")
        self.status.setVisible(False)
        self.model = RowsModel(strings.INSCRIPTION_BID_HEADERS)
        self.table = QTableView()
        self.table.setObjectName("inscription_bids")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setResizeContentsPrecision(SIZE_FROM_ROWS)
        header.setStretchLastSection(True)
        self.list_hint = message_label("hint")
        self.refresh_button = QPushButton(strings.REFRESH)
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self._tick)
        self._layout()

        self.inscription.textChanged.connect(self._validate)
        self.price.changed.connect(self._validate)
        self.inscription.editingFinished.connect(lambda: self._leave(self.inscription))
        self.price.edit.editingFinished.connect(lambda: self._leave(self.price))
        self.review_button.clicked.connect(self.place)
        self.import_button.clicked.connect(self.import_signed)
        self.scan_button.clicked.connect(self.scan_signed)
        self.refresh_button.clicked.connect(self.refresh)
        profile_session(context).changed.connect(self._session_changed)
        self._validate()

    def _layout(self) -> None:
        box = QGroupBox(strings.INSCRIPTION_BID_BOX)
        form = QFormLayout(box)
        intro = message_label("hint")
        intro.setText(strings.INSCRIPTION_BID_INTRO)
        form.addRow(intro)
        form.addRow(
            strings.INSCRIPTION_BID_ID, with_message(self.inscription, self.inscription_line)
        )
        form.addRow(strings.INSCRIPTION_BID_PRICE, with_message(self.price, self.price_line))
        fee_label = QLabel(strings.INSCRIPTION_BID_FEE)
        fee_label.setBuddy(self.fee)
        form.addRow(fee_label, with_message(self.fee, MessageLine(self.fee_hint, reserve=False)))
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)  # watch-only only: what another wallet signed
        buttons.addWidget(self.scan_button)
        buttons.addWidget(self.qr_button)
        buttons.addStretch(1)
        buttons.addWidget(self.review_button)
        form.addRow(buttons)
        form.addRow(self.status)
        mine = QGroupBox(strings.INSCRIPTION_BID_MINE)
        mine_layout = QVBoxLayout(mine)
        top = QHBoxLayout()
        top.addWidget(self.list_hint, 1)
        top.addWidget(self.refresh_button)
        mine_layout.addLayout(top)
        mine_layout.addWidget(self.table)
        layout = QVBoxLayout(self)
        layout.addWidget(box)
        layout.addWidget(mine, 1)

    # -- input ------------------------------------------------------------------------------

    def valid_input(self) -> tuple[str, int] | None:
        """(inscription id, price) when both are valid; each problem is shown at its field
        once the user has left it."""
        text = self.inscription.text().strip()
        id_error = (
            "" if not text or INSCRIPTION_ID.match(text) else strings.INSCRIPTION_BID_ID_INVALID
        )
        price = self.price.value()
        price_error = self.price.error()
        if not price_error and price is not None:
            floor = validate_single_inscription_price(price)
            if floor:
                limit = floor[0].details.get("limit", 0)
                price_error = strings.INSCRIPTION_BID_PRICE_MIN.format(min=sats(int(limit)))
        shown = self._left
        self.inscription_line.set_error(id_error if self.inscription in shown else "")
        self.price_line.set_error(price_error if self.price in shown else "")
        if not text or id_error or price is None or price_error:
            return None
        return text, price

    def _leave(self, field: QWidget) -> None:
        """The user left `field`: what is wrong with it is said from now on (an empty field
        is not wrong yet)."""
        edit = self.inscription if field is self.inscription else self.price.edit
        if edit.text().strip():
            self._left.add(field)
        self._validate()

    def _validate(self) -> None:
        self.review_button.setEnabled(self.valid_input() is not None and not self._busy)
        self.fee.setEnabled(not self._busy)
        self.import_button.setEnabled(not self._busy)
        self.scan_button.setEnabled(not self._busy)

    # -- the list ---------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.timer.start()
        if self.bids is None and profile_session(self._context).connected:
            self.refresh()

    def hideEvent(self, event: QHideEvent) -> None:
        self.timer.stop()
        super().hideEvent(event)

    def _tick(self) -> None:
        if profile_session(self._context).connected and not self._busy:
            self.refresh()

    def _session_changed(self) -> None:
        key = connection_key(self._context)
        if key != self._bids_of:
            self.bids, self._bids_of = None, key
            self.model.set_rows([])
        if self.isVisible() and profile_session(self._context).connected:
            self.refresh()

    @async_slot()
    async def refresh(self) -> None:
        """Read our bids; only the latest of overlapping reads shows (and says `refreshed`):
        a slow one started before a bid was placed must not drop it, nor fail over it."""
        services = self._context.connection
        self._reads += 1
        this = self._reads
        try:
            ctx = await public_context(self._context)  # the services modules loaded first
            from app.services.inscription_bid import my_inscription_bids

            self.estimates.read_if_old()  # the fee market moves (a picker refilled on change)
            bids = await my_inscription_bids(ctx)
        except NotReadyError as exc:
            if this == self._reads:
                self.list_hint.setText(exc.user_message)
                self.refreshed.emit()
            return
        except Exception as exc:
            if this == self._reads:
                if self._context.connection is services:
                    self.list_hint.setText(failure_text(exc))
                self.refreshed.emit()
            return
        if this != self._reads:
            return
        self.bids = bids
        self.model.set_rows(bid_cells(self.bids.rows))
        hint = "" if self.bids.with_states else strings.INSCRIPTION_BID_OPEN_ONLY
        self.list_hint.setText(hint or ("" if self.bids.rows else strings.INSCRIPTION_BID_NONE))
        self.refreshed.emit()

    def state_of(self, bid_id: str) -> str | None:
        rows = () if self.bids is None else self.bids.rows
        return next((r.state for r in rows if r.bid_id == bid_id), None)

    # -- the flow ---------------------------------------------------------------------------

    @async_slot()
    async def place(self) -> None:
        wanted = self.valid_input()
        if wanted is None or self._busy:
            return
        self._busy = True
        self._validate()
        try:
            await self._place(*wanted)
        finally:
            self._busy = False
            self._validate()
        self.refresh()

    @async_slot()
    async def import_signed(self) -> None:
        """An inscription bid (or any export) the other wallet signed: checked, then placed."""
        await self._signed_elsewhere(scan=False)

    @async_slot()
    async def scan_signed(self) -> None:
        """The same, the signed PSBT scanned from the other wallet's QR code."""
        await self._signed_elsewhere(scan=True)

    async def _signed_elsewhere(self, scan: bool) -> None:
        if self._busy:
            return
        self._busy = True
        self._validate()

        def show(text: str, role: str) -> None:
            set_message(self.status, text, role)

        try:
            elsewhere = SignElsewhere(self, self._context, self._controller, show)
            await (elsewhere.scan_and_submit() if scan else elsewhere.import_and_submit())
        finally:
            self._busy = False
            self._validate()
        self.refresh()

    async def _place(self, inscription_id: str, price: int) -> None:
        from app.services.inscription_bid import execute_inscription_bid, prepare_inscription_bid
        from app.services.psbt_flow import accept_fee

        rate = asked_rate(self.fee)

        async def prepare(ctx: ServiceContext, _run: object) -> InscriptionBidPlan:
            return await prepare_inscription_bid(ctx, inscription_id, price, rate)

        async def execute(
            ctx: ServiceContext, plan: InscriptionBidPlan, _run: object
        ) -> InscriptionBidPlaced:
            async with tracked(self._context, "inscription_bid.place", price=price) as result:
                placed = await execute_inscription_bid(ctx, plan)
                result.message = f"{inscription_id} for {sats(price)}"
                result.details["bid_id"] = placed.bid_id
            return placed

        steps = FlowSteps(
            title=strings.INSCRIPTION_BID_TITLE,
            review_activity="inscription_bid.prepare",
            action=strings.INSCRIPTION_BID_ACTION,
            prepare=prepare,
            plans=lambda plan: [plan.psbt],
            notes=lambda plan: [
                pay_note(plan.psbt.review, inscription_id),
                *fee_rate_notes(plan.fee_rate),
            ],
            warnings=lambda plan: fee_rate_warnings(plan.fee_rate),
            accept_fee=lambda plan: replace(plan, psbt=accept_fee(plan.psbt)),
            execute=execute,
            failed=lambda exc: strings.INSCRIPTION_BID_NOT_PLACED.format(reason=failure_text(exc)),
        )

        def show(text: str, role: str) -> None:
            set_message(self.status, text, role)

        if self._context.watch_only:  # reviewed here, signed in the wallet holding the keys
            from app.services.offline import inscription_bid_export_items

            elsewhere = SignElsewhere(self, self._context, self._controller, show)
            await elsewhere.export(steps, inscription_bid_export_items)
            return
        placed = await PsbtFlowRunner(self, self._context, self._controller, show).run(steps)
        if placed is None:
            return
        text = strings.INSCRIPTION_BID_PLACED.format(
            inscription=inscription_id, price=sats(price), bid=placed.bid_id or "?"
        )
        set_message(self.status, text, "ok")
        self.last_bid_id = placed.bid_id


def pay_note(review: Review, inscription_id: str) -> str:
    """'You pay 62,000 sats (price, postage and network fee); you receive inscription X with its
    postage at bcrt1p...': the payment address's whole outlay, as the review's headline counts
    it. The summary's `you_give` leaves the postage out (it comes back to our ordinals address
    with the inscription), so it is added: the output the inscription lands on."""
    give = review.summary.you_give
    landing = review.landing_of(inscription_id)
    if landing is None or landing.output_index is None:
        total = strings.REVIEW_UNKNOWN if give is None else sats(give)
        return strings.INSCRIPTION_BID_NOTE_UNKNOWN.format(total=total, inscription=inscription_id)
    output = review.outputs[landing.output_index]
    total = strings.REVIEW_UNKNOWN if give is None else sats(give + output.value)
    where = f"{output.address} ({output.role.value})"
    return strings.INSCRIPTION_BID_NOTE.format(
        total=total, inscription=inscription_id, address=where
    )
