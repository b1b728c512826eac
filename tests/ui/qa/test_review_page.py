"""The review page object against the real sandbox: a withdrawal's review read, cancelled
(the tab says nothing was signed), opened again and approved (the tab's outcome returned); a
refused review and one waiting for the fee's consent (tampers the sandbox serves itself); and
failures in words that name the page, the action and what was expected."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from app.sandbox.faults_tampers import WITHDRAW
from app.ui import strings
from app.ui.qa.actions import click, type_into
from app.ui.qa.app import App
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.sandbox import fund_bidding_wallet
from app.ui.tabs.withdraw_tab import WithdrawTab

if TYPE_CHECKING:
    from app.ui.qa.sandbox import Sandbox

FUNDS = 200_000
AMOUNT = 50_000


def withdraw_tab(app: App) -> WithdrawTab:
    tab = app.tab("withdraw", WithdrawTab)
    app.qtbot.waitUntil(lambda: tab.facts is not None, timeout=20_000)
    return tab


def test_a_review_is_read_cancelled_then_approved(bidwallet_app: App) -> None:
    app = bidwallet_app
    fund_bidding_wallet(app.harness, app.loop, FUNDS)
    tab = withdraw_tab(app)
    type_into(app.qtbot, tab.amount.edit, str(AMOUNT))

    before = len(app.harness.dialogs)
    click(app.qtbot, tab.review_button)
    review = app.review(before)
    assert review.can_approve and review.refusal_reason is None
    assert not review.needs_fee_consent
    assert "passes every check" in review.verdict
    assert review.headline and review.action
    assert any(f"You withdraw {AMOUNT:,} sats" in line for line in review.notes)
    assert "you" in " ".join(review.output_owners())
    assert review.reject() == strings.FLOW_CANCELLED
    assert not review.is_open
    with pytest.raises(ScenarioFailure, match="Review page: the dialog is closed"):
        _ = review.verdict

    before = len(app.harness.dialogs)
    click(app.qtbot, tab.review_button)
    again = app.review(before)
    assert again.dialog is not review.dialog
    txid = again.txid
    said = again.approve()
    assert tab.txid_row.txid is not None and tab.txid_row.txid in said
    assert tab.status.text() == said
    assert txid  # the review showed the transaction it signed
    assert not again.is_open


def test_a_review_that_never_opens_fails_naming_page_action_and_expectation(
    bidwallet_app: App,
) -> None:
    app = bidwallet_app
    withdraw_tab(app)
    with pytest.raises(ScenarioFailure) as failure:
        app.review(timeout_ms=200)
    text = str(failure.value)
    assert text.startswith("Review page, open: expected a PSBT review dialog to open within 0.2 s")
    assert "; it shows: " in text


def test_a_refused_review_says_why_has_no_sign_and_closes_as_refused(
    bidwallet_app: App, bidwallet_sandbox: Sandbox
) -> None:
    """The sandbox redirects the withdrawal's payment (a tamper it serves itself): the review
    refuses, approve() fails saying so, reject() closes it and returns FLOW_REFUSED."""
    app = bidwallet_app
    fund_bidding_wallet(app.harness, app.loop, FUNDS)
    tab = withdraw_tab(app)
    bidwallet_sandbox.run(
        lambda c: c.arm_fault("tamper", WITHDRAW, method="POST", tamper="redirect-payment")
    )
    try:
        type_into(app.qtbot, tab.amount.edit, str(AMOUNT))
        before = len(app.harness.dialogs)
        click(app.qtbot, tab.review_button)
        review = app.review(before)
        assert not review.can_approve
        reason = review.refusal_reason
        assert reason is not None and "refuses to sign this withdrawal" in reason
        assert "someone else" in review.output_owners()
        with pytest.raises(ScenarioFailure) as failure:
            review.approve()
        assert str(failure.value).startswith(
            "Review page, approve: expected a Sign button; it shows: refused: "
        )
        assert review.reject() == strings.FLOW_REFUSED
        assert tab.txid_row.txid is None  # nothing sent
    finally:
        bidwallet_sandbox.run(lambda c: c.clear_faults())


def test_a_fee_above_the_bounds_waits_for_the_box(
    bidwallet_app: App, bidwallet_sandbox: Sandbox
) -> None:
    """The sandbox raises the withdrawal's fee: Sign waits for the consent box, and approve()
    without accepting the fee fails naming what it expected."""
    app = bidwallet_app
    fund_bidding_wallet(app.harness, app.loop, FUNDS)
    tab = withdraw_tab(app)
    bidwallet_sandbox.run(
        lambda c: c.arm_fault("tamper", WITHDRAW, method="POST", tamper="raise-fee")
    )
    try:
        type_into(app.qtbot, tab.amount.edit, str(AMOUNT))
        before = len(app.harness.dialogs)
        click(app.qtbot, tab.review_button)
        review = app.review(before)
        assert review.can_approve and review.needs_fee_consent
        assert review.refusal_reason is None
        with pytest.raises(ScenarioFailure, match=r"^Review page, approve: expected Sign enabled"):
            review.approve()
        review.accept_fee()
        assert review.dialog.sign_button is not None and review.dialog.sign_button.isEnabled()
        assert review.reject() == strings.FLOW_CANCELLED
    finally:
        bidwallet_sandbox.run(lambda c: c.clear_faults())
