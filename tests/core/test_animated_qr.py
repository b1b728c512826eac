"""Animated QR frames (app/core/animated_qr.py): PSBTs and export bundles through BBQr and UR,
read back in any order, with repeats and missed frames, and what the decoder refuses."""

from __future__ import annotations

import json
import random
import zlib

import pytest

from app.core import cbor, qr_export_bundle
from app.core.animated_qr import (
    DEFAULT_MAX_VERSION,
    AnimatedQrDecoder,
    AnimatedQrError,
    CorruptFrameError,
    ForeignFrameError,
    Payload,
    PayloadKind,
    Progress,
    QrFormat,
    WrongQrTypeError,
    encode_frames,
)
from app.core.bbqr import ALNUM_CAPACITY_L
from app.core.ur_fountain import bytewords_encode
from app.wallet.psbt_io import psbt_to_bytes
from tests.wallet.psbt_builders import build_psbt, key_n, p2tr_key, pay_to


def listing_psbt(n: int) -> bytes:
    return psbt_to_bytes(build_psbt([p2tr_key(key_n(1), 10_000 + n)], [pay_to(5, 50_000 + n)]))


def export_files(count: int) -> dict[str, bytes]:
    names = [f"{n:02d}-listing.psbt" for n in range(1, count + 1)]
    manifest = {"flow": "listing", "items": [{"file": name, "price": 70_000} for name in names]}
    files = {"manifest.json": json.dumps(manifest, indent=2).encode()}
    files.update({name: listing_psbt(n) for n, name in enumerate(names)})
    return files


BIG_PSBT = psbt_to_bytes(
    build_psbt([p2tr_key(key_n(n + 2), 20_000 + n) for n in range(12)], [pay_to(5, 9)])
)


def read(frames: list[str]) -> Payload:
    decoder = AnimatedQrDecoder()
    for frame in frames:
        decoder.add(frame)
    assert decoder.result is not None, decoder.progress
    return decoder.result


@pytest.mark.parametrize("fmt", list(QrFormat))
def test_a_psbt_comes_back_from_shuffled_repeated_frames(fmt: QrFormat) -> None:
    payload = Payload(PayloadKind.PSBT, BIG_PSBT)
    frames = encode_frames(payload, fmt, max_version=10).take(30)
    rng = random.Random(7)
    scanned = frames + rng.sample(frames, 10)
    rng.shuffle(scanned)
    assert read(scanned) == payload


def test_ur_decodes_after_missing_frames_from_fountain_parts() -> None:
    sequence = encode_frames(Payload(PayloadKind.PSBT, BIG_PSBT), QrFormat.UR, max_version=8)
    needed = sequence.frames_needed
    assert needed > 3
    frames = sequence.take(needed * 4)
    kept = [f for i, f in enumerate(frames) if i % 3 != 0]  # every third frame missed, the first
    random.Random(3).shuffle(kept)
    decoder = AnimatedQrDecoder()
    for frame in kept:
        decoder.add(frame)
        if decoder.result:
            break
    assert decoder.result == Payload(PayloadKind.PSBT, BIG_PSBT)
    assert decoder.progress == Progress(needed, needed)


@pytest.mark.parametrize("fmt", list(QrFormat))
def test_an_export_bundle_round_trips(fmt: QrFormat) -> None:
    files = export_files(20)
    payload = Payload(PayloadKind.EXPORT, qr_export_bundle.pack(files))
    sequence = encode_frames(payload, fmt)
    result = read(sequence.take(sequence.frames_needed + 5))
    assert qr_export_bundle.unpack(result.data) == files


@pytest.mark.parametrize("fmt", list(QrFormat))
@pytest.mark.parametrize("max_version", [5, 10, DEFAULT_MAX_VERSION, 25, 40])
def test_frames_fit_the_density_asked(fmt: QrFormat, max_version: int) -> None:
    payload = Payload(PayloadKind.EXPORT, qr_export_bundle.pack(export_files(10)))
    sequence = encode_frames(payload, fmt, max_version)
    assert sequence.qr_version <= max_version
    frames = sequence.take(sequence.frames_needed + 3)
    assert max(len(f) for f in frames) <= ALNUM_CAPACITY_L[sequence.qr_version - 1]
    assert all(f == f.upper() for f in frames)  # QR alphanumeric mode


def test_progress_counts_frames_and_ignores_repeats() -> None:
    frames = encode_frames(Payload(PayloadKind.PSBT, BIG_PSBT), QrFormat.BBQR, 6).take(3)
    decoder = AnimatedQrDecoder()
    assert decoder.progress == Progress(0, 0)
    assert decoder.add(frames[1]) is True
    assert decoder.add(frames[1]) is False
    assert decoder.progress.received == 1 and decoder.progress.needed > 2


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("hello", WrongQrTypeError, "neither BBQr nor UR"),
        ("B$ZT0100ABCDEFGH", WrongQrTypeError, "carries a transaction"),
        ("ur:crypto-account/" + bytewords_encode(b"\x40"), WrongQrTypeError, "crypto-account"),
        ("ur:crypto-psbt/aeadaolazojendeowf", CorruptFrameError, "checksum"),
        ("ur:crypto-psbt/1-2-3/aeadaolazmjendeoti", CorruptFrameError, "sequence"),
    ],
)
def test_foreign_codes_are_refused_by_name(text: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        AnimatedQrDecoder().add(text)


@pytest.mark.parametrize("fmt", list(QrFormat))
def test_a_frame_of_another_code_is_refused_and_the_scan_goes_on(fmt: QrFormat) -> None:
    ours = encode_frames(Payload(PayloadKind.PSBT, BIG_PSBT), fmt, 8).take(20)
    other = encode_frames(Payload(PayloadKind.PSBT, listing_psbt(1) * 3), fmt, 8).take(2)
    decoder = AnimatedQrDecoder()
    decoder.add(ours[0])
    with pytest.raises(ForeignFrameError, match="another animated code"):
        decoder.add(other[1])
    for frame in ours[1:]:
        decoder.add(frame)
    assert decoder.result == Payload(PayloadKind.PSBT, BIG_PSBT)


def test_a_corrupt_ur_frame_is_refused_by_its_checksum() -> None:
    frames = encode_frames(Payload(PayloadKind.PSBT, BIG_PSBT), QrFormat.UR, 8).take(3)
    body_at = frames[1].rindex("/") + 5
    swapped = "AE" if frames[1][body_at : body_at + 2] != "AE" else "AD"
    corrupt = frames[1][:body_at] + swapped + frames[1][body_at + 2 :]
    with pytest.raises(CorruptFrameError, match="checksum"):
        AnimatedQrDecoder().add(corrupt)


def test_a_corrupt_bbqr_frame_is_refused_and_the_set_read_again() -> None:
    sequence = encode_frames(Payload(PayloadKind.PSBT, BIG_PSBT), QrFormat.BBQR, 8)
    frames = sequence.take(sequence.frames_needed)
    decoder = AnimatedQrDecoder()
    decoder.add(frames[0][:8] + "1" + frames[0][9:])  # not base32: seen only at the join
    for frame in frames[1:-1]:
        decoder.add(frame)
    with pytest.raises(CorruptFrameError, match="frame 1 does not decode"):
        decoder.add(frames[-1])
    for frame in frames:
        decoder.add(frame)
    assert decoder.result == Payload(PayloadKind.PSBT, BIG_PSBT)


def test_a_kind_not_expected_here_is_refused() -> None:
    export = encode_frames(
        Payload(PayloadKind.EXPORT, qr_export_bundle.pack(export_files(1))), QrFormat.UR
    )
    with pytest.raises(WrongQrTypeError, match="carries an offline-signing export, not what"):
        AnimatedQrDecoder(accept=frozenset({PayloadKind.PSBT})).add(export.next_frame())


def test_bytes_that_are_not_a_psbt_are_not_sent_as_one() -> None:
    with pytest.raises(AnimatedQrError, match="not a PSBT"):
        encode_frames(Payload(PayloadKind.PSBT, b"hello"), QrFormat.BBQR)


def bundle(document: cbor.CborValue) -> bytes:
    packer = zlib.compressobj(wbits=-15)
    return packer.compress(cbor.encode(document)) + packer.flush()


EXPORT: dict[cbor.CborValue, cbor.CborValue] = {"format": "bidwallet-export", "version": 1}


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"\xff\x00", "does not decompress"),
        (bundle([1]), "not a Bidwallet export"),
        (bundle({**EXPORT, "version": 2, "files": []}), "version 2"),
        (bundle({**EXPORT, "files": []}), "no files"),
        (bundle({**EXPORT, "files": [["../x", b""]]}), "not a plain file name"),
        (bundle({**EXPORT, "files": [["a", "text"]]}), "holds no bytes"),
        (bundle({**EXPORT, "files": [["a", b""], ["a", b""]]}), "twice"),
        (qr_export_bundle.pack({"a": b"x"})[:-2], "cut short"),
    ],
)
def test_a_bad_export_bundle_is_refused(payload: bytes, message: str) -> None:
    with pytest.raises(qr_export_bundle.ExportBundleError, match=message):
        qr_export_bundle.unpack(payload)


def test_a_corrupt_export_frame_is_caught_where_bbqr_has_no_checksum() -> None:
    files = export_files(3)
    sequence = encode_frames(
        Payload(PayloadKind.EXPORT, qr_export_bundle.pack(files)), QrFormat.BBQR, 5
    )
    frames = sequence.take(sequence.frames_needed)
    i = len(frames) // 2
    letter = "A" if frames[i][20] != "A" else "B"  # still base32: only the bundle check sees it
    frames[i] = frames[i][:20] + letter + frames[i][21:]
    decoder = AnimatedQrDecoder()
    with pytest.raises(CorruptFrameError):
        for frame in frames:
            decoder.add(frame)


def test_a_bundle_of_countless_small_values_is_refused_before_they_are_built() -> None:
    """65 KB of scanned frames inflate to 64 MB of one-byte CBOR values: built as a list they
    take gigabytes. A bundle holds at most a few values per file: more are refused."""
    files = [["a", b"x"]]
    padding = [0] * (4 * qr_export_bundle.MAX_FILES + 100)
    with pytest.raises(qr_export_bundle.ExportBundleError, match="too many values"):
        qr_export_bundle.unpack(bundle({**EXPORT, "files": files, "padding": padding}))
    assert qr_export_bundle.unpack(bundle({**EXPORT, "files": files})) == {"a": b"x"}
