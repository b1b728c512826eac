"""The one way a PSBT flow runs in the window: unlock, review, confirm, consent, sign, submit.

    steps = FlowSteps(
        title=strings.WITHDRAW_TITLE, action=strings.WITHDRAW_ACTION,
        prepare=lambda ctx, run: prepare_withdraw(ctx, amount),
        plans=lambda plan: [plan.psbt],
        accept_fee=lambda plan: replace(plan, psbt=accept_fee(plan.psbt)),
        execute=lambda ctx, plan, run: execute_withdraw(ctx, plan),
        review_activity="withdraw.prepare",
    )
    done = await PsbtFlowRunner(tab, context, controller, show).run(steps)  # None: not done

One lock policy: a flow that signs asks for the password BEFORE the review, never after the
user confirmed; a lock while the dialog is open closes it (nothing signed), and a lock while
signing stops it between items. One place shows refusals (the review dialog, with no Sign
button), one place says what happened where the user acted (`show(text, role)`), one
cancel/progress behaviour (`FlowRun`). A fee outside the user's bounds is signed only after
they ticked the box in the dialog: then `accept_fee` re-decides the very PSBT with that consent.
One rule for the Activity log: a review is no action of its own. Under `review_activity` the
runner records only a review that did not lead to the action: "Cancelled at the review" (nothing
signed or sent), or why it could not be reviewed (refused, failed); a confirmed review is
recorded by `execute`, as the action it led to.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from app.services.activity import REVIEW_CANCELLED
from app.ui import strings
from app.ui.async_tools import run_blocking
from app.ui.dialogs.psbt_review_flow import (
    confirm,
    public_context,
    show_refusal,
    signing_context,
    still_unlocked,
)
from app.ui.profile_session import failure_text

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from app.services.context import CancelToken
    from app.ui.context import AppContext
    from app.ui.controller import AppController
    from app.ui.models.review_model import ReviewedPsbt
    from app.ui.widgets.progress_panel import ProgressPanel

PlanT = TypeVar("PlanT")
ResultT = TypeVar("ResultT")
Show = Callable[[str, str], None]  # (text, role: "hint", "ok" or "error")


class FlowRun:
    """Progress and cancel of one run, on the tab's progress panel when it has one."""

    def __init__(self, panel: ProgressPanel | None) -> None:
        self._panel = panel

    def begin(self, text: str, total: int) -> CancelToken | None:
        return None if self._panel is None else self._panel.begin(text, total)

    def progress(self, done: int, total: int) -> None:
        if self._panel is not None:
            self._panel.progress(done, total)

    def cancel(self) -> None:
        if self._panel is not None:
            self._panel.cancel()

    def end(self) -> None:
        if self._panel is not None:
            self._panel.end()


@dataclass(frozen=True)
class FlowSteps(Generic[PlanT, ResultT]):
    """What one flow does at each step; the runner does the rest, the same for all.

    `prepare` requests and reviews (a refusal raises `PolicyRefusedError`); `plans` are what the
    dialog draws; `accept_fee` re-decides a plan once the user accepted its fee; `execute` signs
    and submits (or writes files). Both get what `open` gives, by default the connection's
    `ServiceContext` (asked again before `execute`: a lock meanwhile stops it); `signs`: that
    context holds the keys, so the wallet is unlocked first. The offline signer opens its keys.
    `signed_in_other_wallet`: a watch-only profile exports it, and the review says so.
    `notes` and `warnings`: what the flow adds above the review, plainly or as a warning (a
    service that did not build what was asked). `review_activity`: the Activity action under
    which a review that ended the flow is recorded (`prepare` records nothing itself)."""

    title: str
    action: str | Callable[[PlanT], str]  # the dialog's button; from the plan when it counts it
    prepare: Callable[[Any, FlowRun], Awaitable[PlanT]]
    plans: Callable[[PlanT], Sequence[ReviewedPsbt]]
    execute: Callable[[Any, PlanT, FlowRun], Awaitable[ResultT]]
    notes: Callable[[PlanT], Sequence[str]] = lambda _plan: ()
    warnings: Callable[[PlanT], Sequence[str]] = lambda _plan: ()
    accept_fee: Callable[[PlanT], PlanT] | None = None
    signs: bool = True
    signed_in_other_wallet: bool = False
    open: Callable[[], Awaitable[Any]] | None = None
    failed: Callable[[BaseException], str] = failure_text
    working: str = strings.FLOW_SIGNING
    review_activity: str | None = None


class PsbtFlowRunner:
    def __init__(
        self,
        parent: QWidget,
        context: AppContext,
        controller: AppController | None,
        show: Show,
        progress: ProgressPanel | None = None,
    ) -> None:
        self._parent = parent
        self._context = context
        self._controller = controller
        self._show = show
        self._run = FlowRun(progress)

    async def run(self, steps: FlowSteps[PlanT, ResultT]) -> ResultT | None:
        """Run `steps`; the result, or None when refused, cancelled or failed (said via show)."""
        from app.services.errors import PolicyRefusedError

        try:
            ctx = await self._open(steps, first=True)
            self._show(strings.FLOW_REVIEWING, "hint")
            plan = await steps.prepare(ctx, self._run)
        except PolicyRefusedError as exc:
            self._run.end()
            self._review_ended(steps, exc)
            self._show(strings.FLOW_REFUSED, "error")
            await show_refusal(self._parent, self._context, exc, title=steps.title)
            return None
        except Exception as exc:
            self._run.end()
            self._review_ended(steps, exc)
            self._show(steps.failed(exc), "error")
            return None
        self._run.end()
        plans = list(steps.plans(plan))
        action = steps.action(plan) if callable(steps.action) else steps.action
        if not await confirm(
            self._parent,
            self._context,
            plans,
            title=steps.title,
            action=action,
            notes=list(steps.notes(plan)),
            warnings=list(steps.warnings(plan)),
            signed_here=not steps.signed_in_other_wallet,
        ):
            self._review_ended(steps, None)
            self._show(strings.FLOW_CANCELLED, "hint")
            return None
        self._show(steps.working, "hint")
        return await self._execute(steps, plan, plans)

    def _review_ended(self, steps: FlowSteps[Any, Any], error: BaseException | None) -> None:
        """The Activity line of a review that did not lead to the action (None: cancelled)."""
        log = self._context.activity
        if steps.review_activity is None or log is None:
            return
        if error is None:
            log.record(
                steps.review_activity,
                ok=True,
                message=strings.FLOW_REVIEW_CANCELLED,
                details={REVIEW_CANCELLED: True},  # Activity's Result says "Cancelled", not "OK"
            )
        else:
            log.record_error(steps.review_activity, error)

    async def _open(self, steps: FlowSteps[Any, Any], first: bool) -> Any:
        """The flow's context: before the review (unlocking first when it signs), and again
        before `execute` (never unlocking then: a lock since the review stops the flow)."""
        if steps.open is not None:
            return await steps.open()
        if not steps.signs:
            return await public_context(self._context)
        if first and self._controller is not None:
            return await signing_context(self._context, self._controller)
        return still_unlocked(self._context)

    async def _execute(
        self, steps: FlowSteps[PlanT, ResultT], plan: PlanT, plans: Sequence[Any]
    ) -> ResultT | None:
        def locked(unlocked: bool) -> None:
            if not unlocked:  # a lock stops the signing between items, like Cancel
                self._run.cancel()

        self._context.lock_changed.connect(locked)
        try:
            ctx = await self._open(steps, first=False)
            if steps.accept_fee is not None and any(p.verdict.needs_fee_consent for p in plans):
                plan = await run_blocking(steps.accept_fee, plan)  # the user ticked the box
            return await steps.execute(ctx, plan, self._run)
        except Exception as exc:
            self._show(steps.failed(exc), "error")
            return None
        finally:
            self._context.lock_changed.disconnect(locked)
            self._run.end()
