"""Live updates against a lying service (security review): it controls the readings, so it
controls how many events each one makes. A reading of thousands of fills must not become
thousands of desktop notifications, nor grow the window's memory without bound (the
notifications kept, the Activity table's rows); every event is still recorded."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.core.market_events import EventKind, MarketEvent
from app.services.activity import MAX_ENTRIES, ActivityEntry
from app.services.profiles import AppProfile
from app.ui import strings
from app.ui.context import AppContext
from app.ui.models.activity_model import ActivityTableModel
from app.ui.notifications import MAX_KEPT_SHOWN, Notifier
from app.ui.qa.harness import OptionsFactory
from app.ui.state.market_watch import MAX_NOTIFIED_PER_READING, MarketWatch


def fill(number: int) -> MarketEvent:
    return MarketEvent(EventKind.BID_FILLED, f"bid-{number}", "nodemonkes", 120_000, 1, 0)


@pytest.fixture
def watch(qtbot: QtBot, make_options: OptionsFactory) -> MarketWatch:
    context = AppContext(make_options())
    context.set_profile(AppProfile.sandbox())
    window = QWidget()
    qtbot.addWidget(window)
    watch = MarketWatch(context)
    watch.notifier = Notifier(context, window)
    return watch


def test_a_reading_full_of_events_makes_a_few_notifications_and_one_summary(
    watch: MarketWatch,
) -> None:
    watch.tell([fill(n) for n in range(2_000)])
    assert watch.notifier is not None
    shown = watch.notifier.shown
    assert len(shown) == MAX_NOTIFIED_PER_READING + 1
    more = 2_000 - MAX_NOTIFIED_PER_READING
    assert shown[-1] == (
        strings.LIVE_MORE_EVENTS_TITLE,
        strings.counted(strings.LIVE_MORE_EVENTS, more),
    )
    assert watch.context.activity is not None  # every event is still in the Activity log
    assert len(watch.context.activity.entries()) == 2_000


def test_a_few_events_are_each_told(watch: MarketWatch) -> None:
    watch.tell([fill(n) for n in range(MAX_NOTIFIED_PER_READING)])
    assert watch.notifier is not None
    assert len(watch.notifier.shown) == MAX_NOTIFIED_PER_READING
    assert all(title == strings.LIVE_BID_FILLED for title, _ in watch.notifier.shown)


def test_the_notifications_kept_stay_bounded(watch: MarketWatch) -> None:
    assert watch.notifier is not None
    for number in range(MAX_KEPT_SHOWN * 3):
        watch.tell([fill(number)])
    assert len(watch.notifier.shown) == MAX_KEPT_SHOWN
    assert watch.notifier.shown[-1][1].startswith("1 × nodemonkes")


def test_the_activity_table_keeps_no_more_rows_than_the_log() -> None:
    model = ActivityTableModel()
    for number in range(MAX_ENTRIES + 50):
        model.append(ActivityEntry(at=datetime.now(UTC), action=f"market.{number}", ok=True))
    assert model.rowCount() == MAX_ENTRIES
    assert model.entry(0).action == "market.50"  # the oldest go, as in the log
    assert model.entry(MAX_ENTRIES - 1).action == f"market.{MAX_ENTRIES + 49}"


@pytest.mark.parametrize(
    "event",
    [
        MarketEvent(EventKind.BID_ENDED, "b1", "nodemonkes", 1_000, 1, reason="x" * 100_000),
        MarketEvent(EventKind.LISTING_ENDED, "l1", "ab" * 32 + "i0", 1_000, reason="y" * 100_000),
    ],
)
def test_a_state_of_any_length_makes_a_short_notification(
    watch: MarketWatch, event: MarketEvent
) -> None:
    # The state is the service's own word when it is not one we know: it is told shortened.
    watch.tell([event])
    assert watch.notifier is not None
    ((_, detail),) = watch.notifier.shown
    assert len(detail) < 200


def test_control_and_direction_characters_are_not_told(watch: MarketWatch) -> None:
    # A right-to-left override in a slug would show '… at 120,000 sats' reversed, a newline
    # would start a line of the service's own in the notification.
    slug = "pun\u202eks\nBid"
    watch.tell([MarketEvent(EventKind.BID_FILLED, "b1", slug, 120_000, 1, 0)])
    assert watch.notifier is not None
    ((_, detail),) = watch.notifier.shown
    assert detail.isprintable() and "pun" in detail and "ks" in detail
