"""Setting up a profile's key: a new recovery phrase, an imported one with its wallet layout
(every preset's first addresses shown so the user recognises theirs), a single private key
(WIF), or watch-only addresses.

A chosen secret waits in a `NewKey` (the secret and the layout its keys derive with) while the
user picks a password; `save_new_key` derives the keys first, so a layout that gives none is
never stored, then encrypts the secret into the vault and returns the keys unlocked.

What the user typed and cannot be used raises `SecretInputError`, a ValueError whose message
never quotes the secret (custom paths the vault cannot keep, such as one ending in {n}, too);
custom paths no key derives with raise the wallet's PresetError, a ValueError too.
`wif_key`, `preview_layouts`, `save_new_key` and `save_watch_only` derive keys or run
Argon2id: call them from an executor.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from embit import bip39

from app.services.key_vault import WATCH_ONLY_LAYOUT
from app.services.session import (
    keys_from_secret,
    layout_for_custom,
    layout_for_preset,
    layout_for_wif,
    network_named,
)
from app.wallet.addresses import AddressType
from app.wallet.keys import KeyDerivationError, WalletKeys, keys_from_wif, preview_presets
from app.wallet.presets import PRESETS, custom_preset
from app.wallet.vault import Vault
from app.wallet.vault_errors import InvalidProfileError, InvalidSecretError
from app.wallet.vault_models import (
    DerivationLayout,
    MnemonicSecret,
    ProfileMeta,
    WalletSecret,
    WatchOnlyAddresses,
    WifSecret,
    check_secret_network,
)

NEW_WALLET_PRESET = "xverse-native"  # new phrases: BIP-84 payments, BIP-86 ordinals
CUSTOM_PRESET_ID = "custom"  # the preview row (and choice) of the user's own paths
PREVIEW_COUNT = 3  # addresses shown per preset and role


class SecretInputError(ValueError):
    """What the user typed is not a usable secret; the message never quotes it."""


@dataclass(frozen=True)
class NewKey:
    """A secret the user gave or wrote down, and the layout its keys derive with: not saved."""

    secret: WalletSecret = field(repr=False)
    layout: DerivationLayout


@dataclass(frozen=True)
class CustomPaths:
    """The user's own derivation paths and address types (names such as "p2wpkh")."""

    payment_path: str
    payment_type: str
    ordinals_path: str
    ordinals_type: str


@dataclass(frozen=True)
class PreviewRow:
    """One layout's first payment and ordinals addresses for an imported phrase."""

    preset_id: str
    label: str
    payment: tuple[str, ...]
    ordinals: tuple[str, ...]


def new_mnemonic() -> str:
    """12 fresh BIP-39 words from the OS random source (128 bits)."""
    return str(bip39.mnemonic_from_bytes(os.urandom(16)))


def new_phrase_key(phrase: str) -> NewKey:
    """A phrase made by `new_mnemonic`, in the layout of new wallets (NEW_WALLET_PRESET)."""
    return NewKey(_mnemonic_secret(phrase, ""), layout_for_preset(NEW_WALLET_PRESET))


def imported_phrase_key(
    phrase: str, passphrase: str, preset_id: str, account: int, custom: CustomPaths | None
) -> NewKey:
    """An imported phrase in the layout the user picked: a preset with its account number, or
    (CUSTOM_PRESET_ID) the custom paths."""
    secret = _mnemonic_secret(phrase, passphrase)
    if preset_id == CUSTOM_PRESET_ID and custom is not None:
        try:
            layout = layout_for_custom(
                custom.payment_path,
                AddressType(custom.payment_type),
                custom.ordinals_path,
                AddressType(custom.ordinals_type),
            )
        except InvalidProfileError as exc:  # e.g. a path with {n}: it previews, but is no account
            raise SecretInputError(str(exc)) from None
    else:
        layout = layout_for_preset(preset_id, account)
    return NewKey(secret, layout)


def wif_key(wif: str, network: str, address_type: str) -> NewKey:
    """A WIF usable on `network`, its payment address of `address_type` (SecretInputError says
    why not)."""
    kind = AddressType(address_type)
    try:
        secret = WifSecret(wif)
        check_secret_network(secret, network)
        keys_from_wif(secret.wif, network_named(network), kind)  # the exact network
    except (InvalidSecretError, KeyDerivationError) as exc:
        raise SecretInputError(str(exc)) from None
    return NewKey(secret, layout_for_wif(kind))


def preview_layouts(
    mnemonic: str, passphrase: str, network_name: str, custom: CustomPaths | None
) -> list[PreviewRow]:
    """A row for every preset (and the custom paths when given), PREVIEW_COUNT accounts each.
    An invalid phrase or unusable paths raise a ValueError that never quotes the words."""
    presets = PRESETS
    if custom is not None:
        presets = (
            *PRESETS,
            custom_preset(
                custom.payment_path,
                AddressType(custom.payment_type),
                custom.ordinals_path,
                AddressType(custom.ordinals_type),
            ),
        )
    network = network_named(network_name)
    previews = preview_presets(mnemonic, passphrase, network, PREVIEW_COUNT, presets)
    return [
        PreviewRow(p.preset.id, p.preset.label, p.payment_addresses, p.ordinals_addresses)
        for p in previews
    ]


def save_new_key(
    vault: Vault,
    key_name: str,
    network: str,
    key: NewKey,
    password: str,
    remember: bool,
) -> WalletKeys:
    """Store `key` in `vault` as `key_name` under `password` (with `remember`, its unlock key
    in the system keychain too); its keys, unlocked."""
    meta = ProfileMeta(name=key_name, network=network, layout=key.layout)
    keys = keys_from_secret(key.secret, meta)  # derive first: a bad layout must not be stored
    vault.create(meta, key.secret, password, remember=remember)
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
    """Store addresses to watch (and their public keys, "" when not given) as `key_name`;
    SecretInputError when they are not `network`'s."""
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


def _mnemonic_secret(phrase: str, passphrase: str) -> WalletSecret:
    try:
        return MnemonicSecret(phrase, passphrase)
    except InvalidSecretError as exc:
        raise SecretInputError(str(exc)) from None
