"""What a cancel challenge may be before one of our keys signs it.

`GET /challenge` returns text the service chose, and the cancel credential is our BIP-322 (or
BIP-137) signature of it: the same kind of signature, by the same keys, as a bid message
(`app/core/bid_message.py`, `<payment address>:<payment public key hex>:<receive address>:
<price>:<quantity>:<expiry>:<slug>:<timestamp>`). A service that served a bid message as "the
challenge" would get from a cancel a valid `signedBiddingMessage` for a bid the user never
asked for. So a challenge is signed (or shown for signing elsewhere) only when it cannot be a
bid message or anything else of ours:

- it has 1 to `MAX_CHALLENGE_CHARS` characters, printable, on lines;
- no line has as many ':' as a bid message's first line (`BID_MESSAGE_COLONS`);
- it names none of our public keys (hex, compressed or x-only, any case): every bid message
  names the bidder's.

The public service's challenge format is not documented (`../shared/notes/satflow-api.md`,
section 2); the sandbox's is three short lines ("... challenge for <address>", "Nonce: ...",
"Expires: ..."). Both pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

MAX_CHALLENGE_CHARS: Final = 1024
BID_MESSAGE_COLONS: Final = 7  # the colon-joined first line of a bid message


class ChallengeShapeError(ValueError):
    """The text is not something a cancel credential may sign; the message says why."""


def check_challenge(text: str, own_public_keys: Iterable[bytes]) -> None:
    """Raise `ChallengeShapeError` unless `text` is safe to sign as a cancel challenge."""
    if not text or len(text) > MAX_CHALLENGE_CHARS:
        raise ChallengeShapeError(
            f"it has {len(text):,} characters (a challenge has 1 to {MAX_CHALLENGE_CHARS:,})"
        )
    lines = text.split("\n")
    if not all(line.isprintable() for line in lines):
        raise ChallengeShapeError("it holds control characters")
    if any(line.count(":") >= BID_MESSAGE_COLONS for line in lines):
        raise ChallengeShapeError("it is shaped like a bid message (a colon-joined line)")
    lowered = text.lower()
    for key in own_public_keys:
        forms = {key.hex()} | ({key[1:].hex()} if len(key) == 33 else set())
        if any(form and form in lowered for form in forms):
            raise ChallengeShapeError("it names one of this wallet's public keys")
