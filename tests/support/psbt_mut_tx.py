"""Mutations of a PSBT's unsigned transaction through embit's objects, for the guard's
fuzzer: its version and lock time, an input's sequence, inputs and outputs moved, dropped or
duplicated, a spare coin of the world added as an input, an output added, an output's value
or script changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from embit.script import Script
from embit.transaction import TransactionOutput

from app.core.psbt_review_time import ChainTip
from app.wallet.psbt_fixes import FixedOutput, FixedPSBT
from tests.support.psbt_mut_case import Case, Readable, edit, item_at
from tests.support.psbt_scenarios import RBF_SEQUENCE

LOCKTIMES: dict[str, Callable[[ChainTip], int]] = {
    "0": lambda tip: 0,
    "tip-10": lambda tip: tip.height - 10,
    "tip": lambda tip: tip.height,
    "tip+1": lambda tip: tip.height + 1,
    "tip+2": lambda tip: tip.height + 2,
    "tip+1000": lambda tip: tip.height + 1_000,
    "499,999,999": lambda tip: 499_999_999,
    "mtp-1": lambda tip: tip.median_time - 1,
    "mtp": lambda tip: tip.median_time,
    "mtp+1": lambda tip: tip.median_time + 1,
    "max": lambda tip: 0xFFFFFFFF,
}
SEQUENCES = {
    "0": 0,
    "1 block": 1,
    "10 blocks": 10,
    "512 s": (1 << 22) | 1,
    "disabled|10": (1 << 31) | 10,
    "RBF": RBF_SEQUENCE,
    "final-1": 0xFFFFFFFE,
    "final": 0xFFFFFFFF,
}


@dataclass(frozen=True)
class TxVersion(Readable):
    version: int

    def __repr__(self) -> str:
        return f"tx.version={self.version}"

    def apply(self, case: Case) -> None:
        edit(case, lambda psbt: setattr(psbt, "tx_version", self.version))


@dataclass(frozen=True)
class Locktime(Readable):
    name: str

    def __repr__(self) -> str:
        return f"tx.locktime={self.name}"

    def apply(self, case: Case) -> None:
        value: int = LOCKTIMES[self.name](case.setup.tip)
        edit(case, lambda psbt: setattr(psbt, "locktime", value))


@dataclass(frozen=True)
class InputSequence(Readable):
    index: int
    name: str

    def __repr__(self) -> str:
        return f"input[{self.index}].sequence={self.name}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            inp = item_at(psbt.inputs, self.index)
            if inp is not None:
                inp.sequence = SEQUENCES[self.name]

        edit(case, change)


@dataclass(frozen=True)
class Move(Readable):
    """Move input (or output) `src` to position `dst` (both modulo the count)."""

    what: str  # "input" or "output"
    src: int
    dst: int

    def __repr__(self) -> str:
        return f"move {self.what} {self.src} to {self.dst}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            items = psbt.inputs if self.what == "input" else psbt.outputs
            if items:
                item = items.pop(self.src % len(items))
                items.insert(self.dst % (len(items) + 1), item)

        edit(case, change)


@dataclass(frozen=True)
class Drop(Readable):
    what: str
    index: int

    def __repr__(self) -> str:
        return f"drop {self.what} {self.index}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            items = psbt.inputs if self.what == "input" else psbt.outputs
            if items:
                del items[self.index % len(items)]

        edit(case, change)


@dataclass(frozen=True)
class Duplicate(Readable):
    what: str
    index: int

    def __repr__(self) -> str:
        return f"duplicate {self.what} {self.index}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            copy = FixedPSBT.parse(psbt.serialize())
            items, copies = (
                (psbt.inputs, copy.inputs) if self.what == "input" else (psbt.outputs, copy.outputs)
            )
            if items:
                items.append(copies[self.index % len(items)])

        edit(case, change)


@dataclass(frozen=True)
class AddInput(Readable):
    """Spend one of the spare coins (ours or a stranger's) at position `at`."""

    coin: str
    at: int

    def __repr__(self) -> str:
        return f"add input {self.coin!r} at {self.at}"

    def apply(self, case: Case) -> None:
        coin = case.setup.spares[self.coin]

        def change(psbt: FixedPSBT) -> None:
            psbt.inputs.insert(self.at % (len(psbt.inputs) + 1), coin.psbt_input())

        edit(case, change)


@dataclass(frozen=True)
class AddOutput(Readable):
    who: str
    value: int
    at: int

    def __repr__(self) -> str:
        return f"add output {self.value:,} sats to {self.who} at {self.at}"

    def apply(self, case: Case) -> None:
        spk = case.setup.spk_named(self.who)

        def change(psbt: FixedPSBT) -> None:
            out = FixedOutput(vout=TransactionOutput(self.value, Script(spk)))
            psbt.outputs.insert(self.at % (len(psbt.outputs) + 1), out)

        edit(case, change)


@dataclass(frozen=True)
class OutputValue(Readable):
    index: int
    delta: int

    def __repr__(self) -> str:
        return f"output[{self.index}].value{self.delta:+,}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            out = item_at(psbt.outputs, self.index)
            if out is not None:
                out.value = max(0, out.value + self.delta)

        edit(case, change)


@dataclass(frozen=True)
class OutputScript(Readable):
    index: int
    who: str

    def __repr__(self) -> str:
        return f"output[{self.index}].script={self.who}"

    def apply(self, case: Case) -> None:
        spk = case.setup.spk_named(self.who)

        def change(psbt: FixedPSBT) -> None:
            out = item_at(psbt.outputs, self.index)
            if out is not None:
                out.script_pubkey = Script(spk)

        edit(case, change)
