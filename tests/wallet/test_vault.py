"""The vault's behaviour on both stores: save, reload, unlock, overwrite rules, remember, password
change, watch-only profiles and delete."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from app.wallet.keyring_store import KeyringStore
from app.wallet.vault import Vault, record_entry, unlock_key_entry
from app.wallet.vault_crypto import Argon2idParams, UnlockKey
from app.wallet.vault_errors import (
    InvalidProfileError,
    InvalidSecretError,
    NoRememberedKeyError,
    ProfileExistsError,
    ProfileNotFoundError,
    RememberUnavailableError,
    WatchOnlyProfileError,
    WrongPasswordError,
)
from app.wallet.vault_models import MnemonicSecret, WifSecret

if TYPE_CHECKING:
    from conftest import MemoryKeyring, Samples


def test_mnemonic_profile_round_trip(any_vault: Vault, samples: Samples) -> None:
    meta = samples.meta()
    any_vault.create(meta, samples.mnemonic_secret, samples.password)
    secret = any_vault.unlock(meta.name, samples.password)
    assert isinstance(secret, MnemonicSecret)
    assert (secret.mnemonic, secret.passphrase) == (samples.mnemonic, samples.passphrase)
    info = any_vault.info(meta.name)
    assert info.meta == meta
    assert info.has_secret and not info.unlock_key_remembered
    assert info.watch_only is None
    assert any_vault.profile_names() == [meta.name]


def test_wif_profile_round_trip(any_vault: Vault, samples: Samples) -> None:
    any_vault.create(samples.meta("Paper key"), samples.wif_secret, samples.password)
    secret = any_vault.unlock("Paper key", samples.password)
    assert isinstance(secret, WifSecret)
    assert secret.wif == samples.wif


def test_reloaded_by_a_new_vault_instance(
    memory_keyring: MemoryKeyring, samples: Samples, fast_kdf: Argon2idParams
) -> None:
    first = Vault(KeyringStore(memory_keyring, service="svc"), fast_kdf)
    first.create(samples.meta(), samples.mnemonic_secret, samples.password, remember=True)
    second = Vault(KeyringStore(memory_keyring, service="svc"), fast_kdf)
    assert second.profile_names() == ["Main wallet"]
    assert second.unlock("Main wallet") == samples.mnemonic_secret
    assert Vault(KeyringStore(memory_keyring, service="other"), fast_kdf).profile_names() == []


def test_kdf_parameters_are_stored_with_the_secret(
    memory_keyring: MemoryKeyring, samples: Samples, fast_kdf: Argon2idParams
) -> None:
    vault = Vault(KeyringStore(memory_keyring, service="svc"), fast_kdf)
    vault.create(samples.meta(), samples.mnemonic_secret, samples.password)
    record = json.loads(memory_keyring.items[("svc", record_entry("Main wallet"))])
    kdf = record["secret"]["kdf"]
    assert (kdf["time_cost"], kdf["memory_kib"], kdf["parallelism"]) == (1, 256, 1)
    assert record["meta"]["network"] == "regtest"


def test_wrong_password(any_vault: Vault, samples: Samples) -> None:
    any_vault.create(samples.meta(), samples.mnemonic_secret, samples.password)
    with pytest.raises(WrongPasswordError, match="wrong password for profile 'Main wallet'"):
        any_vault.unlock("Main wallet", samples.other_password)


def test_missing_profile(any_vault: Vault, samples: Samples) -> None:
    with pytest.raises(ProfileNotFoundError, match="no profile named 'Ghost'"):
        any_vault.unlock("Ghost", samples.password)
    with pytest.raises(ProfileNotFoundError):
        any_vault.info("Ghost")
    with pytest.raises(ProfileNotFoundError):
        any_vault.delete("Ghost")
    assert not any_vault.exists("Ghost")


def test_no_overwrite_without_confirmation(any_vault: Vault, samples: Samples) -> None:
    any_vault.create(samples.meta(), samples.mnemonic_secret, samples.password)
    with pytest.raises(ProfileExistsError, match="already exists"):
        any_vault.create(samples.meta(), samples.wif_secret, samples.other_password)
    with pytest.raises(ProfileExistsError):
        any_vault.create_watch_only(samples.meta(), samples.watch_only())
    assert any_vault.unlock("Main wallet", samples.password) == samples.mnemonic_secret
    any_vault.create(samples.meta(), samples.wif_secret, samples.other_password, overwrite=True)
    assert any_vault.unlock("Main wallet", samples.other_password) == samples.wif_secret
    assert any_vault.profile_names() == ["Main wallet"]


def test_remembered_unlock_key(keyring_vault: Vault, samples: Samples) -> None:
    keyring_vault.create(samples.meta(), samples.mnemonic_secret, samples.password, remember=True)
    assert keyring_vault.info("Main wallet").unlock_key_remembered
    assert keyring_vault.unlock("Main wallet") == samples.mnemonic_secret
    assert keyring_vault.forget_unlock_key("Main wallet")
    assert not keyring_vault.forget_unlock_key("Main wallet")
    with pytest.raises(NoRememberedKeyError, match="Main wallet"):
        keyring_vault.unlock("Main wallet")
    with pytest.raises(WrongPasswordError):
        keyring_vault.remember_unlock_key("Main wallet", samples.other_password)
    keyring_vault.remember_unlock_key("Main wallet", samples.password)
    assert keyring_vault.unlock("Main wallet") == samples.mnemonic_secret


def test_stale_remembered_key_says_so(
    keyring_vault: Vault, memory_keyring: MemoryKeyring, samples: Samples
) -> None:
    keyring_vault.create(samples.meta(), samples.mnemonic_secret, samples.password)
    stale = UnlockKey(bytes(32)).to_text()
    memory_keyring.items[("bidwallet-test", unlock_key_entry("Main wallet"))] = stale
    with pytest.raises(WrongPasswordError, match="remembered unlock key no longer opens"):
        keyring_vault.unlock("Main wallet")


def test_overwriting_drops_the_old_remembered_key(keyring_vault: Vault, samples: Samples) -> None:
    keyring_vault.create(samples.meta(), samples.mnemonic_secret, samples.password, remember=True)
    keyring_vault.create(samples.meta(), samples.wif_secret, samples.password, overwrite=True)
    assert not keyring_vault.info("Main wallet").unlock_key_remembered
    with pytest.raises(NoRememberedKeyError):
        keyring_vault.unlock("Main wallet")


def test_file_vault_never_remembers_keys(file_vault: Vault, samples: Samples) -> None:
    with pytest.raises(RememberUnavailableError, match="not a system keychain"):
        file_vault.create(samples.meta(), samples.mnemonic_secret, samples.password, remember=True)
    assert file_vault.profile_names() == []
    file_vault.create(samples.meta(), samples.mnemonic_secret, samples.password)
    with pytest.raises(RememberUnavailableError):
        file_vault.remember_unlock_key("Main wallet", samples.password)
    with pytest.raises(NoRememberedKeyError):
        file_vault.unlock("Main wallet")


def test_change_password_re_encrypts(any_vault: Vault, samples: Samples) -> None:
    any_vault.create(samples.meta(), samples.mnemonic_secret, samples.password)
    before = any_vault.store.get(record_entry("Main wallet"))
    with pytest.raises(WrongPasswordError):
        any_vault.change_password("Main wallet", "new one", old_password=samples.other_password)
    assert any_vault.store.get(record_entry("Main wallet")) == before
    any_vault.change_password("Main wallet", samples.other_password, samples.password)
    after = any_vault.store.get(record_entry("Main wallet"))
    assert after is not None and before is not None
    assert json.loads(after)["secret"]["kdf"]["salt"] != json.loads(before)["secret"]["kdf"]["salt"]
    with pytest.raises(WrongPasswordError):
        any_vault.unlock("Main wallet", samples.password)
    assert any_vault.unlock("Main wallet", samples.other_password) == samples.mnemonic_secret
    assert any_vault.info("Main wallet").meta == samples.meta()


def test_change_password_keeps_remembering(keyring_vault: Vault, samples: Samples) -> None:
    keyring_vault.create(samples.meta(), samples.wif_secret, samples.password, remember=True)
    keyring_vault.change_password("Main wallet", samples.other_password)  # via remembered key
    assert keyring_vault.unlock("Main wallet") == samples.wif_secret
    assert keyring_vault.unlock("Main wallet", samples.other_password) == samples.wif_secret


def test_watch_only_profile_needs_no_secret(any_vault: Vault, samples: Samples) -> None:
    keys = samples.watch_only()
    any_vault.create_watch_only(samples.meta("Cold storage"), keys)
    info = any_vault.info("Cold storage")
    assert info.watch_only == keys
    assert not info.has_secret and not info.unlock_key_remembered
    with pytest.raises(WatchOnlyProfileError, match="watch-only"):
        any_vault.unlock("Cold storage")
    with pytest.raises(WatchOnlyProfileError):
        any_vault.unlock("Cold storage", samples.password)


def test_watch_only_keys_must_match_the_network(any_vault: Vault, samples: Samples) -> None:
    with pytest.raises(InvalidProfileError, match="not a mainnet address"):
        any_vault.create_watch_only(samples.meta(network="mainnet"), samples.watch_only())
    assert any_vault.profile_names() == []


def test_secret_profile_can_carry_its_addresses(any_vault: Vault, samples: Samples) -> None:
    keys = samples.watch_only()
    any_vault.create(samples.meta(), samples.wif_secret, samples.password, watch_only=keys)
    assert any_vault.info("Main wallet").watch_only == keys
    assert any_vault.unlock("Main wallet", samples.password) == samples.wif_secret


def test_wif_network_must_match_profile(any_vault: Vault, samples: Samples) -> None:
    with pytest.raises(InvalidSecretError, match="test-network key"):
        any_vault.create(samples.meta(network="mainnet"), samples.wif_secret, samples.password)


def test_delete_is_explicit_and_complete(
    keyring_vault: Vault, memory_keyring: MemoryKeyring, samples: Samples
) -> None:
    keyring_vault.create(samples.meta("A"), samples.wif_secret, samples.password, remember=True)
    keyring_vault.create(samples.meta("B"), samples.mnemonic_secret, samples.password)
    keyring_vault.delete("A")
    assert keyring_vault.profile_names() == ["B"]
    assert not keyring_vault.exists("A")
    assert sorted(user for _, user in memory_keyring.items) == ["profile:B", "profiles"]
    assert keyring_vault.unlock("B", samples.password) == samples.mnemonic_secret


@pytest.mark.parametrize("name", ["", " padded", "x" * 65, "tab\there"])
def test_bad_profile_names(any_vault: Vault, samples: Samples, name: str) -> None:
    with pytest.raises(InvalidProfileError):
        any_vault.create(samples.meta(name), samples.wif_secret, samples.password)
