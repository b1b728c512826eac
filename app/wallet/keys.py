"""Payment and ordinals keys from a BIP-39 mnemonic (with a layout preset) or a single WIF.

Secrets stay inside `RoleKey` and `MnemonicSeed`: their reprs show addresses, paths and
fingerprints only, and errors never quote the mnemonic, a word of it, or a WIF.
"""

from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass
from typing import Any

from embit import bip32, bip39
from embit.ec import PrivateKey
from embit.util import secp256k1
from embit.wordlists.bip39 import WORDLIST

from app.wallet.addresses import (
    AddressType,
    InvalidAddressError,
    KeyRole,
    Network,
    PublicRoleKey,
    public_role_key,
)
from app.wallet.presets import PRESETS, Preset, RoleLayout

_MNEMONIC_LENGTHS = frozenset({12, 15, 18, 21, 24})
_WORDS = frozenset(WORDLIST)


class KeyDerivationError(ValueError):
    """Keys cannot be made from the given material."""


class InvalidMnemonicError(KeyDerivationError):
    """Not a valid BIP-39 English mnemonic (the message never quotes its words)."""


class InvalidWifError(KeyDerivationError):
    """Not a usable WIF private key for this network and address type."""


def normalize_mnemonic(mnemonic: str) -> str:
    """Fold case and whitespace, then NFKD: embit hashes the text exactly as given."""
    return unicodedata.normalize("NFKD", " ".join(mnemonic.lower().split()))


def normalize_passphrase(passphrase: str) -> str:
    """BIP-39 NFKD; embit does not normalise, so NFC and NFD input would differ."""
    return unicodedata.normalize("NFKD", passphrase)


class MnemonicSeed:
    """A BIP-32 root from a mnemonic, with derived nodes cached by path prefix."""

    __slots__ = ("_cache", "_root", "fingerprint")

    def __init__(self, mnemonic: str, passphrase: str = "") -> None:
        words = normalize_mnemonic(mnemonic).split(" ")
        if len(words) not in _MNEMONIC_LENGTHS:
            raise InvalidMnemonicError(
                f"a mnemonic has 12, 15, 18, 21 or 24 words, not {len(words)}"
            )
        for position, word in enumerate(words, start=1):
            if word not in _WORDS:
                raise InvalidMnemonicError(f"word {position} is not in the BIP-39 English list")
        text = " ".join(words)
        try:
            bip39.mnemonic_to_bytes(text)
        except ValueError:
            raise InvalidMnemonicError("the mnemonic checksum does not match") from None
        seed = bip39.mnemonic_to_seed(text, normalize_passphrase(passphrase))
        self._root = bip32.HDKey.from_seed(seed)
        self._cache: dict[tuple[int, ...], bip32.HDKey] = {}
        self.fingerprint: bytes = bytes(self._root.my_fingerprint)

    def derive(self, path: str) -> bip32.HDKey:
        """The node at `path`, reusing every already derived prefix."""
        indexes = tuple(bip32.parse_path(path))
        node = self._root
        for depth in range(1, len(indexes) + 1):
            cached = self._cache.get(indexes[:depth])
            if cached is None:
                cached = node.child(indexes[depth - 1])
                self._cache[indexes[:depth]] = cached
            node = cached
        return node

    def __repr__(self) -> str:
        return f"MnemonicSeed(fingerprint={self.fingerprint.hex()})"


class RoleKey:
    """One role's signing key. Signing happens here so callers never handle the secret."""

    __slots__ = ("_keypair", "_private", "_tweaked_secret", "public")

    def __init__(self, public: PublicRoleKey, private: PrivateKey) -> None:
        self.public = public
        self._private = private
        self._tweaked_secret: bytes | None = None
        self._keypair: bytes | None = None
        if public.address_type is AddressType.P2TR:
            # BIP-86 key path: sign with the tweaked key; keep the keypair for fast schnorr.
            self._tweaked_secret = bytes(private.taproot_tweak(b"").secret)
            self._keypair = secp256k1.keypair_create(self._tweaked_secret)

    @property
    def address(self) -> str:
        return self.public.address

    @property
    def address_type(self) -> AddressType:
        return self.public.address_type

    @property
    def script_pubkey(self) -> bytes:
        return self.public.script_pubkey

    @property
    def private_key(self) -> PrivateKey:
        """The untweaked embit private key (for the PSBT signer)."""
        return self._private

    def sign_ecdsa(self, msg32: bytes, *, low_r: bool = True) -> bytes:
        """RFC 6979 DER signature; low_r grinds like Bitcoin Core (71-byte max)."""
        return bytes(self._private.sign(msg32, grind=low_r).serialize())

    def sign_recoverable(self, msg32: bytes) -> tuple[bytes, int]:
        """RFC 6979 compact signature and recovery id (BIP-137)."""
        raw = secp256k1.ecdsa_sign_recoverable(msg32, self._private.secret)
        sig64, recid = secp256k1.ecdsa_recoverable_signature_serialize_compact(raw)
        return bytes(sig64), int(recid)

    def sign_schnorr(self, msg32: bytes, aux_rand: bytes | None = None) -> bytes:
        """BIP-340 signature with the BIP-86 tweaked key; aux_rand defaults to fresh bytes."""
        if self._keypair is None:
            raise KeyDerivationError(f"a {self.address_type.value} key does not sign schnorr")
        aux = os.urandom(32) if aux_rand is None else aux_rand
        if len(aux) != 32:
            raise ValueError("aux_rand must be 32 bytes")
        return bytes(secp256k1.schnorrsig_sign(msg32, self._keypair, None, aux))

    def __repr__(self) -> str:
        path = self.public.derivation_path or "imported"
        return f"RoleKey({self.public.role.value}, {self.address}, {path})"


@dataclass(frozen=True, repr=False)
class WatchOnlyKeys:
    """Addresses and public keys only: what a watch-only profile stores."""

    payment: PublicRoleKey
    ordinals: PublicRoleKey
    preset_id: str
    account: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset_id": self.preset_id,
            "account": self.account,
            "payment": self.payment.to_dict(),
            "ordinals": self.ordinals.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WatchOnlyKeys:
        """Rebuild from `to_dict`; each role's address is recomputed from its public key."""
        try:
            payment = PublicRoleKey.from_dict(data["payment"])
            ordinals = PublicRoleKey.from_dict(data["ordinals"])
            return cls(payment, ordinals, str(data["preset_id"]), int(data["account"]))
        except InvalidAddressError as exc:
            raise KeyDerivationError(f"stored watch-only profile: {exc}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise KeyDerivationError(f"stored watch-only profile is malformed: {exc}") from None

    def __repr__(self) -> str:
        return f"WatchOnlyKeys({self.payment.address}, {self.ordinals.address})"


@dataclass(frozen=True, repr=False)
class WalletKeys:
    """The payment and ordinals signing keys of one wallet account."""

    payment: RoleKey
    ordinals: RoleKey
    preset_id: str
    account: int

    @property
    def network(self) -> Network:
        return self.payment.public.network

    def watch_only(self) -> WatchOnlyKeys:
        return WatchOnlyKeys(
            self.payment.public, self.ordinals.public, self.preset_id, self.account
        )

    def __repr__(self) -> str:
        return f"WalletKeys({self.preset_id}#{self.account}, {self.payment!r}, {self.ordinals!r})"


def role_key_from_private(
    private: PrivateKey,
    address_type: AddressType,
    network: Network,
    role: KeyRole = KeyRole.PAYMENT,
    path: str | None = None,
    fingerprint: bytes | None = None,
) -> RoleKey:
    """Wrap an embit private key as a role key of `address_type` on `network`."""
    if not private.compressed and address_type is not AddressType.P2PKH:
        raise InvalidWifError("an uncompressed key can only be used for P2PKH addresses")
    sec = private.sec() if address_type is not AddressType.P2TR else _compressed_sec(private)
    public = public_role_key(role, bytes(sec), address_type, network, path, fingerprint)
    return RoleKey(public, private)


def _compressed_sec(private: PrivateKey) -> bytes:
    return bytes(PrivateKey(private.secret, compressed=True).sec())


def role_key_from_wif(
    wif: str, address_type: AddressType, network: Network, role: KeyRole = KeyRole.PAYMENT
) -> RoleKey:
    """A role key from a WIF, checking the WIF's network byte against `network`."""
    try:
        private = PrivateKey.from_wif(wif.strip())
    except Exception:  # embit raises several types; none of their messages may be shown
        raise InvalidWifError("not a valid WIF private key") from None
    if private.network is None or private.network["wif"] != network.params["wif"]:
        raise InvalidWifError(f"this WIF key is not for {network.name.lower()}")
    return role_key_from_private(private, address_type, network, role)


def keys_from_wif(
    wif: str, network: Network, payment_type: AddressType = AddressType.P2WPKH
) -> WalletKeys:
    """A single imported key: payment of `payment_type`, ordinals its BIP-86 P2TR address."""
    payment = role_key_from_wif(wif, payment_type, network, KeyRole.PAYMENT)
    ordinals = role_key_from_private(
        payment.private_key, AddressType.P2TR, network, KeyRole.ORDINALS
    )
    return WalletKeys(payment, ordinals, "wif", 0)


def _role_key(
    seed: MnemonicSeed, layout: RoleLayout, network: Network, account: int, role: KeyRole
) -> RoleKey:
    path = layout.path(network, account)
    private = seed.derive(path).key
    return role_key_from_private(
        private, layout.address_type, network, role, path, seed.fingerprint
    )


def derive_wallet_keys(
    seed: MnemonicSeed, preset: Preset, network: Network, account: int = 0
) -> WalletKeys:
    """Payment and ordinals keys of account number `account` in `preset`'s layout."""
    return WalletKeys(
        _role_key(seed, preset.payment, network, account, KeyRole.PAYMENT),
        _role_key(seed, preset.ordinals, network, account, KeyRole.ORDINALS),
        preset.id,
        account,
    )


@dataclass(frozen=True)
class PresetPreview:
    """The first addresses of a preset, for a user to recognise their wallet."""

    preset: Preset
    payment_addresses: tuple[str, ...]
    ordinals_addresses: tuple[str, ...]


def preview_presets(
    mnemonic: str,
    passphrase: str = "",
    network: Network = Network.MAINNET,
    count: int = 3,
    presets: tuple[Preset, ...] = PRESETS,
) -> tuple[PresetPreview, ...]:
    """For each preset, the payment and ordinals addresses of account numbers 0..count-1."""
    if count < 1:
        raise ValueError("count must be at least 1")
    seed = MnemonicSeed(mnemonic, passphrase)
    previews = []
    for preset in presets:
        accounts = [derive_wallet_keys(seed, preset, network, n) for n in range(count)]
        previews.append(
            PresetPreview(
                preset,
                tuple(keys.payment.address for keys in accounts),
                tuple(keys.ordinals.address for keys in accounts),
            )
        )
    return tuple(previews)
