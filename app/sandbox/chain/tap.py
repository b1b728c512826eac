"""TAP token transfers as TAP indexers tell them: an inscription whose body is a JSON object
with `"p": "tap"` and `"op": "token-transfer"` (TAP's "external" functions work as BRC-20's;
github.com/BennyTheDev/tap-protocol-specs README.md at 0aa5de20478d22518690d725c4a37ee687352f35,
whose token-transfer example the sandbox inscribes). The marketplace refuses to list one, as
the public service does."""

from __future__ import annotations

import json

CONTENT_TYPE = "text/plain;charset=utf-8"
TOKEN_TRANSFER = {"p": "tap", "op": "token-transfer", "tick": "tap", "amt": "100"}


def token_transfer_body() -> bytes:
    return json.dumps(TOKEN_TRANSFER, separators=(",", ":")).encode()


def is_token_transfer(body: bytes | None) -> bool:
    """Whether `body` reads as a TAP token-transfer: JSON text (invalid UTF-8 replaced) of an
    object whose string fields `p` and `op` are "tap" and "token-transfer", in any case."""
    if body is None:
        return False
    try:
        value = json.loads(body.decode("utf-8", "replace"))
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than Python's stack
        return False
    if not isinstance(value, dict):
        return False
    p, op = value.get("p"), value.get("op")
    return (
        isinstance(p, str)
        and isinstance(op, str)
        and p.lower() == "tap"
        and op.lower() == "token-transfer"
    )
