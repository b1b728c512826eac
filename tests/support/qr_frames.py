"""Frames as a camera reads an animated QR code: it misses some and keeps looking until the code
is whole. A fixed count of UR frames would fall short once in a while: which fountain parts
decode depends on the payload, and the payloads of end-to-end tests differ from run to run
(keys, signatures), so a set that decodes in one run can miss a fragment in the next."""

from __future__ import annotations

from app.core.animated_qr import AnimatedQrDecoder, FrameSequence

LOOPS = 10  # how many times the frames needed a camera may see before the test gives up


def camera_sees(sequence: FrameSequence, drop_every: int) -> list[str]:
    """The frames read, in the order shown, missing every `drop_every`-th (n % drop_every == 1;
    0: none), until they decode."""
    decoder = AnimatedQrDecoder()
    seen: list[str] = []
    for n in range(sequence.frames_needed * LOOPS):
        text = sequence.next_frame()
        if drop_every and n % drop_every == 1:
            continue
        seen.append(text)
        decoder.add(text)
        if decoder.result is not None:
            return seen
    raise AssertionError(
        f"{LOOPS * sequence.frames_needed} frames shown, missing every {drop_every}th, did not "
        f"decode ({decoder.progress})"
    )
