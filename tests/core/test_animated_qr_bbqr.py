"""BBQr (app/core/bbqr.py) against Coinkite's published data: github.com/coinkite/BBQr,
test_data/ (public domain, copied to tests/core/bbqr_vectors/): a real scan of a Coldcard
showing BBQr.md as 8 frames (real-scan.txt, 26 scans with repeats) and three PSBTs; the
capacity table against segno."""

from __future__ import annotations

from pathlib import Path

import pytest
import segno

from app.core import bbqr

VECTORS = Path(__file__).parent / "bbqr_vectors"


def real_scan() -> list[str]:
    return [
        line.strip()
        for line in (VECTORS / "real-scan.txt").read_text().splitlines()
        if line.strip()
    ]


def test_a_real_coldcard_scan_joins_and_our_split_makes_the_same_frames() -> None:
    frames: dict[int, bbqr.BbqrFrame] = {}
    for text in real_scan():  # 26 scans of 8 frames: repeats, as a camera reads them
        frame = bbqr.parse_frame(text)
        frames[frame.index] = frame
    ordered = [frames[i] for i in range(8)]
    text = bbqr.join(ordered)
    assert ordered[0].file_type == "U" and ordered[0].encoding == "Z"
    assert b"Zlib compressed" in text and b"PSBT" in text  # Coinkite's own assertions
    version, again = bbqr.split(text, "U", max_version=20)
    assert (version, again) == (20, [f.text for f in ordered])  # byte for byte


@pytest.mark.parametrize("name", ["1in2out", "1in10out", "1in100out"])
@pytest.mark.parametrize("max_version", [11, 15, 29, 40])
@pytest.mark.parametrize("encoding", [None, "H", "2", "Z"])
def test_coinkite_psbts_loop_back(name: str, max_version: int, encoding: str | None) -> None:
    raw = (VECTORS / f"{name}.psbt").read_bytes()
    version, frames = bbqr.split(raw, "P", max_version=max_version, encoding=encoding)
    assert version <= max_version
    assert all(len(f) <= bbqr.ALNUM_CAPACITY_L[version - 1] for f in frames)
    assert {f[:6] for f in frames} == {frames[0][:6]} and frames[0][3] == "P"
    assert bbqr.join([bbqr.parse_frame(f) for f in frames]) == raw


def test_the_capacity_table_matches_segno() -> None:
    for version, capacity in enumerate(bbqr.ALNUM_CAPACITY_L, start=1):
        segno.make("A" * capacity, version=version, error="l", boost_error=False)
        with pytest.raises(segno.DataOverflowError):
            segno.make("A" * (capacity + 1), version=version, error="l", boost_error=False)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("UR:BYTES/AE", "not a BBQr code"),
        ("B$ZP01", "shorter than its header"),
        ("B$QP0100ABCD", "'Q' is not a BBQr encoding"),
        ("B$ZW0100ABCD", "'W' is not a BBQr file type"),
        ("B$ZP0!00ABCD", "not a BBQr frame count"),
        ("B$ZP0202ABCD", "frame 3 of 2 is out of range"),
    ],
)
def test_bad_frames_are_refused_with_their_reason(text: str, message: str) -> None:
    with pytest.raises(bbqr.BbqrError, match=message):
        bbqr.parse_frame(text)


def test_a_corrupt_frame_fails_the_join() -> None:
    """Only where it shows: BBQr has no checksum, so a changed letter that is still base32 can
    decode to other bytes; the PSBT or export check after the scan is what catches those."""
    _, frames = bbqr.split((VECTORS / "1in10out.psbt").read_bytes(), "P", max_version=10)
    parsed = [bbqr.parse_frame(f) for f in frames]
    bad = bbqr.parse_frame(frames[1][:8] + "1" + frames[1][9:])  # '1' is not base32
    with pytest.raises(bbqr.BbqrError, match="frame 2 does not decode"):
        bbqr.join([parsed[0], bad, *parsed[2:]])
