"""Wallet: the payment, ordinals and bidding wallet addresses; the balances (the bidding
wallet's, confirmed and unconfirmed, refreshed on a timer and after every action, and beside it
what the payment address may spend on funding, told apart from its total); Fund; and a chart
of the bid pools (what each commits against the balance)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.icons import set_themed_icon
from app.ui.maker_fee_note import maker_fee_note
from app.ui.profile_session import (
    NotReadyError,
    failure_text,
    not_connected_text,
    profile_session,
)
from app.ui.state.wallet_state import WalletState, failure_role
from app.ui.tabs.wallet_addresses import AddressRow
from app.ui.tabs.wallet_fund import FundPanel
from app.ui.widgets import message_label, set_message
from app.ui.widgets.pool_chart import PoolBar, PoolChart

if TYPE_CHECKING:
    from app.services.coin_control import PaymentBalance
    from app.services.open_bids import OpenBidsView
    from app.ui.context import AppContext
    from app.ui.controller import AppController


def btc_text(sats: int) -> str:
    sign = "-" if sats < 0 else ""
    whole, frac = divmod(abs(sats), 100_000_000)
    return f"{sign}{whole}.{frac:08d}"


def amount_text(sats: int) -> str:
    return strings.SATS_AND_BTC.format(sats=sats, btc=btc_text(sats))


class WalletTab(QWidget):
    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.session = profile_session(context)
        self.state = WalletState.of(context)

        self.notice = message_label("hint")
        self.notice.setVisible(False)
        self.refresh_button = QPushButton(strings.REFRESH)
        set_themed_icon(self.refresh_button, "refresh")
        self.refresh_button.clicked.connect(self.state.request_refresh)
        self.refresh_button.setToolTip("F5")
        refresh_shortcut = QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self)
        refresh_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        refresh_shortcut.activated.connect(self.state.request_refresh)
        self.updated_label = message_label("hint")

        self.payment = AddressRow(context, strings.WALLET_PAYMENT_WHAT)
        self.ordinals = AddressRow(context, strings.WALLET_ORDINALS_WHAT)
        self.bidding = AddressRow(context, strings.WALLET_BIDDING_WHAT)
        addresses = QGroupBox(strings.WALLET_ADDRESSES)
        address_form = QFormLayout(addresses)
        address_form.addRow(strings.WALLET_PAYMENT, self.payment)
        address_form.addRow(strings.WALLET_ORDINALS, self.ordinals)
        address_form.addRow(strings.WALLET_BIDDING, self.bidding)

        self.confirmed = QLabel("—")
        self.unconfirmed = QLabel("—")
        self.total = QLabel("—")
        self.total.setProperty("role", "title")
        balance = QGroupBox(strings.WALLET_BALANCE)
        balance_form = QFormLayout(balance)
        balance_form.addRow(strings.WALLET_TOTAL, self.total)
        balance_form.addRow(strings.WALLET_CONFIRMED, self.confirmed)
        balance_form.addRow(strings.WALLET_UNCONFIRMED, self.unconfirmed)
        # The payment address beside it: what funding may spend, told apart from its total.
        self.payment_spendable = QLabel("—")
        self.payment_spendable.setToolTip(strings.WALLET_PAYMENT_SPENDABLE_TIP)
        self.payment_held = message_label("hint")
        balance_form.addRow(strings.WALLET_PAYMENT_SPENDABLE, self.payment_spendable)
        balance_form.addRow("", self.payment_held)
        self.payment_balance: PaymentBalance | None = None
        self._payment_loading = self._payment_again = False

        self.fund = FundPanel(context, controller)

        self.chart = PoolChart()
        chart_scroll = QScrollArea()
        chart_scroll.setWidget(self.chart)
        chart_scroll.setWidgetResizable(True)
        chart_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.pools_note = message_label("hint")  # the maker fee the bars count
        self.pools_note.setVisible(False)
        # A short title and the rule in a wrapping line: a long title set the box's width.
        pools_hint = message_label("hint")
        pools_hint.setText(strings.WALLET_POOLS_HINT)
        pools = QGroupBox(strings.WALLET_POOLS)
        pools_layout = QVBoxLayout(pools)
        pools_layout.addWidget(pools_hint)
        pools_layout.addWidget(chart_scroll)
        pools_layout.addWidget(self.pools_note)

        top = QHBoxLayout()
        top.addWidget(self.updated_label)
        top.addStretch(1)
        top.addWidget(self.refresh_button)
        left = QVBoxLayout()
        left.addWidget(addresses)
        left.addWidget(balance)
        left.addWidget(self.fund)
        left.addStretch(1)
        columns = QHBoxLayout()
        columns.addLayout(left, 3)
        columns.addWidget(pools, 2)
        # Addresses elide in their middle to fit; below every column's minimum (a window made
        # very narrow) the content scrolls rather than clips.
        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.addLayout(top)
        content_layout.addWidget(self.notice)
        content_layout.addLayout(columns, 1)
        scroll = QScrollArea()
        scroll.setWidget(content)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        self.setTabOrder(self.refresh_button, self.payment.copy_button)
        self.setTabOrder(self.payment.copy_button, self.ordinals.copy_button)
        self.setTabOrder(self.ordinals.copy_button, self.bidding.copy_button)
        self.setTabOrder(self.bidding.copy_button, self.fund.amount.edit)

        self.state.updated.connect(self._show_view)
        if self.state.view is not None:  # built after the shared state already loaded
            self._show_view(self.state.view)
        self.state.failed.connect(self._show_error)
        # A bound method, not a lambda: Qt drops the connection when this tab is destroyed,
        # while the shared state object lives on.
        self.state.busy_changed.connect(self._set_busy)
        self.session.changed.connect(self._show_addresses)
        self._show_addresses()

    def _set_busy(self, busy: bool) -> None:
        self.refresh_button.setEnabled(not busy)

    def showEvent(self, event: QShowEvent) -> None:
        """Coming to the tab shows fresh numbers (the timer may be far from its next tick)."""
        super().showEvent(event)
        if self.session.connected:
            self.state.request_refresh()

    def _show_addresses(self) -> None:
        public = self.session.public_keys
        self.payment.set_address(None if public is None else public.payment.address)
        self.ordinals.set_address(None if public is None else public.ordinals.address)
        self.bidding.set_address(self.session.bidding_wallet)
        if public is None:
            self._show_error(
                not_connected_text(self.context)
                if not self.session.connected
                else strings.UNLOCK_FIRST_HINT
            )

    def _show_view(self, view: OpenBidsView) -> None:
        set_message(self.notice, "")
        self._show_addresses()
        self.bidding.set_address(view.balance.address)
        balance = view.balance
        self.confirmed.setText(amount_text(balance.confirmed))
        self.unconfirmed.setText(amount_text(balance.unconfirmed))
        self.total.setText(amount_text(balance.total))
        self.chart.set_bars(
            [PoolBar(str(p.pool), p.committed, p.balance, p.bids) for p in view.pools]
        )
        set_message(self.pools_note, maker_fee_note(view.maker_fee), "hint")
        stamp = datetime.now().strftime("%H:%M:%S")
        self.updated_label.setText(strings.UPDATED_AT.format(time=stamp))
        self.load_payment_balance()

    @async_slot()
    async def load_payment_balance(self) -> None:
        """The payment address's spendable and total amounts, read with every refresh (a
        funding, a fill or a coin from elsewhere changes them)."""
        if self._payment_loading:  # live updates can come faster than a read: one more after
            self._payment_again = True
            return
        self._payment_loading = True
        try:
            await self._load_payment_balance()
        finally:
            self._payment_loading = False
        if self._payment_again:
            self._payment_again = False
            self.load_payment_balance()

    async def _load_payment_balance(self) -> None:
        from app.services.errors import NetError, ServiceError

        services = self.context.connection
        if self.payment_balance is None:
            set_message(self.payment_held, strings.WALLET_PAYMENT_LOADING, "hint")
        try:
            await self.session.ensure_ready()
            ctx = self.session.read_context()
            from app.services.coin_control import payment_balance  # loaded by ensure_ready

            balance = await payment_balance(ctx)
        except (NotReadyError, ServiceError, NetError) as exc:
            if self.context.connection is services:
                self.payment_balance = None
                self.payment_spendable.setText("—")
                reason = failure_text(exc)
                set_message(self.payment_held, strings.WALLET_PAYMENT_UNKNOWN.format(reason=reason))
            return
        except Exception:
            if self.context.connection is not services:
                return  # the connection closed under the request
            raise
        self.show_payment_balance(balance)

    def show_payment_balance(self, balance: PaymentBalance) -> None:
        self.payment_balance = balance
        self.payment_spendable.setText(amount_text(balance.spendable))
        total = strings.SATS.format(sats=balance.total)
        held = []
        if balance.carrying:
            sats = strings.SATS.format(sats=balance.carrying)
            held.append(strings.WALLET_PAYMENT_CARRYING.format(sats=sats))
        if balance.waiting:
            held.append(
                strings.WALLET_PAYMENT_WAITING.format(
                    sats=strings.SATS.format(sats=balance.waiting)
                )
            )
        if held:
            text = "; ".join([strings.WALLET_PAYMENT_OF_TOTAL.format(total=total), *held])
        else:
            text = strings.WALLET_PAYMENT_ALL_SPENDABLE.format(total=total)
        set_message(self.payment_held, text[0].upper() + text[1:] + ".", "hint")

    def _show_error(self, text: str) -> None:
        # Not connected (yet) or locked is a state to act on, not a failure: never red.
        failed = failure_role(text) == "error" and self.session.public_keys is not None
        set_message(self.notice, text, "error" if failed else "hint")
