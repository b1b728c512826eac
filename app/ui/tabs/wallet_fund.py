"""Fund the bidding wallet: amount and fee rate -> review -> sign -> broadcast -> txid.
Or pay from another wallet: a BIP-21 link of the bidding wallet (with the amount) as a QR.

Coins are chosen and the PSBT built and judged by `services.funding.prepare_funding` with
public keys only; the unlocked keys are borrowed only after the user pressed Sign in the
review dialog, and signing runs in the executor (`execute_funding`). The review's notes say
which coins were left aside (carrying inscriptions or runes, or waiting for the indexer).
Coin control: "Choose coins…" lists the payment address's coins with what each carries
(`services.coin_control.payment_coins`, in `CoinChooserDialog`); the ticked ones are exactly
what the next funding spends, until the user lets the wallet choose again. A watch-only profile
exports the reviewed PSBT for the wallet that holds its keys, and imports (then broadcasts)
what that wallet signed (`sign_elsewhere`)."""

from __future__ import annotations

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
from app.ui.profile_session import failure_text, profile_session, tracked
from app.ui.psbt_flow_runner import FlowSteps, PsbtFlowRunner
from app.ui.sign_elsewhere import SignElsewhere, import_button, qr_button, scan_button
from app.ui.state.fee_estimates import FeeEstimateState
from app.ui.state.wallet_state import WalletState
from app.ui.tabs.wallet_coins import CoinChooserDialog
from app.ui.widgets import message_label, set_message
from app.ui.widgets.amount_edit import AmountEdit
from app.ui.widgets.fee_picker import FeePicker
from app.ui.widgets.qr_view import QrView

if TYPE_CHECKING:
    from app.services.context import ServiceContext
    from app.services.funding import FundingPlan, FundingResult
    from app.ui.context import AppContext
    from app.ui.controller import AppController

# Where a long word may break in a wrapping label (shown only: Copy txid copies the real one).
ZERO_WIDTH_SPACE = "\u200b"
TXID_BREAK_EVERY = 16


def wrappable(word: str, every: int = TXID_BREAK_EVERY) -> str:
    """`word` with a zero-width space every `every` characters: a 64-character txid in a
    wrapping label otherwise sets the label's least width, which widened the Fund panel and
    squeezed the pool chart beside it at 1024 px."""
    return ZERO_WIDTH_SPACE.join(word[i : i + every] for i in range(0, len(word), every))


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
        self.import_button = import_button(context)  # watch-only: signed in another wallet
        self.export_qr_button = qr_button(self, context)  # watch-only: the export as a QR
        self.import_button.clicked.connect(self.import_signed)
        self.scan_button = scan_button(context)  # watch-only: its signed PSBT as a QR
        self.scan_button.clicked.connect(self.scan_signed)
        self.qr_button = QPushButton(strings.WALLET_FUND_QR)
        self.qr_button.setCheckable(True)
        self.qr_button.toggled.connect(self._update_qr)
        self.message = message_label("hint")
        self.message.setVisible(False)
        self.copy_txid = QPushButton(strings.WALLET_COPY_TXID)
        self.copy_txid.setVisible(False)
        self.copy_txid.clicked.connect(self._copy_txid)
        self.last_txid: str | None = None
        # Coin control: None lets the wallet choose; else exactly these coins are spent.
        self.chosen_coins: tuple[str, ...] | None = None
        self.choose_button = QPushButton(strings.WALLET_FUND_CHOOSE)
        self.choose_button.clicked.connect(self.choose_coins)
        self.chosen_label = message_label("hint")
        self.chosen_label.setVisible(False)
        self.any_coins_button = QPushButton(strings.WALLET_FUND_ANY_COINS)
        self.any_coins_button.setVisible(False)
        self.any_coins_button.clicked.connect(self.let_the_wallet_choose)

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
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.scan_button)
        buttons.addWidget(self.export_qr_button)
        buttons.addWidget(self.choose_button)
        buttons.addWidget(self.qr_button)
        buttons.addStretch(1)
        chosen = QHBoxLayout()
        chosen.addWidget(self.chosen_label, 1)
        chosen.addWidget(self.any_coins_button)
        result = QHBoxLayout()
        result.addWidget(self.message, 1)
        result.addWidget(self.copy_txid)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addLayout(chosen)
        layout.addLayout(result)
        layout.addWidget(self.qr_box)
        self.amount.changed.connect(self._update_qr)
        WalletState.of(context).updated.connect(self._update_qr)
        FeeEstimateState.of(context).bind(self.fee)  # re-read as the mempool moves

    # -- pay from this wallet -----------------------------------------------------------------

    def _show(self, text: str, role: str = "hint") -> None:
        set_message(self.message, text, role)

    def _set_busy(self, busy: bool) -> None:
        self.fund_button.setEnabled(not busy)
        self.import_button.setEnabled(not busy)
        self.scan_button.setEnabled(not busy)
        self.choose_button.setEnabled(not busy)
        self.any_coins_button.setEnabled(not busy)
        self.amount.setEnabled(not busy)
        self.fee.setEnabled(not busy)

    # -- coin control -----------------------------------------------------------------------

    @async_slot()
    async def choose_coins(self) -> None:
        """List the payment address's coins (off the GUI thread: Esplora and ord answer), then
        let the user tick the ones to spend."""
        self._set_busy(True)
        self._show(strings.WALLET_FUND_LOADING_COINS)
        try:
            await self.session.ensure_ready()
            ctx = self.session.read_context()
            from app.services.coin_control import payment_coins  # loaded with services.funding

            coins = await payment_coins(ctx)
        except Exception as exc:
            self._show(failure_text(exc), "error")
            return
        finally:
            self._set_busy(False)
        self.message.setVisible(False)
        dialog = CoinChooserDialog(coins, self.chosen_coins or (), self)
        if not await self._controller.show_dialog(dialog):
            return
        chosen = dialog.chosen()
        self._set_chosen(chosen or None, dialog.chosen_sats())

    def let_the_wallet_choose(self) -> None:
        self._set_chosen(None, 0)

    def _set_chosen(self, coins: tuple[str, ...] | None, sats: int) -> None:
        self.chosen_coins = coins
        if coins:
            text = strings.counted(
                strings.WALLET_FUND_CHOSEN, len(coins), sats=strings.SATS.format(sats=sats)
            )
            set_message(self.chosen_label, text, "hint")
        self.chosen_label.setVisible(bool(coins))
        self.any_coins_button.setVisible(bool(coins))

    @staticmethod
    def notes(plan: FundingPlan) -> list[str]:
        """What the review dialog says besides the PSBT: the coins chosen, and those left
        aside with the reason."""
        notes = []
        if plan.chosen:
            spent = strings.SATS.format(sats=plan.selection.total_in)
            notes.append(
                strings.counted(
                    strings.WALLET_FUND_NOTE_CHOSEN, len(plan.selection.coins), sats=spent
                )
            )
        if plan.skipped:
            notes.append(strings.counted(strings.WALLET_FUND_NOTE_SKIPPED, len(plan.skipped)))
        if plan.waiting:
            waiting = strings.SATS.format(sats=plan.waiting_sats)
            notes.append(
                strings.counted(strings.WALLET_FUND_NOTE_WAITING, len(plan.waiting), sats=waiting)
            )
        return notes

    @async_slot()
    async def fund(self) -> None:
        amount = self.amount.value()
        if self.amount.error() or not amount:
            self._show(self.amount.error() or strings.WALLET_FUND_NEED_AMOUNT, "error")
            self.amount.setFocus()
            return
        self.copy_txid.setVisible(False)
        self._set_busy(True)
        try:
            await self._fund(amount)
        finally:
            self._set_busy(False)

    async def _fund(self, amount: int) -> None:
        from app.services.funding import accept_funding_fee, execute_funding, prepare_funding

        coins = self.chosen_coins

        async def prepare(ctx: ServiceContext, _run: object) -> FundingPlan:
            self._show(strings.WALLET_FUND_PREPARING)
            return await prepare_funding(ctx, amount, fee_rate=self.fee.rate(), coins=coins)

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
            notes=self.notes,
            accept_fee=accept_funding_fee,
            execute=execute,
            working=strings.WALLET_FUND_SIGNING,
            review_activity="fund.prepare",
        )
        if self.context.watch_only:  # reviewed here, signed in the wallet holding the keys
            from app.services.offline import funding_export_items

            elsewhere = SignElsewhere(self, self.context, self._controller, self._show)
            await elsewhere.export(steps, funding_export_items)
            return
        runner = PsbtFlowRunner(self, self.context, self._controller, self._show)
        result = await runner.run(steps)
        if result is None:
            return
        if coins is not None and coins == self.chosen_coins:
            self.let_the_wallet_choose()  # they are spent
        self.last_txid = result.txid
        self.copy_txid.setVisible(True)
        self._show(
            strings.WALLET_FUND_DONE.format(
                amount=strings.SATS.format(sats=result.amount),
                fee=strings.SATS.format(sats=result.fee),
                txid=wrappable(result.txid),
            ),
            "ok",
        )

    @async_slot()
    async def import_signed(self) -> None:
        """A funding (or any export) the other wallet signed: checked, then broadcast."""
        await self._signed_elsewhere(scan=False)

    @async_slot()
    async def scan_signed(self) -> None:
        """The same, the signed PSBT scanned from the other wallet's QR code."""
        await self._signed_elsewhere(scan=True)

    async def _signed_elsewhere(self, scan: bool) -> None:
        self.copy_txid.setVisible(False)
        self._set_busy(True)
        try:
            elsewhere = SignElsewhere(self, self.context, self._controller, self._show)
            await (elsewhere.scan_and_submit() if scan else elsewhere.import_and_submit())
        finally:
            self._set_busy(False)

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
            self.link.setCursorPosition(0)  # shows "bitcoin:<address>", not the label's end

    def _copy_link(self) -> None:
        if self.qr.text():
            QGuiApplication.clipboard().setText(self.qr.text())
            self.context.info(strings.COPIED.format(what=strings.WALLET_FUND_LINK_WHAT))
