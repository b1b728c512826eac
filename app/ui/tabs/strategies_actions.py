"""What the Strategies tab's buttons do: start and stop one strategy or all of them, delete a
stopped one, edit one or make a new one (the strategy editor, which approves it). Each waits
for the host (its file work runs off the GUI thread) and says how it went under the tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.dialogs.strategy_editor import edit_strategy
from app.ui.profile_session import NotReadyError, failure_text
from app.ui.tabs.strategies_stop import DeleteStrategyDialog, StopStrategyDialog
from app.ui.widgets import set_message

if TYPE_CHECKING:
    from app.services.strategy_host import StrategyHost, StrategyView
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
    start_button: QPushButton
    stop_button: QPushButton
    start_all_button: QPushButton
    stop_all_button: QPushButton
    delete_button: QPushButton
    edit_button: QPushButton
    _acting: bool

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
            set_message(self.message, strings.STRATEGIES_NOTHING_TO_START, "hint")
            return
        await self._start(ids)

    async def _start(self, ids: list[str]) -> None:
        from app.services.errors import NetError, ServiceError

        host = self._host()
        if host is None:
            return
        self._busy(True)
        try:
            for policy_id in ids:
                text = strings.STRATEGIES_STARTING.format(strategy=policy_id)
                set_message(self.message, text, "hint")
                try:
                    await host.start(policy_id)
                except (ServiceError, NetError) as exc:
                    reason = failure_text(exc)
                    text = strings.STRATEGIES_FAILED.format(strategy=policy_id, reason=reason)
                    set_message(self.message, text, "error")
                    return
            set_message(self.message, strings.STRATEGIES_STARTED.format(strategy=", ".join(ids)),
                        "ok")  # fmt: skip
        finally:
            self._busy(False)

    @async_slot()
    async def stop_selected(self) -> None:
        view = self._selected_view()
        if view is None or not (view.running or view.policy is not None):
            return
        dialog = StopStrategyDialog(view.policy_id, parent=self._parent_widget())
        if not await self.controller.show_dialog(dialog) or dialog.choice is None:
            return
        await self._stop([view.policy_id], dialog.choice)

    @async_slot()
    async def stop_all(self) -> None:
        ids = [view.policy_id for view in self.views.values() if view.running]
        if not ids:
            set_message(self.message, strings.STRATEGIES_NONE_RUNNING, "hint")
            return
        dialog = StopStrategyDialog("", count=len(ids), parent=self._parent_widget())
        if not await self.controller.show_dialog(dialog) or dialog.choice is None:
            return
        await self._stop(ids, dialog.choice)

    async def _stop(self, ids: list[str], cancel_bids: bool) -> None:
        from app.services.errors import NetError, ServiceError

        host = self._host()
        if host is None:
            return
        self._busy(True)
        try:
            for policy_id in ids:
                set_message(self.message, strings.STRATEGIES_STOPPING.format(strategy=policy_id),
                            "hint")  # fmt: skip
                try:
                    cancelled = await host.stop(policy_id, cancel_bids=cancel_bids)
                except (ServiceError, NetError) as exc:
                    reason = failure_text(exc)
                    text = strings.STRATEGIES_FAILED.format(strategy=policy_id, reason=reason)
                    set_message(self.message, text, "error")
                    return
                if cancel_bids:
                    text = strings.counted(strings.STRATEGIES_STOPPED_CANCELLED, cancelled,
                                           strategy=policy_id)  # fmt: skip
                else:
                    text = strings.STRATEGIES_STOPPED.format(strategy=policy_id)
                set_message(self.message, text, "ok")
        finally:
            self._busy(False)

    @async_slot()
    async def delete_selected(self) -> None:
        from app.services.errors import NetError, ServiceError

        view = self._selected_view()
        host = self._host()
        if view is None or view.running or host is None:
            return
        dialog = DeleteStrategyDialog(view.policy_id, self._parent_widget())
        if not await self.controller.show_dialog(dialog):
            return
        self._busy(True)
        try:
            await host.delete(view.policy_id)
        except (ServiceError, NetError) as exc:
            reason = failure_text(exc)
            text = strings.STRATEGIES_FAILED.format(strategy=view.policy_id, reason=reason)
            set_message(self.message, text, "error")
            return
        finally:
            self._busy(False)
        set_message(self.message, strings.STRATEGIES_DELETED.format(strategy=view.policy_id), "ok")

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
            set_message(self.message, exc.user_message, "error")
            return
        if approved is not None:
            set_message(self.message, strings.STRATEGIES_SAVED.format(strategy=approved), "ok")

    def new_strategy(self) -> None:
        """A strategy starts from the bid it keeps: the Bid tab's "Keep this bid…"."""
        show_tab = getattr(self._parent_widget().window(), "show_tab", None)
        if callable(show_tab):
            show_tab(BID_TAB)
        self.context.info(strings.STRATEGIES_NEW_HINT)
