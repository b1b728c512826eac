"""Withdraw from the bidding wallet to the payment address: amount (or Max), the destination
shown (never editable), the fee rate asked of the service (the review says whether its
transaction pays it), which open bids the lower balance no longer covers, then review ->
sign -> submit -> txid. A watch-only profile exports the reviewed PSBT for the wallet that holds
its keys instead, and imports what that wallet signed (`sign_elsewhere`).

The balance and open bids are `WalletState`'s (its loads and the live updates: a block mined
or a withdrawal confirmed shows without Refresh), the fee presets `FeeEstimateState`'s. A
reading's failure is said under the balance, never on the status line below the buttons: that
line keeps the withdrawal's result (or what to do with an export) until the next one starts.

Services are imported inside the slots: this module loads when the window is built, before
the startup preload has brought in httpx and embit.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.dialogs.psbt_review_flow import TxidRow, connection_key
from app.ui.fee_rate_asked_note import (
    MIN_ASKED_RATE,
    asked_rate,
    fee_rate_notes,
    fee_rate_warnings,
)
from app.ui.maker_fee_note import maker_fee_note
from app.ui.profile_session import failure_text, profile_session, tracked
from app.ui.psbt_flow_runner import FlowSteps, PsbtFlowRunner
from app.ui.sign_elsewhere import SignElsewhere, import_button, qr_button, scan_button
from app.ui.state.fee_estimates import FeeEstimateState
from app.ui.state.wallet_state import WalletState, failure_role
from app.ui.tabs.bid_form_lines import MessageLine, with_message
from app.ui.tabs.withdraw_preview import WalletFacts, at_risk_rows, facts_of
from app.ui.widgets import message_label, set_message
from app.ui.widgets.amount_edit import AmountEdit
from app.ui.widgets.elided_line import ElidedLine
from app.ui.widgets.fee_picker import FeePicker

if TYPE_CHECKING:
    from app.services.context import ServiceContext
    from app.services.open_bids import OpenBidsView
    from app.services.withdraw import WithdrawDone, WithdrawPlan
    from app.ui.context import AppContext
    from app.ui.controller import AppController


def sats(n: int) -> str:
    return strings.SATS.format(sats=n)


class WithdrawTab(QWidget):
    refreshed = Signal()  # a refresh ended (with facts or with a message)

    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._controller = controller
        self.facts: WalletFacts | None = None
        self.sweep = False  # Max pressed and the amount not edited since
        self._facts_of = connection_key(context)
        self._busy = False
        self._amount_ok = False  # the amount passed wanted()'s checks at the last preview

        self.address_label = QLabel(strings.WALLET_ADDRESS_UNKNOWN)
        self.balance_label = QLabel(strings.WALLET_ADDRESS_UNKNOWN)
        for label in (self.address_label, self.balance_label):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.refresh_button = QPushButton(strings.REFRESH)
        # Why the last reading failed (the next good one clears it): one line under the
        # balance, kept while empty, cut with "…" when long (whole in its tooltip).
        self.reading_line = ElidedLine()
        self.amount = AmountEdit(step=1_000)
        self.max_button = QPushButton(strings.WITHDRAW_MAX)
        self.destination = QLineEdit()
        self.destination.setReadOnly(True)
        self.destination.setObjectName("withdraw_destination")
        self.fee = FeePicker(min_rate=MIN_ASKED_RATE)
        # Both lines are kept while empty: an error or the headline must not move the fields
        # and Review under the cursor (issue 15).
        self.amount_line = MessageLine(reserve=True)
        self.at_risk_label = message_label("hint")
        self.at_risk_label.setVisible(False)
        self.at_risk_headline = MessageLine(self.at_risk_label, reserve=True)
        self.at_risk_list = QListWidget()
        self.at_risk_list.setMaximumHeight(110)
        self.at_risk_note = message_label("hint")  # the maker fee the pool rule counts
        self.at_risk_note.setVisible(False)
        # Its line is kept while empty: typing an amount must not move Review under the cursor.
        self.at_risk_line = MessageLine(self.at_risk_note, reserve=True)
        self.review_button = QPushButton(strings.WITHDRAW_REVIEW)
        self.import_button = import_button(context)  # watch-only: signed in another wallet
        self.scan_button = scan_button(context)  # watch-only: its signed PSBT as a QR
        self.qr_button = qr_button(self, context)  # watch-only: the export as a QR
        self.status = message_label("hint")
        self.status.setVisible(False)
        self.txid_row = TxidRow(context)
        self._layout()

        self.amount.changed.connect(self._amount_edited)
        self.max_button.clicked.connect(self._max)
        self.refresh_button.clicked.connect(self.refresh)
        self.review_button.clicked.connect(self.withdraw)
        self.import_button.clicked.connect(self.import_signed)
        self.scan_button.clicked.connect(self.scan_signed)
        self.session = profile_session(context)
        self.session.changed.connect(self._session_changed)
        self.state = WalletState.of(context)
        self.state.updated.connect(self._show_view)
        self.state.failed.connect(self._state_failed)
        self.estimates = FeeEstimateState.of(context)
        self.estimates.bind(self.fee)
        self._update_buttons()

    def _layout(self) -> None:
        wallet = QGroupBox(strings.WITHDRAW_WALLET)
        wallet_form = QFormLayout(wallet)
        wallet_form.addRow(strings.WITHDRAW_ADDRESS, self.address_label)
        # The balance with the failure of its last reading under it, beside Refresh: the row
        # is as tall as the button either way, so the form below never moves for it.
        balance_lines = QVBoxLayout()
        balance_lines.setSpacing(0)
        balance_lines.addWidget(self.balance_label)
        balance_lines.addWidget(self.reading_line)
        balance_row = QHBoxLayout()
        balance_row.addLayout(balance_lines, 1)
        balance_row.addWidget(self.refresh_button)
        wallet_form.addRow(strings.WITHDRAW_BALANCE, balance_row)
        box = QGroupBox(strings.WITHDRAW_BOX)
        form = QFormLayout(box)
        amount_field = QWidget()
        amount_row = QHBoxLayout(amount_field)
        amount_row.setContentsMargins(0, 0, 0, 0)
        amount_row.addWidget(self.amount, 1)
        amount_row.addWidget(self.max_button)
        amount_label = QLabel(strings.WITHDRAW_AMOUNT)
        amount_label.setBuddy(self.amount)  # a layout field gets no buddy: "&" would show
        form.addRow(amount_label, with_message(amount_field, self.amount_line))
        form.addRow(strings.WITHDRAW_TO, self.destination)
        hint = message_label("hint")
        hint.setText(strings.WITHDRAW_TO_HINT)
        form.addRow("", hint)
        fee_label = QLabel(strings.WITHDRAW_FEE)
        fee_label.setBuddy(self.fee)
        fee_hint = message_label("hint")
        fee_hint.setText(strings.WITHDRAW_FEE_HINT)
        form.addRow(fee_label, with_message(self.fee, MessageLine(fee_hint, reserve=False)))
        risk = QGroupBox(strings.WITHDRAW_AT_RISK)
        risk_layout = QVBoxLayout(risk)
        risk_layout.addWidget(self.at_risk_headline)
        risk_layout.addWidget(self.at_risk_list)
        risk_layout.addWidget(self.at_risk_line)
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.scan_button)
        buttons.addWidget(self.qr_button)
        buttons.addStretch(1)
        buttons.addWidget(self.review_button)
        # In a scroll area: on a 700 px screen the boxes are taller than the tab, and a
        # squeezed layout moved To and Fee rate by a few pixels whenever a message line below
        # changed its wish (issue 15: nothing moves while the user types).
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.addWidget(wallet)
        layout.addWidget(box)
        layout.addWidget(risk)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self.txid_row)
        layout.addStretch(1)
        self._scroll = scroll = QScrollArea()
        self._reveal = False  # the status is kept in sight (`_show`)
        scroll.verticalScrollBar().rangeChanged.connect(self._reveal_status)
        scroll.verticalScrollBar().actionTriggered.connect(self._scrolled_by_user)
        scroll.setWidget(content)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    # -- data -------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        """Coming to the tab asks for fresh numbers (the state's timer may be far from its
        tick); the tab shows the readings that end after it was built, none older."""
        super().showEvent(event)
        if self.session.connected:
            self.state.request_refresh()

    def _session_changed(self) -> None:
        key = connection_key(self._context)
        if key != self._facts_of:
            if self._facts_of is not None and key[1] != self._facts_of[1]:
                # Another profile: this one's result would be said of a wallet that did not.
                set_message(self.status, "")
                self.txid_row.set_txid(None)
            self.facts, self._facts_of = None, key
        self._update_buttons()

    @async_slot()
    async def refresh(self) -> None:
        """Read the balance, open bids (for every tab) and fee estimates now."""
        try:
            self.estimates.read()
            await self.state.refresh()
        finally:
            self.refreshed.emit()

    def _state_failed(self, text: str) -> None:
        if not self.session.connected:
            self.facts = None
            self._update_buttons()
        self.reading_line.say(text, failure_role(text))

    def _show_view(self, view: OpenBidsView) -> None:
        """A reading of the bidding wallet (a load or a live update): its balance and bids."""
        public = self.session.public_keys
        if public is None:
            return
        self.reading_line.say("")  # this reading ends the failure shown, if any
        self.facts = facts = facts_of(view, public.payment.address)
        self._facts_of = connection_key(self._context)
        self.address_label.setText(facts.address)
        self.balance_label.setText(
            strings.WITHDRAW_BALANCE_TEXT.format(
                total=sats(facts.balance.total),
                confirmed=sats(facts.balance.confirmed),
                unconfirmed=sats(facts.balance.unconfirmed),
            )
        )
        self.destination.setText(facts.payment_address)
        if self.sweep:
            self.amount.set_value(facts.balance.total)
            self.sweep = True
        self._preview()

    def wanted(self) -> int | None:
        """The amount to ask for, checked against the balance; None (and says why) if none."""
        error = self.amount.error()
        value = self.amount.value()
        balance = None if self.facts is None else self.facts.balance.total
        if not error and value is None:
            error = strings.WITHDRAW_NEED_AMOUNT if self.amount.edit.text() else ""
        elif not error and value == 0:
            error = strings.WITHDRAW_NEED_AMOUNT
        elif not error and balance is not None and value is not None and value > balance:
            error = strings.WITHDRAW_TOO_MUCH.format(balance=sats(balance))
        self.amount_line.set_error(error)
        return None if error else value

    def _amount_edited(self) -> None:
        if self.facts is None or self.amount.value() != self.facts.balance.total:
            self.sweep = False
        self._preview()

    def _max(self) -> None:
        if self.facts is None:
            return
        if self.facts.balance.total == 0:
            self.amount_line.set_error(strings.WITHDRAW_EMPTY)
            return
        self.amount.set_value(self.facts.balance.total)
        self.sweep = True
        self._preview()

    def _preview(self) -> None:
        """Which bids the balance after this withdrawal no longer covers (core pool rule)."""
        value = self.wanted()
        self._amount_ok = value not in (None, 0)
        self.at_risk_list.clear()
        if self.facts is None or value is None:
            self.at_risk_headline.set_hint("")
            self.at_risk_line.set_hint("")
            self._update_buttons()
            return
        rows = at_risk_rows(self.facts, 0 if self.sweep else self.facts.balance.total - value)
        self.at_risk_line.set_hint(maker_fee_note(self.facts.maker_fee))
        self.at_risk_list.addItems(rows)
        self.at_risk_headline.set_hint(
            strings.counted(strings.WITHDRAW_AT_RISK_SOME, len(rows))
            if rows
            else strings.WITHDRAW_AT_RISK_NONE
        )
        self._update_buttons()

    def _update_buttons(self) -> None:
        ready = self.facts is not None and not self._busy
        self.max_button.setEnabled(ready)
        self.fee.setEnabled(not self._busy)
        # Grey beside an amount error (too much, none): a click would only repeat it.
        self.review_button.setEnabled(ready and self._amount_ok)
        self.refresh_button.setEnabled(not self._busy)
        self.import_button.setEnabled(not self._busy)
        self.scan_button.setEnabled(not self._busy)

    def _notes(self, plan: WithdrawPlan) -> list[str]:
        """What the withdrawal does, and the bids it will cancel, above the review."""
        template = strings.WITHDRAW_NOTE_SWEEP if plan.sweep else strings.WITHDRAW_NOTE
        notes = [template.format(amount=sats(plan.amount), address=self.destination.text())]
        if plan.bids_at_risk:
            bids = ", ".join(plan.bids_at_risk)
            notes.append(
                strings.counted(strings.WITHDRAW_NOTE_CANCELS, len(plan.bids_at_risk), bids=bids)
            )
        return notes + fee_rate_notes(plan.fee_rate)

    def _show(self, text: str, role: str = "error") -> None:
        set_message(self.status, text, role)
        # Below the buttons, past the bottom on a 700 px screen (what to do with an export is
        # said there): kept in sight as the layout settles, until the user scrolls.
        self._reveal = True
        QTimer.singleShot(0, self, self._reveal_status)

    def _reveal_status(self, *_: object) -> None:
        if self._reveal and self.status.isVisible():
            self._scroll.ensureWidgetVisible(self.status)

    def _scrolled_by_user(self, *_: object) -> None:
        self._reveal = False

    # -- the flow ---------------------------------------------------------------------------

    @async_slot()
    async def withdraw(self) -> None:
        wanted = self.wanted()
        if wanted is None or self._busy:
            return
        self._busy = True
        self._update_buttons()
        self.txid_row.set_txid(None)
        try:
            await self._withdraw(wanted)
        finally:
            self._busy = False
            self._update_buttons()
        self.refresh()

    @async_slot()
    async def import_signed(self) -> None:
        """A withdrawal (or any export) the other wallet signed: checked, then submitted."""
        await self._signed_elsewhere(scan=False)

    @async_slot()
    async def scan_signed(self) -> None:
        """The same, the signed PSBT scanned from the other wallet's QR code."""
        await self._signed_elsewhere(scan=True)

    async def _signed_elsewhere(self, scan: bool) -> None:
        if self._busy:
            return
        self._busy = True
        self._update_buttons()
        self.txid_row.set_txid(None)
        try:
            elsewhere = SignElsewhere(self, self._context, self._controller, self._show)
            await (elsewhere.scan_and_submit() if scan else elsewhere.import_and_submit())
        finally:
            self._busy = False
            self._update_buttons()
        self.refresh()

    async def _withdraw(self, wanted: int) -> None:
        from app.services.psbt_flow import accept_fee
        from app.services.withdraw import (
            WITHDRAW_ALL,
            execute_withdraw,
            prepare_withdraw,
        )

        rate = asked_rate(self.fee)

        async def prepare(ctx: ServiceContext, _run: object) -> WithdrawPlan:
            amount = WITHDRAW_ALL if self.sweep else wanted
            return await prepare_withdraw(ctx, amount, rate)

        async def execute(ctx: ServiceContext, plan: WithdrawPlan, _run: object) -> WithdrawDone:
            async with tracked(self._context, "withdraw", amount=plan.amount) as result:
                done = await execute_withdraw(ctx, plan)
                result.txid = done.txid
                result.message = f"{sats(done.amount)} to {ctx.payment_address}"
            return done

        steps = FlowSteps(
            title=strings.WITHDRAW_TITLE,
            action=strings.WITHDRAW_ACTION,
            review_activity="withdraw.prepare",
            prepare=prepare,
            plans=lambda plan: [plan.psbt],
            notes=self._notes,
            warnings=lambda plan: fee_rate_warnings(plan.fee_rate),
            accept_fee=lambda plan: replace(plan, psbt=accept_fee(plan.psbt)),
            execute=execute,
            failed=lambda exc: strings.WITHDRAW_NOT_DONE.format(reason=failure_text(exc)),
        )
        if self._context.watch_only:  # reviewed here, signed in the wallet holding the keys
            from app.services.offline import withdraw_export_items

            elsewhere = SignElsewhere(self, self._context, self._controller, self._show)
            await elsewhere.export(steps, withdraw_export_items)
            return
        runner = PsbtFlowRunner(self, self._context, self._controller, self._show)
        done = await runner.run(steps)
        if done is None:
            return
        text = strings.WITHDRAW_DONE.format(amount=sats(done.amount), txid=done.txid)
        if done.cancelled_bid_ids:
            text += strings.counted(strings.WITHDRAW_DONE_CANCELLED, len(done.cancelled_bid_ids))
        self._show(text, "ok")
        self.txid_row.set_txid(done.txid)
        self.amount.set_value(None)
        self.sweep = False
        # The balance and bids changed for every tab, not only this one.
        WalletState.of(self._context).request_refresh()
