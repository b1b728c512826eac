"""What the vault stores: the wallet secret (typed, never shown by repr) and the non-secret profile
data (name, network, derivation layout, creation time, optional watch-only addresses and keys)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Final

from embit import base58, bech32, bip39, ec
from embit.networks import NETWORKS as EMBIT_NETWORKS

from app.wallet.vault_errors import InvalidProfileError, InvalidSecretError

# Our network names -> embit's table (address prefixes, WIF byte).
_EMBIT_NET: Final = {"mainnet": "main", "testnet": "test", "signet": "signet", "regtest": "regtest"}
NETWORK_NAMES: Final = tuple(_EMBIT_NET)
MAX_NAME_LENGTH: Final = 64
_PATH_RE: Final = re.compile(r"^m(/[0-9]+['hH]?)*$")
_ORIGIN_RE: Final = re.compile(r"^[0-9a-f]{8}(/[0-9]+'?)*$")
_HARDENED: Final = 2**31


@dataclass(frozen=True, repr=False)
class MnemonicSecret:
    """A BIP-39 English mnemonic (whitespace folded, NFKD) and its optional passphrase, kept as
    typed (passphrases are case and space sensitive; key derivation normalises them)."""

    mnemonic: str
    passphrase: str = ""

    def __post_init__(self) -> None:
        folded = " ".join(unicodedata.normalize("NFKD", self.mnemonic).split())
        # mnemonic_is_valid swallows embit's errors, which would quote the offending word.
        if not bip39.mnemonic_is_valid(folded):
            raise InvalidSecretError(
                "not a valid BIP-39 English mnemonic (unknown word, word count or checksum)"
            )
        object.__setattr__(self, "mnemonic", folded)

    @property
    def word_count(self) -> int:
        return len(self.mnemonic.split())

    def __repr__(self) -> str:
        has_passphrase = "yes" if self.passphrase else "no"
        return f"MnemonicSecret(<{self.word_count} words hidden>, passphrase={has_passphrase})"


@dataclass(frozen=True, repr=False)
class WifSecret:
    """A single private key in Wallet Import Format."""

    wif: str

    def __post_init__(self) -> None:
        wif = self.wif.strip()
        if _decode_wif_prefix(wif) is None:
            raise InvalidSecretError("not a valid WIF private key (bad base58 checksum or length)")
        object.__setattr__(self, "wif", wif)

    @property
    def is_mainnet(self) -> bool:
        mainnet_prefix: bytes = EMBIT_NETWORKS["main"]["wif"]
        return _decode_wif_prefix(self.wif) == mainnet_prefix

    def __repr__(self) -> str:
        return "WifSecret(<hidden>)"


WalletSecret = MnemonicSecret | WifSecret


def _decode_wif_prefix(wif: str) -> bytes | None:
    """The WIF version byte, or None when `wif` is not a valid WIF. Errors are swallowed here
    on purpose: embit's messages may quote the input."""
    try:
        ec.PrivateKey.from_wif(wif)
        prefix: bytes = base58.decode_check(wif)[:1]
    except Exception:
        return None
    known = {net["wif"] for net in EMBIT_NETWORKS.values()}
    return prefix if prefix in known else None


def check_secret_network(secret: WalletSecret, network: str) -> None:
    """A WIF carries its network (mainnet vs the test networks); refuse a mismatch early."""
    if isinstance(secret, WifSecret) and secret.is_mainnet != (network == "mainnet"):
        kind = "mainnet" if secret.is_mainnet else "test-network"
        raise InvalidSecretError(f"the WIF key is a {kind} key but the profile is for {network}")


@dataclass(frozen=True)
class DerivationLayout:
    """Which wallet layout the keys follow: a preset name (e.g. "xverse", "unisat"), the account
    number and, for a custom layout, one derivation path per role
    (e.g. {"payment": "m/84'/0'/0'/0/0"})."""

    preset: str
    account: int = 0
    custom_paths: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.preset or len(self.preset) > 32 or not self.preset.isprintable():
            raise InvalidProfileError("layout preset must be a short printable name")
        if isinstance(self.account, bool) or not 0 <= self.account < _HARDENED:
            raise InvalidProfileError(f"account number must be in 0..{_HARDENED - 1}")
        for role, path in self.custom_paths.items():
            if not role or not role.isprintable() or not _PATH_RE.match(path):
                raise InvalidProfileError(f"custom path for role {role!r} is not like m/84'/0'/0'")
        # Read-only copy: the caller's dict must not change a frozen object behind our back.
        object.__setattr__(self, "custom_paths", MappingProxyType(dict(self.custom_paths)))


@dataclass(frozen=True)
class WatchOnlyAddresses:
    """Addresses and public keys (hex: 33-byte compressed, or 32-byte x-only for taproot) that
    let the app show balances and build PSBTs without the secret; with each key's origin
    ("73c5da0a/84'/0'/0'/0/0": master fingerprint and path) when it came from an extended
    public key or a descriptor, so exported PSBTs name the key for the wallet that signs."""

    payment_address: str
    ordinals_address: str
    payment_public_key: str | None = None
    ordinals_public_key: str | None = None
    payment_key_origin: str | None = None
    ordinals_key_origin: str | None = None

    def check_network(self, network: str) -> None:
        for role, address in (
            ("payment", self.payment_address),
            ("ordinals", self.ordinals_address),
        ):
            if not address_matches_network(address, network):
                raise InvalidProfileError(f"{role} address {address!r} is not a {network} address")
        for role, key in (
            ("payment", self.payment_public_key),
            ("ordinals", self.ordinals_public_key),
        ):
            if key is not None and not _is_public_key_hex(key):
                raise InvalidProfileError(f"{role} public key is not a valid hex public key")
        for role, origin, key in (
            ("payment", self.payment_key_origin, self.payment_public_key),
            ("ordinals", self.ordinals_key_origin, self.ordinals_public_key),
        ):
            if origin is not None and (key is None or not _ORIGIN_RE.match(origin)):
                raise InvalidProfileError(
                    f"{role} key origin must be like 73c5da0a/84'/0'/0'/0/0, with its public key"
                )


@dataclass(frozen=True)
class ProfileMeta:
    """Non-secret facts about a profile, stored in the clear next to the encrypted secret (and
    bound to it: changing them makes decryption fail)."""

    name: str
    network: str
    layout: DerivationLayout
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def __post_init__(self) -> None:
        check_profile_name(self.name)
        if self.network not in NETWORK_NAMES:
            raise InvalidProfileError(f"network must be one of {', '.join(NETWORK_NAMES)}")
        if self.created_at.tzinfo is None:
            raise InvalidProfileError("created_at must carry a time zone")


@dataclass(frozen=True)
class ProfileInfo:
    """What can be read about a profile without its password."""

    meta: ProfileMeta
    watch_only: WatchOnlyAddresses | None
    has_secret: bool
    unlock_key_remembered: bool


def check_profile_name(name: str) -> None:
    if not name or len(name) > MAX_NAME_LENGTH:
        raise InvalidProfileError(f"profile name must be 1 to {MAX_NAME_LENGTH} characters")
    if name != name.strip() or not name.isprintable():
        raise InvalidProfileError("profile name must be printable, without surrounding spaces")


def address_matches_network(address: str, network: str) -> bool:
    """True when `address` decodes (base58check or bech32/bech32m) for `network`."""
    net = EMBIT_NETWORKS[_EMBIT_NET[network]]
    hrp: str = net["bech32"]
    if address.lower().startswith(hrp + "1"):
        version, program = bech32.decode(hrp, address)
        return version is not None and program is not None and 2 <= len(program) <= 40
    try:
        data = base58.decode_check(address)
    except Exception:
        return False
    return len(data) == 21 and data[:1] in (net["p2pkh"], net["p2sh"])


def _is_public_key_hex(key: str) -> bool:
    try:
        raw = bytes.fromhex(key)
        if len(raw) == 32:
            ec.PublicKey.from_xonly(raw)
        else:
            ec.PublicKey.parse(raw)
    except Exception:
        return False
    return True
