"""Setting up a profile's key: a new recovery phrase, an imported one with its wallet layout
(every preset's first addresses shown so the user recognises theirs), a single private key
(WIF), or watch-only: addresses, extended public keys (xpub/ypub/zpub, tpub/upub/vpub) or
single-key descriptors, previewed (each role's address, type and key origin) before saving.

A chosen secret waits in a `NewKey` (the secret and the layout its keys derive with) while the
user picks a password; `save_new_key` derives the keys first, so a layout that gives none is
never stored, then encrypts the secret into the vault and returns the keys unlocked.

What the user typed and cannot be used raises `SecretInputError`, a ValueError whose message
never quotes the secret (custom paths the vault cannot keep, such as one ending in {n}, too);
custom paths no key derives with raise the wallet's PresetError, a ValueError too.
`wif_key`, `preview_layouts`, `preview_watch_only`, `save_new_key` and `save_watch_only` derive
keys or run Argon2id: call them from an executor.
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
from app.wallet.addresses import AddressType, KeyRole
from app.wallet.keys import KeyDerivationError, WalletKeys, keys_from_wif, preview_presets
from app.wallet.presets import PRESETS, RoleLayout, custom_preset, get_preset
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
from app.wallet.watch_keys import WatchKeyError, looks_like_key_or_descriptor, parse_watch_key

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


@dataclass(frozen=True)
class WatchedRole:
    """What one role of a watch-only profile watches, as the preview shows it."""

    address: str
    address_type: str | None  # None for a plain address (its type is not needed to watch it)
    public_key: str | None  # hex
    origin: str | None  # "73c5da0a/84'/0'/0'/0/0": from an extended key or a descriptor
    source: str  # "address", "extended public key" or "descriptor"
    derived: str  # the steps taken below the given key ("/0/0" for an account key)
    # False: a key without its master's [fingerprint/path]; exported PSBTs then name it by its
    # own fingerprint, which signers that look keys up by their master's do not recognise.
    origin_given: bool = True


@dataclass(frozen=True)
class WatchPreview:
    payment: WatchedRole
    ordinals: WatchedRole


ADDRESS_SOURCE = "address"


def watch_wallet_choices() -> list[tuple[str, str]]:
    """(preset id, label) of the wallets whose address types an xpub may take."""
    return [(preset.id, preset.label) for preset in PRESETS]


def watches_an_address(text: str) -> bool:
    """Whether `text` is entered as an address (then a public key may come with it), not as
    an extended public key or a descriptor."""
    return bool(text.strip()) and not looks_like_key_or_descriptor(text)


def preview_watch_only(
    network: str,
    payment: str,
    ordinals: str,
    payment_key: str = "",
    ordinals_key: str = "",
    preset_id: str | None = None,
) -> WatchPreview:
    """What each role would watch: `payment` and `ordinals` are each an address (with its
    public key, hex, or ""), an extended public key or a descriptor (`watch_keys`); one key
    may serve both. An xpub or tpub takes the address type of the role in `preset_id` (None:
    from its origin's purpose). SecretInputError (naming the role, never quoting the text)
    for anything unusable."""
    preset = None if not preset_id else get_preset(preset_id)
    roles = []
    for role, text, key_hex, layout in (
        (KeyRole.PAYMENT, payment, payment_key, preset.payment if preset else None),
        (KeyRole.ORDINALS, ordinals, ordinals_key, preset.ordinals if preset else None),
    ):
        try:
            roles.append(_watched_role(role, text, key_hex, network, layout))
        except (WatchKeyError, InvalidProfileError) as exc:
            raise SecretInputError(f"{role.value}: {exc}") from None
    return WatchPreview(roles[0], roles[1])


def _watched_role(
    role: KeyRole, text: str, key_hex: str, network: str, layout: RoleLayout | None
) -> WatchedRole:
    if not looks_like_key_or_descriptor(text):
        address, key = text.strip(), key_hex.strip() or None
        if not address:
            raise WatchKeyError("enter an address, an extended public key or a descriptor")
        WatchOnlyAddresses(address, address, key, key).check_network(network)
        return WatchedRole(address, None, key, None, ADDRESS_SOURCE, "")
    if key_hex.strip():
        raise WatchKeyError("a public key is given only with an address, not with an xpub")
    net = network_named(network)
    watched = parse_watch_key(text, net, layout.address_type if layout else None)
    public = watched.role_key(role, net)
    return WatchedRole(
        public.address,
        public.address_type.value,
        public.public_key.hex(),
        watched.origin,
        watched.source.value,
        watched.derived,
        watched.origin_given,
    )


def save_watch_only(
    vault: Vault,
    key_name: str,
    network: str,
    payment_address: str,
    ordinals_address: str,
    payment_key: str,
    ordinals_key: str,
    preset_id: str | None = None,
) -> WatchPreview:
    """Store what `preview_watch_only` shows for these inputs as `key_name`: each role's
    address with its public key and key origin when known. SecretInputError when an input is
    not usable on `network`."""
    preview = preview_watch_only(
        network, payment_address, ordinals_address, payment_key, ordinals_key, preset_id
    )
    watch = WatchOnlyAddresses(
        preview.payment.address,
        preview.ordinals.address,
        preview.payment.public_key,
        preview.ordinals.public_key,
        preview.payment.origin,
        preview.ordinals.origin,
    )
    meta = ProfileMeta(name=key_name, network=network, layout=DerivationLayout(WATCH_ONLY_LAYOUT))
    try:
        watch.check_network(network)
    except InvalidProfileError as exc:
        raise SecretInputError(str(exc)) from None
    vault.create_watch_only(meta, watch)
    return preview


def _mnemonic_secret(phrase: str, passphrase: str) -> WalletSecret:
    try:
        return MnemonicSecret(phrase, passphrase)
    except InvalidSecretError as exc:
        raise SecretInputError(str(exc)) from None
