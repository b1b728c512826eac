"""The dialog a watch-only profile signs a message in (its other wallet signs): what has the
focus, a message box that keeps its height, the time left counted down with its local time,
and once it has passed: nothing more can be sent, one line says so, and a new message can be
asked for instead (the flow then runs its pre-flight again)."""

from __future__ import annotations

import asyncio

from pytestqt.qtbot import QtBot

from app.services.errors import ServiceError
from app.ui import strings
from app.ui.context import AppContext
from app.ui.dialogs.sign_message_dialog import (
    MESSAGE_LINES,
    Deadline,
    MessageToSign,
    SignMessageDialog,
    time_left_text,
)
from app.ui.qa.actions import click
from app.ui.qa.harness import OptionsFactory

ADDRESS = "bcrt1qkny2aeeryc2pldt6m76f9qncyeylds5cgh2ekh"
MESSAGE = f"{ADDRESS}:02ab:collection:pixel-pals:20000:1:1795629318353:1795629200000"
WINDOW_MS = 120_000


class Clock:
    def __init__(self) -> None:
        self.ms = 1_000_000

    def now_ms(self) -> int:
        return self.ms


def _dialog(
    qtbot: QtBot, make_options: OptionsFactory, clock: Clock, send: object
) -> SignMessageDialog:
    dialog = SignMessageDialog(
        title=strings.ELSEWHERE_BID_TITLE,
        intro="Sign this.",
        items=[MessageToSign(ADDRESS, MESSAGE, "bid-message.txt")],
        send_label=strings.ELSEWHERE_SEND_BID,
        send=send,  # type: ignore[arg-type]
        context=AppContext(make_options()),
        deadline=Deadline(
            clock.ms + WINDOW_MS,
            clock.now_ms,
            strings.ELSEWHERE_TIME_UP,
            strings.ELSEWHERE_RENEW_BID,
        ),
    )
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_focus_heights_and_the_time_left(qtbot: QtBot, make_options: OptionsFactory) -> None:
    async def refuse(_signatures: dict[str, str]) -> None:
        raise ServiceError("This is not a base64 signature. Nothing was sent.")

    clock = Clock()
    dialog = _dialog(qtbot, make_options, clock, refuse)
    (box,) = dialog.boxes
    assert box.address.cursorPosition() == 0  # the address's start is shown
    assert dialog.focusWidget() is box.signature  # where the user pastes
    assert box.message.minimumHeight() == box.message.maximumHeight()  # kept, whatever is said
    assert box.message.height() >= MESSAGE_LINES * box.message.fontMetrics().lineSpacing()
    assert dialog.time_left.text().startswith(f"{time_left_text(120)} left to sign and paste")
    assert time_left_text(120) == "2 min 00 s" and time_left_text(59) == "59 s"

    box.signature.setPlainText("not a signature")
    click(qtbot, dialog.send_button)
    qtbot.waitUntil(lambda: dialog.status.text().startswith("This is not a base64"))
    assert dialog.isVisible() and dialog.send_button.isEnabled()  # paste another one


def test_once_the_time_passed_a_new_message_is_offered(
    qtbot: QtBot, make_options: OptionsFactory
) -> None:
    sent: list[dict[str, str]] = []

    async def send(signatures: dict[str, str]) -> None:
        sent.append(signatures)

    clock = Clock()
    dialog = _dialog(qtbot, make_options, clock, send)
    (box,) = dialog.boxes
    box.signature.setPlainText("c2lnbmVk")
    assert dialog.send_button.isEnabled() and not dialog.renew_button.isVisible()
    clock.ms += WINDOW_MS
    dialog._tick.timeout.emit()  # the countdown's next second
    assert dialog.time_left.text() == strings.ELSEWHERE_TIME_UP
    assert not dialog.status.isVisible()  # one line says it, not two
    assert not dialog.send_button.isEnabled()  # the service would refuse it
    assert dialog.renew_button.isVisible() and dialog.renew_button.isDefault()
    click(qtbot, dialog.renew_button)
    assert dialog.renew_asked and not dialog.isVisible() and sent == []


def test_a_send_refused_as_too_late_is_said_once(
    qtbot: QtBot, make_options: OptionsFactory, qloop: asyncio.AbstractEventLoop
) -> None:
    clock = Clock()

    async def late(_signatures: dict[str, str]) -> None:
        clock.ms += WINDOW_MS  # the time ran out while it was verified
        raise ServiceError("The signature is valid but came back too late.")

    dialog = _dialog(qtbot, make_options, clock, late)
    dialog.boxes[0].signature.setPlainText("c2lnbmVk")
    click(qtbot, dialog.send_button)
    qtbot.waitUntil(dialog.renew_button.isVisible)
    assert dialog.time_left.text() == strings.ELSEWHERE_TIME_UP
    assert not dialog.status.isVisible() and not dialog.send_button.isEnabled()
