"""A marketplace's tampered PSBT is refused in the review dialog: the sandbox serves the
withdrawal with its payment output redirected to a key it holds (the fault catalogue's
`redirect-payment`, docs/sandbox-faults.md). The dialog says why, naming the output and the
address it pays, has no Sign button, and nothing is signed or sent (the sandbox's request
journal has no withdrawal submitted)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from pytestqt.qtbot import QtBot

from app.services import psbt_flow
from app.services.bidding_wallet import get_bidding_wallet
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.profile_session import profile_session
from app.ui.qa.actions import click, type_into, wait_dialog
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.profiles import open_funded_app
from app.ui.qa.sandbox import Sandbox
from app.ui.qa.sandbox_faults import SandboxFaults
from app.ui.tabs.withdraw_tab import WithdrawTab

AMOUNT = 100_000
TAMPER = "redirect-payment"
THIEF = "fault-tamper"  # the sandbox-held key a redirected output pays


@pytest.fixture
def signatures(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every call of the PSBT signer."""
    calls: list[object] = []
    real = psbt_flow.sign_psbt

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(psbt_flow, "sign_psbt", spy)
    return calls


def test_a_tampered_withdrawal_is_refused_in_the_dialog(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: Sandbox,
    bidwallet_faults: SandboxFaults,
    signatures: list[object],
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app = funded.app
    wallet = run_async(qloop, get_bidding_wallet(profile_session(app.context).signing_context()))
    with httpx.Client(base_url=funded.root_url, timeout=60) as http:
        for sats in (60_000, 70_000):
            faucet = {"address": wallet.address, "sats": sats}
            assert http.post("/sandbox/faucet", json=faucet).is_success
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success
    thief = sandbox.address(THIEF, "p2wpkh")
    bidwallet_faults.tamper("POST", "/v1/intent/withdraw", TAMPER)

    gui_thread.start()
    app.window.show_tab("withdraw")
    tab = app.window.tab("withdraw")
    assert isinstance(tab, WithdrawTab)
    qtbot.waitUntil(lambda: tab.facts is not None, timeout=20_000)
    type_into(qtbot, tab.amount.edit, f"{AMOUNT:,}")
    click(qtbot, tab.review_button)

    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    with gui_thread.paused():
        (fired,) = bidwallet_faults.fired()
    prefix = f"served the PSBT tampered by {TAMPER}: output "
    assert fired.outcome.startswith(prefix) and fired.outcome.endswith(f" now pays {thief}")
    redirected = int(fired.outcome.removeprefix(prefix).split()[0])
    assert dialog.sign_button is None  # nothing to press
    text = dialog.verdict_label.text()
    assert "refuses to sign this withdrawal" in text
    # The refusal names what the tamper did: that output, paying the sandbox's key.
    assert f"Output {redirected} pays" in text and thief in text
    assert "neither your payment address nor your bidding wallet" in text
    owners = [dialog.outputs_model.cell(r, 3).text for r in range(dialog.outputs_model.rowCount())]
    assert "someone else" in owners  # the redirected output, drawn as a stranger's
    click(qtbot, dialog.cancel_button)
    qtbot.waitUntil(lambda: tab.status.text() == strings.FLOW_REFUSED, timeout=10_000)
    gui_thread.assert_not_blocked()

    assert signatures == []
    with gui_thread.paused():
        assert sandbox.requests(path="/v1/withdraw") == ()  # nothing submitted
        (asked,) = sandbox.requests(path="/v1/intent/withdraw", method="POST")
    assert asked.fault is not None and asked.fault.kind == "tamper"
