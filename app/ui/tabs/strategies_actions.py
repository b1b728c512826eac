"""What the Strategies tab's buttons do: start and stop one strategy or all of them, delete a
stopped one, edit one or make a new one (the strategy editor, which approves it). Each waits
for the host (its file work runs off the GUI thread) and says how it went under the tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.dialogs.strategy_editor import edit_strategy
from app.ui.models.strategies_model import local_time, open_bids_text, open_entries
from app.ui.profile_session import NotReadyError, failure_text
from app.ui.tabs.strategies_stop import DeleteStrategyDialog, StopStrategyDialog

if TYPE_CHECKING:
    from app.services.strategy_host import StrategyHost, StrategyView
    from app.services.strategy_journal import JournalEntry
    from app.ui.context import AppContext
    from app.ui.controller import AppController
    from app.ui.state.strategy_state import StrategyState

BID_TAB = "bid"  # where a new strategy starts: the bid it keeps ("Keep this bid…")


class StrategyActions:
    """Mixed into the tab (a QWidget), which provides what is declared here."""

    context: AppContext
    controller: AppController
    state: StrategyState
    views: dict[str, StrategyView]
    selected: str | None
    message: QLabel
    lock_notice: QLabel
    start_button: QPushButton
    stop_button: QPushButton
    start_all_button: QPushButton
    stop_all_button: QPushButton
    delete_button: QPushButton
    edit_button: QPushButton
    journals: dict[str, list[JournalEntry]]  # per strategy, its journal at the last read
    _acting: bool

    def _say(self, text: str, role: str) -> None:
        raise NotImplementedError  # the tab's: the message under the tables

    async def _open_bids(self, ids: list[str]) -> tuple[int, str] | None:
        """The bids the strategies' journals hold open, and until when (None: not read)."""
        from app.services.errors import NetError, ServiceError

        host = self._host()
        if host is None:
            return None
        journals = dict(self.journals)
        try:
            for policy_id in ids:
                if policy_id not in journals:  # a running one not selected: not read yet
                    journals[policy_id] = await host.journal(policy_id)
        except (ServiceError, NetError):
            return None
        now_ms = host.ctx.clock.now_ms()
        entries = [e for i in ids for e in open_entries(journals[i], now_ms)]
        return open_bids_text(entries, now_ms)

    def _host(self) -> StrategyHost | None:
        raise NotImplementedError  # the tab's: the host, or None with the reason shown

    def _parent_widget(self) -> QWidget:
        assert isinstance(self, QWidget)
        return self

    def _selected_view(self) -> StrategyView | None:
        return self.views.get(self.selected or "")

    def _startable(self) -> list[str]:
        return [
            view.policy_id
            for view in self.views.values()
            if not view.running and view.policy is not None and view.config is not None
        ]

    def _buttons(self) -> tuple[QPushButton, ...]:
        return (self.edit_button, self.start_button, self.stop_button, self.start_all_button,
                self.stop_all_button, self.delete_button)  # fmt: skip

    def _enable(self) -> None:
        if self._acting:
            for button in self._buttons():
                button.setEnabled(False)
            return
        view = self._selected_view()
        startable = view is not None and view.policy_id in self._startable()
        self.start_button.setEnabled(startable)
        self.start_button.setToolTip(
            strings.STRATEGIES_START_NEEDS_APPROVAL
            if view is not None and view.policy is None
            else ""
        )
        # A stopped strategy still approved (the wallet locked) can be revoked, its bids taken back.
        self.stop_button.setEnabled(view is not None and (view.running or view.policy is not None))
        editable = view is not None and view.config is not None and not view.running
        self.edit_button.setEnabled(editable)
        self.edit_button.setToolTip(
            strings.STRATEGIES_EDIT_RUNNING if view is not None and view.running else ""
        )
        self.delete_button.setEnabled(view is not None and not view.running)
        self.delete_button.setToolTip(
            strings.STRATEGIES_DELETE_RUNNING if view is not None and view.running else ""
        )
        self.start_all_button.setEnabled(bool(self._startable()))
        self.stop_all_button.setEnabled(any(v.running for v in self.views.values()))

    @async_slot()
    async def start_selected(self) -> None:
        view = self._selected_view()
        if view is not None:
            await self._start([view.policy_id])

    @async_slot()
    async def start_all(self) -> None:
        ids = self._startable()
        if not ids:
            self._say(strings.STRATEGIES_NOTHING_TO_START, "hint")
            return
        await self._start(ids)

    async def _start(self, ids: list[str]) -> None:
        """Start each one (a failure does not keep the others from starting); one message
        for all of them."""
        from app.services.errors import NetError, ServiceError

        host = self._host()
        if host is None:
            return
        self._busy(True)
        started: list[str] = []
        failures: list[str] = []
        try:
            for policy_id in ids:
                self._say(strings.STRATEGIES_STARTING.format(strategy=policy_id), "hint")
                try:
                    await host.start(policy_id)
                except (ServiceError, NetError) as exc:
                    reason = failure_text(exc)
                    failures.append(strings.STRATEGIES_FAILED.format(strategy=policy_id,
                                                                     reason=reason))  # fmt: skip
                    continue
                started.append(policy_id)
        finally:
            self._busy(False)
        if started:
            self.lock_notice.setVisible(False)  # a lock's notice has served
        said = [strings.counted(strings.STRATEGIES_STARTED, len(started),
                                names=", ".join(started))] if started else []  # fmt: skip
        self._say(" ".join(said + failures), "error" if failures else "ok")

    @async_slot()
    async def stop_selected(self) -> None:
        view = self._selected_view()
        if view is None or not (view.running or view.policy is not None):
            return
        dialog = StopStrategyDialog(view.policy_id, parent=self._parent_widget(),
                                    open_bids=await self._open_bids([view.policy_id]))  # fmt: skip
        if not await self.controller.show_dialog(dialog) or dialog.choice is None:
            return
        await self._stop([view.policy_id], dialog.choice)

    @async_slot()
    async def stop_all(self) -> None:
        ids = [view.policy_id for view in self.views.values() if view.running]
        if not ids:
            self._say(strings.STRATEGIES_NONE_RUNNING, "hint")
            return
        dialog = StopStrategyDialog("", count=len(ids), parent=self._parent_widget(),
                                    open_bids=await self._open_bids(ids))  # fmt: skip
        if not await self.controller.show_dialog(dialog) or dialog.choice is None:
            return
        await self._stop(ids, dialog.choice)

    async def _stop(self, ids: list[str], cancel_bids: bool) -> None:
        """Stop each one (a failure does not keep the others running); one message for all:
        the bids cancelled, or those kept open and until when (the journal's, read after)."""
        from app.services.errors import NetError, ServiceError

        host = self._host()
        if host is None:
            return
        self._busy(True)
        stopped: list[str] = []
        failures: list[str] = []
        cancelled = 0
        kept: list[JournalEntry] = []
        try:
            for policy_id in ids:
                self._say(strings.STRATEGIES_STOPPING.format(strategy=policy_id), "hint")
                try:
                    cancelled += await host.stop(policy_id, cancel_bids=cancel_bids)
                    if not cancel_bids:
                        now_ms = host.ctx.clock.now_ms()
                        kept += open_entries(await host.journal(policy_id), now_ms)
                except (ServiceError, NetError) as exc:
                    reason = failure_text(exc)
                    failures.append(strings.STRATEGIES_FAILED.format(strategy=policy_id,
                                                                     reason=reason))  # fmt: skip
                    continue
                stopped.append(policy_id)
        finally:
            self._busy(False)
        said = [_stopped_text(stopped, cancel_bids, cancelled, kept, host.ctx.clock.now_ms())]
        self._say(" ".join([t for t in said if t] + failures), "error" if failures else "ok")

    @async_slot()
    async def delete_selected(self) -> None:
        from app.services.errors import NetError, ServiceError

        view = self._selected_view()
        host = self._host()
        if view is None or view.running or host is None:
            return
        open_bids = await self._open_bids([view.policy_id])
        dialog = DeleteStrategyDialog(view.policy_id, self._parent_widget(), open_bids)
        if not await self.controller.show_dialog(dialog):
            return
        self._busy(True)
        try:
            await host.delete(view.policy_id)
        except (ServiceError, NetError) as exc:
            reason = failure_text(exc)
            text = strings.STRATEGIES_FAILED.format(strategy=view.policy_id, reason=reason)
            self._say(text, "error")
            return
        finally:
            self._busy(False)
        self._say(strings.STRATEGIES_DELETED.format(strategy=view.policy_id), "ok")

    def _busy(self, busy: bool) -> None:
        """While a start, stop or delete runs, no other one starts (each waits for engines)."""
        self._acting = busy
        self._enable()

    @async_slot()
    async def edit_selected(self) -> None:
        view = self._selected_view()
        if view is None or view.config is None or view.running:
            return
        try:
            approved = await edit_strategy(
                self.context, self._parent_widget(), existing=view.config
            )
        except NotReadyError as exc:
            self._say(exc.user_message, "error")
            return
        if approved is not None:
            await self._say_approved(approved)

    async def _say_approved(self, policy_id: str) -> None:
        """Saved and approved: until when, and that Start runs it (the policy read again)."""
        from app.services.errors import NetError, ServiceError

        host = self._host()
        text = strings.STRATEGIES_SAVED.format(strategy=policy_id)
        if host is not None:
            try:
                views = await host.views()
            except (ServiceError, NetError):
                views = []
            policy = next((v.policy for v in views if v.policy_id == policy_id), None)
            if policy is not None:
                until = local_time(policy.valid_until_ms)
                text = strings.STRATEGIES_APPROVED.format(strategy=policy_id, until=until)
        self._say(text, "ok")

    def new_strategy(self) -> None:
        """A strategy starts from the bid it keeps: the Bid tab's "Keep this bid…"."""
        show_tab = getattr(self._parent_widget().window(), "show_tab", None)
        if callable(show_tab):
            show_tab(BID_TAB)
        self.context.info(strings.STRATEGIES_NEW_HINT)


def _stopped_text(
    stopped: list[str], cancel_bids: bool, cancelled: int, kept: list[JournalEntry], now_ms: int
) -> str:
    if not stopped:
        return ""
    if cancel_bids and len(stopped) == 1:
        return strings.counted(strings.STRATEGIES_STOPPED_CANCELLED, cancelled,
                               strategy=stopped[0])  # fmt: skip
    if len(stopped) == 1:
        text = strings.STRATEGIES_STOPPED.format(strategy=stopped[0])
    else:
        text = strings.counted(strings.STRATEGIES_STOPPED_ALL, len(stopped),
                               names=", ".join(stopped))  # fmt: skip
    if cancel_bids:
        return f"{text} {strings.counted(strings.STRATEGIES_BIDS_CANCELLED, cancelled)}"
    count, until = open_bids_text(kept, now_ms)
    if not count:
        return text
    return f"{text} {strings.counted(strings.STRATEGIES_BIDS_KEPT, count, until=until)}"
