"""What a user does, done through Qt's input events: click, type, paste, set a spin box; and
waiting for the dialogs the app opens (every one is announced on `AppContext.dialog_opened`,
which the harness records in `AppHarness.dialogs`)."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QCheckBox, QRadioButton, QWidget
from pytestqt.qtbot import QtBot

from app.ui.qa.harness import AppHarness

D = TypeVar("D", bound=QWidget)
DIALOG_TIMEOUT_MS = 10_000
LAYOUT_ROUNDS = 6  # a layout request goes up one level of nested widgets a round


def click(qtbot: QtBot, button: QAbstractButton) -> None:
    """Click where a user would: on the indicator of a radio or check box (their widget can be
    wider than the hit area), in the middle of anything else."""
    assert button.isEnabled(), f"{button.text()!r} is disabled"
    if isinstance(button, QRadioButton | QCheckBox):
        pos = QPoint(6, button.height() // 2)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=pos)
    else:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def activate(qtbot: QtBot, window: QWidget) -> None:
    """`window` raised and made the active window, as a user's click on it does: a keyboard
    shortcut (Ctrl+U) reaches only the active window, which under a real X server without a
    window manager a new window is not."""
    window.raise_()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=DIALOG_TIMEOUT_MS)


def type_into(qtbot: QtBot, widget: QWidget, text: str) -> None:
    widget.setFocus()
    qtbot.keyClicks(widget, text)


def paste_into(qtbot: QtBot, widget: QWidget, text: str) -> None:
    """Paste `text` with Ctrl+V (QTest cannot type characters such as the rune spacer •)."""
    QGuiApplication.clipboard().setText(text)
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def set_spin(qtbot: QtBot, spin: QAbstractSpinBox, value: int) -> None:
    """Select the spin box's text and type `value`, as a user would."""
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    assert spin.text().replace(",", "") == str(value)


def wait_dialog(
    qtbot: QtBot, app: AppHarness, kind: type[D], timeout: int = DIALOG_TIMEOUT_MS
) -> D:
    """The newest dialog the app opened, once it is a `kind`."""
    qtbot.waitUntil(
        lambda: bool(app.dialogs) and isinstance(app.dialogs[-1], kind), timeout=timeout
    )
    dialog = app.dialogs[-1]
    assert isinstance(dialog, kind)
    qtbot.waitUntil(dialog.isVisible)
    return dialog


def wait_new_dialog(
    qtbot: QtBot, app: AppHarness, kind: type[D], before: int, timeout: int = 60_000
) -> D:
    """The first `kind` dialog the app opened after it had opened `before` dialogs (earlier
    ones may be deleted already)."""
    qtbot.waitUntil(lambda: any(isinstance(d, kind) for d in app.dialogs[before:]), timeout=timeout)
    dialog = next(d for d in app.dialogs[before:] if isinstance(d, kind))
    qtbot.waitUntil(dialog.isVisible)
    return dialog


def settle_layouts() -> None:
    """The pending layouts done, as the event loop does them before the next paint: a layout
    request goes up one level of widgets at a time, and the resizes it makes post more."""
    for _ in range(LAYOUT_ROUNDS):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QCoreApplication.processEvents()


def widget_top(widget: QWidget) -> int:
    """Where `widget` is in its window, once the layouts have settled (their pending
    requests handled, as the event loop would): to check that nothing moved."""
    for _ in range(5):
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    return widget.mapTo(widget.window(), QPoint(0, 0)).y()
