"""The messages of the air-gapped round trip name the QR buttons of the next step by the very
labels those buttons carry, so a user can find them; and the export's QR code is offered to
Bidwallet's offline signer only (it is a bundle, BBQr type B / UR bytes, that Sparrow or a
Coldcard can read but not sign)."""

from __future__ import annotations

import pytest

from app.core.animated_qr import Payload, PayloadKind, QrFormat, encode_frames
from app.ui import strings


def label(text: str) -> str:
    return text.replace("&", "")


@pytest.mark.parametrize("count", [1, 2])
def test_the_export_message_names_show_as_qr_and_scan_qr(count: int) -> None:
    text = strings.counted(strings.LISTINGS_EXPORTED, count, folder="/home/me/export")
    assert label(strings.QR_SHOW_EXPORT) in text
    assert label(strings.QR_SCAN_BUTTON) in text
    assert label(strings.LISTINGS_IMPORT).rstrip("…") in text


@pytest.mark.parametrize("count", [1, 2])
def test_the_offline_signed_message_names_show_signed_as_qr(count: int) -> None:
    text = strings.counted(strings.OFFLINE_SIGNED, count, folder="/home/me/export")
    assert label(strings.QR_SHOW_SIGNED) in text
    assert label(strings.QR_SCAN_BUTTON) in text  # listings
    assert label(strings.ELSEWHERE_SCAN) in text  # a watch-only withdrawal, funding, bid


def test_the_signed_code_names_where_each_export_is_scanned_back() -> None:
    assert label(strings.QR_SCAN_BUTTON) in strings.QR_HOW_SIGNED
    assert label(strings.ELSEWHERE_SCAN) in strings.QR_HOW_SIGNED
    assert "go back as files" not in strings.QR_HOW_SIGNED


def test_the_offline_windows_intro_names_its_buttons() -> None:
    for button in (strings.QR_SCAN_BUTTON, strings.OFFLINE_REVIEW_SIGN, strings.QR_SHOW_SIGNED):
        assert label(button) in strings.OFFLINE_INTRO


def test_the_export_code_is_offered_to_bidwallets_offline_signer_only() -> None:
    sequence = encode_frames(Payload(PayloadKind.EXPORT, bytes(300)), QrFormat.BBQR, 10)
    assert sequence.next_frame()[3] == "B"  # BBQr type B: bytes, not a PSBT (type P)
    assert label(strings.QR_SCAN_BUTTON) in strings.QR_HOW_EXPORT
    assert "offline" in strings.QR_HOW_EXPORT
    for other in ("Sparrow", "Coldcard", "a wallet that reads"):
        assert other not in strings.QR_HOW_EXPORT


def test_the_density_is_named_as_the_largest_version() -> None:
    """A PSBT short enough takes a smaller version than the density chosen: the caption then
    says 'version 12' under 'Up to QR version 15', not under 'QR version 15'."""
    sequence = encode_frames(Payload(PayloadKind.EXPORT, bytes(300)), QrFormat.BBQR, 15)
    assert sequence.qr_version < 15
    assert strings.QR_DENSITY_ITEM.format(version=15).startswith("Up to ")
