"""Animated QR codes for PSBTs and offline-signing exports, in BBQr or Blockchain Commons UR.

`encode_frames` turns a payload into a `FrameSequence` (the texts to show, one QR code each, at a
chosen density: the largest QR version a frame may take); `AnimatedQrDecoder` takes scanned
texts in any order, with repeats and gaps, reports progress and returns the payload. Both
formats carry a single PSBT as other wallets expect it (BBQr type P; UR `crypto-psbt`), and an
export bundle (`qr_export_bundle`) as BBQr type B or UR `bytes`. Pure logic: drawing and reading
the codes is app/services/qr_images.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.core import bbqr, cbor, qr_export_bundle, ur_fountain
from app.core.errors import CoreError
from app.core.psbt_view import PSBT_MAGIC

# Version 15 (77x77 modules) reads reliably from a laptop screen with a phone or webcam at
# 5-10 frames per second; the user can raise it (BBQr's own default packs up to version 40).
DEFAULT_MAX_VERSION = 15
UR_PSBT_TYPES = ("crypto-psbt", "psbt")  # BCR-2020-006's type, and its newer name
_UR_SEQ_RESERVE = len("999999-9999/")  # the sequence grows as fountain parts go on
_UR_PART_OVERHEAD = 22 + 4  # the part's CBOR header at its largest, and the CRC-32


class QrFormat(StrEnum):
    BBQR = "bbqr"
    UR = "ur"


class PayloadKind(StrEnum):
    PSBT = "psbt"
    EXPORT = "export"  # manifest.json and the PSBT files of an offline-signing export


class AnimatedQrError(CoreError, ValueError):
    """A scanned code the decoder refuses; the message says why, in words for the user."""


class WrongQrTypeError(AnimatedQrError):
    """Not BBQr or UR, or a type that carries neither a PSBT nor an export."""


class ForeignFrameError(AnimatedQrError):
    """A frame of another animated code than the one being read."""


class CorruptFrameError(AnimatedQrError):
    """A frame (or the whole it completes) that fails its checks."""


@dataclass(frozen=True)
class Payload:
    kind: PayloadKind
    data: bytes  # the PSBT, or the export bundle (`qr_export_bundle.unpack` reads it)


class FrameSequence:
    """The frames of one payload. BBQr: a fixed list shown in a loop. UR: the plain fragments,
    then fountain parts without end (any `frames_needed` of them, or a few more, decode)."""

    def __init__(
        self,
        fmt: QrFormat,
        qr_version: int,
        frames: list[str],
        ur: tuple[str, ur_fountain.FountainEncoder] | None = None,
    ) -> None:
        self.format = fmt
        self.qr_version = qr_version  # every frame fits a QR code of this version, level L
        self._frames = frames
        self._ur = ur
        self._shown = 0

    @property
    def frames_needed(self) -> int:
        return self._ur[1].seq_len if self._ur else len(self._frames)

    def next_frame(self) -> str:
        if self._ur is None:
            frame = self._frames[self._shown % len(self._frames)]
        else:
            ur_type, encoder = self._ur
            frame = ur_fountain.part_text(ur_type, encoder.next_part()).upper()
        self._shown += 1
        return frame

    def take(self, count: int) -> list[str]:
        return [self.next_frame() for _ in range(count)]


def encode_frames(
    payload: Payload, fmt: QrFormat, max_version: int = DEFAULT_MAX_VERSION
) -> FrameSequence:
    if not 5 <= max_version <= 40:
        raise AnimatedQrError(f"QR version {max_version} is outside 5..40")
    if payload.kind is PayloadKind.PSBT and not payload.data.startswith(PSBT_MAGIC):
        raise WrongQrTypeError("these bytes are not a PSBT")
    if fmt is QrFormat.BBQR:
        file_type = "P" if payload.kind is PayloadKind.PSBT else "B"
        version, frames = bbqr.split(payload.data, file_type, max_version=max_version)
        return FrameSequence(fmt, version, frames)
    ur_type = "crypto-psbt" if payload.kind is PayloadKind.PSBT else "bytes"
    message = cbor.encode(payload.data)
    fixed = len(f"UR:{ur_type}/") + _UR_SEQ_RESERVE
    room = bbqr.ALNUM_CAPACITY_L[max_version - 1] - fixed
    encoder = ur_fountain.FountainEncoder(message, room // 2 - _UR_PART_OVERHEAD)
    if encoder.seq_len == 1:
        single = ur_fountain.single_part_text(ur_type, message).upper()
        return FrameSequence(fmt, _version_for(len(single)), [single])
    longest = fixed + 2 * (encoder.fragment_len + _UR_PART_OVERHEAD)
    return FrameSequence(fmt, _version_for(longest), [], (ur_type, encoder))


def _version_for(chars: int) -> int:
    return next(v for v, cap in enumerate(bbqr.ALNUM_CAPACITY_L, start=1) if cap >= chars)


@dataclass(frozen=True)
class Progress:
    received: int  # BBQr: frames; UR: fragments solved (a fountain mix counts once it resolves)
    needed: int  # 0 until the first frame tells


class AnimatedQrDecoder:
    """Collects the frames of one animated code. `add` raises an AnimatedQrError for a frame it
    refuses and keeps what it already has, so the scan goes on."""

    def __init__(self, accept: frozenset[PayloadKind] = frozenset(PayloadKind)) -> None:
        self.accept = accept
        self.format: QrFormat | None = None
        self._kind: PayloadKind | None = None
        self._bbqr: dict[int, bbqr.BbqrFrame] = {}
        self._ur_type = ""
        self._ur = ur_fountain.FountainDecoder()
        self._single: bytes | None = None
        self.result: Payload | None = None

    @property
    def progress(self) -> Progress:
        if self.format is QrFormat.BBQR:
            first = next(iter(self._bbqr.values()))
            return Progress(len(self._bbqr), first.total)
        if self.format is QrFormat.UR:
            if self._single is not None:
                return Progress(1, 1)
            return Progress(self._ur.fragments_known, self._ur.fragments_needed)
        return Progress(0, 0)

    def add(self, text: str) -> bool:
        """Takes one scanned text; True when it added something. Once `result` is set, further
        frames of the same code are ignored."""
        if self.result is not None:
            return False
        upper = text.strip().upper()
        if upper.startswith("B$"):
            return self._add_bbqr(upper)
        if upper.startswith("UR:"):
            return self._add_ur(upper)
        raise WrongQrTypeError("this QR code is neither BBQr nor UR")

    def _start(self, fmt: QrFormat, kind: PayloadKind) -> None:
        if self.format is None:
            if kind not in self.accept:
                what = "a PSBT" if kind is PayloadKind.PSBT else "an offline-signing export"
                raise WrongQrTypeError(f"this code carries {what}, not what is read here")
            self.format, self._kind = fmt, kind
        elif self.format is not fmt:
            raise ForeignFrameError("this frame is of another animated code (another format)")

    def _add_bbqr(self, text: str) -> bool:
        try:
            frame = bbqr.parse_frame(text)
        except bbqr.BbqrError as exc:
            raise CorruptFrameError(str(exc)) from None
        kinds = {"P": PayloadKind.PSBT, "B": PayloadKind.EXPORT}
        if frame.file_type not in kinds:
            name = bbqr.FILE_TYPES[frame.file_type]
            raise WrongQrTypeError(f"this BBQr code carries a {name}, not a PSBT or an export")
        self._start(QrFormat.BBQR, kinds[frame.file_type])
        if self._bbqr and frame.header != next(iter(self._bbqr.values())).header:
            raise ForeignFrameError("this frame is of another animated code")
        seen = self._bbqr.get(frame.index)
        if seen is not None:
            if seen.data != frame.data:
                raise ForeignFrameError(
                    f"frame {frame.index + 1} came twice with different contents: "
                    "another code, or a corrupt frame"
                )
            return False
        self._bbqr[frame.index] = frame
        if len(self._bbqr) == frame.total:
            frames = [self._bbqr[i] for i in range(frame.total)]
            try:
                self._finish(bbqr.join(frames))
            except bbqr.BbqrError as exc:
                self._bbqr.clear()  # which frame was bad cannot be told: read them again
                raise CorruptFrameError(str(exc)) from None
        return True

    def _add_ur(self, text: str) -> bool:
        try:
            parsed = ur_fountain.parse_ur(text)
        except ur_fountain.UrError as exc:
            raise CorruptFrameError(f"this UR frame is corrupt: {exc}") from None
        if parsed.ur_type in UR_PSBT_TYPES:
            kind = PayloadKind.PSBT
        elif parsed.ur_type == "bytes":
            kind = PayloadKind.EXPORT
        else:
            raise WrongQrTypeError(f"this UR code is a {parsed.ur_type}, not a PSBT or an export")
        self._start(QrFormat.UR, kind)
        if self._ur_type and parsed.ur_type != self._ur_type:
            raise ForeignFrameError("this frame is of another animated code (another UR type)")
        self._ur_type = parsed.ur_type
        if parsed.message is not None:
            self._finish_ur(parsed.message)
            self._single = parsed.message
            return True
        assert parsed.part is not None
        try:
            added = self._ur.receive(parsed.part)
        except ur_fountain.ForeignPartError as exc:
            raise ForeignFrameError(f"{exc}: another animated code") from None
        except ur_fountain.UrError as exc:
            self._ur = ur_fountain.FountainDecoder()
            raise CorruptFrameError(str(exc)) from None
        if self._ur.message is not None:
            self._finish_ur(self._ur.message)
        return added

    def _finish_ur(self, message: bytes) -> None:
        try:
            body = cbor.decode(message)
        except cbor.CborError:
            raise CorruptFrameError(
                "the UR message is not the CBOR byte string it should be"
            ) from None
        if not isinstance(body, bytes):
            raise CorruptFrameError("the UR message is not a CBOR byte string")
        self._finish(body)

    def _finish(self, data: bytes) -> None:
        assert self._kind is not None
        if self._kind is PayloadKind.PSBT and not data.startswith(PSBT_MAGIC):
            raise CorruptFrameError("the scanned code does not hold a PSBT")
        if self._kind is PayloadKind.EXPORT:
            try:  # BBQr has no checksum: a bundle that does not unpack is a corrupt frame
                qr_export_bundle.unpack(data)
            except qr_export_bundle.ExportBundleError as exc:
                raise CorruptFrameError(str(exc)) from None
        self.result = Payload(self._kind, data)
