"""The PSBT review dialog draws the services' Review and Verdict; a refusal has no Sign button."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from pytestqt.qtbot import QtBot

from app.core.psbt_review import Review
from app.core.psbt_review_context import Role
from app.core.signing_policy import Verdict
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from app.ui.models.review_model import role_color
from app.ui.qa.actions import click
from tests.support.psbt_scenarios import INSCRIPTION, SCENARIOS
from tests.support.psbt_tamper import apply_to, tampers_for


@dataclass(frozen=True)
class Reviewed:
    review: Review
    verdict: Verdict
    label: str = ""


def reviewed(name: str, label: str = "") -> Reviewed:
    scenario = SCENARIOS[name]()
    return Reviewed(scenario.review(), scenario.verdict(), label)


def column_texts(dialog: PsbtReviewDialog, which: str, column: int) -> list[str]:
    model = dialog.inputs_model if which == "inputs" else dialog.outputs_model
    return [model.cell(r, column).text for r in range(model.rowCount())]


def test_an_approved_inscription_bid_shows_what_you_give_and_receive(qtbot: QtBot) -> None:
    plan = reviewed("inscription_bid")
    assert plan.verdict.approved
    dialog = PsbtReviewDialog([plan], title="Bid", action="&Sign and place")
    qtbot.addWidget(dialog)
    assert dialog.summary_label.text().startswith("You pay 52,546 sats for inscription")
    assert "546 sats of postage" in dialog.summary_label.text()
    assert f"You receive inscription {INSCRIPTION}." in dialog.details_label.text()
    assert f"Inscription {INSCRIPTION} (input 0) lands on output 0" in dialog.details_label.text()
    assert "2,000 sats" in dialog.fee_label.text() and "sat/vB" in dialog.fee_label.text()
    # Inputs: the seller's inscription (input 0 by the flow's rule) is named so, as an output
    # paying the seller's address is, in a stranger's colour; ours are payment.
    owners = column_texts(dialog, "inputs", 4)
    assert owners == ["the seller", Role.PAYMENT.value, Role.PAYMENT.value]
    seller = dialog.inputs_model.data(
        dialog.inputs_model.index(0, 4), Qt.ItemDataRole.ForegroundRole
    )
    assert isinstance(seller, QBrush) and seller.color().name() == role_color(Role.STRANGER)
    assert column_texts(dialog, "inputs", 5)[0].startswith("◆ inscription")
    assert column_texts(dialog, "inputs", 6) == ["signed by its owner"] + ["not set (ALL)"] * 2
    brush = dialog.inputs_model.data(
        dialog.inputs_model.index(1, 4), Qt.ItemDataRole.ForegroundRole
    )
    assert isinstance(brush, QBrush) and brush.color().name() == role_color(Role.PAYMENT)
    assert column_texts(dialog, "outputs", 3)[0] == Role.ORDINALS.value
    assert column_texts(dialog, "outputs", 4)[0].startswith("◆ inscription")
    assert "passes every check" in dialog.verdict_label.text()
    assert "only your inputs 1, 2 will be signed" in dialog.verdict_label.text()
    assert dialog.sign_button is not None and dialog.sign_button.text() == "&Sign and place"
    assert "your payment address" in dialog.legend.text()


def test_a_refused_psbt_says_why_and_offers_no_sign_button(qtbot: QtBot) -> None:
    scenario = SCENARIOS["withdraw"]()
    tamper = tampers_for("withdraw")[0]
    bad, blame = apply_to(tamper, scenario)
    plan = Reviewed(bad.review(), bad.verdict())
    assert not plan.verdict.approved
    dialog = PsbtReviewDialog([plan], title="Withdraw", action="&Sign")
    qtbot.addWidget(dialog)
    assert dialog.sign_button is None and dialog.cancel_button.text() == "&Close"
    assert not [b for b in dialog.findChildren(type(dialog.cancel_button)) if "Sign" in b.text()]
    text = dialog.verdict_label.text()
    assert "refuses to sign this withdrawal" in text
    assert blame in text
    for reason in plan.verdict.reasons():
        assert reason in text


def test_ask_returns_true_only_for_the_sign_button(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop
) -> None:
    for button, expected in (("sign", True), ("cancel", False)):
        task = qloop.create_task(
            PsbtReviewDialog.ask(None, [reviewed("funding")], title="Fund", action="&Sign")
        )
        qtbot.waitUntil(lambda: any(d.isVisible() for d in _dialogs()))
        dialog = next(d for d in _dialogs() if d.isVisible())
        chosen = dialog.sign_button if button == "sign" else dialog.cancel_button
        assert chosen is not None
        click(qtbot, chosen)
        qtbot.waitUntil(task.done)
        assert task.result() is expected
        qtbot.waitUntil(lambda: not any(d.isVisible() for d in _dialogs()))


def _dialogs() -> list[PsbtReviewDialog]:
    from PySide6.QtWidgets import QApplication

    return [w for w in QApplication.topLevelWidgets() if isinstance(w, PsbtReviewDialog)]


def test_bulk_review_lists_every_psbt_and_shows_the_selected_one(qtbot: QtBot) -> None:
    plans = [reviewed("secure_listing", "List A"), reviewed("secure_listing_runes", "List B")]
    dialog = PsbtReviewDialog(plans, title="List", action="&Sign 2 listings")
    qtbot.addWidget(dialog)
    model = dialog.plans_model
    assert model.rowCount() == 2
    assert [model.cell(r, 0).text for r in range(2)] == ["List A", "List B"]
    assert [model.cell(r, 4).text for r in range(2)] == ["OK to sign", "OK to sign"]
    assert column_texts(dialog, "inputs", 6) == ["ALL|ANYONECANPAY (Note)"]
    dialog.plans_view.selectRow(1)
    assert "UNCOMMON•GOODS" in column_texts(dialog, "inputs", 5)[0]
    assert dialog.sign_button is not None


def test_one_refused_item_of_a_batch_removes_the_sign_button(qtbot: QtBot) -> None:
    good = reviewed("secure_listing", "List A")
    bad_scenario, _ = apply_to(tampers_for("secure_listing")[0], SCENARIOS["secure_listing"]())
    bad = Reviewed(bad_scenario.review(), bad_scenario.verdict(), "List B")
    dialog = PsbtReviewDialog([good, bad], title="List", action="&Sign")
    qtbot.addWidget(dialog)
    assert dialog.sign_button is None
    assert "1 of 2 transactions are refused" in dialog.verdict_label.text()
    assert "List B: Bidwallet refuses" in dialog.verdict_label.text()
    assert dialog.plans_model.cell(1, 4).text == "Refused"


def test_every_role_has_a_colour_in_both_themes() -> None:
    from app.ui.models.review_model import ROLE_COLORS

    assert set(ROLE_COLORS) == {str(r) for r in Role}


def test_unknown_amounts_show_an_unknown_fee(qtbot: QtBot) -> None:
    scenario = SCENARIOS["withdraw"]()
    for inp in scenario.psbt.inputs:
        inp.witness_utxo = None
        inp.non_witness_utxo = None
    plan = Reviewed(scenario.review(), scenario.verdict())
    dialog = PsbtReviewDialog([plan], title="W", action="&Sign")
    qtbot.addWidget(dialog)
    unknown = "unknown (an input amount is missing or not confirmed by the chain)"
    assert dialog.fee_label.text() == unknown
    assert column_texts(dialog, "inputs", 3) == ["unknown", "unknown"]
    assert dialog.sign_button is None


def _fee_above_market() -> Reviewed:
    """A withdrawal at 45 sat/vB: under the user's cap, 4.5 times the next-block estimate."""
    from tests.support.tamper_guard import pay_fee_rate
    from tests.support.tamper_ops import Target

    scenario = SCENARIOS["withdraw"]()
    pay_fee_rate(Target(scenario.psbt, scenario.context), 45)
    return Reviewed(scenario.review(), scenario.verdict(), "Withdraw")


def test_a_fee_outside_the_bounds_needs_the_box_ticked_before_signing(qtbot: QtBot) -> None:
    plan = _fee_above_market()
    assert plan.verdict.needs_fee_consent
    dialog = PsbtReviewDialog([plan], title="Withdraw", action="&Sign")
    qtbot.addWidget(dialog)
    text = dialog.verdict_label.text()
    assert "passes every check but one: its fee" in text and "next block" in text
    assert "Nothing is signed unless you accept this fee" in text
    assert dialog.consent_box is not None and dialog.sign_button is not None
    fee = plan.verdict.fee
    assert fee is not None and fee.describe() in dialog.consent_box.text()
    assert "% of the 100,000 sats moved" in dialog.consent_box.text()
    assert "% of the 100,000 sats moved" in dialog.fee_label.text()
    assert not dialog.sign_button.isEnabled() and not dialog.fee_accepted
    dialog.consent_box.setChecked(True)
    assert dialog.sign_button.isEnabled() and dialog.fee_accepted
    assert dialog.plans_model.cell(0, 4).text == "Fee needs your OK"


def test_ask_is_false_until_the_fee_is_accepted(
    qtbot: QtBot, qloop: asyncio.AbstractEventLoop
) -> None:
    task = qloop.create_task(
        PsbtReviewDialog.ask(None, [_fee_above_market()], title="W", action="&Sign")
    )
    qtbot.waitUntil(lambda: any(d.isVisible() for d in _dialogs()))
    dialog = next(d for d in _dialogs() if d.isVisible())
    assert dialog.consent_box is not None and dialog.sign_button is not None
    click(qtbot, dialog.consent_box)
    click(qtbot, dialog.sign_button)
    qtbot.waitUntil(task.done)
    assert task.result() is True


def test_the_review_says_when_the_transaction_can_confirm(qtbot: QtBot) -> None:
    dialog = PsbtReviewDialog([reviewed("funding")], title="Fund", action="&Sign")
    qtbot.addWidget(dialog)
    lines = dialog.time_label.text().split(" · ")  # one line, the tables need the room
    assert lines == [
        "Lock time: none.",
        "Replace-by-fee: signalled (it can be replaced by a higher fee before it confirms).",
    ]
