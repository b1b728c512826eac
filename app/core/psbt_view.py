"""A neutral, library-free description of a PSBT, and what can be told from its scripts alone.

`app.wallet.psbt_view.view_of` fills these dataclasses from an embit PSBT; everything in
`app.core` (the review, the signing policies) works on them only. Amounts are integer sats,
txids are hex in the usual (display) byte order, scripts are raw bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

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


# --- Size estimate -----------------------------------------------------------------------------
# Typical signature sizes (bytes, with the sighash byte): DER ECDSA 71 + 1, Schnorr 64 (+1 when
# the hash type is not DEFAULT). Sizes follow BIP-141: weight = 4 x base bytes + witness bytes.
_ECDSA_SIG = 72
_PUBKEY = 33
_OP_NUMEQUAL = 0x9C
_OP_CHECKSIG = 0xAC
_OP_1, _OP_16 = 0x51, 0x60


def _varint_len(n: int) -> int:
    return 1 if n < 0xFD else 3 if n <= 0xFFFF else 5 if n <= 0xFFFFFFFF else 9


def _items_len(sizes: list[int]) -> int:
    """Serialized size of a witness stack with items of the given lengths."""
    return _varint_len(len(sizes)) + sum(_varint_len(s) + s for s in sizes)


def _small_int(op: int) -> int | None:
    return op - _OP_1 + 1 if _OP_1 <= op <= _OP_16 else None


def _push_32_count(script: bytes) -> int:
    """How many 32-byte pushes a tapscript holds (its x-only keys, for our leaf shapes)."""
    count, i = 0, 0
    while i < len(script):
        op = script[i]
        if 1 <= op <= 75:
            count += op == 32
            i += 1 + op
        else:
            i += 1
    return count


def _leaf_witness(leaf: TapLeafView, sighash_byte: int) -> int:
    """Witness size of a script-path spend: signatures for `<key> CHECKSIG` or a k-of-n multi_a
    (k signatures, empty items for the others), then the script and the control block."""
    keys = max(1, _push_32_count(leaf.script))
    script = leaf.script
    threshold = keys
    if len(script) >= 2 and script[-1] == _OP_NUMEQUAL:
        threshold = _small_int(script[-2]) or keys
    elif script[-1:] == bytes([_OP_CHECKSIG]):
        threshold = 1
    sizes = [64 + sighash_byte] * threshold + [0] * (keys - threshold)
    return _items_len([*sizes, len(script), len(leaf.control_block)])


def _multisig_threshold(script: bytes) -> int:
    """m of a bare CHECKMULTISIG script `OP_m <keys> OP_n CHECKMULTISIG`; 1 when not one."""
    return (_small_int(script[0]) if script else None) or 1


@dataclass(frozen=True)
class InputSize:
    """Estimated serialized size of one signed input: base (non-witness) and witness bytes."""

    base: int
    witness: int
    guessed: bool  # the script type was not known: a P2WPKH spend was assumed


def estimate_input_size(inp: InputView) -> InputSize:
    """Size of `inp` once signed and finalised (exact when it already is)."""
    outpoint_and_sequence = 32 + 4 + 4
    if inp.final:
        final_sig = inp.final_scriptsig or b""
        stack = inp.final_witness or ()
        witness_len = _items_len([len(w) for w in stack]) if stack else 0
        base = outpoint_and_sequence + _varint_len(len(final_sig)) + len(final_sig)
        return InputSize(base, witness_len, False)
    sighash_byte = 0 if inp.sighash_type in (None, 0) else 1
    kind = inp.script_type
    p2wpkh_witness = _items_len([_ECDSA_SIG, _PUBKEY])
    script_sig, witness, guessed = 0, p2wpkh_witness, False
    if kind is ScriptType.P2PKH:
        script_sig, witness = 1 + _ECDSA_SIG + 1 + _PUBKEY, 0
    elif kind is ScriptType.P2SH:
        redeem = inp.redeem_script or b""
        script_sig = 1 + len(redeem) if redeem else 23
        if redeem and script_type(redeem) is ScriptType.P2WSH:
            witness = _p2wsh_witness(inp.witness_script)
        elif redeem and script_type(redeem) is not ScriptType.P2WPKH:
            # Legacy P2SH multisig: OP_0, m signatures, then the redeem script push.
            m = _multisig_threshold(redeem)
            script_sig = 1 + m * (1 + _ECDSA_SIG) + _varint_len(len(redeem)) + len(redeem)
            witness = 0
        guessed = not redeem
    elif kind is ScriptType.P2WSH:
        witness = _p2wsh_witness(inp.witness_script)
        guessed = inp.witness_script is None
    elif kind is ScriptType.P2TR:
        # Leaves in the PSBT mean a script-path spend in this app (the bidding wallet has an
        # unspendable internal key); the cheapest leaf is assumed.
        if inp.tap_leaves:
            witness = min(_leaf_witness(leaf, sighash_byte) for leaf in inp.tap_leaves)
        else:
            witness = _items_len([64 + sighash_byte])
    elif kind is not ScriptType.P2WPKH:
        guessed = True
    return InputSize(outpoint_and_sequence + _varint_len(script_sig) + script_sig, witness, guessed)


def _p2wsh_witness(witness_script: bytes | None) -> int:
    if witness_script is None:
        return _items_len([_ECDSA_SIG, _PUBKEY])
    m = _multisig_threshold(witness_script)
    return _items_len([0] + [_ECDSA_SIG] * m + [len(witness_script)])


@dataclass(frozen=True)
class VsizeEstimate:
    """Virtual size in vbytes; `guessed_inputs` are inputs whose script type was unknown."""

    vsize: int
    guessed_inputs: tuple[int, ...]

    @property
    def exact_types(self) -> bool:
        return not self.guessed_inputs


def estimate_vsize(view: PsbtView) -> VsizeEstimate:
    """Virtual size of the transaction once every input is signed (BIP-141 weight / 4)."""
    sizes = [estimate_input_size(inp) for inp in view.inputs]
    base = 4 + 4 + _varint_len(len(view.inputs)) + _varint_len(len(view.outputs))
    base += sum(s.base for s in sizes)
    base += sum(8 + _varint_len(len(o.script_pubkey)) + len(o.script_pubkey) for o in view.outputs)
    witness = 0
    if any(s.witness for s in sizes):
        # Marker and flag, then one stack per input (an empty one is a single 0x00 byte).
        witness = 2 + sum(s.witness or 1 for s in sizes)
    weight = 4 * base + witness
    guessed = tuple(i for i, s in enumerate(sizes) if s.guessed)
    return VsizeEstimate((weight + 3) // 4, guessed)
