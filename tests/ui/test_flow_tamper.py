"""A hostile server's tampered PSBT is refused in the review dialog: the app talks to a proxy in
front of the real sandbox that redirects the withdrawal's payment output (tests/support's
hostile server and tamper table). The dialog says why, has no Sign button, and nothing is
signed or sent."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from embit.transaction import Transaction
from pytestqt.qtbot import QtBot

from app.net.marketplace_requests import WithdrawIntentRequest
from app.services import psbt_flow
from app.services.bidding_wallet import get_bidding_wallet
from app.services.psbt_flow import gather_facts, input_outpoints
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.profile_session import profile_session
from app.ui.tabs.withdraw_tab import WithdrawTab
from app.wallet.psbt_io import parse_psbt
from tests.support.hostile_server import HostileServer
from tests.support.proxy import FaultProxy
from tests.support.psbt_tamper import tampers_for
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import click, open_funded_app, type_into, wait_dialog
from tests.ui.gui_thread import GuiThreadWatch
from tests.ui.helpers import run_async

AMOUNT = 100_000
TAMPER = "withdraw: payment output redirected"


@pytest.fixture
def proxy(qloop: asyncio.AbstractEventLoop, sandbox: SandboxProcess) -> Iterator[FaultProxy]:
    running = run_async(qloop, FaultProxy(upstream=sandbox.url).__aenter__())
    yield running
    run_async(qloop, running.__aexit__(None, None, None))


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
    sandbox: SandboxProcess,
    proxy: FaultProxy,
    signatures: list[object],
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop, proxy.url)
    app = funded.app
    session = profile_session(app.context)
    ctx = session.signing_context()
    wallet = run_async(qloop, get_bidding_wallet(ctx)).address
    with httpx.Client(base_url=funded.root_url, timeout=60) as http:
        for sats in (60_000, 70_000):
            assert http.post("/sandbox/faucet", json={"address": wallet, "sats": sats}).is_success
        assert http.post("/sandbox/mine", json={"blocks": 1}).is_success

    # The honest PSBT and facts the hostile server starts from (nothing is submitted).
    served = run_async(
        qloop,
        ctx.clients.marketplace.create_withdraw_intent(
            WithdrawIntentRequest(ctx.payment_address, AMOUNT)
        ),
    )
    outpoints = input_outpoints(parse_psbt(served.psbt_base64))
    facts = run_async(qloop, gather_facts(ctx, outpoints))
    prev_txs = {}
    for outpoint in outpoints:
        raw = run_async(qloop, ctx.clients.esplora.tx_hex(outpoint.split(":")[0]))
        prev_txs[outpoint] = Transaction.read_from(io.BytesIO(bytes.fromhex(raw)))
    context = ctx.review_context(facts)
    (tamper,) = [t for t in tampers_for("withdraw") if t.name == TAMPER]
    hostile = HostileServer(proxy, tamper, context, prev_txs)
    hostile.arm(served.psbt_base64)
    del ctx

    gui_thread.start()
    app.window.show_tab("withdraw")
    tab = app.window.tab("withdraw")
    assert isinstance(tab, WithdrawTab)
    qtbot.waitUntil(lambda: tab.facts is not None, timeout=20_000)
    type_into(qtbot, tab.amount.edit, f"{AMOUNT:,}")
    click(qtbot, tab.review_button)

    dialog = wait_dialog(qtbot, app, PsbtReviewDialog, timeout=30_000)
    assert hostile.tampered == 1 and hostile.blame is not None
    assert dialog.sign_button is None  # nothing to press
    text = dialog.verdict_label.text()
    assert "refuses to sign this withdrawal" in text
    assert hostile.blame.lower() in text.lower()
    owners = [dialog.outputs_model.cell(r, 3).text for r in range(dialog.outputs_model.rowCount())]
    assert "someone else" in owners  # the redirected output, drawn as a stranger's
    click(qtbot, dialog.cancel_button)
    qtbot.waitUntil(lambda: tab.status.text() == strings.FLOW_REFUSED, timeout=10_000)
    gui_thread.assert_not_blocked()

    assert signatures == []
    assert hostile.submits() == []
