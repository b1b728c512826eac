"""Fund the bidding wallet: amount and fee rate -> review -> sign -> broadcast -> txid.
Or pay from another wallet: a BIP-21 link of the bidding wallet (with the amount) as a QR.

Coins are chosen and the PSBT built and judged by `services.funding.prepare_funding` with
public keys only; the unlocked keys are borrowed only after the user pressed Sign in the
review dialog, and signing runs in the executor (`execute_funding`)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.profile_session import NotReadyError, profile_session, tracked
from app.ui.state.wallet_state import WalletState
from app.ui.widgets import message_label, set_message
from app.ui.widgets.amount_edit import AmountEdit
from app.ui.widgets.fee_picker import FeePicker
from app.ui.widgets.qr_view import QrView

if TYPE_CHECKING:
    from app.services.context import ServiceContext
    from app.ui.context import AppContext
    from app.ui.controller import AppController

log = logging.getLogger(__name__)


class FundPanel(QGroupBox):
    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(strings.WALLET_FUND, parent)
        self.context = context
        self._controller = controller
        self.session = profile_session(context)
        self.amount = AmountEdit(step=10_000)
        self.fee = FeePicker()
        self.fund_button = QPushButton(strings.WALLET_FUND_BUTTON)
        self.fund_button.clicked.connect(self.fund)
        self.qr_button = QPushButton(strings.WALLET_FUND_QR)
        self.qr_button.setCheckable(True)
        self.qr_button.toggled.connect(self._update_qr)
        self.message = message_label("hint")
        self.message.setVisible(False)
        self.copy_txid = QPushButton(strings.WALLET_COPY_TXID)
        self.copy_txid.setVisible(False)
        self.copy_txid.clicked.connect(self._copy_txid)
        self.last_txid: str | None = None

        self.qr = QrView()
        self.qr_hint = QLabel(strings.WALLET_FUND_QR_HINT)
        self.qr_hint.setWordWrap(True)
        self.link = QLineEdit()  # a link has no spaces to wrap at: it scrolls instead
        self.link.setReadOnly(True)
        self.link.setAccessibleName(strings.WALLET_FUND_LINK_WHAT)
        self.copy_link = QPushButton(strings.WALLET_FUND_COPY_LINK)
        self.copy_link.clicked.connect(self._copy_link)
        self.qr.setFixedSize(176, 176)
        link_row = QHBoxLayout()
        link_row.addWidget(self.copy_link)
        link_row.addStretch(1)
        self.qr_box = QWidget()
        qr_layout = QVBoxLayout(self.qr_box)
        qr_layout.setContentsMargins(0, 0, 0, 0)
        qr_layout.addWidget(self.qr_hint)
        qr_row = QHBoxLayout()
        qr_row.addWidget(self.qr)
        qr_text = QVBoxLayout()
        qr_text.addWidget(self.link)
        qr_text.addLayout(link_row)
        qr_text.addStretch(1)
        qr_row.addLayout(qr_text, 1)
        qr_layout.addLayout(qr_row)
        self.qr_box.setVisible(False)

        form = QFormLayout()
        form.addRow(strings.WALLET_FUND_AMOUNT, self.amount)
        form.addRow(strings.WALLET_FUND_FEE, self.fee)
        label = form.labelForField(self.amount)
        if isinstance(label, QLabel):
            label.setBuddy(self.amount.edit)
        buttons = QHBoxLayout()
        buttons.addWidget(self.fund_button)
        buttons.addWidget(self.qr_button)
        buttons.addStretch(1)
        result = QHBoxLayout()
        result.addWidget(self.message, 1)
        result.addWidget(self.copy_txid)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addLayout(result)
        layout.addWidget(self.qr_box)
        self.amount.changed.connect(self._update_qr)
        self.session.changed.connect(self.load_estimates)
        WalletState.of(context).updated.connect(self._update_qr)

    # -- fee estimates ----------------------------------------------------------------------

    @async_slot()
    async def load_estimates(self) -> None:
        from app.services.errors import NetError

        services = self.context.connection
        try:
            await self.session.ensure_ready()
            ctx = self.session.read_context()
            from app.services.funding import fee_estimates  # loaded by ensure_ready

            estimates = await fee_estimates(ctx)
        except (NotReadyError, NetError) as exc:
            log.info("no fee estimates: %s", type(exc).__name__)
            self.fee.set_estimates(None)
            return
        except Exception:
            if self.context.connection is not services:
                return  # the connection closed under the request
            raise
        self.fee.set_estimates(estimates)

    # -- pay from this wallet -----------------------------------------------------------------

    def _show(self, text: str, role: str = "hint") -> None:
        set_message(self.message, text, role)

    def _set_busy(self, busy: bool) -> None:
        self.fund_button.setEnabled(not busy)
        self.amount.setEnabled(not busy)
        self.fee.setEnabled(not busy)

    @async_slot()
    async def fund(self) -> None:
        amount = self.amount.value()
        if self.amount.error() or not amount:
            self._show(self.amount.error() or strings.WALLET_FUND_NEED_AMOUNT, "error")
            self.amount.setFocus()
            return
        self.copy_txid.setVisible(False)
        if self.context.watch_only:  # said before any review: nothing here could sign it
            self._show(strings.WATCH_ONLY_CANNOT_SIGN, "error")
            return
        self._set_busy(True)
        try:
            await self._fund(amount)
        finally:
            self._set_busy(False)

    async def _fund(self, amount: int) -> None:
        from app.services.funding import (
            FundingPlan,
            FundingResult,
            accept_funding_fee,
            execute_funding,
            prepare_funding,
        )
        from app.ui.psbt_flow_runner import FlowSteps, PsbtFlowRunner

        async def prepare(ctx: ServiceContext, _run: object) -> FundingPlan:
            self._show(strings.WALLET_FUND_PREPARING)
            async with tracked(self.context, "fund.prepare", amount=amount):
                return await prepare_funding(ctx, amount, fee_rate=self.fee.rate())

        async def execute(ctx: ServiceContext, plan: FundingPlan, _run: object) -> FundingResult:
            try:
                async with tracked(self.context, "fund.broadcast", amount=amount) as record:
                    result = await execute_funding(ctx, plan)
                    record.txid = result.txid
                    record.message = f"{amount:,} sats to the bidding wallet"
            finally:
                WalletState.of(self.context).request_refresh()
            return result

        steps = FlowSteps(
            title=strings.WALLET_FUND_TITLE,
            action=strings.WALLET_FUND_ACTION,
            prepare=prepare,
            plans=lambda plan: [plan],
            accept_fee=accept_funding_fee,
            execute=execute,
            working=strings.WALLET_FUND_SIGNING,
        )
        runner = PsbtFlowRunner(self, self.context, self._controller, self._show)
        result = await runner.run(steps)
        if result is None:
            return
        self.last_txid = result.txid
        self.copy_txid.setVisible(True)
        self._show(
            strings.WALLET_FUND_DONE.format(
                amount=strings.SATS.format(sats=result.amount),
                fee=strings.SATS.format(sats=result.fee),
                txid=result.txid,
            ),
            "ok",
        )

    def _copy_txid(self) -> None:
        if self.last_txid:
            QGuiApplication.clipboard().setText(self.last_txid)
            self.context.info(strings.COPIED.format(what=strings.WALLET_TXID_WHAT))

    # -- pay from another wallet ---------------------------------------------------------------

    def _update_qr(self, *_: object) -> None:
        address = self.session.bidding_wallet
        self.qr_button.setEnabled(address is not None)
        show = self.qr_button.isChecked() and address is not None
        self.qr_box.setVisible(show)
        if not show or address is None:
            return
        from app.services.bidding_wallet import bip21_uri

        amount = self.amount.value() or None
        uri = bip21_uri(address, amount, label="Bidwallet bidding wallet")
        if uri != self.qr.text():
            self.qr.set_text(uri)
            self.link.setText(uri)

    def _copy_link(self) -> None:
        if self.qr.text():
            QGuiApplication.clipboard().setText(self.qr.text())
            self.context.info(strings.COPIED.format(what=strings.WALLET_FUND_LINK_WHAT))
