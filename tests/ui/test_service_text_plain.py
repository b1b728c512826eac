"""Words a lying service names (a collection slug, a rune, a state, an error message) are
shown as written (security review). Qt guesses the format of a QLabel's text and of a tooltip
(`Qt.mightBeRichText`): a slug like <img src=...> or <a href=...> would be drawn as markup (an
image read from a local file, a link, text hidden or enlarged) instead of shown. A desktop
notification's body is read as markup by Linux notification servers (freedesktop
body-markup), so it goes there escaped."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.core.market_events import EventKind, MarketEvent
from app.net.marketplace_states import SellerListing
from app.services.activity import ActivityEntry
from app.services.listings_inventory import HeldItem
from app.ui.market_event_text import activity_text
from app.ui.models.activity_model import COL_MESSAGE, COL_TXID, ActivityTableModel
from app.ui.models.listings_model import ITEM, HeldItemsModel
from app.ui.models.review_model import Cell, RowsModel
from app.ui.notifications import tray_text
from app.ui.tabs.bid_confirm import _row_label as bid_confirm_row
from app.ui.tabs.listings_items import ListingMark
from app.ui.tabs.listings_relist import RelistDialog
from app.ui.widgets import message_label, set_message

HOSTILE = '<img src="/etc/hostname" width=4000><a href="https://evil.example">x</a> &amp;'


def seen(text: str) -> str:
    """What Qt draws for `text` where it guesses the format (a label, a tooltip)."""
    if not GuiQt.mightBeRichText(text):
        return text
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText()


@pytest.mark.parametrize("what", ["<img src=x>", "<b>big</b>", "a &lt; b"])
def test_an_activity_tooltip_shows_a_hostile_slug_as_written(what: str) -> None:
    message = activity_text(MarketEvent(EventKind.BID_FILLED, "b1", what, 120_000, 1, 0))
    assert what in message
    entry = ActivityEntry(
        at=datetime.now(UTC), action="market.bid_filled", ok=True, message=message, txid=HOSTILE
    )
    model = ActivityTableModel([entry])
    for column, shown in ((COL_MESSAGE, message), (COL_TXID, HOSTILE)):
        tooltip = model.data(model.index(0, column), Qt.ItemDataRole.ToolTipRole)
        assert seen(tooltip) == shown


@pytest.mark.parametrize("text", [HOSTILE, "Not placed: HTTP 400: <b>big</b>"])
def test_message_labels_show_a_service_message_as_written(qtbot: QtBot, text: str) -> None:
    label = message_label("error")
    qtbot.addWidget(label)
    set_message(label, text)
    assert label.textFormat() == Qt.TextFormat.PlainText
    made_elsewhere = QLabel()  # the status bar's error label, a tab's own label
    qtbot.addWidget(made_elsewhere)
    set_message(made_elsewhere, text)
    assert made_elsewhere.textFormat() == Qt.TextFormat.PlainText


def test_a_notification_body_carries_no_markup_where_the_desktop_reads_it() -> None:
    assert "<" not in tray_text(HOSTILE, "linux")
    assert seen(tray_text(HOSTILE, "linux")) == HOSTILE
    assert tray_text("1 × nodemonkes at 120,000 sats", "linux") == (
        "1 × nodemonkes at 120,000 sats"
    )
    assert tray_text(HOSTILE, "win32") == HOSTILE  # Windows and macOS show it as written
    assert tray_text(HOSTILE, "darwin") == HOSTILE


def test_the_relist_question_names_a_hostile_rune_as_written(qtbot: QtBot) -> None:
    item = HeldItem("ef" * 32 + ":1", runes='1 <img src="/etc/hostname">')
    listing = SellerListing("L", None, item.outpoint, 45_000, "active")
    dialog = RelistDialog([(item, ListingMark(True, listing))])
    qtbot.addWidget(dialog)
    assert "<img" in dialog.head.text()
    assert dialog.head.textFormat() == Qt.TextFormat.PlainText


def test_the_bid_question_rows_show_a_hostile_slug_as_written(qtbot: QtBot) -> None:
    label = bid_confirm_row("1 × <b>big</b> at 1 sats")
    qtbot.addWidget(label)
    assert label.textFormat() == Qt.TextFormat.PlainText


def test_table_tooltips_show_hostile_words_as_written(qtbot: QtBot) -> None:
    items = HeldItemsModel()
    item = HeldItem("ef" * 32 + ":1", runes="1 <b>X</b>")
    items.set_items([item])
    tip = items.data(items.index(0, ITEM), Qt.ItemDataRole.ToolTipRole)
    assert seen(tip) == f"1 <b>X</b> on {item.outpoint}"
    rows = RowsModel(["Owner"])
    rows.set_rows([[Cell("the service", tooltip=HOSTILE)], [Cell("<i>x</i>")]])
    for row, shown in ((0, HOSTILE), (1, "<i>x</i>")):
        assert seen(rows.data(rows.index(row, 0), Qt.ItemDataRole.ToolTipRole)) == shown
