"""The animated QR code an export (or the signed files, or a PSBT for another wallet) is shown
as (app/ui/dialogs/animated_qr_dialog.py): format, speed and density chosen as a user does, the
caption, and the frames read back from what the dialog paints, as a scanner pointed at the
screen reads them.

    shown = app.listings.show_export_qr()          # or files.show_signed_qr(), ...
    shown.choose_format(QrFormat.UR)               # the keyboard (by_click: the list opened)
    assert shown.frames_until_whole() == export_payload(folder)
    shown.close()

The frames are stepped by the dialog's own timer signal (what time would do), each one read
by zxing-cpp from the pixmap on screen: no sleeps, no timing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialogButtonBox
from pytestqt.qtbot import QtBot

from app.core.animated_qr import AnimatedQrDecoder, AnimatedQrError, Payload, QrFormat
from app.ui.dialogs.animated_qr_dialog import AnimatedQrDialog
from app.ui.qa.actions import click
from app.ui.qa.app import DialogPage
from app.ui.qa.expect import DEFAULT_TIMEOUT_MS, ScenarioFailure, expect, shown_messages
from app.ui.qa.pages.form_steps import newest_dialog

if TYPE_CHECKING:
    from app.ui.qa.app import App

NAME = "QR show"
FRAME_TIMEOUT_MS = 10_000  # one frame split and drawn off the GUI thread
LOOPS = 3  # how many times round the frames needed a read may go before it gives up


def open_qr_show(
    app: App, before: int | None = None, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> QrShowPage:
    """The newest animated QR dialog opened (after the first `before` dialogs), once shown."""
    dialog = newest_dialog(
        app,
        NAME,
        "the animated QR code shown",
        AnimatedQrDialog,
        before,
        timeout_ms,
        lambda: shown_messages(app.window.current_tab()),
    )
    return QrShowPage(app, dialog)


def first_frame_held(qtbot: QtBot, dialog: AnimatedQrDialog, action: str) -> None:
    """Wait until a frame of the current split is painted and the timer runs, then stop the
    timer: the frames are stepped one at a time from here."""
    if dialog.shown >= 1 and not dialog.timer.isActive():
        return  # held already

    def painted() -> bool:
        return dialog.shown >= 1 and dialog.timer.isActive()

    expect(qtbot, NAME, action, "a frame painted", painted, shown=lambda: shown_messages(dialog),
           timeout_ms=FRAME_TIMEOUT_MS)  # fmt: skip
    dialog.timer.stop()


def next_frame(qtbot: QtBot, dialog: AnimatedQrDialog, action: str = "next_frame") -> str:
    """The timer's tick given by hand: the next frame painted; its caption."""
    before = dialog.shown
    dialog.timer.timeout.emit()
    expect(qtbot, NAME, action, f"frame {before + 1} painted",
           lambda: dialog.shown == before + 1, shown=lambda: shown_messages(dialog),
           timeout_ms=FRAME_TIMEOUT_MS)  # fmt: skip
    return dialog.caption.text()


def painted_codes(dialog: AnimatedQrDialog) -> list[str]:
    """The QR codes zxing-cpp reads in the frame on screen."""
    from app.services.qr_images import read_codes

    return read_codes(dialog.code.pixmap().toImage())


def frames_until_whole(
    qtbot: QtBot, dialog: AnimatedQrDialog, action: str = "frames_until_whole"
) -> Payload:
    """The payload decoded from the frames the dialog paints, read one frame at a time (its
    timer stopped) until whole; ScenarioFailure if a frame holds no single code, a code is
    refused, or LOOPS rounds of the frames needed do not decode."""
    first_frame_held(qtbot, dialog, action)
    sequence = dialog.sequence
    if sequence is None:
        raise ScenarioFailure(f"{NAME} page, {action}: expected frames; nothing was split")
    decoder = AnimatedQrDecoder()
    for _ in range(LOOPS * sequence.frames_needed):
        codes = painted_codes(dialog)
        if len(codes) != 1:
            raise ScenarioFailure(
                f"{NAME} page, {action}: expected one QR code painted; read {len(codes)}"
                f" under the caption {dialog.caption.text()!r}"
            )
        try:
            decoder.add(codes[0])
        except AnimatedQrError as exc:
            raise ScenarioFailure(
                f"{NAME} page, {action}: expected a frame of the code; the decoder refused"
                f" {dialog.caption.text()!r}: {exc}"
            ) from None
        if decoder.result is not None:
            return decoder.result
        next_frame(qtbot, dialog, action)
    raise ScenarioFailure(
        f"{NAME} page, {action}: expected the code whole within {LOOPS} rounds of its"
        f" {sequence.frames_needed} frames; read {decoder.progress}"
    )


class QrShowPage(DialogPage[AnimatedQrDialog]):
    """One open animated QR dialog (`app.qr_show()`, or what a page's `show_*_qr` returns)."""

    name = NAME

    # -- what it shows ----------------------------------------------------------------------

    @property
    def title(self) -> str:
        return self._open().windowTitle()

    @property
    def how(self) -> str:
        """The hint beside the code: what scans it."""
        return self._open().how.text()

    @property
    def caption(self) -> str:
        """The line under the code ("Frame 2 of 7 (BBQr, version 15)")."""
        return self._open().caption.text()

    @property
    def format(self) -> QrFormat:
        return self._open().chosen_format

    @property
    def density(self) -> int:
        """The largest QR version a frame may take, as chosen."""
        return int(self._open().density_choice.currentData())

    @property
    def speed(self) -> int:
        """Frames a second, as chosen."""
        return self._open().speed.value()

    @property
    def frames_needed(self) -> int:
        """How many frames the current split needs (once split: `wait_split`)."""
        self.wait_split("frames_needed")
        sequence = self._open().sequence
        assert sequence is not None
        return sequence.frames_needed

    @property
    def error(self) -> str:
        """Why the payload cannot be shown ("" when it is)."""
        dialog = self._open()
        return dialog.error.text() if dialog.error.isVisibleTo(dialog) else ""

    def payload_choices(self) -> list[str]:
        """The PSBTs offered one code each, then the whole export (empty with one payload)."""
        choice = self._open().payload_choice
        if not choice.isVisibleTo(self.dialog):
            return []
        return [choice.itemText(i) for i in range(choice.count())]

    # -- what a user does -------------------------------------------------------------------

    def choose_format(self, fmt: QrFormat, by_click: bool = False) -> None:
        """Choose `fmt` in the Format list; the code starts again at frame 1 in it."""
        self._choose(self._open().format_choice, fmt, "choose_format", by_click)
        self.wait_split("choose_format", fmt)

    def choose_density(self, version: int, by_click: bool = False) -> None:
        """Choose the largest QR version a frame may take; the code starts again at frame 1."""
        self._choose(self._open().density_choice, version, "choose_density", by_click)
        self.wait_split("choose_density", max_version=version)

    def choose_payload(self, index: int, by_click: bool = False) -> None:
        """Choose the `index`th entry of the PSBT list (the last: the whole export)."""
        choice = self._open().payload_choice
        if not 0 <= index < choice.count():
            raise ScenarioFailure(
                f"{self.name} page, choose_payload: expected an entry {index};"
                f" offered {self.payload_choices()}"
            )
        wanted = choice.itemText(index)
        self._choose(choice, wanted, "choose_payload", by_click, Qt.ItemDataRole.DisplayRole)
        self.wait_split("choose_payload")

    def set_speed(self, fps: int) -> None:
        """Type `fps` in the Speed box (frames a second); the timer follows."""
        dialog = self._open()
        dialog.speed.setFocus()
        dialog.speed.selectAll()  # the number, not the suffix after it
        self.qtbot.keyClicks(dialog.speed, str(fps))
        self.expect("set_speed", f"a frame every {1000 // fps} ms",
                    lambda: dialog.timer.interval() == 1000 // fps, 1_000)  # fmt: skip

    def wait_split(
        self, action: str = "wait_split", fmt: QrFormat | None = None, max_version: int = 40
    ) -> None:
        """Wait until the payload is split (in `fmt`, at most `max_version`) and a frame of
        it is painted with the timer running."""
        dialog = self._open()

        def split() -> bool:
            sequence = dialog.sequence
            return (
                sequence is not None
                and (fmt is None or sequence.format is fmt)
                and sequence.qr_version <= max_version
                and dialog.shown >= 1
                and dialog.timer.isActive()
            )

        said = "the code split again" if fmt is None else f"the code split as {fmt.value}"
        self.expect(action, said, split, FRAME_TIMEOUT_MS)

    def next_frame(self) -> str:
        """Hold the animation (if running) and show the next frame; its caption."""
        dialog = self._open()
        first_frame_held(self.qtbot, dialog, "next_frame")
        return next_frame(self.qtbot, dialog)

    def codes_on_screen(self) -> list[str]:
        """What zxing-cpp reads in the frame painted now."""
        return painted_codes(self._open())

    def frames_until_whole(self) -> Payload:
        """The payload decoded from the frames painted, one at a time, until whole."""
        return frames_until_whole(self.qtbot, self._open())

    def close(self) -> None:
        """Press Close: the dialog goes (the format chosen is kept in the settings)."""
        box = self._open().findChild(QDialogButtonBox)
        assert box is not None
        button = box.button(QDialogButtonBox.StandardButton.Close)
        click(self.qtbot, button)
        self.expect("close", "the dialog closed", lambda: not self.is_open)

    # -- helpers ----------------------------------------------------------------------------

    def _choose(
        self,
        combo: QComboBox,
        wanted: object,
        action: str,
        by_click: bool,
        role: Qt.ItemDataRole = Qt.ItemDataRole.UserRole,
    ) -> None:
        index = combo.findData(wanted, role)
        if index < 0:
            offered = [combo.itemText(i) for i in range(combo.count())]
            raise ScenarioFailure(
                f"{self.name} page, {action}: expected {wanted!r} offered; offered {offered}"
            )
        if by_click:
            self._click_item(combo, index, action)
        else:  # Home, then Down until it: as with the keyboard
            combo.setFocus()
            self.qtbot.keyClick(combo, Qt.Key.Key_Home)
            for _ in range(index):
                self.qtbot.keyClick(combo, Qt.Key.Key_Down)
        self.expect(action, f"{combo.itemText(index)!r} chosen",
                    lambda: combo.currentIndex() == index, 1_000)  # fmt: skip

    def _click_item(self, combo: QComboBox, index: int, action: str) -> None:
        """Click the list open, then choose the entry in it with the arrows and Enter (Qt
        drops a click's release that comes as soon after the list opened as a test's does)."""
        self.qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
        view = combo.view()
        self.expect(action, "the list open", view.isVisible, 2_000)
        self.qtbot.keyClick(view, Qt.Key.Key_Home)
        for _ in range(index):
            self.qtbot.keyClick(view, Qt.Key.Key_Down)
        self.qtbot.keyClick(view, Qt.Key.Key_Return)
        self.expect(action, "the list closed", lambda: not view.isVisible(), 2_000)
