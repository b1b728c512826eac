"""The Qt binding must not leak references to None while painting.

PySide6 6.12.0 on CPython 3.11 drops one reference to None per QPainter call that returns None
(fillRect, drawRect, setPen, drawLine...): a QR code paints one fillRect per module, and a few
repaints aborted the app with `Fatal Python error: none_dealloc` (issue 13,
../shared/notes/signing-threats.md). pyproject.toml keeps PySide6 below 6.12; this paints every
custom widget thousands of times and checks None's count did not fall. On the buggy combination
it fails (or aborts the run, which fails it too)."""

from __future__ import annotations

import sys

from pytestqt.qtbot import QtBot

from app.ui.widgets.pool_chart import PoolBar, PoolChart
from app.ui.widgets.qr_view import QrView

PAINTS = 20  # a 33x33 QR code: about 1,100 fillRect per paint, 20,000 in all


def _count_none() -> int:
    return sys.getrefcount(None)


def test_painting_the_qr_code_and_the_pool_chart_keeps_none_alive(qtbot: QtBot) -> None:
    qr = QrView()
    qr.set_text("bitcoin:bcrt1qexampleexampleexampleexampleexample?amount=0.0025&label=x")
    chart = PoolChart()
    chart.set_bars([PoolBar(f"pool {n}", 1_000 * n, 5_000, n) for n in range(1, 8)])
    for widget in (qr, chart):
        qtbot.addWidget(widget)
        widget.resize(400, 400)
    qr.grab(), chart.grab(), qr.pixmap(300)  # warm-up: first paints create caches
    before = _count_none()
    for _ in range(PAINTS):
        qr.grab()
        chart.grab()
        qr.pixmap(300)
    # Unrelated objects may hold a few more or fewer references; the bug loses thousands.
    assert before - _count_none() < 100
