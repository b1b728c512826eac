"""Mutations of a PSBT's input, output and global fields (BIP-174, BIP-371) through embit's
objects, for the guard's fuzzer: the UTXOs an input claims, signatures and sighash types,
scripts, derivations, taproot keys, leaves and merkle root, unknown keys, a global xpub.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from embit import ec
from embit.psbt import DerivationPath
from embit.script import Script, Witness
from embit.transaction import Transaction, TransactionOutput

from app.wallet.psbt_fixes import FixedInput, FixedOutput, FixedPSBT, new_transaction, set_unknown
from app.wallet.scripts import checksig_leaf
from tests.support.psbt_mut_case import Case, Readable, edit, item_at
from tests.support.psbt_mut_world import ATTACKER_SPK
from tests.support.psbt_scenarios import key, p2wpkh_spk


def _junk_sig(n: int, hash_type: int = 0x01) -> bytes:
    return b"\x30" + bytes([n - 3]) + b"\x02" * (n - 3) + bytes([hash_type])


def _stranger_pub() -> ec.PublicKey:
    return key(77).get_public_key()


def _our_pub(case: Case) -> ec.PublicKey:
    return case.setup.scenario.signer.get_public_key()


def _witness_utxo(change: Callable[[TransactionOutput], TransactionOutput]) -> Callable[..., None]:
    def apply(case: Case, inp: FixedInput) -> None:
        if inp.witness_utxo is not None:
            inp.witness_utxo = change(inp.witness_utxo)

    return apply


def _true_prev_tx(case: Case, inp: FixedInput) -> Transaction | None:
    coin = case.world.get(f"{inp.txid.hex()}:{inp.vout}")
    return None if coin is None else coin.prev_tx


def _forged_prev_tx(case: Case, inp: FixedInput) -> None:
    prev = _true_prev_tx(case, inp)
    if prev is not None:
        outs = [TransactionOutput(o.value + 1_000, o.script_pubkey) for o in prev.vout]
        inp.non_witness_utxo = new_transaction(prev.version, prev.locktime, prev.vin, outs)


def _other_prev_tx(case: Case, inp: FixedInput) -> None:
    inp.non_witness_utxo = case.setup.spares["spare payment coin"].prev_tx


def _set(attr: str, value: Callable[[Case, FixedInput], Any]) -> Callable[[Case, FixedInput], None]:
    def apply(case: Case, inp: FixedInput) -> None:
        setattr(inp, attr, value(case, inp))

    return apply


def _add_partial_sig(who: str) -> Callable[[Case, FixedInput], None]:
    def apply(case: Case, inp: FixedInput) -> None:
        pub = _our_pub(case) if who == "ours" else _stranger_pub()
        inp.partial_sigs[pub] = _junk_sig(71)

    return apply


def _add_bip32(case: Case, inp: FixedInput) -> None:
    inp.bip32_derivations[_our_pub(case)] = DerivationPath(b"\xde\xad\xbe\xef", [0x80000054, 7])


def _add_tap_script_sig(case: Case, inp: FixedInput) -> None:
    pub = ec.PublicKey.from_xonly(_our_pub(case).xonly())
    inp.taproot_sigs[(pub, b"\x11" * 32)] = b"\x42" * 64


def _add_leaf(kind: str) -> Callable[[Case, FixedInput], None]:
    def apply(case: Case, inp: FixedInput) -> None:
        internal = inp.taproot_internal_key
        cb = b"\xc0" + (internal.xonly() if internal is not None else b"\x02" * 32)
        script = (
            b"\x51" * 10_000 if kind == "bogus 10 kB" else checksig_leaf(_our_pub(case).xonly())
        )
        inp.taproot_scripts = {**inp.taproot_scripts, cb: script + b"\xc0"}

    return apply


def _set_unknown_in(case: Case, inp: FixedInput) -> None:
    set_unknown(inp, b"\xfc\x05bidwx\x07", b"junk")


INPUT_FIELDS: dict[str, Callable[[Case, FixedInput], None]] = {
    "witness_utxo=None": _set("witness_utxo", lambda case, inp: None),
    "witness_utxo.value+1,000": _witness_utxo(
        lambda o: TransactionOutput(o.value + 1_000, o.script_pubkey)
    ),
    "witness_utxo.value-1,000": _witness_utxo(
        lambda o: TransactionOutput(max(0, o.value - 1_000), o.script_pubkey)
    ),
    "witness_utxo.script=attacker": _witness_utxo(
        lambda o: TransactionOutput(o.value, Script(ATTACKER_SPK))
    ),
    "non_witness_utxo=None": _set("non_witness_utxo", lambda case, inp: None),
    "non_witness_utxo=true": _set("non_witness_utxo", _true_prev_tx),
    "non_witness_utxo=forged +1,000": _forged_prev_tx,
    "non_witness_utxo=another tx": _other_prev_tx,
    "partial_sig+=ours (junk)": _add_partial_sig("ours"),
    "partial_sig+=stranger's": _add_partial_sig("stranger"),
    "sighash_type=None": _set("sighash_type", lambda case, inp: None),
    "redeem_script=p2wpkh": _set("redeem_script", lambda case, inp: Script(p2wpkh_spk(key(1)))),
    "redeem_script=10 kB": _set("redeem_script", lambda case, inp: Script(b"\x51" * 10_000)),
    "witness_script=1-of-1": _set(
        "witness_script",
        lambda case, inp: Script(b"\x51\x21" + _our_pub(case).sec() + b"\x51\xae"),
    ),
    "bip32_derivation+=ours": _add_bip32,
    "final_scriptsig=push": _set("final_scriptsig", lambda case, inp: Script(b"\x01\x01")),
    "final_scriptwitness=sig": _set(
        "final_scriptwitness", lambda case, inp: Witness([b"\x42" * 64])
    ),
    "tap_key_sig=junk": _set("tap_key_sig", lambda case, inp: b"\x42" * 64),
    "tap_script_sig+=junk": _add_tap_script_sig,
    "tap_leaf+=bogus 10 kB": _add_leaf("bogus 10 kB"),
    "tap_leaf+=our checksig": _add_leaf("our checksig"),
    "tap_leaves=None": _set("taproot_scripts", lambda case, inp: {}),
    "tap_internal_key=ours": _set(
        "taproot_internal_key",
        lambda case, inp: ec.PublicKey.from_xonly(_our_pub(case).xonly()),
    ),
    "tap_internal_key=stranger": _set(
        "taproot_internal_key", lambda case, inp: ec.PublicKey.from_xonly(_stranger_pub().xonly())
    ),
    "tap_internal_key=None": _set("taproot_internal_key", lambda case, inp: None),
    "tap_merkle_root=random": _set("taproot_merkle_root", lambda case, inp: b"\x33" * 32),
    "unknown+=proprietary": _set_unknown_in,
}
SIGHASH_TYPES = (0x00, 0x01, 0x02, 0x03, 0x81, 0x82, 0x83, 0x41, 0x04)


@dataclass(frozen=True)
class InputField(Readable):
    index: int
    change: str

    def __repr__(self) -> str:
        return f"input[{self.index}].{self.change}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            inp = item_at(psbt.inputs, self.index)
            if inp is not None:
                INPUT_FIELDS[self.change](case, inp)

        edit(case, change)


@dataclass(frozen=True)
class SighashType(Readable):
    index: int
    value: int

    def __repr__(self) -> str:
        return f"input[{self.index}].sighash_type=0x{self.value:02x}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            inp = item_at(psbt.inputs, self.index)
            if inp is not None:
                inp.sighash_type = self.value

        edit(case, change)


def _out_set(attr: str, value: Callable[[Case], Any]) -> Callable[[Case, FixedOutput], None]:
    def apply(case: Case, out: FixedOutput) -> None:
        setattr(out, attr, value(case))

    return apply


def _out_bip32(case: Case, out: FixedOutput) -> None:
    out.bip32_derivations[_stranger_pub()] = DerivationPath(b"\x01\x02\x03\x04", [1, 2])


OUTPUT_FIELDS: dict[str, Callable[[Case, FixedOutput], None]] = {
    "redeem_script=p2wpkh": _out_set("redeem_script", lambda case: Script(p2wpkh_spk(key(1)))),
    "witness_script=OP_TRUE": _out_set("witness_script", lambda case: Script(b"\x51")),
    "tap_internal_key=ours": _out_set(
        "taproot_internal_key", lambda case: ec.PublicKey.from_xonly(_our_pub(case).xonly())
    ),
    "tap_internal_key=stranger": _out_set(
        "taproot_internal_key", lambda case: ec.PublicKey.from_xonly(_stranger_pub().xonly())
    ),
    "bip32_derivation+=stranger": _out_bip32,
    "unknown+=proprietary": lambda case, out: set_unknown(out, b"\xfc\x05bidwx\x08", b"junk"),
}


@dataclass(frozen=True)
class OutputField(Readable):
    index: int
    change: str

    def __repr__(self) -> str:
        return f"output[{self.index}].{self.change}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            out = item_at(psbt.outputs, self.index)
            if out is not None:
                OUTPUT_FIELDS[self.change](case, out)

        edit(case, change)


@dataclass(frozen=True)
class GlobalXpub(Readable):
    """PSBT_GLOBAL_XPUB (BIP-174) through embit's object."""

    def __repr__(self) -> str:
        return "global xpub+=test xpub"

    def apply(self, case: Case) -> None:
        from embit import bip32

        root = bip32.HDKey.from_seed(hashlib.sha256(b"guard fuzz xpub").digest())

        def change(psbt: FixedPSBT) -> None:
            psbt.xpubs[root.to_public()] = DerivationPath(b"\x01\x02\x03\x04", [0x80000056])

        edit(case, change)
