"""Mutations of the facts served with a PSBT, for the guard's fuzzer: ord's answer about a
coin changed (ord is trusted, so the truth changes with it), an ord answer or chain fact
removed (unknown), a chain amount that lies (served only), the tip or the fee estimate removed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from app.core.psbt_review_context import NOTHING, InscriptionAt, OutpointContents, RuneAmount
from tests.support.psbt_mut_case import Case, Readable
from tests.support.psbt_mut_world import TrueCoin
from tests.support.psbt_scenarios import INSCRIPTION

CONTENTS: dict[str, Callable[[TrueCoin, str], OutpointContents]] = {
    "nothing": lambda coin, flow: NOTHING,
    "the flow's inscription at 0": lambda coin, flow: OutpointContents(
        (InscriptionAt(INSCRIPTION, 0),)
    ),
    "an inscription at its last sat": lambda coin, flow: OutpointContents(
        (InscriptionAt("e1" * 32 + "i0", coin.value - 1),)
    ),
    "a second inscription": lambda coin, flow: OutpointContents(
        (*coin.contents.inscriptions, InscriptionAt("e2" * 32 + "i0", coin.value // 2)),
        coin.contents.runes,
    ),
    "runes": lambda coin, flow: OutpointContents(
        coin.contents.inscriptions, (*coin.contents.runes, RuneAmount("OTHER•RUNE", 5))
    ),
}


@dataclass(frozen=True)
class OrdSays(Readable):
    """ord's answer about input `index`'s coin changes, and so does the truth (ord is the
    source of truth about contents: a changed answer is a different world)."""

    index: int
    contents: str

    def __repr__(self) -> str:
        return f"ord: input[{self.index}] carries {self.contents}"

    def apply(self, case: Case) -> None:
        outpoint = case.current_outpoint(self.index)
        coin = case.world.get(outpoint)
        if coin is None:
            case.skipped.append(f"no coin {outpoint} in the world")
            return
        contents = CONTENTS[self.contents](coin, case.setup.name)
        changed = {outpoint: contents}
        # An inscription is on one sat: moving it here takes it off any other coin.
        moved = {i.inscription_id for i in contents.inscriptions}
        for other, c in case.world.items():
            if other != outpoint and any(
                i.inscription_id in moved for i in c.contents.inscriptions
            ):
                kept = tuple(i for i in c.contents.inscriptions if i.inscription_id not in moved)
                changed[other] = OutpointContents(kept, c.contents.runes)
        served = dict(case.context.contents)
        for where, what in changed.items():
            case.world_changes[where] = dataclasses.replace(case.world[where], contents=what)
            if where in served:
                served[where] = what
        case.context = dataclasses.replace(case.context, contents=served)


@dataclass(frozen=True)
class Forget(Readable):
    """A served fact becomes unknown: ord's or the chain's answer about input `index`, the
    chain's tip, or the fee estimate."""

    what: str  # "ord", "chain", "tip", "fee estimate"
    index: int = 0

    def __repr__(self) -> str:
        if self.what in ("ord", "chain"):
            return f"{self.what}: input[{self.index}] unknown"
        return f"{self.what} unknown"

    def apply(self, case: Case) -> None:
        ctx = case.context
        if self.what == "tip":
            case.context = dataclasses.replace(ctx, tip=None)
        elif self.what == "fee estimate":
            case.context = dataclasses.replace(ctx, fastest_fee_rate=None)
        elif self.what == "ord":
            outpoint = case.current_outpoint(self.index)
            contents = {k: v for k, v in ctx.contents.items() if k != outpoint}
            case.context = dataclasses.replace(ctx, contents=contents)
        else:
            outpoint = case.current_outpoint(self.index)
            chain = {k: v for k, v in ctx.chain_utxos.items() if k != outpoint}
            case.context = dataclasses.replace(ctx, chain_utxos=chain)


@dataclass(frozen=True)
class ChainLies(Readable):
    """The chain source reports another amount for input `index`'s coin (served only: the
    truth does not change)."""

    index: int
    delta: int

    def __repr__(self) -> str:
        return f"chain lies: input[{self.index}] holds {self.delta:+,} sats"

    def apply(self, case: Case) -> None:
        outpoint = case.current_outpoint(self.index)
        known = case.context.chain_utxos.get(outpoint)
        if known is None:
            return
        lie = dataclasses.replace(known, value=max(0, known.value + self.delta))
        table = {**case.context.chain_utxos, outpoint: lie}
        case.context = dataclasses.replace(case.context, chain_utxos=table)
