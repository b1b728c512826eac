"""The key vault as the window uses it: the keys it holds, which hold a secret, unlocking with
the password or the key remembered in the keychain, and a watch-only key's public keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.services.key_setup import imported_phrase_key, save_new_key, save_watch_only
from app.services.key_vault import (
    WATCH_ONLY_LAYOUT,
    Vault,
    VaultError,
    WalletKeys,
    WrongPasswordError,
    can_remember_unlock,
    has_secret,
    key_names,
    unlock_keys,
    unlock_remembered,
    watch_only_public_keys,
)
from app.services.qa_vault import QA_KDF, MemoryKeyring
from app.wallet.keyring_store import KeyringStore
from app.wallet.vault_file_store import FileStore

ABANDON = " ".join(["abandon"] * 11 + ["about"])
BIP84_FIRST_REGTEST = "bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk"  # BIP-84 testnet vector, bcrt
PASSWORD = "correct horse battery staple"


@pytest.fixture
def file_vault(tmp_path: Path) -> Vault:
    return Vault(FileStore(tmp_path), QA_KDF)


@pytest.fixture
def keychain_vault() -> Vault:
    return Vault(KeyringStore(MemoryKeyring(), service="bidwallet-test"), QA_KDF)


def phrase_key(vault: Vault) -> WalletKeys:
    """The "abandon ... about" key saved as "Main key" (regtest), no unlock key remembered."""
    key = imported_phrase_key(ABANDON, "", "xverse-native", 0, None)
    return save_new_key(vault, "Main key", "regtest", key, PASSWORD, False)


def watch(vault: Vault, keys: WalletKeys, *, payment_key: str, ordinals_key: str) -> None:
    save_watch_only(
        vault, "Watch key", "regtest", keys.payment.address, keys.ordinals.address,
        payment_key, ordinals_key,
    )  # fmt: skip


def test_unlock_with_the_password_gives_the_keys_saved(file_vault: Vault) -> None:
    saved = phrase_key(file_vault)
    assert saved.payment.address == BIP84_FIRST_REGTEST
    keys = unlock_keys(file_vault, "Main key", PASSWORD, False)
    assert (keys.payment.address, keys.ordinals.address) == (
        saved.payment.address,
        saved.ordinals.address,
    )
    with pytest.raises(WrongPasswordError) as wrong:
        unlock_keys(file_vault, "Main key", PASSWORD + "!", False)
    assert isinstance(wrong.value, VaultError)  # the unlock dialog's other case


def test_only_a_keychain_remembers_the_unlock_key(file_vault: Vault, keychain_vault: Vault) -> None:
    assert not can_remember_unlock(file_vault)
    phrase_key(file_vault)
    assert unlock_remembered(file_vault, "Main key") is None

    assert can_remember_unlock(keychain_vault)
    phrase_key(keychain_vault)
    assert unlock_remembered(keychain_vault, "Main key") is None  # not asked to
    unlock_keys(keychain_vault, "Main key", PASSWORD, True)
    remembered = unlock_remembered(keychain_vault, "Main key")
    assert remembered is not None and remembered.payment.address == BIP84_FIRST_REGTEST


def test_names_and_which_key_holds_a_secret(file_vault: Vault) -> None:
    keys = phrase_key(file_vault)
    watch(file_vault, keys, payment_key="", ordinals_key="")
    assert sorted(key_names(file_vault)) == ["Main key", "Watch key"]
    assert has_secret(file_vault, "Main key")
    assert not has_secret(file_vault, "Watch key")


def test_watch_only_public_keys_give_the_stored_addresses(file_vault: Vault) -> None:
    keys = phrase_key(file_vault)
    ordinals_xonly = keys.ordinals.public.xonly_public_key
    assert ordinals_xonly is not None
    watch(
        file_vault,
        keys,
        payment_key=keys.payment.public.public_key.hex(),
        ordinals_key=ordinals_xonly.hex(),  # 32 bytes, as taproot wallets give it
    )
    public = watch_only_public_keys(file_vault, "Watch key", "regtest")
    assert public is not None
    assert (public.payment.address, public.ordinals.address) == (
        keys.payment.address,
        keys.ordinals.address,
    )
    assert (public.payment.public_key, public.preset_id) == (
        keys.payment.public.public_key,
        WATCH_ONLY_LAYOUT,
    )
    assert watch_only_public_keys(file_vault, "Main key", "regtest") is None  # no addresses


def test_watch_only_without_usable_public_keys_gives_none(file_vault: Vault) -> None:
    keys = phrase_key(file_vault)
    watch(file_vault, keys, payment_key="", ordinals_key="")
    assert watch_only_public_keys(file_vault, "Watch key", "regtest") is None  # addresses only
    save_watch_only(
        file_vault, "Swapped", "regtest", keys.payment.address, keys.ordinals.address,
        keys.ordinals.public.public_key.hex(), keys.payment.public.public_key.hex(),
    )  # fmt: skip
    assert watch_only_public_keys(file_vault, "Swapped", "regtest") is None  # not their keys
