"""The Wallet, Withdraw and Inscription bid page objects against the real sandbox: each action
a scenario takes returns what the next step needs (a txid, a bid id, the rows shown), and a
page that never shows what was expected fails in words naming the page, the action, what was
expected and what it showed instead."""

from __future__ import annotations

import httpx
import pytest

from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.pages.inscription_bid import FieldErrors
from app.ui.qa.pages.withdraw import ALL
from app.ui.qa.sandbox import fund_bidding_wallet, sandbox_post

FUNDING = 60_000


def test_wallet_page_funds_refreshes_and_chooses_coins(bidwallet_app: App) -> None:
    app = bidwallet_app
    assert app.keys is not None and app.root_url is not None
    wallet = app.wallet
    addresses = wallet.addresses()
    assert addresses.payment == app.keys.payment.address
    assert addresses.ordinals == app.keys.ordinals.address
    assert wallet.expect_balance(0).total_text.startswith("0 sats")

    txid = wallet.fund_bidding_wallet(FUNDING, fee_rate="Slow")
    assert wallet.widget.fund.fee.choice.currentText().startswith("Slow (~6 blocks)")
    assert txid in wallet.fund_message and wallet.fund_message.startswith("Sent")
    shown = wallet.expect_balance(FUNDING)
    assert (shown.confirmed, shown.unconfirmed) == (0, FUNDING)
    sandbox_post(app.root_url, "/sandbox/mine", {"blocks": 1})
    shown = wallet.refresh()
    assert (shown.total, shown.confirmed, shown.unconfirmed) == (FUNDING, FUNDING, 0)

    chooser = wallet.choose_coins()
    coins = chooser.coins()
    plain = [coin.outpoint for coin in coins if coin.choosable]
    assert plain and all(coin.amount.endswith(" sats") for coin in coins)
    chooser.tick(plain[0])
    assert chooser.summary.startswith("1 coin chosen: ")
    assert chooser.use() == (plain[0],)
    assert wallet.chosen_coins == (plain[0],)
    assert wallet.chosen_coins_text.startswith("Funding spends the coin you chose")
    wallet.let_the_wallet_choose()
    assert wallet.chosen_coins is None and wallet.chosen_coins_text == ""
    wallet.choose_coins().cancel()
    assert wallet.chosen_coins is None

    assert wallet.payment_link().startswith(f"bitcoin:{addresses.bidding}?")


def test_withdraw_page_withdraws_everything_at_a_typed_fee_rate(bidwallet_app: App) -> None:
    app = bidwallet_app
    assert app.keys is not None
    fund_bidding_wallet(app.harness, app.loop, FUNDING)
    page = app.withdraw
    shown = page.refresh()
    assert shown.balance == FUNDING and shown.destination == app.keys.payment.address
    assert shown.balance_text.startswith(f"{FUNDING:,} sats")
    assert page.fill(ALL, fee_rate=2) == []  # no open bids to leave uncovered
    assert page.widget.fee.rate() == 2

    done = page.withdraw_and_sign(ALL, fee_rate=2)
    assert done.status.startswith("Withdrawn ")  # the balance less the fee
    assert f"transaction {done.txid}" in done.status
    assert page.refresh().balance == 0


def test_inscription_bid_page_says_what_is_wrong_then_places(bidwallet_app: App) -> None:
    app = bidwallet_app
    assert app.root_url is not None
    with httpx.Client(base_url=app.root_url, timeout=60) as http:
        seller = http.get("/sandbox/addresses/qa-page-seller").json()["address"]
    inscription = sandbox_post(app.root_url, "/sandbox/inscriptions", {"address": seller})
    sandbox_post(app.root_url, "/sandbox/mine", {"blocks": 1})
    page = app.inscription_bid
    assert page.bids() == []

    assert page.fill("not-an-id", 9_000) == FieldErrors(
        strings.INSCRIPTION_BID_ID_INVALID, "Offer at least 10,000 sats for one inscription."
    )
    bid_id = page.place(inscription["inscriptionId"], 20_000)
    assert bid_id in page.status
    page.expect_state(bid_id, "open")
    (row,) = page.bids()
    assert (row.inscription_id, row.price, row.bid_id) == (
        inscription["inscriptionId"],
        "20,000 sats",
        bid_id,
    )
    assert page.state_of(bid_id) == strings.INSCRIPTION_BID_STATES["open"]


def test_failures_name_the_page_the_action_and_what_it_shows(bidwallet_app: App) -> None:
    """An empty bidding wallet: a withdrawal of more than it holds never enables Review, and
    the failure quotes the amount's error; a balance never reached says what was awaited."""
    app = bidwallet_app
    with pytest.raises(ScenarioFailure) as failure:
        app.withdraw.withdraw(1_000_000)
    text = str(failure.value)
    assert text.startswith("Withdraw page, withdraw: expected Review enabled within 2 s; ")
    assert (
        "it shows: " in text and "error 'The wallet holds 0 sats and the fee comes on top" in text
    )

    with pytest.raises(ScenarioFailure) as failure:
        app.wallet.expect_balance(5, timeout_ms=200)
    assert str(failure.value).startswith(
        "Wallet page, expect_balance: expected a total of 5 sats within 0.2 s"
    )
