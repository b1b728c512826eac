"""Coin control for Fund: the payment address's coins, each with its amount, confirmations and
what it carries; the user ticks the ones to spend. Coins that must not be spent (an inscription
or runes on them, or not indexed by ord yet) are listed, greyed, with no box to tick, and say
why in their Carries cell. The coins come from `services.coin_control.payment_coins`; this
dialog only draws them."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.ui import strings
from app.ui.models.review_model import short
from app.ui.widgets import make_default, message_label, set_message

if TYPE_CHECKING:
    from app.services.coin_control import PaymentCoin

COL_AMOUNT, COL_CONFIRMATIONS, COL_CARRIES, COL_COIN = range(4)
MAX_IDS_SHOWN = 3  # inscription ids named in the Carries column; the count says the rest
COIN_ID_KEEP = 12  # characters kept at each end of a coin id, as the review dialog shows it


def short_id(inscription_id: str) -> str:
    """`0123abcd…i0`: enough to recognise an inscription in a narrow column."""
    txid, _, index = inscription_id.rpartition("i")
    return inscription_id if len(txid) <= 12 else f"{txid[:8]}…i{index}"


def carries_text(coin: PaymentCoin, shorten: bool = True) -> str:
    """What the coin carries, in the Carries column's words (inscription ids shortened, or in
    full for the tooltip)."""
    if not coin.indexed:
        return strings.COINS_WAITING
    parts = []
    if coin.inscriptions:
        named = [short_id(i) if shorten else i for i in coin.inscriptions]
        ids = ", ".join(named[:MAX_IDS_SHOWN])
        if len(coin.inscriptions) > MAX_IDS_SHOWN:
            ids += ", …"
        parts.append(strings.counted(strings.COINS_INSCRIPTIONS, len(coin.inscriptions), ids=ids))
    if coin.runes:
        runes = ", ".join(f"{r.amount:,} {r.rune}" for r in coin.runes)
        parts.append(strings.COINS_RUNES.format(runes=runes))
    return "; ".join(parts) or strings.COINS_NOTHING


def why_not(coin: PaymentCoin) -> str:
    return strings.COINS_WHY_WAITING if not coin.indexed else strings.COINS_WHY_CARRIES


def carries_cell(coin: PaymentCoin) -> str:
    """The Carries cell: what the coin carries and, for a coin that cannot be chosen, why on
    a second line (a greyed row must say why without hovering)."""
    if coin.spendable:
        return carries_text(coin)
    why = strings.COINS_KEPT_WAITING if not coin.indexed else strings.COINS_KEPT_CARRIES
    return f"{carries_text(coin)}\n{why}"


class CoinChooserDialog(QDialog):
    def __init__(
        self,
        coins: Sequence[PaymentCoin],
        chosen: Collection[str] = (),
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(strings.COINS_TITLE)
        self._coins = list(coins)
        self._boxes: dict[str, QTableWidgetItem] = {}  # the Amount cell of each coin: its box
        hint = QLabel(strings.COINS_HINT if coins else strings.COINS_NONE)
        hint.setWordWrap(True)
        self.table = QTableWidget(len(self._coins), 4)
        self.table.setHorizontalHeaderLabels(
            [
                strings.COINS_COL_AMOUNT,
                strings.COINS_COL_CONFIRMATIONS,
                strings.COINS_COL_CARRIES,
                strings.COINS_COL_COIN,
            ]
        )
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        for row, coin in enumerate(self._coins):
            self._add_row(row, coin, coin.outpoint in chosen)
        # Each column as wide as its text (the coin id shortened, whole in its tooltip), then
        # Carries, which also says why a coin is greyed, takes the room left.
        self.table.resizeColumnsToContents()
        self.table.resizeRowsToContents()
        self.table.horizontalHeader().setSectionResizeMode(
            COL_CARRIES, QHeaderView.ResizeMode.Stretch
        )
        self.summary = message_label("hint")
        self.use_button = QPushButton(strings.COINS_USE)
        self.cancel_button = QPushButton(strings.COINS_CANCEL)
        buttons = QDialogButtonBox()
        buttons.addButton(self.use_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.cancel_button, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        make_default(self.use_button, self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addWidget(buttons)
        self.table.itemChanged.connect(self._update_summary)
        self._update_summary()
        self.resize(860, 380)

    def _add_row(self, row: int, coin: PaymentCoin, checked: bool) -> None:
        confirmations = (
            f"{coin.confirmations:,}" if coin.confirmations else strings.COINS_UNCONFIRMED
        )
        cells = [
            strings.SATS.format(sats=coin.value),
            confirmations,
            carries_cell(coin),
            short(coin.outpoint, COIN_ID_KEEP),
        ]
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column == COL_AMOUNT:
                self._boxes[coin.outpoint] = item
            item.setData(Qt.ItemDataRole.UserRole, coin.outpoint)
            if column in (COL_AMOUNT, COL_CONFIRMATIONS):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if coin.spendable:
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            else:  # shown, greyed, never chosen
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                item.setToolTip(why_not(coin))
            if column == COL_CARRIES and coin.inscriptions:
                item.setToolTip(
                    "\n".join(filter(None, [carries_text(coin, shorten=False), item.toolTip()]))
                )
            if column == COL_COIN:
                item.setToolTip("\n".join(filter(None, [coin.outpoint, item.toolTip()])))
            self.table.setItem(row, column, item)
        amount = self._boxes[coin.outpoint]
        if coin.spendable:
            amount.setFlags(amount.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            state = Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked
            amount.setCheckState(state)

    # -- what the user chose ---------------------------------------------------------------

    def row_of(self, outpoint: str) -> int:
        return next(r for r, c in enumerate(self._coins) if c.outpoint == outpoint)

    def is_choosable(self, outpoint: str) -> bool:
        return bool(self._boxes[outpoint].flags() & Qt.ItemFlag.ItemIsUserCheckable)

    def chosen(self) -> tuple[str, ...]:
        """The ticked coins' outpoints, in the list's order."""
        return tuple(
            coin.outpoint
            for coin in self._coins
            if coin.spendable and self._boxes[coin.outpoint].checkState() == Qt.CheckState.Checked
        )

    def chosen_sats(self) -> int:
        wanted = set(self.chosen())
        return sum(c.value for c in self._coins if c.outpoint in wanted)

    def _update_summary(self, *_: object) -> None:
        count = len(self.chosen())
        if count:
            text = strings.counted(
                strings.COINS_SUMMARY, count, sats=strings.SATS.format(sats=self.chosen_sats())
            )
        else:
            text = strings.COINS_SUMMARY_NONE
        set_message(self.summary, text, "hint")
        self.use_button.setEnabled(bool(count))
