"""The Activity log of a reviewed PSBT flow, one rule for every flow (the runner's): a review
is no action of its own. Cancelled at the review, it reads "Review a withdrawal · Cancelled at
the review: nothing was signed or sent" (it read "Prepare a withdrawal · OK", as if a
withdrawal happened); a review that could not be made is an error; a confirmed review leaves
only the action it led to. The withdraw, fund, inscription-bid and listings flows pass their
review's name (their `prepare` records nothing itself)."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.services.activity import ActivityLog
from app.ui import psbt_flow_runner, strings
from app.ui.models.activity_model import COL_RESULT, ActivityTableModel
from app.ui.psbt_flow_runner import FlowRun, FlowSteps, PsbtFlowRunner
from app.ui.qa.loop import run_async
from app.ui.tabs import inscription_bid_tab, listings_flow, wallet_fund, withdraw_tab


def _steps(prepare_fails: bool = False) -> FlowSteps[str, str | None]:
    async def prepare(_ctx: object, _run: FlowRun) -> str:
        if prepare_fails:
            raise RuntimeError("the service did not answer")
        return "plan"

    async def execute(_ctx: object, _plan: str, _run: FlowRun) -> str | None:
        return "done"

    async def opened() -> object:
        return object()

    return FlowSteps(
        title="Withdraw",
        action="Sign",
        prepare=prepare,
        plans=lambda _plan: [],
        execute=execute,
        open=opened,
        failed=str,
        review_activity="withdraw.prepare",
    )


def _run(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    *,
    confirmed: bool,
    prepare_fails: bool = False,
) -> tuple[ActivityLog, list[str], str | None]:
    async def confirm(*_args: Any, **_kwargs: Any) -> bool:  # the dialog's answer
        return confirmed

    monkeypatch.setattr(psbt_flow_runner, "confirm", confirm)
    log = ActivityLog(tmp_path / "activity.jsonl")
    context: Any = SimpleNamespace(activity=log, lock_changed=SimpleNamespace(
        connect=lambda _slot: None, disconnect=lambda _slot: None))  # fmt: skip
    parent = QWidget()
    qtbot.addWidget(parent)
    shown: list[str] = []
    runner = PsbtFlowRunner(parent, context, None, lambda text, _role: shown.append(text))
    done = run_async(qloop, runner.run(_steps(prepare_fails)))
    return log, shown, done


def test_a_review_cancelled_says_so_in_the_users_words(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    log, shown, done = _run(qtbot, qloop, monkeypatch, tmp_path, confirmed=False)
    assert done is None and shown[-1] == strings.FLOW_CANCELLED
    (entry,) = log.entries()
    assert entry.action == "withdraw.prepare"
    assert strings.ACTIVITY_ACTIONS[entry.action] == "Review a withdrawal"
    assert entry.message == "Cancelled at the review: nothing was signed or sent."
    # Its Result column says "Cancelled", not "OK" (nor "Error": nothing failed), after a
    # restart too (the log is read back from its file).
    model = ActivityTableModel(ActivityLog(tmp_path / "activity.jsonl").entries())
    result = model.index(0, COL_RESULT).data()
    assert result == strings.ACTIVITY_CANCELLED


def test_a_confirmed_review_is_no_action_of_its_own(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    log, _shown, done = _run(qtbot, qloop, monkeypatch, tmp_path, confirmed=True)
    assert done == "done" and log.entries() == []  # `execute` records the action itself


def test_a_review_that_could_not_be_made_is_an_error(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    log, shown, _done = _run(
        qtbot, qloop, monkeypatch, tmp_path, confirmed=True, prepare_fails=True
    )
    (entry,) = log.entries()
    assert entry.action == "withdraw.prepare" and not entry.ok
    assert shown[-1] == "the service did not answer"


@pytest.mark.parametrize(
    ("module", "action"),
    [
        (withdraw_tab, "withdraw.prepare"),
        (wallet_fund, "fund.prepare"),
        (inscription_bid_tab, "inscription_bid.prepare"),
        (listings_flow, "listings.prepare"),
    ],
)
def test_every_reviewed_flow_leaves_its_review_to_the_runner(module: object, action: str) -> None:
    source = inspect.getsource(module)  # type: ignore[arg-type]
    assert f'review_activity="{action}"' in source
    assert f'"{action}",' not in source.replace(f'review_activity="{action}"', "")
