"""Password-based encryption of the wallet secret: Argon2id (memory-hard) derives a 32-byte unlock
key from the password; HKDF splits it into a cipher key and a key-check value; an AEAD cipher
seals the secret with the whole envelope header (plus the caller's context) as associated data.

Envelope (a JSON object; every field but `ciphertext` is authenticated):
    {"version": 1,
     "kdf": {"name": "argon2id", "time_cost": 3, "memory_kib": 262144, "parallelism": 2,
             "salt": b64},
     "cipher": {"name": "chacha20-poly1305", "nonce": b64},
     "key_check": b64, "ciphertext": b64}

The key check tells a wrong password (check differs) from damaged data (check matches, tag
fails). It gives an attacker nothing the AEAD tag would not: each guess still costs one Argon2id.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import logging
import os
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, Final

from argon2.exceptions import HashingError
from argon2.low_level import Type, hash_secret_raw
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from app.wallet.vault_errors import (
    CorruptVaultError,
    EmptyPasswordError,
    UnsafeKdfParametersError,
    UnsupportedVaultVersionError,
    WrongPasswordError,
)

log = logging.getLogger(__name__)

ENVELOPE_VERSION: Final = 1
KDF_NAME: Final = "argon2id"
CIPHERS: Final[dict[str, type[ChaCha20Poly1305] | type[AESGCM]]] = {
    "chacha20-poly1305": ChaCha20Poly1305,
    "aes-256-gcm": AESGCM,
}
DEFAULT_CIPHER: Final = "chacha20-poly1305"
KEY_BYTES: Final = 32
SALT_BYTES: Final = 16
NONCE_BYTES: Final = 12
KEY_CHECK_BYTES: Final = 16
TAG_BYTES: Final = 16

# Refused before any work: a hostile file must not make us allocate or spin without bound.
MAX_MEMORY_KIB: Final = 1 << 20  # 1 GiB
MAX_TIME_COST: Final = 10
MAX_PARALLELISM: Final = 8
MAX_WORK_KIB_PASSES: Final = 1 << 22  # memory x passes: ~5x the default, a few seconds at most
_ENVELOPE_FIELDS: Final = {"version", "kdf", "cipher", "key_check", "ciphertext"}


@dataclass(frozen=True)
class Argon2idParams:
    time_cost: int
    memory_kib: int
    parallelism: int

    def check_safe(self) -> None:
        """Raise UnsafeKdfParametersError unless these parameters are within our bounds."""
        t, m, p = self.time_cost, self.memory_kib, self.parallelism
        if not 1 <= p <= MAX_PARALLELISM:
            raise UnsafeKdfParametersError(
                f"Argon2id parallelism {p} is outside 1..{MAX_PARALLELISM}"
            )
        if not 1 <= t <= MAX_TIME_COST:
            raise UnsafeKdfParametersError(f"Argon2id time cost {t} is outside 1..{MAX_TIME_COST}")
        if not 8 * p <= m <= MAX_MEMORY_KIB:
            raise UnsafeKdfParametersError(
                f"Argon2id memory {m} KiB is outside {8 * p}..{MAX_MEMORY_KIB} KiB"
            )
        if m * t > MAX_WORK_KIB_PASSES:
            raise UnsafeKdfParametersError(
                f"Argon2id work {m} KiB x {t} passes exceeds {MAX_WORK_KIB_PASSES} KiB-passes"
            )


# 256 MiB, 3 passes, 2 lanes: median ~340-420 ms on the 2-core dev machine (192 MiB measured
# 260-310 ms, too close to the 250 ms floor). Re-measure with benchmarks/bench_vault.py.
DEFAULT_KDF: Final = Argon2idParams(time_cost=3, memory_kib=256 * 1024, parallelism=2)


class UnlockKey:
    """The Argon2id output: opens an envelope without the password (what "remember" stores)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: bytes) -> None:
        if len(raw) != KEY_BYTES:
            raise CorruptVaultError(f"an unlock key must be {KEY_BYTES} bytes")
        self._raw = bytes(raw)

    @classmethod
    def from_text(cls, text: str) -> UnlockKey:
        return cls(b64decode(text, "remembered unlock key"))

    def to_text(self) -> str:
        return base64.b64encode(self._raw).decode("ascii")

    def _subkey(self, purpose: bytes, length: int) -> bytes:
        hkdf = HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=purpose)
        return hkdf.derive(self._raw)

    def cipher_key(self) -> bytes:
        return self._subkey(b"bidwallet vault v1: cipher key", KEY_BYTES)

    def key_check(self) -> bytes:
        return self._subkey(b"bidwallet vault v1: key check", KEY_CHECK_BYTES)

    def __repr__(self) -> str:
        return "UnlockKey(<hidden>)"


@dataclass(frozen=True)
class Envelope:
    """A parsed, validated envelope. `header` is the authenticated part as it was stored."""

    header: dict[str, Any]
    kdf: Argon2idParams
    salt: bytes
    cipher: str
    nonce: bytes
    key_check: bytes
    ciphertext: bytes

    def to_json_obj(self) -> dict[str, Any]:
        return {**self.header, "ciphertext": base64.b64encode(self.ciphertext).decode("ascii")}


def derive_unlock_key(password: str, kdf: Argon2idParams, salt: bytes) -> UnlockKey:
    if not password:
        raise EmptyPasswordError("the vault password must not be empty")
    kdf.check_safe()
    # NFC so the same password typed on another OS or keyboard layout gives the same bytes.
    secret = unicodedata.normalize("NFC", password).encode("utf-8")
    started = time.perf_counter()
    try:
        raw = hash_secret_raw(
            secret, salt, kdf.time_cost, kdf.memory_kib, kdf.parallelism, KEY_BYTES, Type.ID
        )
    except HashingError as exc:
        raise UnsafeKdfParametersError(f"Argon2id failed with {kdf}: {exc}") from None
    log.debug("argon2id %s took %.0f ms", kdf, (time.perf_counter() - started) * 1000)
    return UnlockKey(raw)


def seal(
    plaintext: bytes,
    key: UnlockKey,
    kdf: Argon2idParams,
    salt: bytes,
    context: bytes,
    cipher: str = DEFAULT_CIPHER,
) -> Envelope:
    """Encrypt with a key already derived from (password, kdf, salt)."""
    nonce = os.urandom(NONCE_BYTES)
    header = _header(kdf, salt, cipher, nonce, key.key_check())
    ciphertext = CIPHERS[cipher](key.cipher_key()).encrypt(nonce, plaintext, _aad(header, context))
    return Envelope(header, kdf, salt, cipher, nonce, key.key_check(), ciphertext)


def seal_with_password(
    plaintext: bytes, password: str, kdf: Argon2idParams, context: bytes
) -> tuple[Envelope, UnlockKey]:
    """Encrypt under a fresh salt; returns the envelope and the key (to remember if asked)."""
    salt = os.urandom(SALT_BYTES)
    key = derive_unlock_key(password, kdf, salt)
    return seal(plaintext, key, kdf, salt, context), key


def key_for_password(envelope: Envelope, password: str) -> UnlockKey:
    return derive_unlock_key(password, envelope.kdf, envelope.salt)


def open_envelope(envelope: Envelope, key: UnlockKey, context: bytes) -> bytes:
    """Decrypt; WrongPasswordError if the key is not the one that sealed it, CorruptVaultError if
    it is but the ciphertext, header or context was changed."""
    if not hmac.compare_digest(key.key_check(), envelope.key_check):
        raise WrongPasswordError("wrong password")
    aead = CIPHERS[envelope.cipher](key.cipher_key())
    try:
        return aead.decrypt(envelope.nonce, envelope.ciphertext, _aad(envelope.header, context))
    except InvalidTag:
        raise CorruptVaultError(
            "vault data failed authentication: it was modified or damaged"
        ) from None


def parse_envelope(obj: Any) -> Envelope:
    """Validate a stored envelope, refusing unknown versions and unsafe KDF parameters before
    any key derivation."""
    if not isinstance(obj, dict):
        raise CorruptVaultError("vault envelope is not a JSON object")
    version = obj.get("version")
    if not _is_int(version):
        raise CorruptVaultError("vault envelope has no integer version")
    if version != ENVELOPE_VERSION:
        raise UnsupportedVaultVersionError(f"vault envelope version {version} is not supported")
    if set(obj) != _ENVELOPE_FIELDS:
        raise CorruptVaultError(f"vault envelope fields are {sorted(obj)}, not the v1 set")
    kdf_obj, cipher_obj = _object(obj, "kdf"), _object(obj, "cipher")
    if kdf_obj.get("name") != KDF_NAME:
        raise UnsupportedVaultVersionError(f"unsupported KDF {kdf_obj.get('name')!r}")
    if set(kdf_obj) != {"name", "time_cost", "memory_kib", "parallelism", "salt"}:
        raise CorruptVaultError("vault KDF parameters are incomplete or unexpected")
    ints = [kdf_obj[k] for k in ("time_cost", "memory_kib", "parallelism")]
    if not all(_is_int(v) for v in ints):
        raise CorruptVaultError("vault KDF parameters must be integers")
    kdf = Argon2idParams(*ints)
    kdf.check_safe()
    salt = b64decode(kdf_obj["salt"], "KDF salt")
    if not SALT_BYTES <= len(salt) <= 64:
        raise CorruptVaultError(f"KDF salt is {len(salt)} bytes, expected {SALT_BYTES} to 64")
    cipher = cipher_obj.get("name")
    if cipher not in CIPHERS:
        raise UnsupportedVaultVersionError(f"unsupported cipher {cipher!r}")
    if set(cipher_obj) != {"name", "nonce"}:
        raise CorruptVaultError("vault cipher fields are incomplete or unexpected")
    nonce = _sized(cipher_obj["nonce"], "cipher nonce", NONCE_BYTES)
    key_check = _sized(obj["key_check"], "key check", KEY_CHECK_BYTES)
    ciphertext = b64decode(obj["ciphertext"], "ciphertext")
    if len(ciphertext) < TAG_BYTES:
        raise CorruptVaultError("ciphertext is truncated (shorter than its authentication tag)")
    header = {k: v for k, v in obj.items() if k != "ciphertext"}
    return Envelope(header, kdf, salt, cipher, nonce, key_check, ciphertext)


def canonical_json(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def b64decode(value: Any, what: str) -> bytes:
    if not isinstance(value, str):
        raise CorruptVaultError(f"{what} is not a base64 string")
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise CorruptVaultError(f"{what} is not valid base64") from None


def _header(
    kdf: Argon2idParams, salt: bytes, cipher: str, nonce: bytes, check: bytes
) -> dict[str, Any]:
    def b64(raw: bytes) -> str:
        return base64.b64encode(raw).decode("ascii")

    return {
        "version": ENVELOPE_VERSION,
        "kdf": {
            "name": KDF_NAME,
            "time_cost": kdf.time_cost,
            "memory_kib": kdf.memory_kib,
            "parallelism": kdf.parallelism,
            "salt": b64(salt),
        },
        "cipher": {"name": cipher, "nonce": b64(nonce)},
        "key_check": b64(check),
    }


def _aad(header: dict[str, Any], context: bytes) -> bytes:
    # Canonical JSON never contains a raw newline, so the split point is unambiguous.
    return canonical_json(header) + b"\n" + context


def _object(obj: dict[str, Any], name: str) -> dict[str, Any]:
    value = obj.get(name)
    if not isinstance(value, dict):
        raise CorruptVaultError(f"vault envelope field {name!r} is not an object")
    return value


def _sized(value: Any, what: str, size: int) -> bytes:
    raw = b64decode(value, what)
    if len(raw) != size:
        raise CorruptVaultError(f"{what} is {len(raw)} bytes, expected {size}")
    return raw


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
