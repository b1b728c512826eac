"""What a cancel challenge may be before a key of ours signs it (app/core/cancel_challenge.py)."""

from __future__ import annotations

import pytest

from app.core.cancel_challenge import MAX_CHALLENGE_CHARS, ChallengeShapeError, check_challenge

KEY = bytes.fromhex("02" + "ab" * 32)
OTHER = bytes.fromhex("03" + "cd" * 32)
SANDBOX = (
    "Bidwallet sandbox challenge for bcrt1qexample\n"
    "Nonce: 00112233445566778899aabbccddeeff\nExpires: 1764072000000"
)
BID_LINE = "bc1qpayer:" + KEY.hex() + ":bc1preceiver:1000:1:1764072000000:pixel-pals:1764070000000"


@pytest.mark.parametrize(
    "text",
    [
        SANDBOX,
        "Sign this message to cancel your Satflow orders: 8f1e0c",
        "nonce=abc; issued 2026-11-25T12:00:00Z",  # a time has colons, not seven
        "x" * MAX_CHALLENGE_CHARS,
    ],
)
def test_plausible_challenges_pass(text: str) -> None:
    check_challenge(text, [KEY, OTHER, b""])


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "1 to"),
        ("x" * (MAX_CHALLENGE_CHARS + 1), "1 to 1,024"),
        ("ok\x00then", "control characters"),
        ("tab\there", "control characters"),
        (BID_LINE.replace(KEY.hex(), OTHER.hex()), "shaped like a bid message"),
        (BID_LINE + "\nBackground:Blue", "shaped like a bid message"),
        ("a:b:c:d:e:f:g:h", "shaped like a bid message"),
        (f"confirm {KEY.hex().upper()}", "public keys"),
        (f"confirm {KEY[1:].hex()}", "public keys"),  # x-only
    ],
)
def test_what_could_authorise_something_else_is_refused(text: str, says: str) -> None:
    with pytest.raises(ChallengeShapeError, match=says):
        check_challenge(text, [KEY, OTHER])
