"""Sealed files: the strategy policies a user approved, encrypted and authenticated with a key
only the unlocked wallet has, so a policy edited, swapped or forged on disk is refused.

The key: HKDF-SHA256 over the payment key's 32-byte secret (salt "bidwallet strategy policy
seal v1", info: the payment address's script). It is derived from the vault's secret (the
mnemonic or WIF the vault encrypts), so it exists only while the wallet is unlocked, does not
change with the vault's password, and differs per wallet and per payment address. It is never
stored.

The cipher: the vault's own AEAD (ChaCha20-Poly1305, `vault_crypto.CIPHERS`), a fresh 96-bit
random nonce per seal. The associated data binds the envelope's header and the caller's
context (the policy id and payment address): a valid file copied under another policy's name,
or into another profile, fails authentication like an edited one.

File (JSON, 0600, written atomically: `vault_file_store.write_atomically`):
    {"version": 1, "cipher": "chacha20-poly1305", "nonce": b64, "ciphertext": b64}
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Final

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from app.wallet.keys import RoleKey
from app.wallet.vault_crypto import CIPHERS, DEFAULT_CIPHER, NONCE_BYTES, canonical_json
from app.wallet.vault_errors import VaultError
from app.wallet.vault_file_store import write_atomically

SEAL_VERSION: Final = 1
_SALT: Final = b"bidwallet strategy policy seal v1"
_FIELDS: Final = frozenset({"version", "cipher", "nonce", "ciphertext"})
MAX_SEALED_BYTES: Final = 1 << 20  # a policy is a few KB; a huge file is not read whole


class PolicySealError(VaultError):
    """A sealed file that does not open with this wallet's key: edited, damaged, forged,
    moved from another name or profile, or sealed by another wallet."""


class PolicySealKey:
    """The sealing key of one wallet's payment key. Holds only the derived key."""

    __slots__ = ("_key",)

    def __init__(self, payment: RoleKey) -> None:
        hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=_SALT, info=payment.script_pubkey)
        self._key = hkdf.derive(bytes(payment.private_key.secret))

    def seal(self, plaintext: bytes, context: bytes) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        header = {"version": SEAL_VERSION, "cipher": DEFAULT_CIPHER, "nonce": _b64(nonce)}
        aead = CIPHERS[DEFAULT_CIPHER](self._key)
        ciphertext = aead.encrypt(nonce, plaintext, _aad(header, context))
        return canonical_json({**header, "ciphertext": _b64(ciphertext)})

    def open(self, sealed: bytes, context: bytes) -> bytes:
        """The plaintext, or `PolicySealError` for anything this key did not seal with
        exactly this context."""
        header, cipher, nonce, ciphertext = _parse(sealed)
        aead = CIPHERS[cipher](self._key)
        try:
            return aead.decrypt(nonce, ciphertext, _aad(header, context))
        except InvalidTag:
            raise PolicySealError(
                "the sealed policy failed authentication: it was edited, damaged, moved from "
                "another name or profile, or sealed by another wallet"
            ) from None

    def __repr__(self) -> str:
        return "PolicySealKey(<hidden>)"


def write_sealed(path: Path, sealed: bytes) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    write_atomically(path, sealed)


def read_sealed(path: Path) -> bytes:
    """The file's bytes (FileNotFoundError when absent); `PolicySealError` when too large."""
    with path.open("rb") as handle:
        data = handle.read(MAX_SEALED_BYTES + 1)
    if len(data) > MAX_SEALED_BYTES:
        raise PolicySealError(f"{path.name} is larger than any sealed policy")
    return data


def _parse(sealed: bytes) -> tuple[dict[str, object], str, bytes, bytes]:
    try:
        obj = json.loads(sealed)
    except ValueError:
        raise PolicySealError("the sealed policy is not JSON") from None
    if not isinstance(obj, dict) or set(obj) != _FIELDS:
        raise PolicySealError(f"the sealed policy's fields are not {sorted(_FIELDS)}")
    cipher = obj["cipher"]
    if obj["version"] != SEAL_VERSION or not isinstance(cipher, str) or cipher not in CIPHERS:
        raise PolicySealError("the sealed policy's version or cipher is not supported")
    nonce, ciphertext = _unb64(obj["nonce"]), _unb64(obj["ciphertext"])
    if len(nonce) != NONCE_BYTES:
        raise PolicySealError("the sealed policy's nonce has the wrong size")
    header = {k: v for k, v in obj.items() if k != "ciphertext"}
    return header, cipher, nonce, ciphertext


def _aad(header: dict[str, object], context: bytes) -> bytes:
    # Canonical JSON never holds a raw newline, so the split point is unambiguous.
    return canonical_json(header) + b"\n" + context


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _unb64(value: object) -> bytes:
    if not isinstance(value, str):
        raise PolicySealError("the sealed policy holds a field that is not base64 text")
    try:
        return base64.b64decode(value, validate=True)
    except ValueError:
        raise PolicySealError("the sealed policy holds a field that is not base64") from None
