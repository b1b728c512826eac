"""Networks, address types, strict address decoding and encoding (embit underneath), and
the public description of an owned address (`PublicRoleKey`: safe to store and show)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from embit import base58, bech32, hashes
from embit.ec import PublicKey
from embit.networks import NETWORKS
from embit.script import Script


class InvalidAddressError(ValueError):
    """The text is not a valid address of a supported kind (or not for the expected network)."""


class Network(StrEnum):
    """Bitcoin networks; the values are embit's NETWORKS keys."""

    MAINNET = "main"
    TESTNET = "test"
    SIGNET = "signet"
    REGTEST = "regtest"

    @property
    def params(self) -> dict[str, Any]:
        """embit's parameter table (address prefixes, WIF byte, SLIP-132 versions)."""
        return dict(NETWORKS[self.value])

    @property
    def coin_type(self) -> int:
        """BIP-44 coin type: 0 on mainnet, 1 on every test network."""
        return 0 if self is Network.MAINNET else 1


class AddressType(StrEnum):
    """Single-key address types this wallet derives keys for and signs with."""

    P2PKH = "p2pkh"
    P2SH_P2WPKH = "p2sh-p2wpkh"
    P2WPKH = "p2wpkh"
    P2TR = "p2tr"


class ScriptKind(StrEnum):
    """What an address tells about its scriptPubKey (P2SH hides what it wraps)."""

    P2PKH = "p2pkh"
    P2SH = "p2sh"
    P2WPKH = "p2wpkh"
    P2WSH = "p2wsh"
    P2TR = "p2tr"


_TEST_NETWORKS = frozenset({Network.TESTNET, Network.SIGNET, Network.REGTEST})
_BASE58_VERSIONS: dict[int, tuple[ScriptKind, frozenset[Network]]] = {
    0x00: (ScriptKind.P2PKH, frozenset({Network.MAINNET})),
    0x05: (ScriptKind.P2SH, frozenset({Network.MAINNET})),
    0x6F: (ScriptKind.P2PKH, _TEST_NETWORKS),
    0xC4: (ScriptKind.P2SH, _TEST_NETWORKS),
}
_BECH32_HRPS: dict[str, frozenset[Network]] = {
    "bc": frozenset({Network.MAINNET}),
    "tb": frozenset({Network.TESTNET, Network.SIGNET}),
    "bcrt": frozenset({Network.REGTEST}),
}


@dataclass(frozen=True)
class DecodedAddress:
    """An address split into what signing and verification need."""

    address: str
    kind: ScriptKind
    program: bytes  # key hash, script hash, witness program or taproot output key
    script_pubkey: bytes
    networks: frozenset[Network]


def decode_address(address: str, network: Network | None = None) -> DecodedAddress:
    """Decode a P2PKH, P2SH, P2WPKH, P2WSH or P2TR address; with `network`, require it."""
    decoded = _decode(address.strip())
    if decoded is None:
        # Not echoed: a secret pasted into the wrong field must not reach a message or log.
        raise InvalidAddressError(
            f"not a valid Bitcoin address ({len(address)} characters); supported: P2PKH, "
            "P2SH, P2WPKH, P2WSH and P2TR"
        )
    if network is not None and network not in decoded.networks:
        raise InvalidAddressError(f"{address!r} is not a {network.name.lower()} address")
    return decoded


@lru_cache(maxsize=4096)  # pure-Python bech32 costs ~50 us; verifiers see the same addresses
def _decode(text: str) -> DecodedAddress | None:
    hrp = text[: text.rfind("1")].lower() if "1" in text else ""
    if hrp in _BECH32_HRPS:
        return _decode_bech32(text, hrp)
    return _decode_base58(text)


def _decode_base58(text: str) -> DecodedAddress | None:
    try:
        payload = base58.decode_check(text)
    except Exception:  # embit raises bare ValueError/IndexError on bad characters or checksums
        return None
    if len(payload) != 21 or payload[0] not in _BASE58_VERSIONS:
        return None
    kind, networks = _BASE58_VERSIONS[payload[0]]
    program = payload[1:]
    if kind is ScriptKind.P2PKH:
        spk = b"\x76\xa9\x14" + program + b"\x88\xac"
    else:
        spk = b"\xa9\x14" + program + b"\x87"
    return DecodedAddress(text, kind, program, spk, networks)


def _decode_bech32(text: str, hrp: str) -> DecodedAddress | None:
    networks = _BECH32_HRPS[hrp]
    version, data = bech32.decode(hrp, text)
    if version is None or data is None:
        return None
    program = bytes(data)
    if version == 0 and len(program) == 20:
        kind = ScriptKind.P2WPKH
    elif version == 0 and len(program) == 32:
        kind = ScriptKind.P2WSH
    elif version == 1 and len(program) == 32:
        kind = ScriptKind.P2TR
    else:
        return None  # future witness versions: nothing here can sign or verify them
    op_version = 0 if version == 0 else 0x50 + version
    spk = bytes([op_version, len(program)]) + program
    return DecodedAddress(text, kind, program, spk, networks)


def p2wpkh_redeem_script(pubkey_sec: bytes) -> bytes:
    """The `0 <hash160(pubkey)>` script a P2SH-P2WPKH output commits to."""
    return b"\x00\x14" + bytes(hashes.hash160(pubkey_sec))


def taproot_output_key(internal_xonly: bytes) -> bytes:
    """BIP-86 output key: the internal key tweaked with an empty script tree."""
    return bytes(PublicKey.from_xonly(internal_xonly).taproot_tweak(b"").xonly())


def script_pubkey_for(pubkey_sec: bytes, address_type: AddressType) -> bytes:
    """scriptPubKey of a single-key address of `address_type` (P2TR: BIP-86 key path)."""
    if address_type is AddressType.P2PKH:
        return b"\x76\xa9\x14" + bytes(hashes.hash160(pubkey_sec)) + b"\x88\xac"
    if address_type is AddressType.P2WPKH:
        return p2wpkh_redeem_script(pubkey_sec)
    if address_type is AddressType.P2SH_P2WPKH:
        return b"\xa9\x14" + bytes(hashes.hash160(p2wpkh_redeem_script(pubkey_sec))) + b"\x87"
    return b"\x51\x20" + taproot_output_key(pubkey_sec[1:33])


def address_from_script_pubkey(script_pubkey: bytes, network: Network) -> str:
    """Encode a standard scriptPubKey as an address of `network`."""
    try:
        return str(Script(script_pubkey).address(NETWORKS[network.value]))
    except ValueError:
        raise InvalidAddressError("this scriptPubKey has no address form") from None


class KeyRole(StrEnum):
    """What a wallet uses a key for."""

    PAYMENT = "payment"
    ORDINALS = "ordinals"


@dataclass(frozen=True)
class PublicRoleKey:
    """Everything public about one role's key: safe to store, show and log."""

    role: KeyRole
    address_type: AddressType
    network: Network
    address: str
    script_pubkey: bytes
    public_key: bytes  # SEC: 33 bytes compressed (65 only for an uncompressed-WIF P2PKH)
    derivation_path: str | None = None  # None for a WIF key
    master_fingerprint: bytes | None = None

    @property
    def xonly_public_key(self) -> bytes | None:
        """Taproot internal key (BIP-86, untweaked), x-only; None for other types."""
        return self.public_key[1:33] if self.address_type is AddressType.P2TR else None

    @property
    def output_key(self) -> bytes | None:
        """Taproot output key (tweaked), x-only, as in the scriptPubKey."""
        return self.script_pubkey[2:] if self.address_type is AddressType.P2TR else None

    @property
    def redeem_script(self) -> bytes | None:
        """The P2SH-P2WPKH redeem script; None for other types."""
        if self.address_type is not AddressType.P2SH_P2WPKH:
            return None
        return p2wpkh_redeem_script(self.public_key)

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role.value,
            "address_type": self.address_type.value,
            "network": self.network.value,
            "address": self.address,
            "script_pubkey": self.script_pubkey.hex(),
            "public_key": self.public_key.hex(),
            "derivation_path": self.derivation_path,
            "master_fingerprint": self.master_fingerprint.hex()
            if self.master_fingerprint
            else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PublicRoleKey:
        """Rebuild from `to_dict`, recomputing the address so a tampered entry fails."""
        try:
            fingerprint = data.get("master_fingerprint")
            key = public_role_key(
                KeyRole(data["role"]),
                bytes.fromhex(data["public_key"]),
                AddressType(data["address_type"]),
                Network(data["network"]),
                data.get("derivation_path"),
                bytes.fromhex(fingerprint) if fingerprint else None,
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise InvalidAddressError(f"stored public key entry is malformed: {exc}") from None
        if key.address != data["address"] or key.script_pubkey.hex() != data["script_pubkey"]:
            raise InvalidAddressError(
                f"stored address {data['address']!r} does not match its public key"
            )
        return key


def public_role_key(
    role: KeyRole,
    public_key: bytes,
    address_type: AddressType,
    network: Network,
    path: str | None,
    fingerprint: bytes | None,
) -> PublicRoleKey:
    """Describe the `address_type` address of `public_key` (SEC) on `network`."""
    if len(public_key) != 33 and address_type is not AddressType.P2PKH:
        raise InvalidAddressError(f"{address_type.value} needs a compressed public key")
    spk = script_pubkey_for(public_key, address_type)
    address = address_from_script_pubkey(spk, network)
    return PublicRoleKey(role, address_type, network, address, spk, public_key, path, fingerprint)
