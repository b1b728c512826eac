"""One flow's setup for the guard's fuzzer, the case a list of mutations edits, and what
every mutation operation shares.

    setup = flow_setup("withdraw")          # the honest scenario, its world and served facts
    case = setup.new_case()                 # what the operations edit
    # case.data: the PSBT bytes a hostile service serves; case.context: the facts it serves;
    # case.world: the ground truth (tests.support.psbt_mut_world)

Every mutation operation has `.apply(case)` and a short repr (`Readable`); a structured one
changes the PSBT through embit's objects with `edit` (bytes embit cannot parse stay as they
are) and takes indices modulo the number of items (`item_at`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from app.core.psbt_review_context import NOTHING, KnownUtxo, ReviewContext, Role
from app.core.psbt_review_time import ChainTip
from app.wallet.psbt_fixes import FixedPSBT
from tests.support import psbt_scenarios
from tests.support.psbt_eff_model import ESCROW, SERVICE_FEE
from tests.support.psbt_mut_world import ATTACKER_SPK, TrueCoin, World, spare_coins, true_rune_ids
from tests.support.psbt_scenarios import SCENARIOS, TIP, Parties, Scenario


@dataclass(frozen=True)
class Setup:
    """The honest scenario of one flow with its world and the facts served with it."""

    name: str
    scenario: Scenario
    world: World
    context: ReviewContext
    spares: dict[str, TrueCoin]
    owners: dict[bytes, Role]  # scriptPubKey -> whose it really is (ours and the service's)
    tip: ChainTip = TIP
    attacker_spk: bytes = ATTACKER_SPK
    # Output labels where one owner has several outputs (the service's escrow and fee output).
    labels: dict[bytes, str] = field(default_factory=dict)

    @property
    def parties(self) -> Parties:
        return self.scenario.parties

    @property
    def honest_bytes(self) -> bytes:
        data: bytes = self.scenario.psbt.serialize()
        return data

    def new_case(self, data: bytes | None = None) -> Case:
        return Case(self, self.honest_bytes if data is None else data, self.context, {})

    def spk_named(self, who: str) -> bytes:
        p = self.parties
        return {
            "payment": p.payment_spk,
            "ordinals": p.ordinals_spk,
            "bidding wallet": p.bidding_spk,
            "service fee": p.service_fee_spk,
            "escrow": p.service_escrow_spk,
            "stranger": p.stranger_spk,
            "attacker": self.attacker_spk,
            "OP_RETURN": b"\x6a\x04data",
            "runestone": b"\x6a\x5d\x03\x00\x01\x02",  # a cenotaph (tests.support.psbt_mut_runes)
            "non-standard": b"\x51",
        }[who]

    def honest_outpoint(self, i: int) -> str:
        coins = self.scenario.coins
        return coins[i % len(coins)].outpoint


def owners_of(p: Parties, extra_service: tuple[bytes, ...] = ()) -> dict[bytes, Role]:
    table = {spk: Role.SERVICE for spk in (p.service_fee_spk, p.service_escrow_spk, *extra_service)}
    table.update(
        {
            p.payment_spk: Role.PAYMENT,
            p.ordinals_spk: Role.ORDINALS,
            p.bidding_spk: Role.BIDDING_WALLET,
        }
    )
    return table


def labels_of(p: Parties) -> dict[bytes, str]:
    return {p.service_escrow_spk: ESCROW, p.service_fee_spk: SERVICE_FEE}


def serve_facts(context: ReviewContext, coins: dict[str, TrueCoin]) -> ReviewContext:
    """`context` plus the chain's and ord's (true) answers about `coins` but the unknown one,
    and the ids of the world's runes (as the online review learns them from ord)."""
    known = {c.outpoint: c for name, c in coins.items() if name != "unknown coin"}
    return dataclasses.replace(
        context,
        chain_utxos={**context.chain_utxos, **{o: _known(c) for o, c in known.items()}},
        contents={**context.contents, **{o: c.contents for o, c in known.items()}},
        rune_ids={**context.rune_ids, **true_rune_ids()},
    )


def _known(c: TrueCoin) -> KnownUtxo:
    return KnownUtxo(c.value, c.script_pubkey)


def scenario_world(scenario: Scenario) -> World:
    """The honest scenario's coins as they are: ord's honest answers are the truth."""
    return {
        c.outpoint: TrueCoin(
            c.prev_tx, c.vout, scenario.context.contents.get(c.outpoint, NOTHING), c.fill
        )
        for c in scenario.coins
    }


@contextmanager
def _coin_numbers(start: int) -> Iterator[None]:
    """psbt_scenarios numbers its made-up coins from one module-wide counter, so a scenario's
    txids (and vouts) depend on what ran before. Built from a fixed number instead, a flow's
    setup is the same in every run: a counterexample the bench prints replays in the test."""
    saved = psbt_scenarios._counter
    psbt_scenarios._counter = iter(range(start, start + 10_000))
    try:
        yield
    finally:
        psbt_scenarios._counter = saved


@cache
def flow_setup(name: str) -> Setup:
    """The setup of one of SCENARIOS' flows, built once and the same in every run."""
    with _coin_numbers(500_000 + 10_000 * sorted(SCENARIOS).index(name)):
        scenario = SCENARIOS[name]()
    spares = spare_coins(scenario.parties)
    world = {**scenario_world(scenario), **{c.outpoint: c for c in spares.values()}}
    context = serve_facts(scenario.context, spares)
    owners, labels = owners_of(scenario.parties), labels_of(scenario.parties)
    return Setup(name, scenario, world, context, spares, owners, labels=labels)


@dataclass
class Case:
    """What a list of mutations edits: the served PSBT bytes, the served facts, and the
    truth about coins whose truth a mutation changed (`world_changes`, over setup.world)."""

    setup: Setup
    data: bytes
    context: ReviewContext
    world_changes: World
    skipped: list[str] = field(default_factory=list)

    @property
    def world(self) -> World:
        return {**self.setup.world, **self.world_changes}

    def named_outpoint(self, which: str) -> str:
        if which.startswith("input "):
            return self.setup.honest_outpoint(int(which.split()[1]))
        return self.setup.spares[which].outpoint

    def current_outpoint(self, index: int) -> str:
        """Outpoint of input `index` (modulo) of the current PSBT, or of the honest one."""
        try:
            psbt = FixedPSBT.parse(self.data)
            inp = psbt.inputs[index % len(psbt.inputs)]
            return f"{inp.txid.hex()}:{inp.vout}"
        except Exception:
            return self.setup.honest_outpoint(index)


class Readable:
    """Mutation operations print with their own short reprs in counterexamples (hypothesis's
    pretty printer would otherwise show how st.builds made them)."""

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


def edit(case: Case, change: Callable[[FixedPSBT], object]) -> None:
    """Apply `change` to the case's PSBT parsed by embit; unparseable bytes stay as they are."""
    try:
        psbt = FixedPSBT.parse(case.data)
    except Exception:
        case.skipped.append("structured edit on bytes embit cannot parse")
        return
    try:
        change(psbt)
        case.data = psbt.serialize()
    except Exception as exc:  # embit's objects in a state it cannot handle: no edit
        case.skipped.append(f"structured edit failed: {type(exc).__name__}")


def item_at(items: list[Any], index: int) -> Any:
    """items[index modulo their number]; None when there are none."""
    return items[index % len(items)] if items else None
