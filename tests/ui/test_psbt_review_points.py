"""The review dialog point by point against Sparrow's transaction viewer (issue 15): who each
output pays (the service included), whole addresses to select, the fee in sats, sat/vB and
share, the PSBT saved (binary and base64) and the raw transaction copied, the first size on a
1024x700 screen, honest headlines, and totals that add up across a bulk review."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.psbt_review import Review
from app.core.signing_policy import Verdict
from app.services.psbt_files import load_psbt_file
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog, first_size
from app.ui.dialogs.psbt_review_table import visible_rows
from app.wallet.psbt_io import psbt_to_base64
from tests.support.psbt_scenarios import SCENARIOS


@dataclass(frozen=True)
class Plan:
    review: Review
    verdict: Verdict
    label: str = ""
    psbt_base64: str = ""


def plan(name: str, label: str = "") -> Plan:
    scenario = SCENARIOS[name]()
    return Plan(scenario.review(), scenario.verdict(), label, psbt_to_base64(scenario.psbt))


def owners(dialog: PsbtReviewDialog) -> list[str]:
    model = dialog.outputs_model
    return [model.cell(r, 3).text for r in range(model.rowCount())]


def test_outputs_not_ours_are_named_the_service_or_the_seller(qtbot: QtBot) -> None:
    listing = PsbtReviewDialog([plan("secure_listing")], title="List", action="&Sign")
    qtbot.addWidget(listing)
    named = owners(listing)
    assert "someone else" not in named
    assert any(n.startswith("the service") for n in named) and "your payment address" in named
    bid = PsbtReviewDialog([plan("inscription_bid")], title="Bid", action="&Sign")
    qtbot.addWidget(bid)
    # The service's fee address is known here: named plainly, the other output not guessed.
    assert owners(bid) == [
        "your ordinals address",
        "someone else",
        "the service",
        "your payment address",
    ]
    assert "the service" in bid.legend.text()


def test_whole_addresses_are_shown_and_can_be_selected(qtbot: QtBot) -> None:
    chosen = plan("withdraw")
    dialog = PsbtReviewDialog([chosen], title="Withdraw", action="&Sign")
    qtbot.addWidget(dialog)
    address = chosen.review.outputs[0].address
    assert address is not None and dialog.outputs_model.cell(0, 1).text == address
    assert "…" not in dialog.inputs_model.cell(0, 2).text
    dialog._output_clicked(dialog.outputs_model.index(0, 1))
    detail = dialog.row_detail
    assert detail.isReadOnly() and address in detail.text()
    detail.selectAll()
    assert address in detail.selectedText()
    assert dialog.txid_field.text() == chosen.review.txid


def test_the_fee_reads_in_sats_rate_and_share(qtbot: QtBot) -> None:
    dialog = PsbtReviewDialog([plan("withdraw")], title="Withdraw", action="&Sign")
    qtbot.addWidget(dialog)
    sats_part, rate, share = dialog.fee_label.text().split(" · ")
    assert sats_part == "2,000 sats"
    assert rate.endswith("sat/vB")
    assert share == "2.0% of the 100,000 sats moved"
    assert "vB once signed" in dialog.size_label.text()


def test_save_the_psbt_binary_and_base64_round_trip(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    chosen = plan("withdraw")
    dialog = PsbtReviewDialog([chosen], title="Withdraw", action="&Sign")
    qtbot.addWidget(dialog)
    export = dialog.export_button
    assert export.isEnabled()
    for binary, name in ((True, "w.psbt"), (False, "w.txt")):
        target = tmp_path / name

        async def chosen_path(_binary: bool, target: Path = target) -> Path:
            return target

        export.ask_save_path = chosen_path  # type: ignore[method-assign]
        task = qloop.create_task(export.save(binary=binary))
        qtbot.waitUntil(task.done)
        task.result()
        data = target.read_bytes()
        assert data.startswith(b"psbt\xff") if binary else data.startswith(b"cHNidP")
        loaded = load_psbt_file(target)
        assert psbt_to_base64(loaded.psbt) == chosen.psbt_base64
        assert str(target) in dialog.status_label.text()


def test_copy_the_unsigned_transaction(qtbot: QtBot, qloop: asyncio.AbstractEventLoop) -> None:
    chosen = plan("withdraw")
    dialog = PsbtReviewDialog([chosen], title="Withdraw", action="&Sign")
    qtbot.addWidget(dialog)
    assert "unsigned" in dialog.export_button.copy_transaction.text()
    dialog.export_button.copy_raw_transaction()  # a slot: runs as a task
    qtbot.waitUntil(lambda: "copied" in dialog.status_label.text())
    from app.wallet.psbt_io import parse_psbt

    expected = parse_psbt(chosen.psbt_base64).tx.serialize().hex()
    assert QApplication.clipboard().text() == expected
    assert "unsigned transaction" in dialog.status_label.text()


def test_a_refusal_without_its_psbt_says_there_is_nothing_to_export(qtbot: QtBot) -> None:
    scenario = SCENARIOS["withdraw"]()
    dialog = PsbtReviewDialog(
        [Plan(scenario.review(), scenario.verdict())], title="W", action="&Sign"
    )
    qtbot.addWidget(dialog)
    assert not dialog.export_button.isEnabled()
    assert "no PSBT" in dialog.export_button.toolTip()


def test_the_first_size_fits_1024x700_and_shows_five_rows(qtbot: QtBot) -> None:
    size = first_size(QRect(0, 0, 1024, 700))
    assert size.width() <= 1024 and size.height() <= 660
    dialog = PsbtReviewDialog([plan("inscription_bid")], title="Bid", action="&Sign")
    qtbot.addWidget(dialog)
    assert dialog.minimumWidth() <= size.width() and dialog.minimumHeight() <= size.height()
    dialog.resize(size)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.width() <= 1024 and dialog.height() <= 700
    assert visible_rows(dialog.inputs_view) >= 5
    assert visible_rows(dialog.outputs_view) >= 5


def test_funding_says_what_moves_into_the_bidding_wallet(qtbot: QtBot) -> None:
    dialog = PsbtReviewDialog([plan("funding")], title="Fund", action="&Sign")
    qtbot.addWidget(dialog)
    assert dialog.summary_label.text().startswith(
        "Moves 100,000 sats into your bidding wallet, spendable by you or the service"
    )
    owner_tip = dialog.outputs_model.cell(0, 3).tooltip or ""
    assert "spendable by you or the service" in owner_tip


def test_a_bulk_review_adds_up_every_transaction(qtbot: QtBot) -> None:
    plans = [plan("secure_listing", "A"), plan("secure_listing_runes", "B")]
    dialog = PsbtReviewDialog(plans, title="List", action="&Sign 2 listings")
    qtbot.addWidget(dialog)
    assert dialog.headline_label.text().startswith("Lists 2 items for 200,000 sats in all")
    gives = [p.review.summary.you_give or 0 for p in plans]
    received = f"you receive {sum(-g for g in gives if g < 0):,} sats"
    assert received in dialog.totals_label.text()
    rows = [dialog.plans_model.cell(r, 2).text for r in range(2)]
    total = sum(int(text.split(" ")[0].replace(",", "")) for text in rows)
    assert f"you receive {total:,} sats" in dialog.totals_label.text()
