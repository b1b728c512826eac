"""Unexpected exceptions: logged with their traceback, shown as a plain dialog (no
traceback), one dialog at a time, and the app keeps working."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.error_reporting import ErrorReporter
from app.ui.qa.actions import click


class Buttons(QPushButton):
    """A button whose async handler fails the first time and works afterwards."""

    def __init__(self) -> None:
        super().__init__("go")
        self.calls = 0
        self.done = 0
        self.clicked.connect(self.go)

    @async_slot()
    async def go(self) -> None:
        self.calls += 1
        await asyncio.sleep(0)
        if self.calls == 1:
            raise RuntimeError("the disk is on fire at /secret/path")
        self.done += 1


def test_an_unexpected_error_is_logged_shown_plainly_and_the_app_goes_on(
    qtbot: QtBot,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log_path = tmp_path / "bidwallet.log"
    reporter = ErrorReporter(log_path)
    monkeypatch.setattr(sys, "excepthook", reporter.excepthook)
    button = Buttons()
    qtbot.addWidget(button)
    button.show()

    with caplog.at_level(logging.ERROR, logger="app.ui.error_reporting"):
        click(qtbot, button)
        qtbot.waitUntil(lambda: reporter.dialog is not None and reporter.dialog.isVisible())
    dialog = reporter.dialog
    assert dialog is not None
    text = dialog.text()
    assert dialog.windowTitle() == strings.UNEXPECTED_TITLE
    assert "RuntimeError" in text and str(log_path) in text
    assert "Traceback" not in text and "/secret/path" not in text
    record = caplog.records[-1]
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError

    # A second problem while the dialog is open: logged, no second dialog.
    loop = asyncio.get_running_loop()
    reporter.loop_handler(loop, {"message": "boom", "exception": ValueError("x")})
    qtbot.wait(0)
    assert reporter.count == 2 and reporter.dialog is dialog

    dialog.close()
    qtbot.waitUntil(lambda: reporter.dialog is None)
    click(qtbot, button)  # the app still works
    qtbot.waitUntil(lambda: button.done == 1)


def test_loop_problems_without_an_exception_are_only_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    reporter = ErrorReporter(tmp_path / "x.log")
    with caplog.at_level(logging.ERROR):
        reporter.loop_handler(asyncio.get_running_loop(), {"message": "socket closed twice"})
    assert reporter.count == 0 and "socket closed twice" in caplog.text
