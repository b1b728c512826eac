"""Building blocks of the tamper table: what a hostile service can change, and how.

A mutation receives a `Target` (a private copy of the PSBT, the review context and, when
known, the previous transactions of the inputs), changes it the way an attacker would, and
returns the text the refusal message must contain (usually "Input 2" or "Output 1").
Mutations find things by role (the output paying our payment address...), never by a fixed
index, so they also work on the sandbox's real PSBTs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from embit.script import Script, Witness
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.core.psbt_review_context import (
    KnownAddress,
    OutpointContents,
    ReviewContext,
    Role,
)
from app.core.signing_policy import RefusalCode
from app.wallet.addresses import decode_address
from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from app.wallet.scripts import address_of
from tests.support.psbt_scenarios import RBF_SEQUENCE, coin, key, p2wpkh_spk

ATTACKER_SPK = p2wpkh_spk(key(666))
OP_RETURN_SPK = b"\x6a\x0bburned sats"


@dataclass
class Target:
    """What a mutation may change: a copy of the PSBT and of the facts served with it."""

    psbt: FixedPSBT
    context: ReviewContext
    prev_txs: dict[str, Transaction] = field(default_factory=dict)

    @property
    def network(self) -> str:
        return self.context.network

    def out_roles(self, i: int) -> frozenset[Role]:
        spk = self.psbt.outputs[i].script_pubkey.data
        try:
            return self.context.roles_of(address_of(spk, self.network))
        except ValueError:
            return frozenset({Role.STRANGER})

    def in_roles(self, i: int) -> frozenset[Role]:
        utxo = self.psbt.inputs[i].witness_utxo
        if utxo is None:
            return frozenset({Role.UNKNOWN})
        return self.context.roles_of(address_of(utxo.script_pubkey.data, self.network))

    def out_with(self, role: Role) -> int:
        """Index of the first output with `role` (the scenario guarantees there is one)."""
        return next(i for i in range(len(self.psbt.outputs)) if role in self.out_roles(i))

    def in_with(self, role: Role) -> int:
        return next(i for i in range(len(self.psbt.inputs)) if role in self.in_roles(i))

    def spk_of(self, role: Role) -> bytes:
        return decode_address(self.context.addresses_with(role)[0]).script_pubkey

    def outpoint(self, i: int) -> str:
        inp = self.psbt.inputs[i]
        return f"{inp.txid.hex()}:{inp.vout}"


Mutation = Callable[[Target], str]


@dataclass(frozen=True)
class Tamper:
    """One malicious variant: applied to a scenario, it must be refused with `code`, and that
    refusal's message must contain the text the mutation returns. `changes` says what a hostile
    server alters: the PSBT it serves, the facts it serves (ord, addresses), or both."""

    name: str
    scenario: str
    code: RefusalCode
    changes: Literal["psbt", "facts", "both"]
    mutate: Mutation

    def apply(
        self,
        psbt: FixedPSBT,
        context: ReviewContext,
        prev_txs: dict[str, Transaction] | None = None,
    ) -> tuple[FixedPSBT, ReviewContext, str]:
        target = Target(copy_psbt(psbt), context, dict(prev_txs or {}))
        blame = self.mutate(target)
        return target.psbt, target.context, blame


def copy_psbt(psbt: FixedPSBT) -> FixedPSBT:
    copy: FixedPSBT = FixedPSBT.parse(psbt.serialize())
    return copy


# --- PSBT changes ----------------------------------------------------------------------------


def set_output(t: Target, i: int, spk: bytes | None = None, delta: int = 0) -> None:
    out = t.psbt.outputs[i]
    if spk is not None:
        out.script_pubkey = Script(spk)
    out.value += delta


def add_output(t: Target, spk: bytes, value: int) -> int:
    t.psbt.outputs.append(type(t.psbt.outputs[0])(vout=TransactionOutput(value, Script(spk))))
    return len(t.psbt.outputs) - 1


def swap(items: list[object], i: int, j: int) -> None:
    items[i], items[j] = items[j], items[i]


def add_input(t: Target, spk: bytes, value: int, contents: OutpointContents | None = None) -> int:
    """Spend a new coin paying `value` to `spk`; ord's answer for it is `contents` (None:
    unknown). Returns the new input's index."""
    c = coin(spk, value)
    inp = FixedInput(vin=TransactionInput(c.prev_tx.txid(), c.vout, sequence=RBF_SEQUENCE))
    inp.witness_utxo = c.txout
    t.psbt.inputs.append(inp)
    t.prev_txs[c.outpoint] = c.prev_tx
    if contents is not None:
        set_contents(t, c.outpoint, contents)
    return len(t.psbt.inputs) - 1


def duplicate_input(t: Target, i: int) -> int:
    """Spend input `i`'s outpoint a second time (a full copy of its fields)."""
    t.psbt.inputs.append(copy_psbt(t.psbt).inputs[i])
    return len(t.psbt.inputs) - 1


def input_value(t: Target, i: int) -> int:
    utxo = t.psbt.inputs[i].witness_utxo
    assert utxo is not None, "the scenario's inputs carry witness UTXOs"
    return int(utxo.value)


def set_sighash(t: Target, i: int, value: int) -> None:
    t.psbt.inputs[i].sighash_type = value


def drop_utxo(t: Target, i: int) -> None:
    t.psbt.inputs[i].witness_utxo = None
    t.psbt.inputs[i].non_witness_utxo = None


def lie_about_amount(t: Target, i: int, delta: int) -> None:
    """Change the witness UTXO amount of input `i` while the full previous transaction (which
    its txid authenticates) still tells the truth."""
    inp = t.psbt.inputs[i]
    if inp.non_witness_utxo is None:
        inp.non_witness_utxo = t.prev_txs[t.outpoint(i)]
    utxo = inp.witness_utxo
    inp.witness_utxo = TransactionOutput(utxo.value + delta, utxo.script_pubkey)


def finalise(t: Target, i: int) -> None:
    t.psbt.inputs[i].final_scriptwitness = Witness([b"\x01" * 64])


# --- Served-fact changes ---------------------------------------------------------------------


def set_contents(t: Target, outpoint: str, contents: OutpointContents | None) -> None:
    table = dict(t.context.contents)
    if contents is None:
        table.pop(outpoint, None)
    else:
        table[outpoint] = contents
    t.context = dataclasses.replace(t.context, contents=table)


def serve_on_mainnet(t: Target, role: Role) -> str:
    """The service serves `role`'s address encoded for mainnet; returns that address."""
    swapped = []
    new_address = ""
    for known in t.context.addresses:
        if known.role is role and not new_address:
            spk = decode_address(known.address).script_pubkey
            new_address = address_of(spk, "main")
            known = KnownAddress(new_address, known.role, known.label)
        swapped.append(known)
    t.context = dataclasses.replace(t.context, addresses=tuple(swapped))
    return new_address
