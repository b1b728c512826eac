"""Bid: collection, trait, range and rune bids. The form on the left; on the right a live
preview (bids placed, pools touched and whether each fits, the exact message to be signed),
recomputed as the user types, with every broken rule shown at its field, and the fee rate the
fill is asked at (the picker's named rates carry the network's current estimates). Nothing is
counted against the pools or offered to sign while the rune's etched name is not known yet, nor
for a rune ord refused or a collection the service said it does not know. Place signs, checks
the signature with the independent verifier and sends by the services' retry rules
(`services.bids.place_bid`), showing any wait the rate limit imposes; its result stays shown
until the user changes the form. Before signing, a locked wallet asks for its password, then
the tab shows what will be signed and asks (`bid_confirm`, unless the user chose "Don't ask
again")."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics, QHideEvent, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.pools import PoolKey, request_pools
from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.dialogs.psbt_review_flow import signing_context
from app.ui.dialogs.strategy_from_bid import KeepBidButton
from app.ui.maker_fee_note import maker_fee_note
from app.ui.profile_session import NotReadyError, failure_text, profile_session, tracked
from app.ui.sign_elsewhere import place_bid_signed_elsewhere
from app.ui.state.fee_estimates import FeeEstimateState
from app.ui.state.market_state import MarketState
from app.ui.state.wallet_state import WalletState
from app.ui.tabs.bid_catalog import BidCatalog
from app.ui.tabs.bid_confirm import confirm_bid
from app.ui.tabs.bid_form import BidForm, RuneLookup
from app.ui.tabs.bid_market_panel import BidMarketPanel, draft_pools
from app.ui.tabs.bid_messages import user_message
from app.ui.tabs.bid_preview import (
    GENERAL,
    BidDraft,
    BidPreview,
    fee_rate_text,
    preview,
    spec_of,
)
from app.ui.widgets import message_label, plain_tooltip, set_message
from app.ui.widgets.wrap_delegate import WrapAnywhereDelegate

if TYPE_CHECKING:
    from app.services.bids import BidderIdentity, BidOutcome
    from app.services.pacing import Sleeper
    from app.ui.context import AppContext
    from app.ui.controller import AppController

log = logging.getLogger(__name__)
CLOCK_TICK_MS = 15_000  # re-check time rules (expiry) while the form sits unchanged
POOLS_MAX_HEIGHT = 150
PLACE_KEYS = "Ctrl+Return"
MESSAGE_LINES = 3
RESULT_LINES = 2  # a placement's result ("Placed: 3 bids in …") reads in two lines
# The form needs ~560 px; the preview reads well narrower: the form gets the larger share.
FORM_STRETCH, PREVIEW_STRETCH = 5, 4  # the pools table's names need room; the form no scroll
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
# The pools table at 1024 px has ~370 px: the pool's name takes what the figures leave and
# wraps (never "UN…DS"); the balance, the same for every pool, is said once under the table;
# "no: 50,000 sats short" wraps to two lines so the name keeps the room.
POOL_COLUMN, BALANCE_COLUMN, FITS_COLUMN = 0, 3, 4
CELL_PADDING = 12  # px a cell keeps around its text
# A pool typed letter by letter is read once the typing pauses, not at each letter.
MARKET_SETTLE_MS = 600


def two_line_width(metrics: QFontMetrics, text: str) -> int:
    """The least width at which `text` wraps at a space into at most two lines."""
    words = text.split(" ")
    return min(
        max(
            metrics.horizontalAdvance(" ".join(words[:k])),
            metrics.horizontalAdvance(" ".join(words[k:])),
        )
        for k in range(1, len(words) + 1)
    )


class NotifyingSleeper:
    """The session's sleeper, telling the tab how long it waits (rate limit, pace)."""

    def __init__(self, inner: Sleeper, on_wait: Callable[[int], None]) -> None:
        self._inner = inner
        self._on_wait = on_wait

    async def sleep_ms(self, ms: int) -> None:
        if ms > 0:
            self._on_wait(ms)
        await self._inner.sleep_ms(ms)


def outcome_text(outcome: BidOutcome) -> str:
    request = outcome.placement.request
    attempts = outcome.placement.attempts
    if len(attempts) == 1:
        how = strings.BID_ATTEMPTS_ONE
    else:
        why = ", ".join(a.result.value for a in attempts[:-1])
        how = strings.BID_ATTEMPTS_MANY.format(n=len(attempts), why=why)
    pools = ", ".join(str(p) for p in request_pools(request))
    return strings.counted(strings.BID_PLACED, request.bid_count(), pools=pools, attempts=how)


class BidTab(QWidget):
    def __init__(
        self, context: AppContext, controller: AppController, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.context = context
        self.controller = controller
        self.session = profile_session(context)
        self.state = WalletState.of(context)
        self.form = BidForm()
        self.catalog = BidCatalog(self.form, self.session)
        self.last_preview = BidPreview()
        self.placing = False

        form_scroll = QScrollArea()
        form_scroll.setWidget(self.form)
        form_scroll.setWidgetResizable(True)
        form_scroll.setFrameShape(QScrollArea.Shape.NoFrame)

        self.count_label = QLabel()
        self.count_label.setWordWrap(True)
        self.count_label.setProperty("role", "title")
        self.fee_rate_label = message_label("hint")
        self.pools = QTableWidget(0, len(strings.BID_PREVIEW_POOLS_HEADERS))
        self.pools.setHorizontalHeaderLabels(list(strings.BID_PREVIEW_POOLS_HEADERS))
        self.pools.verticalHeader().setVisible(False)
        self.pools.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.pools.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.pools.setWordWrap(True)
        self.pools.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.pools.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header = self.pools.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(POOL_COLUMN, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(FITS_COLUMN, QHeaderView.ResizeMode.Fixed)
        header.setMinimumSectionSize(48)
        self.pools.setColumnHidden(BALANCE_COLUMN, True)
        self._name_delegate = WrapAnywhereDelegate(self.pools)  # a rune name has no space
        self.pools.setItemDelegateForColumn(POOL_COLUMN, self._name_delegate)
        self.pools_balance = message_label("hint")  # the balance every pool is checked against
        self.pools.setMaximumHeight(POOLS_MAX_HEIGHT)
        self.pools_note = message_label("hint")  # the maker fee the pools assume
        self.balance_hint = message_label("hint")
        self.message_caption = QLabel(strings.BID_PREVIEW_MESSAGE)
        self.message_caption.setWordWrap(True)
        self.message = QPlainTextEdit()
        self.message.setReadOnly(True)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.message.setFont(mono)
        # Three lines at least (it scrolls; the question before signing shows it whole): at
        # 1024x700 the market's line above takes the room of one.
        self.message.setMinimumHeight(QFontMetrics(mono).lineSpacing() * MESSAGE_LINES + 12)
        self.general = message_label("error")
        self.general.setVisible(False)
        self.place_button = QPushButton(strings.BID_PLACE)
        self.place_button.setEnabled(False)
        self.place_button.clicked.connect(self.place)
        self.place_button.setToolTip(PLACE_KEYS)
        place_shortcut = QShortcut(QKeySequence(PLACE_KEYS), self)
        place_shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        place_shortcut.activated.connect(self._place_keys)
        self.result = message_label("hint")
        self.result.setVisible(False)
        self.keep_button = KeepBidButton(context, controller, self.form, self.result)
        self.market_state = MarketState.of(context)
        self.market = BidMarketPanel(self.market_state)
        self.market.price_chosen.connect(self._price_chosen)
        self.market_settle = QTimer(self)
        self.market_settle.setSingleShot(True)
        self.market_settle.setInterval(MARKET_SETTLE_MS)
        self.market_settle.timeout.connect(self._look_at_market)

        preview_box = QWidget()
        preview_layout = QVBoxLayout(preview_box)
        preview_layout.addWidget(self.market.line)  # where the typed price would rank
        preview_layout.addWidget(self.count_label)
        preview_layout.addWidget(self.fee_rate_label)
        preview_layout.addWidget(self.pools)
        preview_layout.addWidget(self.pools_balance)
        preview_layout.addWidget(self.pools_note)
        preview_layout.addWidget(self.balance_hint)
        preview_layout.addWidget(self.message_caption)
        preview_layout.addWidget(self.message, 1)
        preview_layout.addWidget(self.general)
        place_row = QHBoxLayout()
        place_row.addWidget(self.place_button)
        place_row.addWidget(self.keep_button)
        place_row.addStretch(1)
        preview_layout.addLayout(place_row)
        # The result's lines are kept even when empty: "Signing…" appearing under Place as it
        # is clicked must not move the button (or the message) under the cursor.
        result_box = QWidget()
        result_layout = QVBoxLayout(result_box)
        result_layout.setContentsMargins(0, 0, 0, 0)
        result_layout.addWidget(self.result)
        result_layout.addStretch(1)
        result_box.setMinimumHeight(self.result.fontMetrics().lineSpacing() * RESULT_LINES + 4)
        preview_layout.addWidget(result_box)
        # The pool's market is the preview's neighbour page (at 1024x700 the preview takes the
        # column's height); the preview's first line says where the typed price would rank.
        self.side = QTabWidget()
        self.side.addTab(preview_box, strings.BID_PREVIEW)
        self.side.addTab(self.market, strings.MARKET_TITLE)
        # The split is the stretch factors' alone: a long word in the preview (a rune, a slug)
        # must not set its minimum width and narrow the form as the preview changes.
        for side in (form_scroll, self.side, preview_box, self.market):
            policy = side.sizePolicy()
            policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
            side.setSizePolicy(policy)
        layout = QHBoxLayout(self)
        layout.addWidget(form_scroll, FORM_STRETCH)
        layout.addWidget(self.side, PREVIEW_STRETCH)
        self.setTabOrder(self.form.traits.view, self.place_button)

        self.clock_tick = QTimer(self)
        self.clock_tick.setInterval(CLOCK_TICK_MS)
        self.clock_tick.timeout.connect(self.update_preview)
        self.clock_tick.start()
        self.form.changed.connect(self.update_preview)
        self.form.edited.connect(self._form_edited)
        self.state.updated.connect(self.update_preview)
        self.state.failed.connect(self.update_preview)
        self.session.changed.connect(self.load_catalog)
        FeeEstimateState.of(context).bind(self.form.fee_rate)  # re-read as the mempool moves
        context.theme_changed.connect(self._restyle)  # bound: dropped when the tab goes
        self.update_preview()

    def _restyle(self, _theme: str) -> None:
        self.form.traits.restyle()

    def showEvent(self, event: QShowEvent) -> None:
        """Coming to the tab shows fresh numbers (the timer may be far from its next tick)."""
        super().showEvent(event)
        if self.session.connected:
            self.state.request_refresh()  # and the fee estimates, once a minute old
            self.load_catalog()  # collections may have been added since
        self._look_at_market()

    def hideEvent(self, event: QHideEvent) -> None:
        """Away from the tab, its pool's market is not read for it."""
        super().hideEvent(event)
        self.market_settle.stop()
        self.market_state.look_at("bid", ())

    # -- market -------------------------------------------------------------------------------

    def market_pools(self) -> list[PoolKey]:
        """The pools the form bids in, as the market names them (none while the target is not
        one the service knows)."""
        draft = self.form.draft(self.session.clock.now_ms())
        return [] if self._target_refused(draft) else draft_pools(draft)

    def _look_at_market(self) -> None:
        pools = self.market_pools()
        self.market.show_pool(pools[0] if pools else None, len(pools))
        if self.isVisible():
            self.market_state.look_at("bid", pools[:1])

    def _price_chosen(self, price: int) -> None:
        """A market shortcut's price, as if typed."""
        self.form.price.set_value(price)
        self.form.price.edit.setFocus()

    # -- catalog ------------------------------------------------------------------------------

    @async_slot()
    async def load_catalog(self) -> None:
        """The collections to suggest (`BidCatalog`); a typed slug is looked up as committed."""
        await self.catalog.load_suggestions()

    # -- preview ------------------------------------------------------------------------------

    def _identity(self) -> BidderIdentity | None:
        from app.services.bids import BidderIdentity

        public = self.session.public_keys
        if public is None:
            return None
        return BidderIdentity(
            public.payment.address, public.payment.public_key.hex(), public.ordinals.address
        )

    def _target_refused(self, draft: BidDraft) -> str | None:
        """Why nothing can be signed for the target: a rune ord refused (or could not be asked
        about), a collection the service said it does not know; None otherwise."""
        if draft.runes and draft.target:
            state, reason = self.form.rune_lookup()
            return reason if state is RuneLookup.FAILED else None
        if self.form.collection_unknown():
            return strings.BID_PREVIEW_NO_COLLECTION.format(slug=draft.target)
        return None

    def update_preview(self, *_: object) -> None:
        now = self.session.clock.now_ms()
        view = self.state.view
        draft = self.form.draft(now)
        self.market.set_typed(draft.price, draft.quantity, draft.runes)
        self.market_settle.start()  # the pool may have changed: looked at once typing pauses
        result = preview(
            draft,
            self._identity(),
            None if view is None else view.bids,
            None if view is None else view.balance.total,
            self.session.assumed_maker_fee,
            now,
        )
        # A rune is signed under its etched spelling: until ord confirmed the field's, the
        # message shown would not be the one signed, and its pool not the one counted.
        pending = draft.runes and self.form.rune_lookup()[0] is RuneLookup.PENDING
        refused = self._target_refused(draft)
        if pending or refused:
            result = replace(result, pools=(), maker_fee=None, message=None)
        if refused:
            result = replace(result, bid_count=None, total=None)
        self.last_preview = result
        self.form.show_errors(result.errors)
        set_message(self.general, "\n".join(result.errors.get(GENERAL, [])), "error")
        if pending and draft.target.strip():  # Place waits for ord: claim nothing it places
            self.count_label.setText(strings.BID_PREVIEW_RUNE_SPELLING_PENDING)
        elif result.bid_count is None:
            self.count_label.setText("")
        else:
            total = strings.SATS.format(sats=result.total or 0)
            self.count_label.setText(
                strings.counted(strings.BID_PREVIEW_COUNT, result.bid_count, total=total)
            )
        self.fee_rate_label.setText(fee_rate_text(draft.fee_rate, self.form.fee_rate.estimate()))
        self._show_pools(result)
        fee = result.maker_fee
        set_message(self.pools_note, "" if fee is None else maker_fee_note(fee), "hint")
        self.balance_hint.setText(self._balance_text(result.balance_known))
        text = self._message_text(result, pending, refused)
        if text != self.message.toPlainText():  # the same again keeps a selection and scroll
            self.message.setPlainText(text)
        placeable = result.placeable and not pending and not refused
        self.place_button.setEnabled(placeable and not self.placing)
        valid = not any(result.errors.values()) and result.bid_count is not None  # fits or not
        self.keep_button.setEnabled(valid and not pending and not refused)

    def _balance_text(self, known: bool) -> str:
        """Why the pools are not shown for want of a balance (each true at that moment)."""
        if known:
            return ""
        if self.state.error:  # the last reading failed: say why, not "not known yet"
            return strings.BID_PREVIEW_BALANCE_FAILED.format(reason=self.state.error)
        if self.state.busy:
            return strings.BID_PREVIEW_BALANCE_LOADING
        return strings.BID_PREVIEW_NO_BALANCE

    def _message_text(self, result: BidPreview, rune_pending: bool, refused: str | None) -> str:
        """The exact message, or why it cannot be shown yet (each true at that moment)."""
        if self.session.public_keys is None:
            locked = not self.context.wallet_lock.unlocked and not self.context.watch_only
            return strings.BID_PREVIEW_NO_KEYS if locked else strings.BID_PREVIEW_READING_KEYS
        if refused:
            return strings.BID_PREVIEW_NOTHING_TO_SIGN.format(reason=refused)
        if rune_pending and self.form.target():
            return strings.BID_PREVIEW_RUNE_PENDING
        return result.message or strings.BID_PREVIEW_INCOMPLETE

    def _form_edited(self) -> None:
        """The last placement's result is about the form as it was: gone once it changes."""
        if not self.placing:
            set_message(self.result, "")

    def _place_keys(self) -> None:
        """Ctrl+Return: place; when the form is not complete, every field says what it lacks."""
        if self.place_button.isEnabled():
            self.place_button.click()
        else:
            self.form.reveal_errors()

    def _show_pools(self, result: BidPreview) -> None:
        self.pools.setRowCount(len(result.pools))
        fits_texts = [strings.BID_PREVIEW_POOLS_HEADERS[FITS_COLUMN], strings.BID_PREVIEW_FITS]
        for row, line in enumerate(result.pools):
            fits = (
                strings.BID_PREVIEW_FITS
                if not line.shortfall
                else strings.BID_PREVIEW_SHORT.format(
                    short=strings.SATS.format(sats=line.shortfall)
                )
            )
            fits_texts.append(fits)
            cells = (
                line.pool,
                f"{line.committed:,}",
                f"{line.adding:,}",
                f"{line.available:,}",
                fits,
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(plain_tooltip(text))  # a slug may look like markup
                if column:
                    item.setTextAlignment(_RIGHT)
                if line.shortfall and column == len(cells) - 1:
                    item.setForeground(self.general.palette().color(self.general.foregroundRole()))
                self.pools.setItem(row, column, item)
        metrics = self.pools.fontMetrics()
        fits_width = max(two_line_width(metrics, text) for text in fits_texts)
        self.pools.horizontalHeader().resizeSection(FITS_COLUMN, fits_width + CELL_PADDING)
        balance = result.pools[0].available if result.pools else None
        set_message(
            self.pools_balance,
            ""
            if balance is None
            else strings.BID_PREVIEW_POOLS_BALANCE.format(
                balance=strings.SATS.format(sats=balance)
            ),
            "hint",
        )

    # -- placing ------------------------------------------------------------------------------

    @async_slot()
    async def place(self) -> None:
        if not self.place_button.isEnabled() or self.placing:
            return
        draft = self.form.draft(self.session.clock.now_ms())
        self.placing = True
        self.place_button.setEnabled(False)
        try:
            await self._place(draft)
        finally:
            self.placing = False
            self.state.request_refresh()
            self.update_preview()

    async def _place(self, draft: BidDraft) -> None:
        from app.services.bids import place_bid
        from app.services.errors import BidRejectedError, NetError, ServiceError

        spec = spec_of(draft)

        def waiting(ms: int) -> None:
            set_message(self.result, strings.BID_WAITING.format(seconds=ms / 1000), "hint")

        try:
            if self.context.watch_only:  # the keys are in another wallet: it signs the message
                set_message(self.result, strings.BID_PLACING, "hint")
                placed = await place_bid_signed_elsewhere(self, self.context, spec)
                # Closed: the user may have signed in the other wallet, but nothing was sent.
                text = strings.BID_ELSEWHERE_CLOSED if placed is None else outcome_text(placed)
                set_message(self.result, text, "hint" if placed is None else "ok")
                return
            await signing_context(self.context, self.controller)  # locked: unlock first
            who = self._identity()
            if who is None:
                raise NotReadyError(strings.UNLOCK_TO_SIGN_HINT)
            fee_rate = fee_rate_text(draft.fee_rate, self.form.fee_rate.estimate())
            now = self.session.clock.now_ms()
            market = self.market.typed.text()  # the rank the price gets, as last read
            if not await confirm_bid(self, self.context, draft, who, now, fee_rate, market):
                set_message(self.result, strings.BID_CONFIRM_CANCELLED, "hint")
                return
            set_message(self.result, strings.BID_PLACING, "hint")
            async with tracked(self.context, "bid.place", collection=spec.collection_slug) as rec:
                ctx = self.session.signing_context()
                ctx.sleeper = NotifyingSleeper(ctx.sleeper, waiting)
                outcome = await place_bid(ctx, spec)
                rec.message = outcome_text(outcome)
        except BidRejectedError as exc:  # a rule broken by the time it was signed: its words
            why = " ".join(user_message(v, draft.runes, draft.target) for v in exc.violations)
            set_message(self.result, strings.BID_NOT_PLACED.format(reason=why))
            return
        except (NotReadyError, ServiceError, NetError) as exc:
            set_message(self.result, strings.BID_NOT_PLACED.format(reason=failure_text(exc)))
            return
        set_message(self.result, outcome_text(outcome), "ok")
