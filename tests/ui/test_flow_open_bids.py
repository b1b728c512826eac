"""Open bids: refreshed on the tab's timer and after actions, filtered, sorted, counted per
pool, and several cancelled at once after a confirmation, with a result per bid (against the
real sandbox). Also: 10,000 bids load in one model reset, sort as numbers and filter."""

from __future__ import annotations

import asyncio

import httpx
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from app.core.bid_request import Trait
from app.net.marketplace_bids import BidListEntry, BidTrait
from app.services.bids import BidSpec, place_bid
from app.services.pacing import OffsetClock
from app.ui import strings
from app.ui.models.bids_model import COL_PRICE, OpenBidsFilter, OpenBidsModel
from app.ui.profile_session import profile_session
from app.ui.qa.app import App
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness
from app.ui.qa.loop import run_async
from app.ui.qa.sandbox import SandboxClockSleeper, fund_bidding_wallet
from app.ui.tabs.open_bids_confirm import ConfirmCancelDialog


def _arrange_bids(app: AppHarness, loop: asyncio.AbstractEventLoop, slug: str) -> None:
    session = profile_session(app.context)
    ctx = session.signing_context()
    expiry = ctx.clock.now_ms() + 3_600_000
    for spec in (
        BidSpec.collection(slug, 10_000, 3, expiry),
        BidSpec.trait(slug, [Trait("Hat", "Cap"), Trait("Eyes", "Laser")], 20_000, 1, expiry),
        BidSpec.collection("sub1k", 5_000, 1, expiry),
    ):
        run_async(loop, place_bid(ctx, spec))


def test_open_bids_refresh_filter_sort_and_cancel_several(
    bidwallet_app: App, gui_thread: GuiThreadWatch
) -> None:
    app, qtbot, qloop = bidwallet_app, bidwallet_app.qtbot, bidwallet_app.loop
    keys, assets, root = app.keys, app.assets, app.root_url
    assert keys is not None and assets is not None and root is not None
    slug = assets.collection_slug
    fund_bidding_wallet(app.harness, qloop, 1_000_000)
    session = profile_session(app.context)
    assert isinstance(session.clock, OffsetClock)
    session.use_time(session.clock, SandboxClockSleeper(root, session.clock))
    _arrange_bids(app.harness, qloop, slug)

    gui_thread.start()
    bids = app.open_bids.ready(count=6)
    tab = bids.tab
    assert bids.counts == "6 open bids in 4 pools"  # the filter hides none
    assert bids.pools() == {
        slug: "3",
        f"{slug} [Eyes: Laser]": "1",
        f"{slug} [Hat: Cap]": "1",
        "sub1k": "1",
    }

    # The timer refreshes: a bid placed elsewhere shows up without any click.
    tab.state.timer.setInterval(100)
    ctx = session.signing_context()
    later = BidSpec.collection("sub1k", 6_000, 1, ctx.clock.now_ms() + 3_600_000)
    run_async(qloop, place_bid(ctx, later))
    del ctx
    bids.wait_rows(7)
    tab.state.timer.setInterval(30_000)

    # Filter and sort.
    bids.filter("sub1k")
    assert len(bids.rows()) == 2 and bids.counts.endswith("(2 shown)")
    bids.filter("")
    header = tab.table.horizontalHeader()
    price_header = QPoint(
        header.sectionViewportPosition(COL_PRICE) + header.sectionSize(COL_PRICE) // 2,
        header.height() // 2,
    )
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=price_header)
    assert header.sortIndicatorSection() == COL_PRICE
    if header.sortIndicatorOrder() != Qt.SortOrder.AscendingOrder:
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=price_header)
    prices = [row.price for row in bids.rows()]
    assert prices == ["5,000", "6,000", "10,000", "10,000", "10,000", "20,000", "20,000"]

    # Locked, the password is asked before the question, never an error after it.
    app.context.wallet_lock.lock()
    qtbot.waitUntil(lambda: app.window.status.lock_button.text() == strings.STATUS_LOCKED)
    # Select the three 10,000 bids; "Keep them" cancels nothing.
    bids.select(2, 3, 4)
    chosen = tab.selected_ids()
    assert len(chosen) == 3 and tab.cancel_button.isEnabled()
    described = [row.described for row in bids.rows()[2:5]]  # as the question names them
    before = len(app.harness.dialogs)
    bids.press_cancel()
    unlock = app.unlock_prompt(before)
    assert not any(isinstance(d, ConfirmCancelDialog) for d in app.harness.dialogs[before:])
    assert unlock.unlock() is None
    question = bids.question()
    assert app.context.wallet_lock.unlocked
    assert len(question.lines) == 3 and question.dialog.no_button.isDefault()
    assert sorted(question.lines) == sorted(described)
    assert question.dialog.no_button.text() == "&Keep them"
    question.keep()
    kept = bids.outcome()
    assert kept.kept and sorted(kept.asked) == sorted(described)
    assert tab.model.rowCount() == 7 and not tab.results.isVisibleTo(tab)

    bids.press_cancel()
    question = bids.question()
    assert question.dialog.yes_button.text() == "Cancel &3 bids"
    question.cancel_bids()
    done = bids.outcome()
    assert sorted(done.results) == sorted(f"✓ Cancelled: {line}" for line in described)
    assert done.ok and done.said == "3 of 3 bids cancelled." == bids.status
    bids.wait_rows(4)  # refreshed after it
    remaining = set(bids.bid_ids())
    assert not remaining & set(chosen)
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=root, timeout=30) as http:
        body = http.get("/v1/address/bids", params={"address": keys.ordinals.address})
    listed = {str(r["bid_id"]["$oid"] if isinstance(r["bid_id"], dict) else r["bid_id"])
              for r in body.json()["data"]["results"]}  # fmt: skip
    assert listed == remaining
    cancels = [e for e in app.context.activity.entries() if e.action == "bids.cancel"]  # type: ignore[union-attr]
    assert len(cancels) == 1 and cancels[0].ok and cancels[0].message == "3 of 3 cancelled"


def _entries(count: int) -> list[BidListEntry]:
    entries = []
    for n in range(count):
        trait = BidTrait("Hat", f"h{n % 7}") if n % 3 == 0 else None
        entries.append(
            BidListEntry(
                bid_id=f"{n:024x}",
                type="collection",
                price=1_000 * (1 + (n * 7919) % 997),
                quantity=1,
                expiration_ms=1_900_000_000_000 + n,
                collection_slug=f"col-{n % 40}",
                attribute=trait,
            )
        )
    return entries


def test_ten_thousand_bids_load_in_one_reset_sort_as_numbers_and_filter(qtbot: QtBot) -> None:
    model, proxy = OpenBidsModel(), OpenBidsFilter()
    proxy.setSourceModel(model)
    resets: list[int] = []
    inserts: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    model.rowsInserted.connect(lambda *_: inserts.append(1))
    model.set_bids(_entries(10_000))
    assert (len(resets), inserts, model.rowCount()) == (1, [], 10_000)
    proxy.sort(COL_PRICE, Qt.SortOrder.DescendingOrder)
    top = [proxy.index(r, COL_PRICE).data(Qt.ItemDataRole.UserRole + 1) for r in range(50)]
    assert top == sorted(top, reverse=True) and top[0] == 997_000
    proxy.set_needle("HAT: H3")
    expected = sum(1 for n in range(10_000) if n % 3 == 0 and n % 7 == 3)
    assert proxy.rowCount() == expected
    proxy.set_needle("")
    assert proxy.rowCount() == 10_000


def test_filter_finds_a_rune_bid_by_its_letters_whatever_the_spacers(qtbot: QtBot) -> None:
    model, proxy = OpenBidsModel(), OpenBidsFilter()
    proxy.setSourceModel(model)
    rune = BidListEntry(bid_id="r1", type="rune", price=5_000, rune_name="UNCOMMON•GOODS")
    other = BidListEntry(bid_id="r2", type="rune", price=6_000, rune_name="DOG•GO•TO•THE•MOON")
    collection = BidListEntry(bid_id="c1", type="collection", collection_slug="uncommongoods")
    model.set_bids([rune, other, collection])

    def shown(needle: str) -> set[str]:
        proxy.set_needle(needle)
        return {model.bid_id(proxy.mapToSource(proxy.index(r, 0)).row())
                for r in range(proxy.rowCount())}  # fmt: skip

    # the slug "uncommongoods" holds the letters as plain text, so the plain substring
    # test finds it too; spaced spellings find only the rune
    assert shown("UNCOMMONGOODS") == {"r1", "c1"}
    assert shown("uncommon goods") == {"r1"}
    assert shown("UNCOMMON•GOODS") == {"r1"}
    assert shown("UNCOMMON.GOODS") == {"r1"}
    assert shown("commongoo") == {"r1", "c1"}
    assert shown("dogg ototh") == {"r2"}
    assert shown("UNCOMMONGOODSX") == set()
    assert shown("") == {"r1", "r2", "c1"}
