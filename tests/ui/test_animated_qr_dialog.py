"""The animated QR dialog: the frames it paints, read back by zxing-cpp, give the payload back.

The timer is driven by hand (its slot, then waiting on the caption): no sleeps, no timing.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core import qr_export_bundle
from app.core.animated_qr import Payload, PayloadKind, QrFormat
from app.core.psbt_view import PSBT_MAGIC
from app.ui import strings
from app.ui.async_tools import run_blocking
from app.ui.dialogs.animated_qr_dialog import CODE_SIDE, AnimatedQrDialog, draw_frame
from app.ui.qa.pages.qr_show import frames_until_whole


def _payload(size: int = 2500) -> Payload:
    noise = random.Random(19).randbytes(size)  # incompressible: the frame count is known
    bundle = qr_export_bundle.pack({"manifest.json": b"{}", "01-listing.psbt": noise})
    return Payload(PayloadKind.EXPORT, bundle)


def _open(qtbot: QtBot, payload: Payload) -> AnimatedQrDialog:
    dialog = AnimatedQrDialog(payload, "title", "how")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.shown == 1 and dialog.timer.isActive(), timeout=10_000)
    dialog.timer.stop()  # the test shows each frame itself
    return dialog


def _next(qtbot: QtBot, dialog: AnimatedQrDialog) -> str:
    before = dialog.shown
    dialog.timer.timeout.emit()
    qtbot.waitUntil(lambda: dialog.shown == before + 1, timeout=10_000)
    return dialog.caption.text()


def _choose(dialog: AnimatedQrDialog, qtbot: QtBot, fmt: QrFormat, version: int) -> None:
    def restarted() -> bool:
        sequence = dialog.sequence
        return (
            sequence is not None
            and sequence.format is fmt
            and sequence.qr_version <= version
            and dialog.shown == 1
            and dialog.timer.isActive()
        )

    dialog.format_choice.setCurrentIndex(dialog.format_choice.findData(fmt))
    dialog.density_choice.setCurrentIndex(dialog.density_choice.findData(version))
    qtbot.waitUntil(restarted, timeout=10_000)
    dialog.timer.stop()


def test_the_dialog_cycles_through_the_frames_with_a_true_caption(qtbot: QtBot) -> None:
    dialog = _open(qtbot, _payload())
    sequence = dialog.sequence
    assert sequence is not None and sequence.format is QrFormat.BBQR
    total = sequence.frames_needed
    assert total > 2
    version = sequence.qr_version
    assert dialog.caption.text() == f"Frame 1 of {total} (BBQr, version {version})"
    captions = [_next(qtbot, dialog) for _ in range(total)]
    assert captions[0] == f"Frame 2 of {total} (BBQr, version {version})"
    assert captions[total - 2] == f"Frame {total} of {total} (BBQr, version {version})"
    assert captions[-1] == f"Frame 1 of {total} (BBQr, version {version})"  # the loop again
    assert dialog.code.size().width() == CODE_SIDE  # fixed: nothing moves as frames change


def test_a_long_fountain_caption_wraps_without_moving_anything(qtbot: QtBot) -> None:
    dialog = _open(qtbot, _payload())
    before = (dialog.size(), dialog.caption.size(), dialog.code.pos())
    # UR past its plain parts, deep into a long scan: the longest caption there is.
    long = strings.QR_CAPTION_UR_MORE.format(shown=12_345, needed=10_610, version=25)
    dialog.caption.setText(long)
    layout = dialog.layout()
    assert layout is not None
    layout.activate()
    QApplication.sendPostedEvents()  # the resize a wider caption would ask for
    QApplication.processEvents()
    assert (dialog.size(), dialog.caption.size(), dialog.code.pos()) == before
    assert dialog.caption.heightForWidth(CODE_SIDE) <= dialog.caption.height()  # not cut off


def test_while_the_new_split_is_prepared_the_caption_says_so(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frame of the old format stays on screen while the new split is prepared: its
    caption does not name the old format under the new one."""
    dialog = _open(qtbot, _payload())
    held = asyncio.Event()

    async def slow(function: Any, *args: Any) -> Any:
        await held.wait()
        return await run_blocking(function, *args)

    monkeypatch.setattr("app.ui.dialogs.animated_qr_dialog.run_blocking", slow)
    dialog.format_choice.setCurrentIndex(dialog.format_choice.findData(QrFormat.UR))
    qtbot.waitUntil(lambda: dialog.caption.text() == strings.QR_PREPARING, timeout=10_000)
    held.set()
    qtbot.waitUntil(lambda: "(UR, version" in dialog.caption.text(), timeout=10_000)


def test_changing_format_or_density_restarts_with_the_new_frame_count(qtbot: QtBot) -> None:
    dialog = _open(qtbot, _payload())
    bbqr_15 = dialog.sequence.frames_needed  # type: ignore[union-attr]
    _next(qtbot, dialog)
    _choose(dialog, qtbot, QrFormat.BBQR, 10)
    bbqr_10 = dialog.sequence.frames_needed  # type: ignore[union-attr]
    assert bbqr_10 > bbqr_15
    assert dialog.caption.text().startswith(f"Frame 1 of {bbqr_10} (BBQr, version ")
    _choose(dialog, qtbot, QrFormat.UR, 15)
    ur_15 = dialog.sequence.frames_needed  # type: ignore[union-attr]
    assert re.fullmatch(rf"Frame 1 of {ur_15} \(UR, version \d+\)", dialog.caption.text())
    for _ in range(ur_15):
        caption = _next(qtbot, dialog)
    assert caption.startswith(f"Frame {ur_15 + 1}, a fountain part: any {ur_15} frames")


@pytest.mark.parametrize(("fmt", "version"), [(QrFormat.BBQR, 15), (QrFormat.UR, 10)])
def test_the_frames_painted_decode_back_to_the_payload(
    qtbot: QtBot, fmt: QrFormat, version: int
) -> None:
    payload = _payload()
    dialog = _open(qtbot, payload)
    if (fmt, version) != (QrFormat.BBQR, 15):
        _choose(dialog, qtbot, fmt, version)
    assert decode_on_screen(qtbot, dialog) == payload


def decode_on_screen(qtbot: QtBot, dialog: AnimatedQrDialog) -> Payload:
    """The payload read by zxing-cpp from the frames the dialog paints, one frame at a time
    (its timer stopped): what a scanner pointed at the screen gets (the QA page's reading)."""
    return frames_until_whole(qtbot, dialog)


def test_a_frame_is_whole_pixels_a_module_with_its_quiet_zone() -> None:
    image = draw_frame("B$ZB0100" + "A" * 300, 10, side=CODE_SIDE)
    assert (image.width(), image.height()) == (CODE_SIDE, CODE_SIDE)
    # version 10: 57 modules and 4 each side of quiet zone, 7 px a module (455 px), centred;
    # the top-left finder pattern's first row is dark from the code's first module on
    code_start = (CODE_SIDE - 65 * 7) // 2 + 4 * 7
    row = [image.pixelColor(x, code_start + 3).value() for x in range(CODE_SIDE)]
    assert row.index(0) == code_start
    assert row[code_start : code_start + 7 * 7] == [0] * 49  # 7 modules, 7 px each
    assert row[code_start + 7 * 7] == 255
    grays = {image.pixelColor(x, y).value() for x in range(0, CODE_SIDE, 3) for y in (0, 100, 230)}
    assert grays <= {0, 255}  # nearest-neighbour: no grey edges


def test_several_psbts_are_shown_one_code_each_as_chosen(qtbot: QtBot) -> None:
    """A watch-only export holding several PSBTs: "PSBT 2 of 2" chosen shows that PSBT alone
    (BBQr type P), what another wallet scans."""
    noise = random.Random(7)
    first, second = (
        Payload(PayloadKind.PSBT, PSBT_MAGIC + noise.randbytes(1200)) for _ in range(2)
    )
    choices = [("PSBT 1 of 2: 01-a.psbt", first), ("PSBT 2 of 2: 02-b.psbt", second)]
    dialog = AnimatedQrDialog(first, "title", "how", choices=choices)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.payload_choice.isVisible() and dialog.payload_choice.count() == 2
    assert decode_on_screen(qtbot, dialog) == first
    dialog.payload_choice.setCurrentIndex(1)
    assert dialog.payload_choice.currentText() == "PSBT 2 of 2: 02-b.psbt"
    qtbot.waitUntil(dialog.timer.isActive, timeout=10_000)  # restarted on the chosen PSBT
    assert dialog.payload == second
    assert decode_on_screen(qtbot, dialog) == second
