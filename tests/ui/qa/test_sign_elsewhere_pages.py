"""The watch-only steps of the page objects against the real sandbox: an inscription bid
exported for the other wallet, signed there (the test, with the collector's real keys, through
the origins the PSBT carries) and imported back through the Inscription bid page; and a bid's
message whose pasted signature is refused, where `send()` fails in words naming the page, the
action, what was expected and the dialog's refusal."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from pytestqt.qtbot import QtBot

from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.sandbox import fund_bidding_wallet, new_collection, sandbox_post
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import psbt_to_base64
from tests.ui.test_flow_signed_elsewhere import open_collector

PRICE = 20_000


def test_an_inscription_bid_exported_signed_elsewhere_and_imported(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    tmp_path: Path,
) -> None:
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    root = collector.url
    payment = collector.keys.payment.address
    sandbox_post(root, "/sandbox/faucet", {"address": payment, "sats": 300_000})
    app = App(collector.app, qtbot, qloop, root)
    inscription = _seller_inscription(root)
    page = app.inscription_bid
    assert page.widget.import_button.isVisible()

    said = page.export_bid(inscription, PRICE, tmp_path)
    assert said.startswith("Exported to ") and said == page.status
    (exported,) = tmp_path.glob("*.psbt")
    psbt = FixedPSBT.parse(exported.read_bytes())
    assert psbt.sign_with(collector.root, sighash=None) >= 1
    (tmp_path / "signed elsewhere.psbt").write_text(psbt_to_base64(psbt))

    review = page.import_signed(tmp_path)
    assert review.can_approve
    placed = review.approve()
    assert placed == strings.ELSEWHERE_INSCRIPTION_BID_DONE.format(
        inscription=inscription, price=f"{PRICE:,} sats"
    )
    rows = page.refresh()
    assert [(r.inscription_id, r.price) for r in rows] == [(inscription, f"{PRICE:,} sats")]


def test_a_refused_signature_fails_send_naming_page_action_and_refusal(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    collector = open_collector(qtbot, open_app, make_options, sandbox)
    fund_bidding_wallet(collector.app, qloop, 100_000)
    slug = new_collection(collector.url, {"hat": ["red"]})
    app = App(collector.app, qtbot, qloop, collector.url)
    bid = app.bid.ready()
    bid.fill_collection_bid(slug, PRICE, 1)
    qtbot.waitUntil(lambda: bid.can_place, timeout=10_000)
    before = len(app.harness.dialogs)
    bid.press_place()
    signer = app.sign_message(before)
    (shown,) = signer.messages()
    assert shown.address == collector.keys.payment.address and slug in shown.message
    signer.paste_signature("bm90IGEgc2lnbmF0dXJl")  # base64, but no signature
    with pytest.raises(ScenarioFailure) as failure:
        signer.send(timeout_ms=3_000)
    text = str(failure.value)
    assert text.startswith(
        "Sign message page, send: expected the signatures sent and the dialog closed within 3 s;"
    )
    assert "; it shows: " in text and "error '" in text and signer.is_open
    assert signer.status in text
    signer.cancel()
    assert not signer.is_open


def _seller_inscription(root: str) -> str:
    """An inscription held by a sandbox key (a seller who can accept bids), confirmed (the
    collector's coins with it)."""
    with httpx.Client(base_url=root, timeout=60) as http:
        seller = http.get("/sandbox/addresses/qa-watch-seller").json()["address"]
    created = sandbox_post(root, "/sandbox/inscriptions", {"address": seller})
    sandbox_post(root, "/sandbox/mine", {"blocks": 1})
    return str(created["inscriptionId"])
