"""Waiting for what a scenario expects, and failing in words: "Bid page, place_bid: expected
the review to open within 10 s; it shows: error 'Price is below the floor'".

Every wait of a page object goes through `expect`: Qt's events keep being processed while it
waits (pytest-qt's waitUntil), nothing sleeps, and the failure names the page, the action,
what was expected and what the page showed instead (`shown_messages`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.exceptions import TimeoutError as QtTimeoutError
from pytestqt.qtbot import QtBot

DEFAULT_TIMEOUT_MS = 20_000
ROLES_SHOWN = ("error", "ok", "hint")


class ScenarioFailure(AssertionError):
    """A page did not reach what a scenario expected; the message says which and what it
    showed instead."""


def failure_text(page: str, action: str, expected: str, shown: str, timeout_ms: int) -> str:
    text = f"{page} page, {action}: expected {expected} within {timeout_ms / 1000:g} s"
    return f"{text}; it shows: {shown}" if shown else text


def expect(
    qtbot: QtBot,
    page: str,
    action: str,
    expected: str,
    condition: Callable[[], bool],
    *,
    shown: Callable[[], str] = lambda: "",
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
) -> None:
    """Wait until `condition()` holds, processing Qt's events; ScenarioFailure otherwise."""
    try:
        qtbot.waitUntil(condition, timeout=timeout_ms)
    except QtTimeoutError:
        raise ScenarioFailure(failure_text(page, action, expected, shown(), timeout_ms)) from None


def shown_messages(widget: QWidget) -> str:
    """The visible messages of `widget` (labels styled as error, ok or hint), as a user reads
    them: "error 'Enter a price', hint 'Fee rate: 3 sat/vB'"."""
    said = []
    for label in widget.findChildren(QLabel):
        role = label.property("role")
        if role in ROLES_SHOWN and label.isVisibleTo(widget) and label.text().strip():
            said.append(f"{role} {label.text().strip()!r}")
    return ", ".join(said) or "no message"
