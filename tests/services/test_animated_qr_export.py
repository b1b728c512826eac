"""Offline-signing exports through animated QR codes, end to end against the sandbox: a real
bulk export of 100 secure listings -> frames (BBQr and UR) drawn by segno -> read back from the
images by zxing-cpp, shuffled, repeated and (UR) with frames missed, the scan going on as the
code loops until it is whole -> the same folder, which the file import's checks accept. And a
single PSBT through the same images."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.core import qr_export_bundle
from app.core.animated_qr import (
    AnimatedQrDecoder,
    CorruptFrameError,
    FrameSequence,
    Payload,
    PayloadKind,
    QrFormat,
    encode_frames,
)
from app.services.context import ServiceContext
from app.services.listings import ListingItem, prepare_listings
from app.services.offline import export_offline, listing_export_items
from app.services.offline_files import OfflineFileError
from app.services.offline_qr import export_payload, write_scanned_export
from app.services.qr_images import read_codes, render
from tests.services.conftest import ContextFactory, SandboxControl
from tests.services.test_listings import inscribe_many
from tests.support.qr_frames import LOOPS, camera_sees

pytestmark = pytest.mark.asyncio(loop_scope="session")

LISTINGS = 100


def scan(sequence: FrameSequence, frames: list[str]) -> list[str]:
    """Each frame drawn as an image and read back by zxing-cpp, as a camera would."""
    read = []
    for frame in frames:
        codes = read_codes(render(frame, sequence.qr_version, scale=2))
        assert codes == [frame]
        read.extend(codes)
    return read


def camera_order(frames: list[str], seed: int) -> list[str]:
    """`frames` (as a camera read them: tests.support.qr_frames) with repeats, shuffled."""
    rng = random.Random(seed)
    kept = [*frames, *rng.sample(frames, len(frames) // 5)]  # repeats
    rng.shuffle(kept)
    return kept


def read_shuffled(sequence: FrameSequence, frames: list[str], seed: int) -> AnimatedQrDecoder:
    """`frames` read shuffled with repeats, then, while the code is not whole, the frames the
    code shows next as it loops, until whole or LOOPS times its frames shown. With frames
    missed, the UR fountain parts read may not yet determine every fragment; a camera keeps
    reading the loop until the code is whole."""
    decoder = AnimatedQrDecoder(accept=frozenset(PayloadKind))
    for text in scan(sequence, camera_order(frames, seed)):
        decoder.add(text)
    for _ in range(LOOPS * sequence.frames_needed):
        if decoder.result is not None:
            break
        for text in scan(sequence, [sequence.next_frame()]):
            decoder.add(text)
    return decoder


async def test_a_100_listing_export_crosses_as_an_animated_qr_in_both_formats(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, tmp_path: Path
) -> None:
    watch_only = make_context(ctx.signing_keys().watch_only())
    ids = await inscribe_many(sandbox, ctx.ordinals_address, LISTINGS)
    plan = await prepare_listings(
        watch_only, [ListingItem(70_000 + n, i) for n, i in enumerate(ids)]
    )
    export = tmp_path / "export"
    manifest = export_offline(export, listing_export_items(plan))
    payload = export_payload(export)
    sent = {p.name: p.read_bytes() for p in export.iterdir() if not p.name.endswith(".txt")}
    for fmt, drop_every in ((QrFormat.BBQR, 0), (QrFormat.UR, 4)):
        sequence = encode_frames(payload, fmt)
        frames = camera_sees(sequence, drop_every)
        decoder = read_shuffled(sequence, frames, seed=len(frames))
        assert decoder.result == payload, (fmt, decoder.progress)
        scanned = write_scanned_export(tmp_path / f"scanned-{fmt}", decoder.result)
        assert scanned == manifest and len(scanned.items) == LISTINGS
        got = {p.name: p.read_bytes() for p in (tmp_path / f"scanned-{fmt}").iterdir()}
        assert got == sent
        print(f"{fmt}: {sequence.frames_needed} frames at QR version {sequence.qr_version}")


async def test_a_single_psbt_crosses_as_crypto_psbt_and_bbqr_p(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, tmp_path: Path
) -> None:
    watch_only = make_context(ctx.signing_keys().watch_only())
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 1)
    plan = await prepare_listings(watch_only, [ListingItem(80_000, ids[0])])
    export_offline(tmp_path, listing_export_items(plan))
    psbt = next(tmp_path.glob("*.psbt")).read_bytes()
    for fmt, max_version in ((QrFormat.BBQR, 5), (QrFormat.UR, 5)):
        sequence = encode_frames(Payload(PayloadKind.PSBT, psbt), fmt, max_version)
        frames = camera_sees(sequence, 3 if fmt is QrFormat.UR else 0)
        assert frames[0].startswith("B$ZP" if fmt is QrFormat.BBQR else "UR:CRYPTO-PSBT/")
        decoder = read_shuffled(sequence, frames, seed=5)
        assert decoder.result == Payload(PayloadKind.PSBT, psbt)


async def test_a_scanned_export_that_is_not_the_exported_one_is_refused(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, tmp_path: Path
) -> None:
    watch_only = make_context(ctx.signing_keys().watch_only())
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 2)
    plan = await prepare_listings(watch_only, [ListingItem(90_000, i) for i in ids])
    export_offline(tmp_path / "export", listing_export_items(plan))
    first = next((tmp_path / "export").glob("01-*.psbt"))
    first.write_bytes(first.read_bytes() + b"\0")  # changed after export: its digest differs
    with pytest.raises(OfflineFileError, match="not the file that was exported"):
        export_payload(tmp_path / "export")
    # A payload changed in transit is refused by the same check on the scanning side.
    files = qr_export_bundle.unpack(
        qr_export_bundle.pack({p.name: p.read_bytes() for p in (tmp_path / "export").iterdir()})
    )
    bad = Payload(PayloadKind.EXPORT, qr_export_bundle.pack(files))
    with pytest.raises(OfflineFileError, match="not the file that was exported"):
        write_scanned_export(tmp_path / "scanned", bad)
    assert not (tmp_path / "scanned").exists()  # nothing refused stays to be opened
    (tmp_path / "chosen").mkdir()  # a folder the user chose, empty: left empty
    with pytest.raises(OfflineFileError, match="not the file that was exported"):
        write_scanned_export(tmp_path / "chosen", bad)
    assert list((tmp_path / "chosen").iterdir()) == []
    with pytest.raises(OfflineFileError, match="single PSBT"):
        write_scanned_export(tmp_path / "other", Payload(PayloadKind.PSBT, b"psbt\xff"))
    with pytest.raises(CorruptFrameError):
        AnimatedQrDecoder().add("UR:BYTES/1-2/LPADAOCSKKVWZE")
