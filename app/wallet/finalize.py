"""PSBT finaliser and extractor for the input types the signer supports.

Builds PSBT_IN_FINAL_SCRIPTSIG / PSBT_IN_FINAL_SCRIPTWITNESS from the partial fields and then
clears those fields (BIP-174 finaliser rules), keeping the UTXO data:
- P2WPKH: [sig, pubkey]; P2SH-P2WPKH: the same plus scriptSig = push(redeem script);
- P2WSH m-of-n CHECKMULTISIG: ["", sig..., witness script] with sigs in key order;
- P2TR key path: [PSBT_IN_TAP_KEY_SIG];
- P2TR script path: `<key> CHECKSIG` leaf [sig, script, control block], or a multi_a leaf with
  one stack item per key, in reverse key order, an empty item for each key that does not sign.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

from embit.hashes import hash160
from embit.script import Script, Witness
from embit.transaction import Transaction

from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.psbt_signer import spent_output
from app.wallet.scripts import (
    TAPSCRIPT_LEAF_VERSION,
    control_block_commits,
    parse_checksig_leaf,
    parse_multi_a_leaf,
    parse_multisig_script,
    tapleaf_hash,
)


class FinalizeError(Exception):
    """An input cannot be finalised (missing signatures or unsupported type)."""

    def __init__(self, input_index: int, reason: str) -> None:
        super().__init__(f"input {input_index}: {reason}")
        self.input_index = input_index
        self.reason = reason


def is_finalized(inp: FixedInput) -> bool:
    return inp.final_scriptwitness is not None or inp.final_scriptsig is not None


def finalize_psbt(psbt: FixedPSBT, indices: list[int] | None = None) -> None:
    """Finalise every input (or just `indices`); already final inputs are left as they are."""
    for i in range(len(psbt.inputs)) if indices is None else indices:
        if not is_finalized(psbt.inputs[i]):
            finalize_input(psbt, i)


def finalize_input(psbt: FixedPSBT, i: int) -> None:
    inp: FixedInput = psbt.inputs[i]
    utxo = spent_output(psbt, i)
    if utxo is None:
        raise FinalizeError(i, "no UTXO data")
    spk: bytes = utxo.script_pubkey.data
    script_sig = b""
    if len(spk) == 22 and spk[:2] == b"\x00\x14":
        items = _single_key_witness(inp, i, spk[2:])
    elif len(spk) == 23 and spk[:2] == b"\xa9\x14" and spk[22] == 0x87:
        redeem = inp.redeem_script.data if inp.redeem_script is not None else b""
        if hash160(redeem) != spk[2:22] or len(redeem) != 22 or redeem[:2] != b"\x00\x14":
            raise FinalizeError(i, "P2SH input is not P2SH-P2WPKH with a matching redeem script")
        items = _single_key_witness(inp, i, redeem[2:])
        script_sig = bytes([len(redeem)]) + redeem
    elif len(spk) == 34 and spk[:2] == b"\x00\x20":
        items = _multisig_witness(inp, i, spk[2:])
    elif len(spk) == 34 and spk[:2] == b"\x51\x20":
        items = _taproot_witness(inp, i, spk[2:])
    else:
        raise FinalizeError(i, "unsupported output type")
    _clear_partial_fields(inp)
    inp.final_scriptwitness = Witness(items)
    inp.final_scriptsig = Script(script_sig) if script_sig else None


def _single_key_witness(inp: FixedInput, i: int, pubkey_hash: bytes) -> list[bytes]:
    for pub, sig in inp.partial_sigs.items():
        sec = pub.sec()
        if hash160(sec) == pubkey_hash:
            return [bytes(sig), sec]
    raise FinalizeError(i, "no signature for the input's key")


def _multisig_witness(inp: FixedInput, i: int, program: bytes) -> list[bytes]:
    ws = inp.witness_script.data if inp.witness_script is not None else b""
    parsed = parse_multisig_script(ws) if hashlib.sha256(ws).digest() == program else None
    if parsed is None:
        raise FinalizeError(i, "P2WSH input without a matching multisig witness script")
    threshold, keys = parsed
    by_key = {pub.sec(): bytes(sig) for pub, sig in inp.partial_sigs.items()}
    sigs = [by_key[k] for k in keys if k in by_key][:threshold]
    if len(sigs) < threshold:
        raise FinalizeError(i, f"{len(sigs)} of {threshold} multisig signatures present")
    return [b"", *sigs, ws]  # b"": the CHECKMULTISIG dummy (NULLDUMMY)


def _taproot_witness(inp: FixedInput, i: int, output_key: bytes) -> list[bytes]:
    if inp.tap_key_sig is not None:
        return [inp.tap_key_sig]
    sigs = {(pub.xonly(), bytes(leaf)): bytes(sig) for (pub, leaf), sig in inp.taproot_sigs.items()}
    for control_block, value in inp.taproot_scripts.items():
        script, version = bytes(value[:-1]), value[-1]
        if version != TAPSCRIPT_LEAF_VERSION:
            continue
        if not control_block_commits(output_key, script, version, control_block):
            continue
        leaf = tapleaf_hash(script, version)
        stack = _leaf_stack(script, leaf, sigs)
        if stack is not None:
            return [*stack, script, bytes(control_block)]
    raise FinalizeError(i, "no key-path signature and no leaf with enough signatures")


def _leaf_stack(
    script: bytes, leaf: bytes, sigs: dict[tuple[bytes, bytes], bytes]
) -> list[bytes] | None:
    key = parse_checksig_leaf(script)
    if key is not None:
        sig = sigs.get((key, leaf))
        return None if sig is None else [sig]
    multi = parse_multi_a_leaf(script)
    if multi is None:
        return None
    threshold, keys = multi
    chosen: list[bytes] = []
    for k in keys:
        sig = sigs.get((k, leaf))
        # NUMEQUAL needs exactly `threshold` valid signatures: leave the rest empty.
        chosen.append(sig if sig is not None and sum(1 for c in chosen if c) < threshold else b"")
    if sum(1 for c in chosen if c) < threshold:
        return None
    return list(reversed(chosen))  # the first key's CHECKSIG consumes the top stack item


def _clear_partial_fields(inp: FixedInput) -> None:
    inp.partial_sigs = OrderedDict()
    inp.sighash_type = None
    inp.redeem_script = None
    inp.witness_script = None
    inp.bip32_derivations = OrderedDict()
    inp.tap_key_sig = None
    inp.taproot_sigs = OrderedDict()
    inp.taproot_scripts = OrderedDict()
    inp.taproot_bip32_derivations = OrderedDict()
    inp.taproot_internal_key = None
    inp.taproot_merkle_root = None


def extract_transaction(psbt: FixedPSBT) -> Transaction:
    """The final network transaction; every input must be finalised."""
    tx = psbt.tx
    for i, inp in enumerate(psbt.inputs):
        if not is_finalized(inp):
            raise FinalizeError(i, "input is not finalised")
        if inp.final_scriptsig is not None:
            tx.vin[i].script_sig = Script(inp.final_scriptsig.data)
        if inp.final_scriptwitness is not None:
            tx.vin[i].witness = Witness(list(inp.final_scriptwitness.items))
    return tx
