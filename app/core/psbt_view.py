"""A neutral, library-free description of a PSBT, and what can be told from its scripts alone.

`app.wallet.psbt_reader.view_of` fills these dataclasses from an embit PSBT; everything in
`app.core` (the review, the signing policies) works on them only. Amounts are integer sats,
txids are hex in the usual (display) byte order, scripts are raw bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

PSBT_MAGIC = b"psbt\xff"  # BIP-174: what every serialized PSBT starts with
SEQUENCE_FINAL = 0xFFFFFFFF


class ScriptType(StrEnum):
    """The output script templates the app recognises (P2SH hides what it wraps)."""

    P2PKH = "p2pkh"
    P2SH = "p2sh"
    P2WPKH = "p2wpkh"
    P2WSH = "p2wsh"
    P2TR = "p2tr"
    OP_RETURN = "op_return"
    UNKNOWN = "unknown"


def script_type(spk: bytes) -> ScriptType:
    """Classify a scriptPubKey by its template."""
    n = len(spk)
    if n == 25 and spk[:3] == b"\x76\xa9\x14" and spk[23:] == b"\x88\xac":
        return ScriptType.P2PKH
    if n == 23 and spk[:2] == b"\xa9\x14" and spk[22] == 0x87:
        return ScriptType.P2SH
    if n == 22 and spk[:2] == b"\x00\x14":
        return ScriptType.P2WPKH
    if n == 34 and spk[:2] == b"\x00\x20":
        return ScriptType.P2WSH
    if n == 34 and spk[:2] == b"\x51\x20":
        return ScriptType.P2TR
    if n >= 1 and spk[0] == 0x6A:
        return ScriptType.OP_RETURN
    return ScriptType.UNKNOWN


# Network names are the wallet's `Network` values (embit's NETWORKS keys).
MAINNET, TESTNET, SIGNET, REGTEST = "main", "test", "signet", "regtest"
NETWORK_NAMES = (MAINNET, TESTNET, SIGNET, REGTEST)
_TEST_NETWORKS = frozenset({TESTNET, SIGNET, REGTEST})
_BECH32_PREFIXES = (
    ("bcrt1", frozenset({REGTEST})),  # before "bc1": longest prefix first
    ("bc1", frozenset({MAINNET})),
    ("tb1", frozenset({TESTNET, SIGNET})),
)
_BASE58_FIRST_CHARS = {
    "1": frozenset({MAINNET}),
    "3": frozenset({MAINNET}),
    "m": _TEST_NETWORKS,
    "n": _TEST_NETWORKS,
    "2": _TEST_NETWORKS,
}


def address_networks(address: str) -> frozenset[str]:
    """The networks an address's prefix belongs to (empty when the prefix is unknown).

    A prefix check only: checksums are verified where addresses are decoded (app.wallet).
    """
    lowered = address.strip().lower()
    for prefix, networks in _BECH32_PREFIXES:
        if lowered.startswith(prefix):
            return networks
    return _BASE58_FIRST_CHARS.get(address.strip()[:1], frozenset())


def normalize_address(address: str) -> str:
    """Bech32 addresses are case-insensitive: compare them lowercased; base58 as is."""
    text = address.strip()
    lowered = text.lower()
    if any(lowered.startswith(prefix) for prefix, _ in _BECH32_PREFIXES):
        return lowered
    return text


@dataclass(frozen=True)
class TapLeafView:
    """One PSBT_IN_TAP_LEAF_SCRIPT entry."""

    control_block: bytes
    script: bytes
    leaf_version: int


@dataclass(frozen=True)
class InputView:
    """One PSBT input. `value`/`script_pubkey`/`address` are None when the PSBT has no UTXO
    data for it; `utxo_problems` lists each way its UTXO data contradicts itself."""

    index: int
    prev_txid: str
    prev_vout: int
    sequence: int
    value: int | None
    script_pubkey: bytes | None
    address: str | None
    sighash_type: int | None  # PSBT_IN_SIGHASH_TYPE; None when absent
    has_witness_utxo: bool
    has_non_witness_utxo: bool
    non_witness_utxo_matches: bool | None  # None when there is no non_witness_utxo
    utxo_problems: tuple[str, ...] = ()
    partial_sig_keys: tuple[bytes, ...] = ()  # public keys with an ECDSA partial signature
    tap_key_sig: bool = False
    tap_script_sig_keys: tuple[bytes, ...] = ()  # x-only keys with a script-path signature
    tap_internal_key: bytes | None = None
    tap_leaves: tuple[TapLeafView, ...] = ()
    witness_script: bytes | None = None
    redeem_script: bytes | None = None
    final_scriptsig: bytes | None = None
    final_witness: tuple[bytes, ...] | None = None
    # Every size hint above (redeem/witness script, tap leaves) is proven to belong to
    # `script_pubkey` (hashes and control blocks checked by app.wallet.psbt_reader.view_of).
    size_hints_verified: bool = False

    @property
    def outpoint(self) -> str:
        return f"{self.prev_txid}:{self.prev_vout}"

    @property
    def script_type(self) -> ScriptType | None:
        return None if self.script_pubkey is None else script_type(self.script_pubkey)

    @property
    def final(self) -> bool:
        """Already finalised: signed by someone, nothing left to sign."""
        return self.final_scriptsig is not None or self.final_witness is not None

    @property
    def tap_leaf_scripts(self) -> tuple[bytes, ...]:
        return tuple(leaf.script for leaf in self.tap_leaves)

    @property
    def has_signatures(self) -> bool:
        return bool(self.partial_sig_keys or self.tap_key_sig or self.tap_script_sig_keys)


@dataclass(frozen=True)
class OutputView:
    """One output; `address` is None for OP_RETURN and scripts without an address form."""

    index: int
    value: int
    script_pubkey: bytes
    address: str | None
    is_op_return: bool

    @property
    def script_type(self) -> ScriptType:
        return script_type(self.script_pubkey)


@dataclass(frozen=True)
class PsbtView:
    """The whole PSBT. `network` is the one its addresses were encoded for; `digest`
    identifies the exact PSBT reviewed (the signer checks it before signing)."""

    version: int
    locktime: int
    inputs: tuple[InputView, ...]
    outputs: tuple[OutputView, ...]
    txid_unsigned: str
    network: str
    digest: str = ""

    @property
    def input_values(self) -> tuple[int | None, ...]:
        return tuple(inp.value for inp in self.inputs)

    @property
    def output_values(self) -> tuple[int, ...]:
        return tuple(out.value for out in self.outputs)
