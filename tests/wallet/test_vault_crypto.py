"""The envelope: round trips, wrong password vs damaged data, tampering, hostile parameters."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

import pytest

from app.wallet import vault_crypto
from app.wallet.vault_crypto import (
    CIPHERS,
    DEFAULT_KDF,
    Argon2idParams,
    UnlockKey,
    derive_unlock_key,
    key_for_password,
    open_envelope,
    parse_envelope,
    seal,
    seal_with_password,
)
from app.wallet.vault_errors import (
    CorruptVaultError,
    EmptyPasswordError,
    UnsafeKdfParametersError,
    UnsupportedVaultVersionError,
    WrongPasswordError,
)

PLAINTEXT = b'{"kind":"test","value":"not really a secret"}'
CONTEXT = b'{"meta":{"name":"x"}}'
PASSWORD = "pässword ünicode"
# Tests use a tiny Argon2id cost; the default is measured by benchmarks/bench_vault.py.
FAST_KDF = Argon2idParams(time_cost=1, memory_kib=256, parallelism=1)


@pytest.fixture
def stored() -> dict[str, Any]:
    envelope, _ = seal_with_password(PLAINTEXT, PASSWORD, FAST_KDF, CONTEXT)
    # Through JSON, as the vault stores it.
    return json.loads(json.dumps(envelope.to_json_obj()))


def reopen(obj: dict[str, Any], password: str = PASSWORD, context: bytes = CONTEXT) -> bytes:
    envelope = parse_envelope(obj)
    return open_envelope(envelope, key_for_password(envelope, password), context)


def flip_b64(value: str) -> str:
    raw = bytearray(base64.b64decode(value))
    raw[0] ^= 0x01
    return base64.b64encode(bytes(raw)).decode()


@pytest.mark.parametrize("cipher", sorted(CIPHERS))
def test_round_trip_with_each_cipher(cipher: str) -> None:
    salt = b"s" * 16
    key = derive_unlock_key(PASSWORD, FAST_KDF, salt)
    envelope = seal(PLAINTEXT, key, FAST_KDF, salt, CONTEXT, cipher=cipher)
    obj = json.loads(json.dumps(envelope.to_json_obj()))
    assert obj["cipher"]["name"] == cipher
    assert reopen(obj) == PLAINTEXT


def test_envelope_records_its_parameters(stored: dict[str, Any]) -> None:
    assert stored["version"] == 1
    assert stored["kdf"]["name"] == "argon2id"
    assert (stored["kdf"]["time_cost"], stored["kdf"]["memory_kib"]) == (1, 256)
    assert stored["kdf"]["parallelism"] == 1
    assert len(base64.b64decode(stored["kdf"]["salt"])) == 16
    assert stored["cipher"]["name"] == "chacha20-poly1305"
    assert len(base64.b64decode(stored["cipher"]["nonce"])) == 12
    assert PLAINTEXT not in base64.b64decode(stored["ciphertext"])


def test_fresh_salt_and_nonce_each_time() -> None:
    first, _ = seal_with_password(PLAINTEXT, PASSWORD, FAST_KDF, CONTEXT)
    second, _ = seal_with_password(PLAINTEXT, PASSWORD, FAST_KDF, CONTEXT)
    assert first.salt != second.salt
    assert first.nonce != second.nonce
    assert first.ciphertext != second.ciphertext


def test_wrong_password_is_not_reported_as_corruption(stored: dict[str, Any]) -> None:
    with pytest.raises(WrongPasswordError):
        reopen(stored, password="pässword ünicodE")


def test_password_is_unicode_normalised(stored: dict[str, Any]) -> None:
    decomposed = "pa\u0308ssword u\u0308nicode"
    assert decomposed != PASSWORD
    assert reopen(stored, password=decomposed) == PLAINTEXT


def test_empty_password_refused() -> None:
    with pytest.raises(EmptyPasswordError):
        seal_with_password(PLAINTEXT, "", FAST_KDF, CONTEXT)


def test_remembered_key_opens_without_password(stored: dict[str, Any]) -> None:
    envelope, key = seal_with_password(PLAINTEXT, PASSWORD, FAST_KDF, CONTEXT)
    again = UnlockKey.from_text(key.to_text())
    assert open_envelope(envelope, again, CONTEXT) == PLAINTEXT
    with pytest.raises(WrongPasswordError):
        open_envelope(parse_envelope(stored), again, CONTEXT)  # other salt: other key


@pytest.mark.parametrize(
    ("path", "error"),
    [
        (("kdf", "salt"), WrongPasswordError),  # another salt derives another key
        (("key_check",), WrongPasswordError),
        (("cipher", "nonce"), CorruptVaultError),
        (("ciphertext",), CorruptVaultError),
    ],
)
def test_tampered_bytes_are_detected(
    stored: dict[str, Any], path: tuple[str, ...], error: type[Exception]
) -> None:
    target = stored
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = flip_b64(target[path[-1]])
    with pytest.raises(error):
        reopen(stored)


@pytest.mark.parametrize(
    ("section", "field", "value", "error"),
    [
        ("kdf", "time_cost", 2, WrongPasswordError),
        ("kdf", "memory_kib", 512, WrongPasswordError),
        ("cipher", "name", "aes-256-gcm", CorruptVaultError),
    ],
)
def test_tampered_header_is_detected(
    stored: dict[str, Any], section: str, field: str, value: Any, error: type[Exception]
) -> None:
    stored[section][field] = value
    with pytest.raises(error):
        reopen(stored)


def test_changed_context_is_detected(stored: dict[str, Any]) -> None:
    with pytest.raises(CorruptVaultError, match="authentication"):
        reopen(stored, context=b'{"meta":{"name":"y"}}')


def test_truncated_ciphertext(stored: dict[str, Any]) -> None:
    raw = base64.b64decode(stored["ciphertext"])
    stored["ciphertext"] = base64.b64encode(raw[:-3]).decode()
    with pytest.raises(CorruptVaultError, match="authentication"):
        reopen(stored)
    stored["ciphertext"] = base64.b64encode(raw[:10]).decode()
    with pytest.raises(CorruptVaultError, match="truncated"):
        parse_envelope(stored)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda o: o.update(ciphertext="not base64!!"),
        lambda o: o["kdf"].update(salt=12),
        lambda o: o["cipher"].update(nonce=base64.b64encode(b"short").decode()),
        lambda o: o.update(extra="field"),
        lambda o: o.pop("key_check"),
        lambda o: o.update(version="1"),
        lambda o: o["kdf"].update(time_cost=True),
        lambda o: o["kdf"].update(memory_kib=256.0),
        lambda o: o.update(kdf=[]),
    ],
)
def test_malformed_envelopes_are_corrupt(stored: dict[str, Any], mutate: Any) -> None:
    mutate(stored)
    with pytest.raises(CorruptVaultError):
        parse_envelope(stored)


def test_not_an_object_is_corrupt() -> None:
    with pytest.raises(CorruptVaultError):
        parse_envelope(["version", 1])


@pytest.mark.parametrize(
    "mutate",
    [
        lambda o: o.update(version=2),
        lambda o: o["kdf"].update(name="scrypt"),
        lambda o: o["cipher"].update(name="aes-128-cbc"),
    ],
)
def test_unknown_versions_and_algorithms(stored: dict[str, Any], mutate: Any) -> None:
    mutate(stored)
    with pytest.raises(UnsupportedVaultVersionError):
        parse_envelope(stored)


@pytest.mark.parametrize(
    ("time_cost", "memory_kib", "parallelism", "match"),
    [
        (3, 5 * 1024 * 1024, 1, "memory"),  # 5 GiB
        (3, 2 * 1024 * 1024, 1, "memory"),  # 2 GiB
        (10_000, 65536, 1, "time cost"),
        (0, 65536, 1, "time cost"),
        (3, 65536, 0, "parallelism"),
        (3, 65536, 255, "parallelism"),
        (10, 1024 * 1024, 1, "work"),
        (1, 8, 4, "memory"),
    ],
)
def test_absurd_parameters_refused_before_any_work(
    stored: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    time_cost: int,
    memory_kib: int,
    parallelism: int,
    match: str,
) -> None:
    def must_not_run(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("Argon2id ran with refused parameters")

    monkeypatch.setattr(vault_crypto, "hash_secret_raw", must_not_run)
    hostile = copy.deepcopy(stored)
    hostile["kdf"].update(time_cost=time_cost, memory_kib=memory_kib, parallelism=parallelism)
    with pytest.raises(UnsafeKdfParametersError, match=match):
        parse_envelope(hostile)
    params = Argon2idParams(time_cost, memory_kib, parallelism)
    with pytest.raises(UnsafeKdfParametersError, match=match):
        derive_unlock_key(PASSWORD, params, b"s" * 16)


def test_default_parameters_are_accepted_and_memory_hard() -> None:
    DEFAULT_KDF.check_safe()
    assert DEFAULT_KDF.memory_kib >= 64 * 1024
    assert DEFAULT_KDF.time_cost >= 2


def test_unlock_key_text_form() -> None:
    key = UnlockKey(bytes(range(32)))
    assert UnlockKey.from_text(key.to_text()).to_text() == key.to_text()
    assert repr(key) == "UnlockKey(<hidden>)"
    with pytest.raises(CorruptVaultError):
        UnlockKey.from_text(base64.b64encode(b"short").decode())
    with pytest.raises(CorruptVaultError):
        UnlockKey.from_text("%%%")


# Sealed once by this code (FAST_KDF, password "compat password", context b"ctx"): vaults written
# by earlier builds must keep opening, so HKDF labels, normalisation and AAD layout may not drift.
COMPAT_ENVELOPE = {
    "version": 1,
    "kdf": {
        "name": "argon2id",
        "time_cost": 1,
        "memory_kib": 256,
        "parallelism": 1,
        "salt": "PXll4dX74KO8jeoPJkFijA==",
    },
    "cipher": {"name": "chacha20-poly1305", "nonce": "0R+w19W2ZsNBWtec"},
    "key_check": "If56hjSeWKZHalpvuq1dlg==",
    "ciphertext": "MFTV56PpbCPfiUvLYMdcKS/K7Zj60O/6K6+2WTSLkAEVA9oBIg==",
}


def test_envelopes_from_earlier_builds_still_open() -> None:
    envelope = parse_envelope(COMPAT_ENVELOPE)
    key = key_for_password(envelope, "compat password")
    assert open_envelope(envelope, key, b"ctx") == b"compatibility payload"
