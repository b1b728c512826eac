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
from app.ui.dialogs.psbt_review_dialog import PLANS_SHOWN, PsbtReviewDialog, first_size
from app.ui.dialogs.psbt_review_table import visible_rows
from app.wallet.psbt_io import psbt_to_base64
from tests.support.psbt_scenarios import SCENARIOS
from tests.ui.review_fit import not_in_sight, shows_its_rows


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
    # Where the item lands is named as its row is, not "someone else".
    (landing,) = listing.plans[0].review.landings
    assert landing.output_index is not None
    where = f"lands on output {landing.output_index}, {named[landing.output_index]}"
    assert where in listing.details_label.text()
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


def test_the_first_size_fits_1024x700_and_shows_the_facts_and_every_row(qtbot: QtBot) -> None:
    """At the first size on a 1024x700 screen (1000x660), without scrolling: the facts whole
    (txid, fee, size, lock time and replace-by-fee), each table's rows (up to 5, no blank
    rows), the legend and the buttons; for one transaction and for a bulk of 3 listings."""
    size = first_size(QRect(0, 0, 1024, 700))
    assert size.width() <= 1024 and size.height() <= 660
    single = [plan("inscription_bid")]
    bulk = [plan("secure_listing", f"List inscription {n} for 120,000 sats") for n in range(3)]
    for plans in (single, bulk):
        dialog = PsbtReviewDialog(plans, title="Review", action="&Sign")
        qtbot.addWidget(dialog)
        assert dialog.minimumWidth() <= size.width()
        assert dialog.minimumHeight() <= size.height()
        dialog.resize(size)
        dialog.show()
        qtbot.waitExposed(dialog)
        assert dialog.width() <= 1024 and dialog.height() <= 700
        tables = [dialog.inputs_view, dialog.outputs_view]
        if len(plans) > 1:
            tables.append(dialog.plans_view)  # 3 rows: all of them
        qtbot.waitUntil(lambda tables=tables: all(shows_its_rows(t) for t in tables))
        assert not_in_sight(dialog) == []
        assert "Lock time" in dialog.time_label.text()
        assert dialog.sign_button is not None and dialog.sign_button.isVisible()


def test_a_long_bulk_lists_3_rows_at_the_first_size_and_more_when_taller(qtbot: QtBot) -> None:
    """12 listings at 1000x660: the list shows 3 rows at the least (more where the fonts leave
    room; it scrolls) so the selected one's facts and tables keep theirs; a taller window
    gives the list its rows."""
    plans = [plan("secure_listing", f"List inscription {n}") for n in range(12)]
    dialog = PsbtReviewDialog(plans, title="Review", action="&Sign")
    qtbot.addWidget(dialog)
    dialog.resize(first_size(QRect(0, 0, 1024, 700)))
    dialog.show()
    qtbot.waitExposed(dialog)
    tables = [dialog.inputs_view, dialog.outputs_view]
    qtbot.waitUntil(lambda: all(shows_its_rows(t) for t in tables))
    assert not_in_sight(dialog) == []
    first = visible_rows(dialog.plans_view)
    assert PLANS_SHOWN <= first < 12  # the rest of the list scrolls
    dialog.resize(1000, 1000)
    qtbot.waitUntil(lambda: visible_rows(dialog.plans_view) == 12)


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
    # What the payment address receives once bought, for the 2 items: the headline, the
    # rows and the totals say the same figure.
    paid = sum(o.value for p in plans for o in p.review.outputs if o.is_ours)
    assert dialog.headline_label.text().startswith(
        f"Once bought, your payment address receives {paid:,} sats for the 2 items"
    )
    rows = [dialog.plans_model.cell(r, 2).text for r in range(2)]
    total = sum(int(text.split(" ")[0].replace(",", "")) for text in rows)
    assert total == paid
    totals = dialog.totals_label.text()
    assert f"you receive {total:,} sats" in totals
    # What is given: the items and the sats they sit on, named, never "you give 0 sats".
    postage = sum(i.value or 0 for p in plans for i in p.review.inputs if i.is_ours)
    assert f"you give 2 items and the {postage:,} sats of postage" in totals
    gives = [p.review.summary.you_give or 0 for p in plans]
    gained = sum(-g for g in gives if g < 0)
    assert gained == paid - postage and f"({gained:,} sats more)" in totals
    for row in range(2):
        given = dialog.plans_model.cell(row, 1).text
        assert "with " in given and not given.startswith("0 sats")
