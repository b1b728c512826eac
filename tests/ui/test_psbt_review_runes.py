"""The review dialog shows, per output, the runes a runestone sends it (ord's rules), burned ones
marked, and the refusal of the hidden risk: a runes listing whose runestone sends the listed
runes to the service's output rather than with the item."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.core.signing_policy import evaluate
from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog
from tests.core.test_policy_runes import edict, listing_outputs, rune_listing
from tests.support.runestones import encipher
from tests.ui.test_psbt_review_dialog import Reviewed, column_texts


def listing_dialog(qtbot: QtBot, stone: bytes) -> PsbtReviewDialog:
    s = rune_listing(listing_outputs(stone))
    review = s.review()
    dialog = PsbtReviewDialog(
        [Reviewed(review, evaluate(review, s.intent), "List UNCOMMON•GOODS")],
        title="List",
        action="&Sign 1 listing",
    )
    qtbot.addWidget(dialog)
    return dialog


def test_each_output_shows_the_runes_the_runestone_sends_it(qtbot: QtBot) -> None:
    dialog = listing_dialog(qtbot, encipher([edict(1_000, 1)]))
    receives = column_texts(dialog, "outputs", 4)
    assert receives[0] == "◆ 1,500 UNCOMMON•GOODS"
    assert receives[1] == "◆ 1,000 UNCOMMON•GOODS"
    assert receives[2] == "" and receives[3] == ""
    assert (
        "Output 3 is a runestone: an edict: 1,000 of UNCOMMON•GOODS to output 1."
        in dialog.details_label.text()
    )


def test_the_hidden_risk_is_shown_and_refused(qtbot: QtBot) -> None:
    dialog = listing_dialog(qtbot, encipher([edict(0, 2)]))
    assert column_texts(dialog, "outputs", 4)[2] == "◆ 2,500 UNCOMMON•GOODS"
    assert dialog.sign_button is None
    text = dialog.verdict_label.text()
    assert "sends 2,500 of the listed UNCOMMON•GOODS to output 2 (the service)" in text


def test_runes_sent_to_an_op_return_output_are_marked_burned(qtbot: QtBot) -> None:
    dialog = listing_dialog(qtbot, encipher(pointer=3))
    assert column_texts(dialog, "outputs", 4)[3] == "◆ 2,500 UNCOMMON•GOODS (burned)"
    assert "Your 2,500 UNCOMMON•GOODS are burned." in dialog.details_label.text()
    assert dialog.sign_button is None


def test_the_runestone_output_is_named_as_what_it_is(qtbot: QtBot) -> None:
    dialog = listing_dialog(qtbot, encipher([edict(0, 0)]))
    owners = column_texts(dialog, "outputs", 3)
    assert owners == [
        "the service",
        "your payment address",
        "the service",
        "a runestone (OP_RETURN)",
    ]
    assert column_texts(dialog, "outputs", 4)[0] == "◆ 2,500 UNCOMMON•GOODS"
