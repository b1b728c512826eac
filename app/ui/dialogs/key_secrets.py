"""The blocking halves of key setup, run in an executor: validating a WIF, encrypting a
secret into the vault, deriving the keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

WATCH_ONLY_LAYOUT = "watch-only"
NEW_WALLET_PRESET = "xverse-native"  # new phrases: BIP-84 payments, BIP-86 ordinals

if TYPE_CHECKING:
    from app.wallet.addresses import AddressType
    from app.wallet.keys import WalletKeys
    from app.wallet.vault import Vault
    from app.wallet.vault_models import DerivationLayout, WalletSecret


class SecretInputError(ValueError):
    """What the user typed is not a usable secret; the message never quotes it."""


def mnemonic_secret(phrase: str, passphrase: str) -> WalletSecret:
    from app.wallet.vault_errors import InvalidSecretError
    from app.wallet.vault_models import MnemonicSecret

    try:
        return MnemonicSecret(phrase, passphrase)
    except InvalidSecretError as exc:
        raise SecretInputError(str(exc)) from None


def wif_secret(wif: str, network: str, address_type: AddressType) -> WalletSecret:
    """A WIF secret usable on `network` (SecretInputError says why not)."""
    from app.services.session import network_named
    from app.wallet.keys import KeyDerivationError, keys_from_wif
    from app.wallet.vault_errors import InvalidSecretError
    from app.wallet.vault_models import WifSecret, check_secret_network

    try:
        secret = WifSecret(wif)
        check_secret_network(secret, network)
        keys_from_wif(secret.wif, network_named(network), address_type)  # the exact network
    except (InvalidSecretError, KeyDerivationError) as exc:
        raise SecretInputError(str(exc)) from None
    return secret


def save_secret(
    vault: Vault,
    key_name: str,
    network: str,
    layout: DerivationLayout,
    secret: WalletSecret,
    password: str,
    remember: bool,
) -> WalletKeys:
    from app.services.session import keys_from_secret
    from app.wallet.vault_models import ProfileMeta

    meta = ProfileMeta(name=key_name, network=network, layout=layout)
    keys = keys_from_secret(secret, meta)  # derive first: a bad layout must not be stored
    vault.create(meta, secret, password, remember=remember)
    return keys


def save_watch_only(
    vault: Vault,
    key_name: str,
    network: str,
    payment_address: str,
    ordinals_address: str,
    payment_key: str,
    ordinals_key: str,
) -> None:
    from app.wallet.vault_errors import InvalidProfileError
    from app.wallet.vault_models import DerivationLayout, ProfileMeta, WatchOnlyAddresses

    watch = WatchOnlyAddresses(
        payment_address.strip(),
        ordinals_address.strip(),
        payment_key.strip() or None,
        ordinals_key.strip() or None,
    )
    meta = ProfileMeta(name=key_name, network=network, layout=DerivationLayout(WATCH_ONLY_LAYOUT))
    try:
        watch.check_network(network)
    except InvalidProfileError as exc:
        raise SecretInputError(str(exc)) from None
    vault.create_watch_only(meta, watch)


def unlock_keys(vault: Vault, key_name: str, password: str | None, remember: bool) -> WalletKeys:
    """Open the vault profile (password, or the remembered key when None) and derive its keys.
    With `remember`, also keep the unlock key in the system keychain."""
    from app.services.session import keys_from_secret

    secret = vault.unlock(key_name, password)
    if remember and password is not None:
        vault.remember_unlock_key(key_name, password)
    return keys_from_secret(secret, vault.info(key_name).meta)


def unlock_remembered(vault: Vault, key_name: str) -> WalletKeys | None:
    """The keys when an unlock key is remembered and still works, else None."""
    from app.wallet.vault_errors import NoRememberedKeyError, WrongPasswordError

    if not vault.info(key_name).unlock_key_remembered:
        return None
    try:
        return unlock_keys(vault, key_name, None, False)
    except (NoRememberedKeyError, WrongPasswordError):
        return None
