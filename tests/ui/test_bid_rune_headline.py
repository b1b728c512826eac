"""The Bid tab's headline while a rune's etched spelling is not confirmed by ord: it does not
claim what the request places (Place is off, waiting for ord); it says it waits for the
spelling. A name ord refused claims nothing; the etched spelling gives the count and total."""

from __future__ import annotations

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from app.ui import strings
from app.ui.qa.actions import click, type_into
from app.ui.qa.harness import AppHarness, OptionsFactory
from app.ui.tabs.bid_form import RuneLookup
from tests.ui.test_bid_split import bid_tab_at_1024


def test_rune_headline_waits_for_the_etched_spelling(
    qtbot: QtBot,
    make_options: OptionsFactory,
    open_app: Callable[..., AppHarness],
) -> None:
    tab = bid_tab_at_1024(qtbot, make_options, open_app)
    form = tab.form
    click(qtbot, form.runes_radio)
    type_into(qtbot, form.slug, "bidwalletdemo")
    type_into(qtbot, form.price.edit, "30,000")
    assert form.rune_lookup()[0] is RuneLookup.PENDING
    # Pending: no claim of what the request places; it says what it waits for.
    assert "places" not in tab.count_label.text()
    assert tab.count_label.text() == strings.BID_PREVIEW_RUNE_SPELLING_PENDING
    assert not tab.place_button.isEnabled()
    # Failed: nothing is claimed either.
    form.mark_rune_failed("bidwalletdemo", "ord knows no rune named bidwalletdemo")
    assert tab.count_label.text() == ""
    # Etched (the field holds ord's spelling): now the request's count and total are true.
    form.mark_etched("bidwalletdemo")
    assert tab.count_label.text() == "This request places 1 bid for 30,000 sats in all."
