"""Damaged or hostile stored data, and a locked or failing keychain: each a distinct error."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from keyring.errors import InitError, KeyringLocked, PasswordSetError

from app.wallet import vault_crypto
from app.wallet.vault import INDEX_ENTRY, Vault, record_entry
from app.wallet.vault_errors import (
    CorruptVaultError,
    KeyringLockedError,
    UnsafeKdfParametersError,
    UnsupportedVaultVersionError,
    VaultStorageError,
    WrongPasswordError,
)

if TYPE_CHECKING:
    from conftest import MemoryKeyring, Samples

NAME = "Main wallet"


def rewrite_record(vault: Vault, change: Callable[[dict[str, Any]], None]) -> None:
    text = vault.store.get(record_entry(NAME))
    assert text is not None
    doc = json.loads(text)
    change(doc)
    vault.store.set(record_entry(NAME), json.dumps(doc))


@pytest.fixture
def saved(any_vault: Vault, samples: Samples) -> Vault:
    keys = samples.watch_only()
    any_vault.create(samples.meta(NAME), samples.mnemonic_secret, samples.password, watch_only=keys)
    return any_vault


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda d: (d["meta"].update(network="testnet"), d.update(watch_only=None)),
            id="network",
        ),
        pytest.param(lambda d: d["meta"]["layout"].update(account=7), id="account"),
        pytest.param(lambda d: d["meta"].update(created_at="2020-01-01T00:00:00+00:00"), id="date"),
        pytest.param(
            lambda d: d["watch_only"].update(payment_address=d["watch_only"]["ordinals_address"]),
            id="receive-address",
        ),
        pytest.param(lambda d: d.update(watch_only=None), id="dropped-addresses"),
    ],
)
def test_changed_clear_metadata_fails_authentication(
    saved: Vault, samples: Samples, change: Callable[[dict[str, Any]], None]
) -> None:
    rewrite_record(saved, change)
    with pytest.raises(CorruptVaultError, match="authentication"):
        saved.unlock(NAME, samples.password)


@pytest.mark.parametrize(
    ("text", "error", "match"),
    [
        ("{not json", CorruptVaultError, "not valid JSON"),
        ('{"format": "bidwallet-profile", "vers', CorruptVaultError, "truncated"),
        ("[]", CorruptVaultError, "not a Bidwallet profile"),
        ('{"format": "bidwallet-profile", "version": 9}', UnsupportedVaultVersionError, "9"),
        ('{"format": "bidwallet-profile", "version": 1, "meta": 3}', CorruptVaultError, "meta"),
    ],
)
def test_unreadable_records(
    saved: Vault, samples: Samples, text: str, error: type[Exception], match: str
) -> None:
    saved.store.set(record_entry(NAME), text)
    with pytest.raises(error, match=match):
        saved.unlock(NAME, samples.password)
    with pytest.raises(error):
        saved.info(NAME)


def test_metadata_inconsistent_with_itself_is_corrupt(saved: Vault, samples: Samples) -> None:
    rewrite_record(saved, lambda d: d["meta"].update(network="testnet"))
    with pytest.raises(CorruptVaultError, match="is not a testnet address"):
        saved.info(NAME)


def test_record_under_another_name_is_refused(saved: Vault, samples: Samples) -> None:
    text = saved.store.get(record_entry(NAME))
    assert text is not None
    saved.store.set(record_entry("Impostor"), text)
    with pytest.raises(CorruptVaultError, match="carries the name"):
        saved.unlock("Impostor", samples.password)


def test_bad_base64_in_record(saved: Vault, samples: Samples) -> None:
    rewrite_record(saved, lambda d: d["secret"].update(ciphertext="@@@@"))
    with pytest.raises(CorruptVaultError, match="base64"):
        saved.unlock(NAME, samples.password)


def test_hostile_kdf_parameters_refused_without_running_the_kdf(
    saved: Vault, samples: Samples, monkeypatch: pytest.MonkeyPatch
) -> None:
    def must_not_run(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("Argon2id ran with hostile parameters")

    rewrite_record(saved, lambda d: d["secret"]["kdf"].update(memory_kib=8 * 1024 * 1024))
    monkeypatch.setattr(vault_crypto, "hash_secret_raw", must_not_run)
    with pytest.raises(UnsafeKdfParametersError, match="memory"):
        saved.unlock(NAME, samples.password)


def test_changed_kdf_parameters_never_decrypt(saved: Vault, samples: Samples) -> None:
    rewrite_record(saved, lambda d: d["secret"]["kdf"].update(time_cost=2))
    with pytest.raises(WrongPasswordError):
        saved.unlock(NAME, samples.password)


def test_damaged_profile_list(saved: Vault) -> None:
    saved.store.set(INDEX_ENTRY, '{"oops": 1}')
    with pytest.raises(CorruptVaultError, match="profile list"):
        saved.profile_names()


@pytest.mark.parametrize("exc", [KeyringLocked("locked"), InitError("no collection")])
def test_locked_keyring(
    keyring_vault: Vault, memory_keyring: MemoryKeyring, samples: Samples, exc: Exception
) -> None:
    keyring_vault.create(samples.meta(NAME), samples.wif_secret, samples.password)
    memory_keyring.fail_with = exc
    with pytest.raises(KeyringLockedError, match="locked or could not be opened"):
        keyring_vault.unlock(NAME, samples.password)
    with pytest.raises(KeyringLockedError):
        keyring_vault.create(samples.meta("Other"), samples.wif_secret, samples.password)
    with pytest.raises(KeyringLockedError):
        keyring_vault.delete(NAME)


def test_failing_keyring(
    keyring_vault: Vault, memory_keyring: MemoryKeyring, samples: Samples
) -> None:
    memory_keyring.fail_with = PasswordSetError("backend exploded")
    with pytest.raises(VaultStorageError, match="failed to read entry 'profile:X'"):
        keyring_vault.info("X")
