"""How big a PSBT's transaction will be once signed, from facts we can vouch for.

A policy bounds the fee rate, fee / vsize. Whoever could make the vsize look larger would make
a high rate look low: a large bogus tap leaf on the seller's input of an inscription bid made
123 sat/vB read as 17. So the size hints a PSBT carries (tap leaf scripts, witness and redeem
scripts, final witnesses) count only for inputs we own AND only when they are proven to belong
to the input's scriptPubKey (`InputView.size_hints_verified`). Every other input is sized as
the cheapest spend its scriptPubKey type allows (key path for taproot, a signature and key for
P2PKH/P2WPKH, a one-byte script for P2SH/P2WSH, an empty witness for a type we do not know).
Such an estimate can only come out too small, which makes a rate look higher, never lower: a
fee cap stays a cap.

Sizes follow BIP-141 (weight = 4 x base bytes + witness bytes). Typical signature sizes, with
the sighash byte: DER ECDSA 71 + 1; Schnorr 64 (+1 when the hash type is not DEFAULT).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from app.core.psbt_view import InputView, PsbtView, ScriptType, TapLeafView, script_type

_ECDSA_SIG = 72
_PUBKEY = 33
_SINGLE_KEY_SCRIPT = 1 + _PUBKEY + 1  # <pubkey> OP_CHECKSIG
_SCHNORR_SIG = 64
_OP_NUMEQUAL = 0x9C
_OP_CHECKSIG = 0xAC
_OP_1, _OP_16 = 0x51, 0x60
_OUTPOINT_AND_SEQUENCE = 32 + 4 + 4


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
    sizes = [_SCHNORR_SIG + sighash_byte] * threshold + [0] * (keys - threshold)
    return _items_len([*sizes, len(script), len(leaf.control_block)])


def _multisig_threshold(script: bytes) -> int:
    """m of a bare CHECKMULTISIG script `OP_m <keys> OP_n CHECKMULTISIG`; 1 when not one."""
    return (_small_int(script[0]) if script else None) or 1


def _p2wsh_witness(witness_script: bytes | None) -> int:
    if witness_script is None:
        return _items_len([_ECDSA_SIG, _SINGLE_KEY_SCRIPT])
    m = _multisig_threshold(witness_script)
    return _items_len([0] + [_ECDSA_SIG] * m + [len(witness_script)])


@dataclass(frozen=True)
class InputSize:
    """Estimated serialized size of one signed input: base (non-witness) and witness bytes."""

    base: int
    witness: int
    guessed: bool  # the script type was not known: only the outpoint was counted


def _sized(script_sig: int, witness: int, guessed: bool = False) -> InputSize:
    base = _OUTPOINT_AND_SEQUENCE + _varint_len(script_sig) + script_sig
    return InputSize(base, witness, guessed)


def cheapest_input_size(kind: ScriptType | None) -> InputSize:
    """The cheapest spend a scriptPubKey type allows, whatever the PSBT claims about it."""
    p2wpkh_witness = _items_len([_ECDSA_SIG, _PUBKEY])
    if kind is ScriptType.P2PKH:
        return _sized(1 + _ECDSA_SIG + 1 + _PUBKEY, 0)
    if kind is ScriptType.P2SH:  # a one-byte redeem script, pushed
        return _sized(2, 0)
    if kind is ScriptType.P2WPKH:
        return _sized(0, p2wpkh_witness)
    if kind is ScriptType.P2WSH:  # a one-byte witness script
        return _sized(0, _items_len([1]))
    if kind is ScriptType.P2TR:
        return _sized(0, _items_len([_SCHNORR_SIG]))
    return _sized(0, 0, guessed=True)  # unknown: nothing assumed beyond the outpoint


def _hinted_input_size(inp: InputView) -> InputSize:
    """Size of one of our inputs, using its verified redeem/witness script or tap leaves."""
    sighash_byte = 0 if inp.sighash_type in (None, 0) else 1
    kind = inp.script_type
    if kind is ScriptType.P2SH and inp.redeem_script:
        redeem = inp.redeem_script
        if script_type(redeem) is ScriptType.P2WSH:
            return _sized(1 + len(redeem), _p2wsh_witness(inp.witness_script))
        if script_type(redeem) is ScriptType.P2WPKH:
            return _sized(1 + len(redeem), _items_len([_ECDSA_SIG, _PUBKEY]))
        # Legacy P2SH multisig: OP_0, m signatures, then the redeem script push.
        m = _multisig_threshold(redeem)
        return _sized(1 + m * (1 + _ECDSA_SIG) + _varint_len(len(redeem)) + len(redeem), 0)
    if kind is ScriptType.P2WSH and inp.witness_script is not None:
        return _sized(0, _p2wsh_witness(inp.witness_script))
    if kind is ScriptType.P2TR:
        # Leaves mean a script-path spend in this app (the bidding wallet's internal key is
        # unspendable); the cheapest leaf is assumed.
        if inp.tap_leaves:
            return _sized(0, min(_leaf_witness(leaf, sighash_byte) for leaf in inp.tap_leaves))
        return _sized(0, _items_len([_SCHNORR_SIG + sighash_byte]))
    return cheapest_input_size(kind)


def estimate_input_size(inp: InputView, trusted: bool) -> InputSize:
    """Size of `inp` once signed: from its verified hints when `trusted` (an input of ours),
    else the cheapest standard spend of its scriptPubKey type."""
    if trusted and inp.size_hints_verified and not inp.final:
        return _hinted_input_size(inp)
    return cheapest_input_size(inp.script_type)


@dataclass(frozen=True)
class VsizeEstimate:
    """Virtual size in vbytes; `guessed_inputs` are inputs whose script type was unknown."""

    vsize: int
    guessed_inputs: tuple[int, ...]

    @property
    def exact_types(self) -> bool:
        return not self.guessed_inputs


def estimate_vsize(view: PsbtView, trusted: Collection[int]) -> VsizeEstimate:
    """Virtual size of the transaction once every input is signed (BIP-141 weight / 4); the
    size hints of the inputs in `trusted` (ours) count when verified, no other's do."""
    sizes = [estimate_input_size(inp, inp.index in trusted) for inp in view.inputs]
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
