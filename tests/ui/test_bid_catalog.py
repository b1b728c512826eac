"""The Bid tab's catalog: a collection added after the list was loaded is looked up by its
slug through the public `GET /v1/collection` (name, size, traits into the picker); a slug the
service does not know is said as such and cannot be placed; off the sandbox the field says the
service lists no collections, and a service without a catalog leaves traits to be typed as
"type: value" (and the bid placeable). Until a collection is known, the traits are said to
come with it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.services.catalog import CatalogAnswer
from app.services.sandbox_process import SandboxProcess
from app.ui import strings
from app.ui.qa.actions import type_into, widget_top
from app.ui.qa.gui_thread import GuiThreadWatch
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.qa.pages.bid import bid_tab_ready
from app.ui.qa.profiles import open_funded_app
from app.ui.qa.sandbox import fund_bidding_wallet, new_collection
from app.ui.tabs.bid_catalog import BidCatalog
from app.ui.tabs.bid_tab import BidTab


def commit_slug(qtbot: QtBot, tab: BidTab, slug: str) -> None:
    tab.form.slug.clear()
    type_into(qtbot, tab.form.slug, slug)
    qtbot.keyClick(tab.form.slug, Qt.Key.Key_Return)


def test_a_slug_is_looked_up_and_an_unknown_one_said(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
    gui_thread: GuiThreadWatch,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    fund_bidding_wallet(funded.app, qloop, 100_000)
    tab = bid_tab_ready(qtbot, funded.app, funded.assets.collection_slug)
    late = new_collection(funded.root_url, {"Hat": ["Crown", "Cap"], "Eyes": ["Laser"]})
    assert late not in tab.form.slug_names.stringList()  # added after the list was read
    gui_thread.start()

    picker = tab.form.traits
    assert picker.count_label.text() == strings.BID_TRAITS_WAIT  # no collection yet
    price_at = widget_top(tab.form.price)
    commit_slug(qtbot, tab, late)
    qtbot.waitUntil(lambda: picker.available() == 3, timeout=20_000)
    assert tab.form.slug_hint.text() == f"{late}: 0 items."
    assert widget_top(tab.form.price) == price_at  # the line said it where a blank line was
    assert late in tab.form.slug_names.stringList()

    commit_slug(qtbot, tab, "no-such-collection")
    unknown = strings.BID_CATALOG_UNKNOWN.format(slug="no-such-collection")
    qtbot.waitUntil(lambda: tab.form.slug_hint.text() == unknown, timeout=20_000)
    assert picker.available() == 0 and picker.isEnabled()  # traits may still be typed
    type_into(qtbot, tab.form.price.edit, "10,000")
    assert not tab.place_button.isEnabled()  # the service would refuse it
    no_collection = strings.BID_PREVIEW_NO_COLLECTION.format(slug="no-such-collection")
    assert tab.message.toPlainText() == f"Nothing to sign: {no_collection}"
    assert tab.pools.rowCount() == 0
    commit_slug(qtbot, tab, late)  # a known one again: placeable
    qtbot.waitUntil(tab.place_button.isEnabled, timeout=10_000)
    # The refusal went with its slug; the known one is described again.
    qtbot.waitUntil(lambda: tab.form.slug_hint.text() == f"{late}: 0 items.", timeout=10_000)
    type_into(qtbot, tab.form.slug, "x")  # edited: nothing said yet of the new slug
    assert tab.form.slug_hint.text() == ""
    gui_thread.assert_not_blocked()


def test_without_a_catalog_traits_are_typed(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    fund_bidding_wallet(funded.app, qloop, 100_000)
    tab = bid_tab_ready(qtbot, funded.app)
    form = tab.form
    form.set_collections([], searchable=False)  # as off the sandbox with no bids yet
    form.slug.clear()
    assert form.slug_hint.text() == strings.BID_CATALOG_SEARCH_NONE

    type_into(qtbot, form.slug, "some-collection")
    assert isinstance(tab.catalog, BidCatalog)
    tab.catalog._show("some-collection", CatalogAnswer(offered=False))
    assert form.slug_hint.text() == strings.BID_CATALOG_NOT_OFFERED
    picker = form.traits
    assert picker.isEnabled() and picker.count_label.text() == strings.BID_TRAITS_TYPE
    assert picker.search.placeholderText() == strings.BID_TRAITS_TYPED_PLACEHOLDER

    type_into(qtbot, picker.search, "Background")
    qtbot.keyClick(picker.search, Qt.Key.Key_Return)
    assert picker.count_label.text() == strings.BID_TRAITS_TYPED_BAD
    picker.search.clear()
    type_into(qtbot, picker.search, " Background :  Blue ")
    qtbot.keyClick(picker.search, Qt.Key.Key_Return)
    assert picker.selected() == [("Background", "Blue")]
    assert picker.search.text() == ""
    assert form.draft(0).traits == (("Background", "Blue"),)
    type_into(qtbot, form.price.edit, "10,000")
    assert tab.place_button.isEnabled()  # no catalog to say it is unknown: the service decides


def test_the_sandboxs_listed_collection_gets_its_trait_counts_keeping_what_is_ticked(
    qtbot: QtBot,
    qloop: asyncio.AbstractEventLoop,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
    sandbox: SandboxProcess,
) -> None:
    """The sandbox's list names traits without counts: the slug, once chosen, is asked about
    once (/v1/collection with categoryAttributes, as on the public service) without a
    "looking up" note, the picker then shows how many items carry each trait, and a trait
    ticked meanwhile stays ticked."""
    funded = open_funded_app(qtbot, open_app, make_options(), sandbox, qloop)
    fund_bidding_wallet(funded.app, qloop, 100_000)
    slug = funded.assets.collection_slug
    tab = bid_tab_ready(qtbot, funded.app, slug)
    picker = tab.form.traits
    type_into(qtbot, tab.form.slug, slug)
    qtbot.waitUntil(lambda: picker.available() > 0, timeout=10_000)
    first = picker.pairs()[0]
    assert picker.set_checked(first, True)
    qtbot.keyClick(tab.form.slug, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "(" in picker.model.item(0).text(), timeout=20_000)
    assert picker.selected() == [first]
    assert tab.form.slug_hint.text() != strings.BID_CATALOG_LOOKING.format(slug=slug)
