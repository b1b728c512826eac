"""The guard fuzzer's oracle sees rune harm (issue 18, F4): runestones decoded by ord's own code
and allocated by tests.support.psbt_eff_runes (written from ord's rune_updater.rs, apart from
app.core.runestone_flow), the escrow and the service's fee output labelled apart, and a listing's
runes expected with the item on the escrow. The judge must call each misdirection harmful when
signed without the guard; with the guard each is refused; and the oracle's allocation must agree
with the app's on random runestones (two independent readings of ord's rules).
"""

from __future__ import annotations

import random

import pytest
from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.core.psbt_review_context import Role, RuneAmount
from app.core.runestone import RuneId
from app.core.runestone_flow import InputRune, rune_flow
from app.wallet.psbt_fixes import FixedOutput, FixedPSBT
from app.wallet.psbt_io import parse_psbt
from tests.support.psbt_eff_compare import Allowance, compare, harmful
from tests.support.psbt_eff_flow import run_flow, run_unguarded
from tests.support.psbt_eff_model import (
    BURNED,
    ESCROW,
    SERVICE_FEE,
    UNDECODED,
    Effect,
    claimed_utxos,
)
from tests.support.psbt_eff_outcome import Kind
from tests.support.psbt_eff_runes import rune_landings
from tests.support.psbt_effects import effect_of
from tests.support.psbt_mut_case import flow_setup
from tests.support.psbt_mut_runes import Runestone
from tests.support.psbt_mut_tx import AddOutput, OutputScript
from tests.support.psbt_mut_world import RUNE, TRUE_RUNE_IDS
from tests.support.psbt_scenarios import parties
from tests.support.runestones import encipher

LISTING = "secure_listing_runes"
ACP = [(0, 0x81)]
FEE_FIRST = [AddOutput("service fee", 546, 0)]  # F1: ord's default output is the fee output

HARMFUL = [
    (FEE_FIRST, f"lands on {SERVICE_FEE}, not with the item on {ESCROW}"),
    ([Runestone("edict all", "service fee")], f"lands on {SERVICE_FEE}"),
    ([Runestone("pointer", "attacker")], f"lands on {Role.STRANGER.value}"),
    ([Runestone("pointer", "the runestone")], f"lands on {BURNED}"),
    ([Runestone("split edict", "escrow")], "lands on split: "),
    ([Runestone("1,000 to output 0, the rest by pointer", "service fee")], "lands on split: "),
    ([Runestone("mint, pointer", "service fee")], f"lands on {SERVICE_FEE}"),
    ([AddOutput("runestone", 0, 9)], f"lands on {BURNED}"),  # a cenotaph burns them
]


@pytest.mark.parametrize(("ops", "harm"), HARMFUL, ids=[repr(h[0]) for h in HARMFUL])
def test_the_judge_calls_listed_runes_sent_away_harmful(ops: list[object], harm: str) -> None:
    """Signed without the guard, each sends the listed runes somewhere but with the item."""
    outcome = run_unguarded(LISTING, ops, ACP)
    assert outcome.kind is Kind.HARMFUL, outcome.report()
    assert any(harm in d.text for d in outcome.differences if d.harmful), outcome.report()


@pytest.mark.parametrize(("ops", "harm"), HARMFUL, ids=[repr(h[0]) for h in HARMFUL])
def test_the_guard_refuses_each_of_them(ops: list[object], harm: str) -> None:
    outcome = run_flow(LISTING, ops)
    assert outcome.refused, outcome.report()


@pytest.mark.parametrize(
    "ops",
    [
        [Runestone("edict all", "escrow")],
        [Runestone("pointer", "escrow")],
        [Runestone("1,000 to output 0, the rest by pointer", "escrow")],
    ],
    ids=repr,
)
def test_an_honest_runestone_is_signed_and_harmless(ops: list[object]) -> None:
    """The runes with the item on the escrow: approved (the served ids are ord's true ones)."""
    outcome = run_flow(LISTING, ops)
    assert outcome.kind is Kind.HARMLESS, outcome.report()


def test_the_oracle_expects_the_runes_on_the_escrow() -> None:
    """In the honest listing the escrow receives the item whole, and the runes with it."""
    outcome = run_unguarded(LISTING, [], ACP)
    assert outcome.kind is Kind.HARMLESS, outcome.report()
    assert "UNCOMMON•GOODS on" in outcome.detail and f"-> {ESCROW}" in outcome.detail


def test_runes_going_with_the_item_wherever_it_goes_are_no_harm() -> None:
    """Where the item goes is the buyer's business (the seller is paid the price); the runes
    must go with it: the item's output paid to someone else is not harm to the seller."""
    outcome = run_flow(LISTING, [OutputScript(0, "attacker")])
    assert outcome.kind is Kind.HARMLESS, outcome.report()


def test_runes_that_stay_ours_are_no_harm() -> None:
    """The listed runes sent to our own ordinals address: refused by the guard (a listing moves
    them only with the item), but the user keeps them: the judge does not call it harm."""
    outcome = run_unguarded(LISTING, [Runestone("pointer", "ordinals")], ACP)
    assert outcome.kind is Kind.HARMLESS, outcome.report()


def test_a_fixed_transaction_sending_our_runes_away_by_edict_is_harm() -> None:
    """ALL signatures (an end of listing): the oracle follows the edict in the fixed
    transaction too, and the runes going to the service's fee output are harm."""
    setup = flow_setup("end_listing_runes")
    sigs = [(0, 0x00), (1, 0x01)]
    honest = parse_psbt(setup.honest_bytes)
    mutated = parse_psbt(setup.honest_bytes)
    stone = encipher([(*TRUE_RUNE_IDS[RUNE], 0, 2)])
    mutated.outputs[1].value -= 546
    for value, spk in ((546, setup.parties.service_fee_spk), (0, stone)):
        mutated.outputs.append(FixedOutput(vout=TransactionOutput(value, Script(spk))))

    def effect(psbt: FixedPSBT) -> Effect:
        claimed = claimed_utxos(psbt)
        return effect_of(psbt.tx, claimed, sigs, setup.world, setup.owners, setup.labels)

    before, after = effect(honest), effect(mutated)
    allowance = Allowance("your wallet", 1_000, setup.tip)
    bad = harmful(compare(before, after, allowance, setup.world, setup.owners))
    assert [d.text for d in bad if "lands on" in d.text] == [
        f"{name} lands on {SERVICE_FEE}, not on {Role.ORDINALS.value}"
        for name in after.moved
        if RUNE in name
    ], bad


def test_the_oracle_decodes_an_honest_runestone() -> None:
    """The review's F4 finding: every runestone was 'not decoded' to the oracle."""
    p = parties()
    tx = Transaction(
        vin=[TransactionInput(bytes(32), 0)],
        vout=[
            TransactionOutput(10_000, Script(p.ordinals_spk)),
            TransactionOutput(0, Script(encipher([(*TRUE_RUNE_IDS[RUNE], 0, 0)]))),
        ],
    )
    landings = rune_landings(tx, [RuneAmount(RUNE, 2_500)], lambda vout: f"output {vout}")
    assert landings == {RUNE: "output 0"} and UNDECODED not in landings.values()


# --- the oracle against the app: two independent readings of ord's allocation --------------------

GOODS, OTHER = (840_000, 3), (840_001, 7)


def _app_landing(scripts: list[bytes], held: list[InputRune]) -> str:
    """Where app.core.runestone_flow puts GOODS, in the oracle's words."""
    flow = rune_flow(scripts, held)
    assert flow.decided, flow.reason
    amounts = {BURNED: sum(r.amount for r in flow.burned if r.rune == RUNE)}
    for vout, runes in flow.received.items():
        if scripts[vout][:1] != b"\x6a":  # an OP_RETURN's runes are in flow.burned
            amounts[f"output {vout}"] = sum(r.amount for r in runes if r.rune == RUNE)
    places = [w for w, a in amounts.items() if a]
    if len(places) == 1:
        return places[0]
    return "split: " + ", ".join(f"{amounts[w]:,} to {w}" for w in sorted(places))


def test_the_oracle_and_the_app_allocate_alike() -> None:
    rng = random.Random(18)
    p = parties()
    plain = [p.service_escrow_spk, p.payment_spk, p.service_fee_spk, b"\x6a\x04data"]
    compared = 0
    for _ in range(3_000):
        scripts = rng.sample(plain, rng.randrange(1, len(plain) + 1))
        n = len(scripts) + 1
        edicts = [
            (*rng.choice([GOODS, OTHER, (0, 0)]), rng.choice([0, 1, 999, 2_500, 9_999]), o)
            for o in (rng.randrange(0, n + 1) for _ in range(rng.randrange(0, 4)))
        ]
        pointer = rng.choice([None, *range(n + 1)])
        stone = encipher(edicts, pointer=pointer)
        scripts.insert(rng.randrange(0, n), stone)
        held = [
            InputRune(RUNE, 2_500, RuneId(*GOODS)),
            InputRune("OTHER•RUNE", 700, RuneId(*OTHER)),
        ]
        outputs = [TransactionOutput(0, Script(s)) for s in scripts]
        tx = Transaction(vin=[TransactionInput(bytes(32), 0)], vout=outputs)
        oracle = rune_landings(
            tx,
            [RuneAmount(RUNE, 2_500), RuneAmount("OTHER•RUNE", 700)],
            lambda vout: f"output {vout}",
        )
        assert oracle[RUNE] == _app_landing(scripts, held), (scripts, edicts, pointer)
        compared += 1
    assert compared == 3_000
