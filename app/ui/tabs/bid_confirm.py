"""The step before a bid message is signed: what the payment key will sign and send (the
target, each pool with the bids it gets, the price, the quantity, the expiry, the fee rate the
fill is asked at; where the price ranks in the pool's market, as last read) and the message
itself, with "Don't ask again" (kept in the app settings as
`confirm_bids`; Settings turns it back on). Enter cancels: signing takes a deliberate click.

Only for bids this app signs: a watch-only profile's message is shown in full and signed in
the other wallet (`sign_elsewhere`), which is its own confirmation."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QDateTime, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core.bid_message import bid_message
from app.core.pools import request_pools
from app.services.profiles import ProfileFileError
from app.ui import strings
from app.ui.async_tools import exec_dialog
from app.ui.tabs.bid_preview import BidDraft, build_unsigned
from app.ui.widgets import refusing_buttons

if TYPE_CHECKING:
    from app.services.bids import BidderIdentity
    from app.ui.context import AppContext

DIALOG_SIZE = (560, 460)


def _sats(n: int) -> str:
    return strings.SATS.format(sats=n)


def _row_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # pools named by the service's slugs
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class BidConfirmDialog(QDialog):
    def __init__(
        self,
        draft: BidDraft,
        who: BidderIdentity,
        now_ms: int,
        fee_rate: str,
        parent: QWidget | None = None,
        market: str = "",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(strings.BID_CONFIRM_TITLE)
        request = build_unsigned(draft, who, now_ms)
        count = request.bid_count()
        assert draft.price is not None and draft.expiry_ms is not None
        total = draft.price if draft.runes else count * draft.price
        intro = QLabel(strings.counted(strings.BID_CONFIRM_INTRO, count, total=_sats(total)))
        intro.setWordWrap(True)
        pools = "\n".join(
            strings.counted(strings.BID_CONFIRM_POOL_LINE, added, pool=str(pool))
            for pool, added in request_pools(request).items()
        )
        price = (
            strings.BID_CONFIRM_PRICE_RUNE if draft.runes else strings.BID_CONFIRM_PRICE_ITEM
        ).format(price=_sats(draft.price))
        quantity = strings.counted(
            strings.BID_CONFIRM_UNITS if draft.runes else strings.BID_CONFIRM_ITEMS,
            draft.quantity,
        )
        expiry = QDateTime.fromMSecsSinceEpoch(draft.expiry_ms).toString("yyyy-MM-dd HH:mm")
        rows = QFormLayout()
        for label, value in (
            (strings.BID_CONFIRM_POOLS, pools),
            (strings.BID_CONFIRM_PRICE, price),
            (strings.BID_CONFIRM_QUANTITY, quantity),
            (strings.BID_CONFIRM_EXPIRY, expiry),
            (strings.BID_CONFIRM_FEE_RATE, fee_rate),
        ):
            rows.addRow(label, _row_label(value))
        if market:  # the rank the price gets, as last read (the market moves: no promise)
            rows.addRow(strings.MARKET_CONFIRM_ROW, _row_label(market))
        self.values = {
            "pools": pools,
            "price": price,
            "quantity": quantity,
            "expiry": expiry,
            "fee_rate": fee_rate,
            "market": market,
        }
        caption = QLabel(strings.BID_CONFIRM_MESSAGE)
        caption.setWordWrap(True)
        self.message = QPlainTextEdit(bid_message(request))
        self.message.setReadOnly(True)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.message.setFont(mono)
        self.dont_ask = QCheckBox(strings.BID_CONFIRM_DONT_ASK)
        self.sign_button = QPushButton(strings.BID_CONFIRM_SIGN)
        self.cancel_button = QPushButton(strings.BID_CONFIRM_CANCEL)
        buttons = refusing_buttons(self, self.sign_button, self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(rows)
        layout.addWidget(caption)
        layout.addWidget(self.message, 1)
        layout.addWidget(self.dont_ask)
        layout.addWidget(buttons)
        self.resize(*DIALOG_SIZE)


async def confirm_bid(
    parent: QWidget,
    context: AppContext,
    draft: BidDraft,
    who: BidderIdentity,
    now_ms: int,
    fee_rate: str,
    market: str = "",
) -> bool:
    """True when the bid may be signed: the user said so, or asked not to be asked again.
    "Don't ask again" is saved only with a Sign; a settings file that cannot be written is
    said in the status bar, and the bid goes ahead (the user did say yes)."""
    if not context.settings.confirm_bids:
        return True
    dialog = BidConfirmDialog(draft, who, now_ms, fee_rate, parent, market)
    context.dialog_opened.emit(dialog)
    accepted = await exec_dialog(dialog) == QDialog.DialogCode.Accepted
    if accepted and dialog.dont_ask.isChecked():
        try:
            await context.update_settings(lambda s: replace(s, confirm_bids=False))
        except ProfileFileError as exc:
            context.error(strings.BID_CONFIRM_NOT_SAVED.format(reason=exc))
    dialog.deleteLater()
    return accepted
