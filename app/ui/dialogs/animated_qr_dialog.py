"""An offline-signing export (or the signed files) shown as an animated QR code (issue 19).

A timer shows the next frame of the sequence (app/core/animated_qr.py: BBQr in a loop, UR's
plain parts then fountain parts). Each frame is drawn off the GUI thread (segno takes ~20 ms a
frame: `./dev bench qr`) into a QImage of fixed size: the module matrix with its quiet zone,
scaled by a whole number with nearest-neighbour so every module stays a sharp square, centred
on white (a code on a dark theme's background would lose its quiet zone). The image never
changes size, so nothing around it moves as frames change. A tick that comes while the last
frame is still being drawn is skipped, and the caption always names the frame on screen.

Format and density re-split the payload and start again at frame 1; the speed only changes the
timer. The format chosen is kept in the settings (`AppSettings.qr_format`) when the dialog
closes, and offered first the next time.

A watch-only profile's export is shown as its PSBT itself (`psbts`: BBQr type P, UR
`crypto-psbt`, what Sparrow, Coldcard, Keystone, Passport and SeedSigner scan), not as our
bundle; a chooser offers each PSBT of the export ("PSBT 2 of 3", each its own code: those
wallets read one PSBT a scan, and none reads our manifest) and, last, the whole export, for a
watch-only profile of a Bidwallet `--offline` signer (which reviews by the manifest).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.animated_qr import (
    DEFAULT_MAX_VERSION,
    AnimatedQrError,
    FrameSequence,
    Payload,
    QrFormat,
    encode_frames,
)
from app.ui import strings
from app.ui.async_tools import async_slot, exec_dialog, run_blocking
from app.ui.file_dialogs import ask_folder
from app.ui.widgets import message_label, set_message

if TYPE_CHECKING:
    from app.ui.context import AppContext

CODE_SIDE = 460  # px: version 25 with its quiet zone at 3 px a module, version 10 at 7
DENSITIES = (10, 15, 20, 25)  # the largest QR version a frame may take
DEFAULT_FPS = 5
FPS_RANGE = (2, 10)
_FORMAT_NAMES = {QrFormat.BBQR: strings.QR_FORMAT_BBQR, QrFormat.UR: strings.QR_FORMAT_UR}


def draw_frame(text: str, version: int, side: int = CODE_SIDE) -> QImage:
    """`text` as a QR code of `version` on a white `side` x `side` image: whole pixels a
    module, nearest-neighbour, the quiet zone included. Safe off the GUI thread (QImage)."""
    from app.services.qr_images import QUIET_ZONE, frame_matrix

    matrix = frame_matrix(text, version)
    modules = len(matrix) + 2 * QUIET_ZONE
    row_bytes = (modules + 3) // 4 * 4  # QImage rows are 32-bit aligned
    pixels = bytearray(b"\xff" * row_bytes * modules)
    for y, row in enumerate(matrix):
        start = (y + QUIET_ZONE) * row_bytes + QUIET_ZONE
        pixels[start : start + len(row)] = bytes(0 if dark else 255 for dark in row)
    small = QImage(bytes(pixels), modules, modules, row_bytes, QImage.Format.Format_Grayscale8)
    scale = max(1, side // modules)
    code = small.scaled(
        modules * scale,
        modules * scale,
        Qt.AspectRatioMode.IgnoreAspectRatio,
        Qt.TransformationMode.FastTransformation,
    )
    image = QImage(side, side, QImage.Format.Format_Grayscale8)
    image.fill(QColor("white"))
    painter = QPainter(image)
    offset = (side - code.width()) // 2
    painter.drawImage(offset, offset, code)
    painter.end()
    return image


def export_payload_of(folder: Path, signed: bool) -> Payload:
    from app.services.offline_qr import export_payload, signed_payload

    return signed_payload(folder) if signed else export_payload(folder)


def exported_psbts_of(folder: Path) -> list[tuple[str, Payload]]:
    """Each PSBT of the export alone (for another wallet), then the whole export (for
    Bidwallet's own offline signer, which reviews it by its manifest)."""
    from app.services.offline_qr import export_payload, exported_psbts

    psbts = exported_psbts(folder)
    return [
        (strings.QR_PSBT_ITEM.format(n=n, count=len(psbts), file=x.file), x.payload)
        for n, x in enumerate(psbts, start=1)
    ] + [(strings.QR_WHOLE_EXPORT_ITEM, export_payload(folder))]


class AnimatedQrDialog(QDialog):
    """Shows `payload` as an animated QR code until closed; with `choices` (name, payload),
    the one chosen."""

    def __init__(
        self,
        payload: Payload,
        title: str,
        how: str,
        parent: QWidget | None = None,
        fmt: QrFormat = QrFormat.BBQR,
        choices: Sequence[tuple[str, Payload]] = (),
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self._payload = payload
        self._choices = list(choices)
        self._sequence: FrameSequence | None = None
        self._generation = 0  # a restart makes frames drawn for the old sequence stale
        self._drawing = False
        self._ended = False  # closed: nothing is drawn any more
        self.shown = 0  # frames shown of the current sequence

        self.format_choice = QComboBox()
        for each, name in _FORMAT_NAMES.items():
            self.format_choice.addItem(name, each)
        self.format_choice.setCurrentIndex(self.format_choice.findData(fmt))
        self.speed = QSpinBox()
        self.speed.setRange(*FPS_RANGE)
        self.speed.setValue(DEFAULT_FPS)
        self.speed.setSuffix(strings.QR_SPEED_SUFFIX)
        self.density_choice = QComboBox()
        for version in DENSITIES:
            self.density_choice.addItem(strings.QR_DENSITY_ITEM.format(version=version), version)
        self.density_choice.setCurrentIndex(self.density_choice.findData(DEFAULT_MAX_VERSION))
        self.payload_choice = QComboBox()  # shown only with several payloads to choose from
        for name, _ in self._choices:
            self.payload_choice.addItem(name)

        self.code = QLabel()
        self.code.setFixedSize(CODE_SIDE, CODE_SIDE)
        self.code.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.caption = QLabel(strings.QR_PREPARING)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # Two lines under the code, whatever the caption: a fountain part's longer caption
        # wraps in them instead of widening the dialog when UR goes past its plain parts.
        self.caption.setWordWrap(True)
        self.caption.setFixedSize(CODE_SIDE, 2 * self.caption.fontMetrics().lineSpacing() + 4)
        self.how = message_label("hint")
        self.how.setText(how)
        self.error = message_label("error")
        self.error.setVisible(False)

        form = QFormLayout()
        if len(self._choices) > 1:
            label = QLabel(strings.QR_PSBT_CHOICE)
            label.setBuddy(self.payload_choice)
            form.addRow(label, self.payload_choice)
        for label_text, field in (
            (strings.QR_FORMAT, self.format_choice),
            (strings.QR_SPEED, self.speed),
            (strings.QR_DENSITY, self.density_choice),
        ):
            label = QLabel(label_text)
            label.setBuddy(field)
            form.addRow(label, field)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        shown = QVBoxLayout()  # the code and its caption on the left, the rest beside them
        shown.addWidget(self.code)
        shown.addWidget(self.caption)
        side = QVBoxLayout()
        side.addWidget(self.how)
        side.addSpacing(12)
        side.addLayout(form)
        side.addWidget(self.error)
        side.addStretch(1)
        side.addWidget(buttons)
        self.how.setFixedWidth(300)
        layout = QHBoxLayout(self)
        layout.addLayout(shown)
        layout.addLayout(side)

        self.timer = QTimer(self)
        self.timer.timeout.connect(self.show_next)
        self.finished.connect(self._closed)
        self.format_choice.currentIndexChanged.connect(self.restart)
        self.density_choice.currentIndexChanged.connect(self.restart)
        self.payload_choice.currentIndexChanged.connect(self._choose_payload)
        self.speed.valueChanged.connect(self._set_speed)
        self._set_speed()
        self.restart()

    @property
    def chosen_format(self) -> QrFormat:
        return QrFormat(self.format_choice.currentData())

    @property
    def sequence(self) -> FrameSequence | None:
        return self._sequence

    @property
    def payload(self) -> Payload:
        return self._payload

    def _choose_payload(self, index: int) -> None:
        if 0 <= index < len(self._choices):
            self._payload = self._choices[index][1]
            self.restart()

    def _set_speed(self, *_: object) -> None:
        self.timer.setInterval(1000 // self.speed.value())

    @async_slot()
    async def restart(self) -> None:
        """The payload split again in the chosen format and density, from frame 1."""
        if self._ended:
            return
        self._generation += 1
        generation = self._generation
        self.timer.stop()
        self.caption.setText(strings.QR_PREPARING)  # the frame left on screen is the old split's
        fmt = self.chosen_format
        version = int(self.density_choice.currentData())
        try:
            sequence = await run_blocking(encode_frames, self._payload, fmt, version)
        except AnimatedQrError as exc:
            set_message(self.error, strings.QR_FAILED.format(reason=exc))
            return
        if generation != self._generation:
            return  # changed again meanwhile
        self._sequence = sequence
        self.shown = 0
        await self._draw_next()
        if generation == self._generation:  # not closed or restarted while drawing
            self.timer.start()

    @async_slot()
    async def show_next(self) -> None:
        await self._draw_next()

    async def _draw_next(self) -> None:
        sequence = self._sequence
        if sequence is None or self._drawing or self._ended:
            return  # the frame before is still being drawn: this tick is skipped
        generation = self._generation
        self._drawing = True
        try:
            text = sequence.next_frame()
            image = await run_blocking(draw_frame, text, sequence.qr_version)
        finally:
            self._drawing = False
        if generation != self._generation:
            return
        self.shown += 1
        self.code.setPixmap(QPixmap.fromImage(image))
        self.caption.setText(self.caption_text(sequence, self.shown))

    @staticmethod
    def caption_text(sequence: FrameSequence, shown: int) -> str:
        needed = sequence.frames_needed
        if sequence.format is QrFormat.BBQR:
            number = (shown - 1) % needed + 1
            return strings.QR_CAPTION_BBQR.format(
                shown=number, needed=needed, version=sequence.qr_version
            )
        if shown <= needed:
            return strings.QR_CAPTION_UR.format(
                shown=shown, needed=needed, version=sequence.qr_version
            )
        return strings.QR_CAPTION_UR_MORE.format(
            shown=shown, needed=needed, version=sequence.qr_version
        )

    def _closed(self, *_: object) -> None:
        self._ended = True  # a restart queued before the close starts nothing
        self.timer.stop()
        self._generation += 1  # a frame still being drawn or a restart under way shows nothing


async def show_folder_as_qr(
    parent: QWidget,
    context: AppContext | None,
    folder: Path,
    signed: bool = False,
    psbts: bool = False,
) -> None:
    """The export in `folder` (or, `signed`, its signed PSBTs; or, `psbts`, each exported PSBT
    alone, for another wallet) as an animated QR code; a folder that cannot be read is said on
    `context` (the import's own checks)."""
    from app.services.errors import ServiceError

    try:
        if psbts:
            choices = await run_blocking(exported_psbts_of, folder)
            payload = choices[0][1]
        else:
            choices = []
            payload = await run_blocking(export_payload_of, folder, signed)
    except (ServiceError, OSError) as exc:
        reason = exc.user_message if isinstance(exc, ServiceError) else str(exc)
        if context is not None:
            context.error(strings.QR_FAILED.format(reason=reason))
        return
    if psbts:
        title, how = strings.QR_TITLE_PSBT, strings.QR_HOW_PSBT
    elif signed:
        title, how = strings.QR_TITLE_SIGNED, strings.QR_HOW_SIGNED
    else:
        title, how = strings.QR_TITLE_EXPORT, strings.QR_HOW_EXPORT
    fmt = context.settings.qr_format if context is not None else QrFormat.BBQR
    dialog = AnimatedQrDialog(payload, title, how, parent, fmt, choices)
    if context is not None:
        context.dialog_opened.emit(dialog)
    try:
        await exec_dialog(dialog)
        chosen = dialog.chosen_format
    finally:
        dialog.deleteLater()
    if context is not None and chosen is not context.settings.qr_format:
        try:
            await context.update_settings(lambda s: replace(s, qr_format=chosen))
        except (ServiceError, OSError) as exc:  # the code was shown: only the choice is lost
            reason = exc.user_message if isinstance(exc, ServiceError) else str(exc)
            context.error(strings.QR_FORMAT_NOT_SAVED.format(reason=reason))


class ShowQrButton(QPushButton):
    """ "Show as QR…" (`signed`: "Show signed as QR…"; `psbts`: "Show PSBT as QR…", for
    another wallet): the folder `last_folder` names (the export just made, or just signed) as
    an animated QR code; the user picks one if none."""

    def __init__(
        self,
        parent: QWidget,
        context: AppContext | None,
        last_folder: Callable[[], Path | None],
        signed: bool = False,
        psbts: bool = False,
    ) -> None:
        text, tip = strings.QR_SHOW_EXPORT, strings.QR_SHOW_TIP_EXPORT
        if signed:
            text, tip = strings.QR_SHOW_SIGNED, strings.QR_SHOW_TIP_SIGNED
        elif psbts:
            text, tip = strings.QR_SHOW_PSBT, strings.QR_SHOW_TIP_PSBT
        super().__init__(text, parent)
        self.setToolTip(tip)
        self._context = context
        self._last_folder = last_folder
        self._signed = signed
        self._psbts = psbts
        self.clicked.connect(self.show_folder)

    @async_slot()
    async def show_folder(self) -> None:
        folder = self._last_folder()
        if folder is None:
            folder = await ask_folder(self.window(), strings.QR_CHOOSE_FOLDER)
        if folder is not None:
            await show_folder_as_qr(self.window(), self._context, folder, self._signed, self._psbts)
