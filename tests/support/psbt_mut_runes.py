"""Runestones a hostile service may add, for the guard's fuzzer (issue 18, F4): decodable ones
sending the held rune (UNCOMMON•GOODS, the runes listing's item and the spare runes coin's)
to an output chosen by whose it is, and the WHO list's "runestone", a cenotaph.

    Runestone("edict all", "service fee")   # an edict: every held rune to the fee output
    Runestone("pointer", "the runestone")   # the runes left to the runestone's own output: burned

The runestone is appended as the last output (ord reads the first one: an earlier runestone
still decides). An output for the target is appended first when the PSBT has none.
"""

from __future__ import annotations

from dataclasses import dataclass

from embit.script import Script
from embit.transaction import TransactionOutput

from app.wallet.psbt_fixes import FixedOutput, FixedPSBT
from tests.support.psbt_mut_case import Case, Readable, edit
from tests.support.psbt_mut_world import RUNE, TRUE_RUNE_IDS
from tests.support.runestones import encipher

HELD = TRUE_RUNE_IDS[RUNE]
SELF = "the runestone"  # its own output: an OP_RETURN, so what it gets is burned
# kind -> (edicts as (amount, "to target" or "split"), pointer to the target?, mint the rune?)
KINDS: dict[str, tuple[tuple[tuple[int, str], ...], bool, bool]] = {
    "edict all": (((0, "to"),), False, False),
    "edict 1,000": (((1_000, "to"),), False, False),
    "pointer": ((), True, False),
    "split edict": (((0, "split"),), False, False),
    "split 1,000 each": (((1_000, "split"),), False, False),
    "1,000 to output 0, the rest by pointer": (((1_000, "first"),), True, False),
    "mint, pointer": ((), True, True),
    "mint": ((), False, True),
}
TARGETS = ("escrow", "service fee", "payment", "ordinals", "attacker", "stranger", SELF)


@dataclass(frozen=True)
class Runestone(Readable):
    kind: str
    target: str

    def __repr__(self) -> str:
        return f"runestone: {self.kind} -> {self.target}"

    def apply(self, case: Case) -> None:
        def change(psbt: FixedPSBT) -> None:
            outputs = psbt.outputs
            if self.target == SELF:
                target = len(outputs)
            else:
                spk = case.setup.spk_named(self.target)
                found = [i for i, o in enumerate(outputs) if bytes(o.script_pubkey.data) == spk]
                if not found:
                    outputs.append(FixedOutput(vout=TransactionOutput(546, Script(spk))))
                target = found[0] if found else len(outputs) - 1
            count = len(outputs) + 1  # with the runestone
            edicts, pointer, mint = KINDS[self.kind]
            where = {"to": target, "split": count, "first": 0}
            script = encipher(
                [(*HELD, amount, where[to]) for amount, to in edicts],
                pointer=target if pointer else None,
                mint=HELD if mint else None,
            )
            outputs.append(FixedOutput(vout=TransactionOutput(0, Script(script))))

        edit(case, change)
