"""Our signatures as Bitcoin Core's script interpreter sees them (py-bitcoinkernel).

- `kernel_verdicts`: finalise our signed inputs (app.wallet.finalize) and ask the interpreter,
  with the TRUE spent outputs, which of them it accepts: the fuzzer cross-checks the effect
  model's "this signature can (not) be valid" against it.
- `our_valid_signatures`: every byte string of a PSBT (any key data or value, witness items,
  script pushes) that the interpreter accepts as our signature for one of our inputs of its
  transaction, with its hash type: what a PSBT handed to the service really carries, wherever
  a compromised signer or channel put it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import suppress

from embit import ec
from embit.script import Script, Witness
from embit.transaction import Transaction, TransactionOutput

from app.core.psbt_review_context import Role
from app.wallet.finalize import finalize_input
from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.scripts import script_pushes, tapleaf_hash
from tests.support.psbt_eff_model import OURS, outpoint_of
from tests.support.psbt_mut_world import TrueCoin
from tests.support.psbt_raw_codec import RawDecodeError, RawPsbt
from tests.wallet.kernel import verify_inputs

# A stand-in for inputs whose truth is unknown: an ANYONECANPAY signature never commits to
# them, and a fixed transaction spending them is void before the interpreter is asked.
_DUMMY = TransactionOutput(1, Script(b"\x51"))


def spent_outputs(tx: Transaction, world: Mapping[str, TrueCoin]) -> list[TransactionOutput]:
    return [
        world[o].txout if (o := outpoint_of(tx, i)) in world else _DUMMY for i in range(len(tx.vin))
    ]


def signatures_in(inp: FixedInput) -> list[bytes]:
    """The signatures an input carries in its signature fields (ECDSA, taproot)."""
    found = [bytes(s) for s in inp.partial_sigs.values()]
    found += [bytes(s) for s in inp.taproot_sigs.values()]
    if inp.tap_key_sig is not None:
        found.append(bytes(inp.tap_key_sig))
    return found


def kernel_verdicts(
    unsigned: FixedPSBT,
    signed: FixedPSBT,
    indices: Sequence[int],
    key: ec.PrivateKey,
    world: Mapping[str, TrueCoin],
) -> dict[int, bool]:
    """Bitcoin Core's verdict on the signature the signer added to each of `indices`, in a
    witness built from that signature alone (whatever else a mutation put on the input).
    Inputs whose witness our finaliser cannot build are left out."""
    tx = signed.tx
    built = []
    for i in indices:
        before = set(signatures_in(unsigned.inputs[i]))
        new = [s for s in signatures_in(signed.inputs[i]) if s not in before]
        witness = new and _witness_for(unsigned, i, new[0], key, like=signed.inputs[i])
        if witness:
            tx.vin[i].witness = Witness(witness)
            built.append(i)
    if not built:
        return {}
    verdicts = verify_inputs(tx, spent_outputs(tx, world))
    return {i: verdicts[i] for i in built}


def _blobs(data: bytes) -> set[bytes]:
    """Every byte string in the PSBT's maps that could be a signature."""
    try:
        raw = RawPsbt.decode(data)
    except RawDecodeError:
        return set()
    found: set[bytes] = set()
    for pairs in (raw.globals, *raw.inputs, *raw.outputs):
        for key, value in pairs:
            found |= {key[1:], value}
            with suppress(Exception):  # a value that is no witness
                found |= set(Witness.parse(value).items)
            with suppress(Exception):  # a value that is no script
                found |= set(script_pushes(value))
    return {b for b in found if len(b) in (64, 65) or (b[:1] == b"\x30" and 9 <= len(b) <= 73)}


def _hash_type(sig: bytes) -> int:
    return 0 if len(sig) == 64 else sig[-1]


def _witness_for(
    template: FixedPSBT, i: int, sig: bytes, key: ec.PrivateKey, like: FixedInput | None = None
) -> list[bytes] | None:
    """The witness our finaliser builds for input `i` of `template` signed with `sig` alone,
    in the field `like` (a signed copy of the input) carries it, else the usual one."""
    copy = FixedPSBT.parse(template.serialize())
    inp = copy.inputs[i]
    inp.partial_sigs.clear()
    inp.taproot_sigs.clear()
    inp.tap_key_sig = None
    inp.final_scriptwitness = None
    inp.final_scriptsig = None
    utxo = inp.witness_utxo
    if utxo is None:
        return None
    spk = bytes(utxo.script_pubkey.data)
    pub = key.get_public_key()
    if like is not None and like.taproot_sigs:
        inp.taproot_sigs = {k: sig for k in like.taproot_sigs}
    elif like is not None and like.tap_key_sig is not None:
        inp.tap_key_sig = sig
    elif spk[:2] == b"\x00\x14":
        inp.partial_sigs[ec.PublicKey.parse(pub.sec())] = sig
    elif spk[:2] == b"\x51\x20" and inp.taproot_scripts:
        for script in inp.taproot_scripts.values():
            leaf = tapleaf_hash(bytes(script[:-1]), script[-1])
            inp.taproot_sigs[(ec.PublicKey.from_xonly(pub.xonly()), leaf)] = sig
    elif spk[:2] == b"\x51\x20":
        inp.tap_key_sig = sig
    else:
        return None
    try:
        finalize_input(copy, i)
    except Exception:
        return None
    witness = copy.inputs[i].final_scriptwitness
    return None if witness is None else list(witness.items)


def our_valid_signatures(
    psbt: FixedPSBT,
    template: FixedPSBT,
    key: ec.PrivateKey,
    world: Mapping[str, TrueCoin],
    owners: Mapping[bytes, Role],
) -> set[tuple[int, int]]:
    """(input index, hash type) of every signature by `key` that Bitcoin Core accepts for an
    input of ours in `psbt`'s transaction, found anywhere in `psbt`'s bytes. `template` is a
    PSBT of the same transaction whose inputs carry their scripts (leaves, internal keys)."""
    tx = psbt.tx
    spent = spent_outputs(tx, world)
    blobs = _blobs(psbt.serialize())
    found = set()
    for i in range(len(tx.vin)):
        coin = world.get(outpoint_of(tx, i))
        if coin is None or owners.get(coin.script_pubkey) not in OURS:
            continue
        for sig in blobs:
            witness = _witness_for(template, i, sig, key)
            if witness is None:
                continue
            attempt = psbt.tx
            attempt.vin[i].witness = Witness(witness)
            if verify_inputs(attempt, spent)[i]:
                found.add((i, _hash_type(sig)))
    return found
