"""The Strategies page and the strategy editor page against the real sandbox: a strategy kept
from a Bid tab's bid (previewed, approved without starting), started from the tab, stopped
through its question with its bids cancelled, approved again through Edit…, deleted; and the
editor failing in words when its fields are wrong."""

from __future__ import annotations

import pytest

from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.sandbox import fund_bidding_wallet

PRICE = 12_000


def test_a_strategy_kept_from_a_bid_is_approved_started_stopped_and_deleted(
    bidwallet_app: App,
) -> None:
    app = bidwallet_app
    assert app.assets is not None
    slug = app.assets.collection_slug
    fund_bidding_wallet(app.harness, app.loop, 300_000)
    page = app.strategies

    editor = page.keep_bid(slug, PRICE, 1)
    name = editor.strategy_name
    assert slug in name
    preview = editor.preview()
    assert slug in preview and f"{PRICE:,} sats" in preview
    approval = editor.next()
    assert f"Collection {slug}: at most {PRICE:,} sats per item" in approval
    editor.approve()  # approved, not started
    page.open()
    assert page.expect_strategy(name, strings.STRATEGY_STOPPED).name == name

    said = page.start(name)
    assert said == strings.counted(strings.STRATEGIES_STARTED, 1, names=name)
    page.expect_strategy(name, strings.STRATEGY_RUNNING)
    assert [pool[0] for pool in page.pools()] == [slug]
    (entry,) = page.expect_journal()  # its first check: the bid placed
    assert entry[5] == "Placed", entry

    question = page.ask_stop(name)
    assert "revokes its approval" in question.text
    said = question.cancel_bids()
    assert said == strings.counted(strings.STRATEGIES_STOPPED_CANCELLED, 1, strategy=name)
    page.expect_strategy(name, strings.STRATEGY_REVOKED)

    said = page.approve_edited(name)
    assert said.startswith(f"{name} saved and approved until ")
    assert said.endswith("; press Start to run it.")
    page.expect_strategy(name, strings.STRATEGY_STOPPED)

    said = page.delete(name)
    assert said == strings.STRATEGIES_DELETED.format(strategy=name)
    page.expect("delete", "the strategy gone", lambda: name not in [r.name for r in page.rows()])


def test_the_editor_fails_in_words_on_a_wrong_name(bidwallet_app: App) -> None:
    app = bidwallet_app
    assert app.assets is not None
    fund_bidding_wallet(app.harness, app.loop, 300_000)
    editor = app.strategies.keep_bid(app.assets.collection_slug, PRICE, 1)
    editor.set_name("my strategy!")
    with pytest.raises(ScenarioFailure) as failure:
        editor.next()
    said = str(failure.value)
    assert said.startswith("Strategy editor page, next: expected the approval step within 1 s")
    assert f"error {strings.EDITOR_NAME_INVALID!r}" in said
    assert f"error {strings.EDITOR_FIX_FIRST!r}" in said
    editor.cancel()
    assert app.strategies.open().rows() == []
