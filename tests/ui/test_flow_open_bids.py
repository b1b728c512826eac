"""Open bids: refreshed on the tab's timer and after actions, filtered, sorted, counted per
pool, and several cancelled at once after a confirmation, with a result per bid (against the
real sandbox). Also: 10,000 bids load in one model reset, sort as numbers and filter."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from app.core.bid_request import Trait
from app.net.marketplace_bids import BidListEntry, BidTrait
from app.services.bids import BidSpec, place_bid
from app.services.pacing import OffsetClock
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.dialogs.unlock import UnlockDialog
from app.ui.models.bids_model import (
    COL_ID,
    COL_POOL,
    COL_PRICE,
    COL_TRAIT,
    OpenBidsFilter,
    OpenBidsModel,
)
from app.ui.profile_session import profile_session
from app.ui.tabs.open_bids_confirm import ConfirmCancelDialog
from app.ui.tabs.open_bids_tab import OpenBidsTab
from tests.ui.conftest import AppHarness, OptionsFactory
from tests.ui.flows import (
    PASSWORD,
    SandboxClockSleeper,
    click,
    fund_bidding_wallet,
    open_funded_app,
    type_into,
    wait_new_dialog,
)
from tests.ui.gui_thread import GuiThreadWatch
from tests.ui.helpers import run_async


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


def _select_rows(qtbot: QtBot, tab: OpenBidsTab, rows: list[int]) -> None:
    """Click the first row, Ctrl+click the others (as a user selects several)."""
    for number, row in enumerate(rows):
        rect = tab.table.visualRect(tab.proxy.index(row, 0))
        modifier = Qt.KeyboardModifier.ControlModifier if number else Qt.KeyboardModifier.NoModifier
        qtbot.mouseClick(tab.table.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def test_open_bids_refresh_filter_sort_and_cancel_several(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    app, slug = funded.app, funded.assets.collection_slug
    fund_bidding_wallet(app, qloop, 1_000_000)
    session = profile_session(app.context)
    assert isinstance(session.clock, OffsetClock)
    session.use_time(session.clock, SandboxClockSleeper(funded.root_url, session.clock))
    _arrange_bids(app, qloop, slug)

    gui_thread.start()
    app.window.show_tab("open_bids")
    tab = app.window.tab("open_bids")
    assert isinstance(tab, OpenBidsTab)
    qtbot.waitUntil(lambda: tab.model.rowCount() == 6, timeout=20_000)
    assert tab.counts.text() == "6 open bids in 4 pools"  # the filter hides none
    pools = {
        tab.pools_model.index(r, 0).data(): tab.pools_model.index(r, 1).data()
        for r in range(tab.pools_model.rowCount())
    }
    assert pools == {
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
    qtbot.waitUntil(lambda: tab.model.rowCount() == 7, timeout=20_000)
    tab.state.timer.setInterval(30_000)

    # Filter and sort.
    type_into(qtbot, tab.filter, "sub1k")
    assert tab.proxy.rowCount() == 2 and tab.counts.text().endswith("(2 shown)")
    tab.filter.clear()
    header = tab.table.horizontalHeader()
    price_header = QPoint(
        header.sectionViewportPosition(COL_PRICE) + header.sectionSize(COL_PRICE) // 2,
        header.height() // 2,
    )
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=price_header)
    assert header.sortIndicatorSection() == COL_PRICE
    if header.sortIndicatorOrder() != Qt.SortOrder.AscendingOrder:
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=price_header)
    prices = [tab.proxy.index(r, COL_PRICE).data() for r in range(tab.proxy.rowCount())]
    assert prices == ["5,000", "6,000", "10,000", "10,000", "10,000", "20,000", "20,000"]

    # Locked, the password is asked before the question, never an error after it.
    app.context.wallet_lock.lock()
    qtbot.waitUntil(lambda: app.window.status.lock_button.text() == strings.STATUS_LOCKED)
    # Select the three 10,000 bids; "Keep them" cancels nothing.
    _select_rows(qtbot, tab, [2, 3, 4])
    chosen = tab.selected_ids()
    assert len(chosen) == 3 and tab.cancel_button.isEnabled()
    described = []  # how the confirmation and the results name each bid
    for row in (2, 3, 4):
        columns = (COL_POOL, COL_TRAIT, COL_PRICE, COL_ID)
        pool, trait, price, bid = (tab.proxy.index(row, column).data() for column in columns)
        what = f"{pool} [{trait}]" if trait else pool
        described.append(f"{what} · {price} sats · bid {bid}")
    before = len(app.dialogs)
    click(qtbot, tab.cancel_button)
    unlock = wait_new_dialog(qtbot, app, UnlockDialog, before)
    assert not any(isinstance(d, ConfirmCancelDialog) for d in app.dialogs[before:])
    type_into(qtbot, unlock.password, PASSWORD)
    qtbot.keyClick(unlock.password, Qt.Key.Key_Return)
    dialog = wait_new_dialog(qtbot, app, ConfirmCancelDialog, before)
    assert app.context.wallet_lock.unlocked
    assert dialog.list.count() == 3 and dialog.no_button.isDefault()
    assert sorted(dialog.list.item(r).text() for r in range(3)) == sorted(described)
    assert dialog.no_button.text() == "&Keep them"
    with qtbot.waitSignal(dialog.finished):
        click(qtbot, dialog.no_button)
    assert tab.model.rowCount() == 7 and not tab.results.isVisibleTo(tab)

    before = len(app.dialogs)
    click(qtbot, tab.cancel_button)
    dialog = wait_new_dialog(qtbot, app, ConfirmCancelDialog, before)
    assert dialog.yes_button.text() == "Cancel &3 bids"
    click(qtbot, dialog.yes_button)
    qtbot.waitUntil(lambda: tab.results.count() == 3, timeout=30_000)
    lines = [tab.results.item(r).text() for r in range(3)]
    assert sorted(lines) == sorted(f"✓ Cancelled: {line}" for line in described)
    assert tab.cancel_status.text() == "3 of 3 bids cancelled."
    qtbot.waitUntil(lambda: tab.model.rowCount() == 4, timeout=20_000)  # refreshed after it
    remaining = {tab.model.bid_id(r) for r in range(4)}
    assert not remaining & set(chosen)
    gui_thread.assert_not_blocked()

    with gui_thread.paused(), httpx.Client(base_url=funded.root_url, timeout=30) as http:
        body = http.get("/v1/address/bids", params={"address": funded.keys.ordinals.address})
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
