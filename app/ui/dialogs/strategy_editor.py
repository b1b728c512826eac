"""The strategy editor (issue 17): a strategy made from the Bid tab's "Keep this bid…", or one
from the Strategies tab edited, then approved.

Two steps in one dialog. Editing: the fields (`strategy_editor_form`) on the left; on the right
what the strategy would do now and why (`StrategyHost.dry_run`: the market read, nothing signed,
nothing written), refreshed on demand. Approving: the policy that will be sealed, in plain words
(`StrategyHost.policy_for`, the very policy `approve` draws up): each pool and its cap, the
maximum exposure, its end, and that it signs bid messages only. "Approve and start", "Approve"
or Cancel; a refusal is shown in the dialog and every field keeps what the user typed.

    approved_id = await edit_strategy(context, parent, draft=config)   # None: cancelled
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QDateTime, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.strategy_approval import HOUR_MS
from app.core.strategy_policy import PoolKind, StrategyPolicy, StrategyPolicyError
from app.core.strategy_rules import InvalidStrategy
from app.core.strategy_targets import sats
from app.ui import strings
from app.ui.async_tools import async_slot, exec_dialog
from app.ui.dialogs.strategy_editor_form import StrategyFields, suggested_name, validity_text
from app.ui.dialogs.strategy_pool_editor import core_message, pool_name
from app.ui.profile_session import NotReadyError, failure_text
from app.ui.state.strategy_state import StrategyState
from app.ui.widgets import make_default, message_label, set_message

if TYPE_CHECKING:
    from app.services.strategy_engine import StrategyConfig
    from app.services.strategy_host import StrategyHost
    from app.ui.context import AppContext

DIALOG_SIZE = (960, 640)  # within a 1024x700 screen, its title bar included
FORM_STRETCH, PREVIEW_STRETCH = 3, 2
EDIT_PAGE, APPROVE_PAGE = 0, 1


def approval_text(
    policy: StrategyPolicy, config: StrategyConfig, until: str, hours: str, lock_minutes: int
) -> str:
    """The policy in plain words, as the user approves it; `lock_minutes`: the profile's idle
    lock, which stops it."""
    lines = [strings.APPROVAL_INTRO.format(until=until, hours=hours)]
    runes = {p.pool: p.is_rune for p in config.pools}
    for allowed in policy.pools:
        rune = allowed.kind is PoolKind.RUNES
        template = strings.APPROVAL_POOL_UNIT if rune else strings.APPROVAL_POOL_ITEM
        name = pool_name(allowed.pool, runes.get(allowed.pool, rune))
        lines.append(template.format(pool=name, cap=sats(allowed.max_price)))
    lines += [
        "",
        strings.APPROVAL_EXPOSURE.format(total=sats(policy.max_exposure)),
        strings.counted(strings.APPROVAL_MAX_BIDS, config.limits.max_active_bids),
        strings.APPROVAL_BIDDER.format(
            payment=policy.bidder.payment_address, receive=policy.bidder.receive_address
        ),
        "",
        strings.APPROVAL_ONLY_MESSAGES,
        "",
        strings.APPROVAL_RUNS_WHILE_OPEN.format(
            minutes=strings.counted(strings.EDITOR_SPAN_MINUTES, lock_minutes)
        ),
    ]
    return "\n".join(lines)


class StrategyEditor(QDialog):
    def __init__(
        self,
        host: StrategyHost,
        start: StrategyConfig,
        *,
        new: bool,
        lock_minutes: int,
        taken: Collection[str],
        rune_units: int | None = None,
        bid_tab_expiry_ms: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.host = host
        self.new = new
        self.lock_minutes = lock_minutes
        self.approved_id: str | None = None
        self.config: StrategyConfig | None = None  # what the approval step shows
        self.busy = False
        self._edits = 0  # edits of the fields (a preview read across one is stale)
        self.setWindowTitle(
            strings.EDITOR_TITLE_NEW
            if new
            else strings.EDITOR_TITLE_EDIT.format(name=start.policy_id)
        )
        self.fields = StrategyFields(
            start, new=new, taken=taken, rune_units=rune_units, bid_tab_expiry_ms=bid_tab_expiry_ms
        )
        self.fields.changed.connect(self._edited)

        self.form_scroll = scroll = QScrollArea()
        scroll.setWidget(self.fields)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.TypeWriter)
        self.preview = QPlainTextEdit(strings.EDITOR_PREVIEW_EMPTY)
        self.preview.setReadOnly(True)
        self.preview.setFont(mono)
        self.preview.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.preview_button = QPushButton(strings.EDITOR_PREVIEW_BUTTON)
        self.preview_button.clicked.connect(self.refresh_preview)
        self.preview_status = message_label("hint")
        self.preview_status.setText(strings.EDITOR_PREVIEW_NOTHING_SIGNED)
        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel(strings.EDITOR_PREVIEW)
        title.setProperty("role", "title")
        side_layout.addWidget(title)
        side_layout.addWidget(self.preview, 1)
        # Three lines kept for the status, the button at the top: a longer message never moves
        # the button under the cursor.
        self.preview_status.setMinimumHeight(self.preview_status.fontMetrics().lineSpacing() * 3)
        self.preview_status.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        status_row = QHBoxLayout()
        status_row.addWidget(self.preview_button, 0, Qt.AlignmentFlag.AlignTop)
        status_row.addWidget(self.preview_status, 1)
        side_layout.addLayout(status_row)
        for column in (scroll, side):  # the split is the stretch factors' alone
            policy = column.sizePolicy()
            policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
            column.setSizePolicy(policy)

        self.running_note = message_label("error")  # approving it is refused while it runs
        running = host.is_running(start.policy_id) and not new
        set_message(self.running_note, strings.EDITOR_RUNNING if running else "")
        self.edit_error = message_label("error")
        self.edit_error.setVisible(False)
        self.next_button = QPushButton(strings.EDITOR_NEXT)
        self.next_button.clicked.connect(self.review)
        self.cancel_button = QPushButton(strings.EDITOR_CANCEL)
        self.cancel_button.clicked.connect(self.reject)
        edit_page = QWidget()
        edit_layout = QVBoxLayout(edit_page)
        edit_layout.setContentsMargins(0, 0, 0, 0)
        explained = message_label("hint")
        explained.setText(strings.EDITOR_INTRO)
        edit_layout.addWidget(explained)
        edit_layout.addWidget(self.running_note)
        columns = QHBoxLayout()
        columns.addWidget(scroll, FORM_STRETCH)
        columns.addWidget(side, PREVIEW_STRETCH)
        edit_layout.addLayout(columns, 1)
        # The error shares the buttons' row: it appearing never shifts the columns above.
        edit_buttons = QHBoxLayout()
        edit_buttons.addWidget(self.edit_error, 1)
        edit_buttons.addStretch(0)
        edit_buttons.addWidget(self.cancel_button)
        edit_buttons.addWidget(self.next_button)
        edit_layout.addLayout(edit_buttons)

        self.approval_title = QLabel()
        self.approval_title.setProperty("role", "title")
        self.approval_title.setWordWrap(True)
        self.approval = QPlainTextEdit()
        self.approval.setReadOnly(True)
        self.approval_status = message_label("hint")
        self.approval_status.setVisible(False)
        self.back_button = QPushButton(strings.EDITOR_BACK)
        self.back_button.clicked.connect(self._show_edit_page)
        self.cancel_approval_button = QPushButton(strings.EDITOR_CANCEL)
        self.cancel_approval_button.clicked.connect(self.reject)
        self.approve_button = QPushButton(strings.EDITOR_APPROVE)
        self.approve_button.clicked.connect(lambda: self.approve(False))
        self.approve_start_button = QPushButton(strings.EDITOR_APPROVE_START)
        self.approve_start_button.clicked.connect(lambda: self.approve(True))
        approve_page = QWidget()
        approve_layout = QVBoxLayout(approve_page)
        approve_layout.setContentsMargins(0, 0, 0, 0)
        approve_layout.addWidget(self.approval_title)
        approve_layout.addWidget(self.approval, 1)
        approve_layout.addWidget(self.approval_status)
        approve_buttons = QHBoxLayout()
        approve_buttons.addWidget(self.back_button)
        approve_buttons.addStretch(1)
        for button in (
            self.cancel_approval_button,
            self.approve_button,
            self.approve_start_button,
        ):
            approve_buttons.addWidget(button)
        approve_layout.addLayout(approve_buttons)

        self.pages = QStackedWidget()
        self.pages.addWidget(edit_page)
        self.pages.addWidget(approve_page)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages)
        self._show_edit_page()
        self.resize(*DIALOG_SIZE)

    # -- editing ---------------------------------------------------------------------------

    def _edited(self) -> None:
        self._edits += 1
        if self.preview.toPlainText() != strings.EDITOR_PREVIEW_EMPTY and not self.busy:
            set_message(self.preview_status, strings.EDITOR_PREVIEW_STALE, "hint")
        if self.edit_error.text() == strings.EDITOR_FIX_FIRST:  # fields marked: re-checked
            self._fields_checked(self.fields.read())

    def _fields_checked(self, config: StrategyConfig | None) -> None:
        """After `fields.read()`: "fix the fields" while any is marked, else no such line;
        the first field marked is scrolled into view."""
        if config is not None:
            if self.edit_error.text() == strings.EDITOR_FIX_FIRST:
                set_message(self.edit_error, "")
            return
        set_message(self.edit_error, strings.EDITOR_FIX_FIRST)
        marked = self.fields.first_error()
        if marked is not None:
            self.form_scroll.ensureWidgetVisible(marked)

    @async_slot()
    async def refresh_preview(self) -> None:
        """What the strategy as typed would do now, and why; nothing signed."""
        from app.services.errors import NetError, ServiceError

        config = self.fields.read()
        self._fields_checked(config)
        if config is None:
            set_message(self.preview_status, strings.EDITOR_FIX_FIRST, "error")
            return
        self.busy = True
        self.preview_button.setEnabled(False)
        set_message(self.preview_status, strings.EDITOR_PREVIEW_READING, "hint")
        edits = self._edits
        try:
            text = await self.host.dry_run(config)
        except (NotReadyError, ServiceError, NetError, InvalidStrategy, StrategyPolicyError) as exc:
            set_message(self.preview_status, strings.EDITOR_PREVIEW_FAILED.format(reason=_why(exc)))
            return
        finally:
            self.busy = False
            self.preview_button.setEnabled(True)
        self.preview.setPlainText(text)
        # Edited while the market was read: the preview is of the fields as they were.
        stale = self._edits != edits
        said = strings.EDITOR_PREVIEW_STALE if stale else strings.EDITOR_PREVIEW_NOTHING_SIGNED
        set_message(self.preview_status, said, "hint")

    def review(self) -> None:
        """To the approval step: the policy exactly as it will be sealed."""
        from app.services.errors import ServiceError

        config = self.fields.read()
        self._fields_checked(config)
        if config is None:
            return
        try:
            policy = self.host.policy_for(config, self.fields.valid_for_ms())
        except (NotReadyError, ServiceError, InvalidStrategy, StrategyPolicyError) as exc:
            set_message(self.edit_error, strings.EDITOR_NOT_APPROVED.format(reason=_why(exc)))
            return
        set_message(self.edit_error, "")
        self.config = config
        wall_until = QDateTime.currentMSecsSinceEpoch() + (
            policy.valid_until_ms - self.host.ctx.clock.now_ms()
        )
        until = QDateTime.fromMSecsSinceEpoch(wall_until).toString("yyyy-MM-dd HH:mm")
        self.approval_title.setText(strings.APPROVAL_TITLE.format(name=config.policy_id))
        hours = validity_text(self.fields.valid_for_ms() // HOUR_MS)
        text = approval_text(policy, config, until, hours, self.lock_minutes)
        if not self.new:
            text += "\n" + strings.APPROVAL_REPLACES
        self.approval.setPlainText(text)
        set_message(self.approval_status, "")
        self.pages.setCurrentIndex(APPROVE_PAGE)
        # Enter cancels: approving a signing authority takes a click on what is approved.
        make_default(
            self.cancel_approval_button,
            self.back_button,
            self.approve_start_button,
            self.approve_button,
            self.next_button,
            self.cancel_button,
            self.preview_button,
        )

    def _show_edit_page(self) -> None:
        """The fields, Next the default (where the editor opens and Back returns)."""
        self.pages.setCurrentIndex(EDIT_PAGE)
        make_default(
            self.next_button,
            self.cancel_button,
            self.preview_button,
            self.back_button,
            self.cancel_approval_button,
            self.approve_button,
            self.approve_start_button,
        )

    # -- approving -------------------------------------------------------------------------

    @async_slot()
    async def approve(self, start: bool) -> None:
        """Seal the policy (and write the strategy's file), then start it when asked. A
        refusal is said here; the dialog stays open with everything as typed."""
        from app.services.errors import NetError, ServiceError

        config = self.config
        if config is None or self.busy:
            return
        self._set_busy(True)
        set_message(self.approval_status, strings.EDITOR_APPROVING, "hint")
        try:
            await self.host.approve(config, self.fields.valid_for_ms())
        except (NotReadyError, ServiceError, InvalidStrategy, StrategyPolicyError) as exc:
            set_message(self.approval_status, strings.EDITOR_NOT_APPROVED.format(reason=_why(exc)))
            self._set_busy(False)
            return
        self.approved_id = config.policy_id
        if start:
            try:
                await self.host.start(config.policy_id)
            except (NotReadyError, ServiceError, NetError) as exc:
                reason = _why(exc)
                text = strings.EDITOR_APPROVED_NOT_STARTED.format(reason=reason)
                set_message(self.approval_status, text)
                self._set_busy(False)
                for button in (self.approve_button, self.approve_start_button, self.back_button):
                    button.setEnabled(False)  # approved: closing keeps it
                return
        self._set_busy(False)
        self.accept()

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        for button in (
            self.approve_button,
            self.approve_start_button,
            self.back_button,
            self.cancel_approval_button,
        ):
            button.setEnabled(not busy)


def _why(exc: BaseException) -> str:
    if isinstance(exc, InvalidStrategy | StrategyPolicyError):
        return core_message(exc)
    return failure_text(exc)


async def edit_strategy(
    context: AppContext,
    parent: QWidget,
    *,
    existing: StrategyConfig | None = None,
    draft: StrategyConfig | None = None,
    rune_units: int | None = None,
    bid_tab_expiry_ms: int | None = None,
) -> str | None:
    """Edit `existing` (its name kept) or a new strategy from `draft`, then approve it: the
    approved strategy's id, or None when cancelled. `rune_units`: the units a rune pool's
    prices are typed for (the Bid tab's); `bid_tab_expiry_ms`: how long the Bid tab's bid
    would have lasted (a strategy's bids are short and renewed instead). `NotReadyError`
    (its message says what to do) while the wallet cannot sign (locked, watch-only, not
    connected)."""
    start = existing or draft
    if start is None:
        raise ValueError("edit_strategy needs an existing strategy or a draft")
    host = StrategyState.of(context).host()
    taken = {view.policy_id for view in await host.views()}
    if existing is None and (not start.policy_id or start.policy_id in taken):
        start = replace(start, policy_id=suggested_name(start.pools[0].pool, taken))
    lock_minutes = max(1, round(context.wallet_lock.timeout_s / 60))  # the profile's setting
    dialog = StrategyEditor(
        host,
        start,
        new=existing is None,
        taken=taken,
        rune_units=rune_units,
        bid_tab_expiry_ms=bid_tab_expiry_ms,
        lock_minutes=lock_minutes,
        parent=parent,
    )
    context.dialog_opened.emit(dialog)
    await exec_dialog(dialog)
    dialog.deleteLater()
    return dialog.approved_id
