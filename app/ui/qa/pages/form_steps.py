"""Steps the Wallet, Withdraw and Inscription bid pages share: replacing a field's text as a
user does (select all, type), choosing a fee rate in a `FeePicker` with the keyboard, and
waiting, in a page's words, for a dialog the app opens (or the newest one: `newest_dialog`)
or a signal it emits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

import shiboken6
from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtWidgets import QAbstractButton, QLineEdit, QWidget
from pytestqt.exceptions import TimeoutError as QtTimeoutError
from pytestqt.qtbot import QtBot

from app.ui.qa.actions import click
from app.ui.qa.expect import DEFAULT_TIMEOUT_MS, ScenarioFailure, expect, failure_text
from app.ui.widgets.fee_picker import CUSTOM, FeePicker, rate_text

if TYPE_CHECKING:
    from app.ui.qa.app import App, Page

D = TypeVar("D", bound=QWidget)
FeeRate = float | str | None  # sat/vB typed as Custom; a preset's name ("Fast"); None: as chosen


def replace_text(qtbot: QtBot, edit: QLineEdit, text: str) -> None:
    """Select the field's text (Ctrl+A) and type `text` over it (an empty `text` deletes it)."""
    edit.setFocus()
    qtbot.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    if text:
        qtbot.keyClicks(edit, text)
    else:
        qtbot.keyClick(edit, Qt.Key.Key_Delete)


def fee_presets_shown(picker: FeePicker) -> bool:
    """The estimator's presets are offered (before them a Fund picker offers only Custom)."""
    return any(picker.choice.itemData(i) != CUSTOM for i in range(picker.choice.count()))


def choose_fee_rate(qtbot: QtBot, picker: FeePicker, fee_rate: FeeRate) -> Fraction:
    """Choose `fee_rate` with the keyboard, as a user does: a number is Custom (End in the
    list) with the rate typed in its box; a name is the preset whose label starts with it
    (Home, then Down); None leaves the choice as it is. The rate the picker then gives."""
    choice = picker.choice
    if isinstance(fee_rate, str):
        choice.setFocus()
        qtbot.keyClick(choice, Qt.Key.Key_Home)
        for _ in range(choice.count()):
            if choice.currentText().startswith(fee_rate):
                break
            qtbot.keyClick(choice, Qt.Key.Key_Down)
        labels = [choice.itemText(i) for i in range(choice.count())]
        assert choice.currentText().startswith(fee_rate), f"no fee preset {fee_rate!r} in {labels}"
    elif fee_rate is not None:
        choice.setFocus()
        qtbot.keyClick(choice, Qt.Key.Key_End)
        assert choice.currentData() == CUSTOM, f"the last fee choice is {choice.currentText()!r}"
        spin = picker.custom
        spin.setFocus()
        spin.selectAll()  # the number, not the " sat/vB" after it
        qtbot.keyClicks(spin, rate_text(fee_rate))
        assert Fraction(str(spin.value())) == Fraction(rate_text(fee_rate)), (
            f"the custom fee rate reads {spin.text()!r} after typing {rate_text(fee_rate)!r}"
        )
    return picker.rate()


def expect_dialog(
    page: Page,
    action: str,
    expected: str,
    kind: type[D],
    before: int,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> D:
    """The first `kind` dialog the app opened after its first `before` ones, once visible;
    ScenarioFailure naming the page and `action` otherwise."""
    dialogs = page.app.harness.dialogs

    def opened() -> D | None:
        return next((d for d in dialogs[before:] if isinstance(d, kind)), None)

    def shown() -> bool:
        dialog = opened()
        return dialog is not None and dialog.isVisible()

    page.expect(action, expected, shown, timeout_ms)
    dialog = opened()
    assert dialog is not None
    return dialog


def newest_dialog(
    app: App,
    page: str,
    expected: str,
    kind: type[D],
    before: int | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    shown: Callable[[], str] = lambda: "",
) -> D:
    """The newest `kind` dialog the app opened (after its first `before` ones when given), once
    it shows; ScenarioFailure naming `page`, "open" and `expected`, quoting `shown()`,
    otherwise. A deleted dialog is passed over; a hidden newest one is not open yet."""
    dialogs = app.harness.dialogs

    def newest() -> D | None:
        for dialog in reversed(dialogs[before or 0 :]):
            if isinstance(dialog, kind) and shiboken6.isValid(dialog):
                return dialog if dialog.isVisible() else None
        return None

    expect(app.qtbot, page, "open", expected, lambda: newest() is not None, shown=shown,
           timeout_ms=timeout_ms)  # fmt: skip
    dialog = newest()
    assert dialog is not None
    return dialog


def expect_signal(
    page: Page,
    action: str,
    expected: str,
    signal: SignalInstance,
    trigger: Callable[[], None],
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> None:
    """Do `trigger()` and wait for `signal`; ScenarioFailure naming the page and `action`."""
    try:
        with page.qtbot.waitSignal(signal, timeout=timeout_ms):
            trigger()
    except QtTimeoutError:
        shown = page.shown()
        raise ScenarioFailure(
            failure_text(page.name, action, expected, shown, timeout_ms)
        ) from None


def click_and_track(page: Page, button: QAbstractButton) -> Callable[[], bool]:
    """Click `button`; a condition true once every task the click started (an async slot's
    step) is done: what it then shows is its answer, not one left from before."""
    loop = page.app.loop
    before = asyncio.all_tasks(loop)
    click(page.qtbot, button)
    started = asyncio.all_tasks(loop) - before
    return lambda: all(task.done() for task in started)
