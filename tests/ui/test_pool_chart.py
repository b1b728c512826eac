"""The pool chart is a chart: a name and an amount per pool, bars on one scale with round
amounts on an axis below, and the balance as a labelled line across every bar. Checked on the
computed geometry (what is drawn where), not on pixels; its colours read on both themes."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from app.ui.theme import COLORS
from app.ui.widgets.pool_chart import MIN_BAR, PoolBar, PoolChart, amount_label, nice_step

BALANCE = 400_000
BARS = [
    PoolBar("pixel-punks", 183_000, BALANCE, 3),
    PoolBar("sub10k", 1_000, BALANCE, 1),
    PoolBar("pixel-punks [Hat: Crown] with a very long trait name", 450_000, BALANCE, 5),
]


@pytest.fixture
def chart(qtbot: QtBot) -> PoolChart:
    widget = PoolChart()
    qtbot.addWidget(widget)
    widget.set_bars(BARS)
    widget.resize(420, widget.sizeHint().height())
    return widget


def test_the_axis_has_round_amounts_that_cover_every_bar_and_do_not_overlap(
    chart: PoolChart,
) -> None:
    layout = chart.chart_layout()
    amounts = [t.amount for t in layout.ticks]
    assert amounts[0] == 0 and amounts == sorted(amounts) and len(amounts) >= 3
    assert layout.scale_max == amounts[-1] >= 450_000
    steps = {b - a for a, b in itertools.pairwise(amounts)}
    (step,) = steps
    assert str(step).rstrip("0") in {"1", "2", "25", "5"}  # a round step
    assert [nice_step(span) for span in (400_000, 470_000, 7, 1)] == [100_000, 200_000, 2, 1]
    assert [t.label for t in layout.ticks][:2] == ["0 sats", amount_label(amounts[1])]
    rects = [t.label_rect for t in layout.ticks]
    assert all(a.right() < b.left() for a, b in itertools.pairwise(rects))
    assert all(r.left() >= 0 and r.right() < chart.width() for r in rects)
    assert all(r.top() > layout.axis_y for r in rects)  # below the axis
    assert layout.ticks[0].x == layout.plot.left() and layout.ticks[-1].x == layout.plot.right()


def test_bars_are_on_the_axis_scale_and_the_balance_line_is_labelled(chart: PoolChart) -> None:
    layout = chart.chart_layout()
    plot, scale = layout.plot, layout.scale_max
    expected_x = plot.left() + round((plot.width() - 1) * BALANCE / scale)
    assert layout.balance == BALANCE and layout.balance_x == expected_x
    assert layout.balance_label == "Your balance: 400,000 sats"
    label = layout.balance_label_rect
    assert label.left() <= layout.balance_x <= label.right() and label.bottom() < plot.top()
    big, small, over = layout.bars
    assert abs(big.filled.width() - plot.width() * 183_000 / scale) <= 2
    assert small.filled.width() == MIN_BAR  # 1,000 sats still shows as a stub, not a dot
    assert over.filled.right() > layout.balance_x  # past the balance: over it
    assert [b.value for b in layout.bars] == [
        "183,000 sats · 3 bids",
        "1,000 sats · 1 bid",
        "450,000 sats · 5 bids",
    ]
    assert big.label == "pixel-punks" and "…" in over.label  # a long name elides, the value stays
    tops = [b.label_rect.top() for b in layout.bars]
    assert tops == sorted(tops) and all(b.track.bottom() < layout.axis_y for b in layout.bars)


def test_a_narrow_chart_keeps_fewer_ticks_apart(chart: PoolChart) -> None:
    chart.resize(200, chart.height())
    rects = [t.label_rect for t in chart.chart_layout().ticks]
    assert 2 <= len(rects) < 5
    assert all(a.right() < b.left() for a, b in itertools.pairwise(rects))


def _luminance(hex_colour: str) -> float:
    colour = QColor(hex_colour)

    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in (colour.redF(), colour.greenF(), colour.blueF()))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_chart_colours_read_on_the_window_in_both_themes(theme: str) -> None:
    colors = COLORS[theme]
    for role in ("ok", "error", "accent", "muted", "text"):  # bars, balance line, labels
        assert _contrast(colors[role], colors["window"]) >= 3, role


@pytest.mark.parametrize("width", [200, 300, 420])
def test_with_no_open_bids_the_message_wraps_whole_inside_the_chart(
    qtbot: QtBot, width: int
) -> None:
    """ "No open bids: every pool can use the whole balance." was drawn on one centred line,
    cut at both edges when the chart is narrower than it: it wraps, and the chart is as tall
    as the wrapped lines (nothing painted on its outer columns or rows)."""
    widget = PoolChart()
    qtbot.addWidget(widget)
    widget.set_bars([])
    assert widget.hasHeightForWidth()
    widget.resize(width, widget.heightForWidth(width))
    image = widget.grab().toImage()
    background = image.pixel(0, 0)
    edges = [(0, y) for y in range(image.height())] + [
        (image.width() - 1, y) for y in range(image.height())
    ]
    edges += [(x, 0) for x in range(image.width())]
    edges += [(x, image.height() - 1) for x in range(image.width())]
    assert {image.pixel(x, y) for x, y in edges} == {background}
    inked = [
        x for x in range(image.width()) for y in range(image.height())
        if image.pixel(x, y) != background
    ]  # fmt: skip
    assert inked, "the message is not drawn"
