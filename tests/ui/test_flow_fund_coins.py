"""Fund while ord has not indexed the newest coins, against the real sandbox answering like real
ord (its default: a mempool output is `indexed: false`): the review says which coins were left
aside and why; "Choose coins…" lists every coin with its amount, confirmations and what it
carries, the ones that must not be spent greyed with no box; the ticked coin is exactly what
the funding spends."""

from __future__ import annotations

import httpx

from app.services.sandbox_demo import DEMO_FAUCET_SATS
from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.pages.wallet import WalletPage
from app.ui.qa.sandbox import sandbox_post
from app.ui.tabs.wallet_coins import COL_AMOUNT, COL_CARRIES, COL_COIN

AMOUNT = 120_000
FRESH = 300_000


def test_fund_skips_unindexed_coins_and_spends_the_coins_chosen(
    bidwallet_app: App, bidwallet_gui_thread: GuiThreadWatch
) -> None:
    app, gui_thread = bidwallet_app, bidwallet_gui_thread
    assert app.keys is not None and app.assets is not None and app.root_url is not None
    root, payment = app.root_url, app.keys.payment.address
    confirmed = f"{app.assets.faucet_txid}:0"
    inscribed = sandbox_post(root, "/sandbox/inscriptions", {"address": payment})["outpoint"]
    sandbox_post(root, "/sandbox/mine", {"blocks": 1})
    # The sandbox's ord answers like real ord: the fresh coin is not indexed until mined.
    paid = sandbox_post(root, "/sandbox/faucet", {"address": payment, "sats": FRESH})
    fresh = f"{paid['txid']}:{paid['vout']}"
    gui_thread.start()
    txid = _scenario(app.wallet, confirmed, inscribed, fresh)
    gui_thread.assert_not_blocked()
    with gui_thread.paused(), httpx.Client(base_url=root, timeout=30) as http:
        tx = http.get(f"/esplora/tx/{txid}").json()
    assert [f"{i['txid']}:{i['vout']}" for i in tx["vin"]] == [confirmed]


def _scenario(wallet: WalletPage, confirmed: str, inscribed: str, fresh: str) -> str:
    """The funding's txid."""
    tab = wallet.widget
    fund = tab.fund

    # Left to itself the wallet funds from the confirmed coin; the review says what it left.
    review = wallet.fund(AMOUNT)
    notes = review.notes
    assert "1 coin carries inscriptions or runes and was left untouched." in notes
    assert any(
        note.startswith(f"1 coin ({FRESH:,} sats) is waiting for the indexer and was not used")
        for note in notes
    )
    assert not any("you chose" in note for note in notes)
    assert review.reject() == strings.FLOW_CANCELLED
    wallet.qtbot.waitUntil(fund.fund_button.isEnabled)

    # Coin control: every coin listed; only the plain indexed one can be ticked.
    chooser = wallet.choose_coins()
    dialog = chooser.dialog
    coins = {coin.outpoint: coin for coin in chooser.coins()}
    assert len(coins) == 3
    assert not dialog.use_button.isEnabled()  # nothing ticked yet
    assert coins[confirmed].amount == f"{DEMO_FAUCET_SATS:,} sats"
    assert int(coins[confirmed].confirmations) >= 2
    assert coins[confirmed].carries == "Nothing"
    # A greyed coin says why on its second line, not only in a tooltip.
    assert coins[inscribed].carries.startswith("1 inscription (")
    assert coins[inscribed].carries.endswith("\nCannot be chosen: funding never spends it.")
    assert (coins[fresh].confirmations, coins[fresh].carries) == (
        "unconfirmed",
        "Unknown: waiting for the indexer\nCannot be chosen until ord indexes it.",
    )
    # The coin id shortened as the review shows it, whole in its tooltip; Carries readable.
    coin_item = dialog.table.item(dialog.row_of(confirmed), COL_COIN)
    assert coin_item is not None and coin_item.toolTip() == confirmed
    assert coin_item.text() == f"{confirmed[:12]}…{confirmed[-12:]}"
    carries_width = dialog.table.columnWidth(COL_CARRIES)
    assert carries_width >= dialog.table.fontMetrics().horizontalAdvance(
        "Cannot be chosen: funding never spends it."
    )
    assert coins[confirmed].choosable
    assert not coins[inscribed].choosable and not coins[fresh].choosable
    waiting_item = dialog.table.item(dialog.row_of(fresh), COL_AMOUNT)
    assert waiting_item is not None and "not indexed" in waiting_item.toolTip()
    # Space on the plain coin ticks it, as a click on its box would.
    chooser.tick(confirmed)
    assert dialog.chosen() == (confirmed,)
    assert chooser.summary == f"1 coin chosen: {DEMO_FAUCET_SATS:,} sats."
    assert chooser.use() == (confirmed,)
    assert wallet.chosen_coins == (confirmed,)
    assert wallet.chosen_coins_text == (
        f"Funding spends the coin you chose: {DEMO_FAUCET_SATS:,} sats."
    )
    assert fund.any_coins_button.isVisibleTo(tab)

    # The review says the chosen coin is spent; Sign broadcasts exactly it.
    review = wallet.fund(AMOUNT)
    assert f"Spends the coin you chose ({DEMO_FAUCET_SATS:,} sats)." in review.notes
    assert not any("waiting for the indexer" in note for note in review.notes)
    review.approve()
    txid = fund.last_txid
    assert txid is not None
    assert wallet.chosen_coins is None  # spent: the next funding lets the wallet choose
    assert not fund.any_coins_button.isVisibleTo(tab)
    return txid
