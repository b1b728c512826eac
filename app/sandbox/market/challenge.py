"""The wallet credential of `POST /cancel` (spec 5.3; the public service's procedure):
`GET /challenge?address=` issues a random text bound to the address; the wallet signs it with
BIP-322 (or BIP-137) and sends the signature as `signature`.

A challenge lives `CHALLENGE_TTL_MS` on the service clock and can be used any number of times
until then (the public service's own market maker reuses one signature for ~15 s of calls).
At most `MAX_LIVE_PER_ADDRESS` live challenges are kept per address (the oldest go first).
"""

from __future__ import annotations

import base64
import binascii
import secrets

from embit.script import Witness

from app.sandbox.market.service import NETWORK, Json, Market
from app.sandbox.market.signature import verifies
from app.sandbox.market.wallets import decode_regtest
from app.wallet.addresses import ScriptKind
from app.wallet.bip137 import Bip137Mode, verify_bip137
from app.wallet.message import SignatureError

CHALLENGE_TTL_MS = 10 * 60_000
MAX_LIVE_PER_ADDRESS = 10


def issue_challenge(market: Market, address: str) -> Json:
    decode_regtest(address, "address")
    now = market.now_ms()
    expires = now + CHALLENGE_TTL_MS
    text = (
        f"Bidwallet sandbox challenge for {address}\n"
        f"Nonce: {secrets.token_hex(16)}\nExpires: {expires}"
    )
    with market.store.transaction() as conn:
        conn.execute("DELETE FROM challenges WHERE expires_ms <= ?", (now,))
        conn.execute(
            "INSERT INTO challenges (challenge, address, expires_ms) VALUES (?, ?, ?)",
            (text, address, expires),
        )
        conn.execute(
            "DELETE FROM challenges WHERE address = ? AND challenge NOT IN (SELECT challenge "
            "FROM challenges WHERE address = ? ORDER BY expires_ms DESC LIMIT ?)",
            (address, address, MAX_LIVE_PER_ADDRESS),
        )
    return {"challenge": text, "address": address, "expiresAt": expires}


def signed_challenge(market: Market, address: str, signature: str) -> str | None:
    """The live challenge of `address` that `signature` signs, or None."""
    now = market.now_ms()
    with market.store.reading() as conn:
        live = [
            row[0]
            for row in conn.execute(
                "SELECT challenge FROM challenges WHERE address = ? AND expires_ms > ? "
                "ORDER BY expires_ms DESC",
                (address, now),
            )
        ]
    return next((text for text in live if verifies(address, text, signature)), None)


def verify_challenge(market: Market, address: str, signature: str) -> Json:
    decode_regtest(address, "address")
    text = signed_challenge(market, address, signature)
    if text is None:
        return {"validity": False, "publicKey": None}
    return {"validity": True, "publicKey": signer_public_key(address, text, signature)}


def signer_public_key(address: str, message: str, signature: str) -> str | None:
    """The key a valid signature shows: BIP-137's recovered key, the witness key of a BIP-322
    P2WPKH/P2SH-P2WPKH signature, or the Taproot output key (x-only) of a P2TR address."""
    decoded = decode_regtest(address, "address")
    try:
        raw = base64.b64decode(signature, validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(raw) == 65 and 27 <= raw[0] <= 42:
        try:
            return verify_bip137(
                address, message, signature, mode=Bip137Mode.LENIENT, network=NETWORK
            ).public_key.hex()
        except SignatureError:
            pass
    if decoded.kind is ScriptKind.P2TR:
        return decoded.program.hex()
    try:
        items = Witness.parse(raw).items
    except Exception:  # embit raises several types on malformed witness bytes
        return None
    return bytes(items[1]).hex() if len(items) == 2 else None
