"""The Listings page object against the real sandbox: Select all saying what it left out, two
items listed at a price each through one review, their marks and Your listings as shown, End
listing of one; the offline round trip with the folder questions answered (signed in between
by the offline signer's own service call); and failures in words naming the page, the action,
what was expected and what the page showed instead."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.services.offline import sign_offline
from app.ui import strings
from app.ui.qa.app import App
from app.ui.qa.expect import ScenarioFailure
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.loop import run_async
from app.ui.qa.profiles import READY_TIMEOUT_MS, prepare_profile
from app.ui.qa.sandbox_faults import SandboxFaults
from app.wallet.acp_ledger import LEDGER_FILE, AcpLedger

FIRST, SECOND = 30_000, 45_000


def listed_at(price: int) -> str:
    return strings.LISTINGS_LISTED_AT.format(price=f"{price:,} sats")


def test_listings_page_lists_at_a_price_each_and_ends_one(bidwallet_app: App) -> None:
    app = bidwallet_app
    assert app.assets is not None
    page = app.listings.open()
    first, second, third = app.assets.inscription_ids[:3]
    assert {first, second} <= set(page.held())
    assert page.mark(first) == strings.LISTINGS_NOT_LISTED and not page.can_list()

    # Select all ticks the inscriptions, leaving the runes out, and says so.
    assert strings.LISTINGS_LEFT_OUT_RUNES in page.select_all()
    assert set(page.ticked()) == set(app.assets.inscription_ids)

    # A price each, typed in the rows' cells: one review of both, listed.
    said = page.list_items([first, second], [FIRST, SECOND])
    assert said == page.status == strings.counted(strings.LISTINGS_DONE, 2)
    assert (page.mark(first), page.mark(second)) == (listed_at(FIRST), listed_at(SECOND))
    active = strings.LISTINGS_STATES["active"]
    assert sorted(row[1:3] for row in page.your_listings()) == [
        (f"{FIRST:,} sats", active),
        (f"{SECOND:,} sats", active),
    ]

    # End the second's listing: chosen in Your listings, reviewed, sent.
    page.choose_listing(second)
    review = page.start_end_listing(fee_rate=2)
    assert page.widget.end_fee.rate() == 2 and review.can_approve
    said = page.approve(review)
    assert said.startswith("Sent ") and said == page.status
    assert page.mark(second) == strings.LISTINGS_NOT_LISTED
    assert page.mark(first) == listed_at(FIRST)
    chosen = page.chosen_listing_row()  # still chosen after the lists were read again
    assert chosen is not None and chosen[2] == strings.LISTINGS_STATES["item_moved"]

    # A relist question expected where none is asked fails saying what opened instead.
    with pytest.raises(ScenarioFailure) as failure:
        page.start_relisting([third], SECOND)
    assert str(failure.value) == (
        "Listings page, start_relisting: expected the question before relisting; the review"
        " opened instead (nothing ticked is listed)"
    )
    assert app.review().reject() == strings.FLOW_CANCELLED


def test_listings_page_exports_and_imports_the_signed_folder(
    bidwallet_app: App, tmp_path: Path
) -> None:
    app = bidwallet_app
    assert app.assets is not None and app.keys is not None
    page = app.listings.open()
    item = app.assets.inscription_ids[0]
    folder = tmp_path / "to-sign"

    said = page.export([item], FIRST, folder)
    assert said == strings.counted(strings.LISTINGS_EXPORTED, 1, folder=folder)
    assert page.mark(item) == strings.LISTINGS_NOT_LISTED  # exported, nothing listed
    shown = page.show_export_qr()  # the export as an animated QR code, for the other machine
    assert shown.isVisible()
    shown.reject()

    offline_ledger = AcpLedger(tmp_path / "offline" / LEDGER_FILE)
    (tmp_path / "offline").mkdir()
    run_async(app.loop, sign_offline(folder, app.keys, offline_ledger))

    said = page.import_signed(folder)
    assert said == strings.counted(strings.LISTINGS_DONE, 1)
    assert page.mark(item) == listed_at(FIRST)


def test_a_listings_page_that_never_loads_fails_in_words(
    qtbot: QtBot,
    bidwallet_loop: asyncio.AbstractEventLoop,
    bidwallet_data_dir: Path,
    bidwallet_options: OptionsFactory,
    bidwallet_open_app: Callable[..., AppHarness],
) -> None:
    """A profile whose service is never reached: the held items are never read."""
    prepare_profile(bidwallet_data_dir)
    harness = bidwallet_open_app(bidwallet_options())
    qtbot.waitSignal(harness.window.controller.ready, timeout=READY_TIMEOUT_MS).wait()
    page = App(harness, qtbot, bidwallet_loop).listings
    with pytest.raises(ScenarioFailure) as failure:
        page.open(timeout_ms=300)
    said = str(failure.value)
    assert said.startswith("Listings page, open: expected the held items read within 0.3 s")
    assert "; it shows: " in said  # the tab's messages (or "no message")
    with pytest.raises(ScenarioFailure, match="Listings page, choose_listing: no 'Active' listing"):
        page.choose_listing("ab" * 32 + "i0")


def test_a_listing_the_service_cannot_prepare_fails_at_once_quoting_the_tab(
    bidwallet_app: App, bidwallet_faults: SandboxFaults
) -> None:
    app = bidwallet_app
    assert app.assets is not None
    page = app.listings.open()
    bidwallet_faults.error("POST", "/v1/intent/secure-*", status=503, times=None)
    with pytest.raises(ScenarioFailure) as failure:
        page.start_listing([app.assets.inscription_ids[0]], FIRST)
    said = str(failure.value)
    prefix = "Listings page, start_listing: expected the review to open; the tab says: error "
    assert said == prefix + repr(page.status), said
    assert page.status.startswith("Not listed: ")
    assert bidwallet_faults.fired()  # the service was asked, and failed
