"""Unexpected exceptions: logged with their traceback, shown to the user as a plain dialog
(no traceback), and the app keeps running. Installed as sys.excepthook (qasync routes the
exceptions of @asyncSlot handlers there) and as the asyncio loop's exception handler."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from app.ui import strings

log = logging.getLogger(__name__)


class ErrorReporter(QObject):
    """Shows at most one error dialog at a time; further errors are logged only."""

    reported = Signal(str)  # the exception's class name; emitted on any thread, shown on ours

    def __init__(self, log_path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._log_path = log_path
        self._parent = parent
        self.dialog: QMessageBox | None = None
        self.count = 0
        self.reported.connect(self._show, Qt.ConnectionType.QueuedConnection)

    def set_parent_widget(self, parent: QWidget | None) -> None:
        self._parent = parent

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        sys.excepthook = self.excepthook
        threading.excepthook = self._thread_hook
        loop.set_exception_handler(self.loop_handler)

    def excepthook(
        self,
        exc_type: type[BaseException],
        exc: BaseException,
        tb: TracebackType | None,
    ) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        log.error("unexpected error", exc_info=(exc_type, exc, tb))
        self.count += 1
        self.reported.emit(exc_type.__name__)

    def loop_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, BaseException):
            self.excepthook(type(exc), exc, exc.__traceback__)
        else:
            log.error("asyncio: %s", context.get("message", "unknown problem"))

    def _thread_hook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is not None:
            self.excepthook(args.exc_type, args.exc_value, args.exc_traceback)

    def _show(self, kind: str) -> None:
        if self.dialog is not None and self.dialog.isVisible():
            return
        text = strings.UNEXPECTED_TEXT.format(kind=kind, log_path=self._log_path)
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            strings.UNEXPECTED_TITLE,
            text,
            QMessageBox.StandardButton.Ok,
            self._parent,
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.destroyed.connect(self._forget)
        self.dialog = box
        box.open()

    def _forget(self) -> None:
        self.dialog = None
