"""The guard under mutation (issue 12): for every flow, hypothesis mutates the honest PSBT (1-3
structured or raw operations) and the facts served with it; each mutation must be refused
(parse_psbt, the policy, the signer, the ANYONECANPAY collision check, check_signed) or, once
signed by the real signer, be harmless: its effect on the ground truth no worse for the user
than the honest one (tests.support.psbt_effects). The property lives in
tests.support.psbt_eff_property, shared with `./dev bench guard_fuzz` (longer runs).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.psbt_eff_property import (
    OFFLINE_FLOWS,
    Kind,
    Outcome,
    run_bulk,
    run_flow,
    run_offline,
)
from tests.support.psbt_mut_bulk import MAX_ITEMS, ORDINALS_KINDS, batch_ops
from tests.support.psbt_mut_offline import offline_ops
from tests.support.psbt_mutations import Op, mutation_lists

FUZZ = settings(
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def check(outcome: Outcome) -> None:
    assert not outcome.failed, outcome.report()


@FUZZ
@given(mutation_lists())
def test_funding(ops: list[Op]) -> None:
    check(run_flow("funding", ops))


@FUZZ
@given(mutation_lists())
def test_withdraw(ops: list[Op]) -> None:
    check(run_flow("withdraw", ops))


@FUZZ
@given(mutation_lists())
def test_inscription_bid(ops: list[Op]) -> None:
    check(run_flow("inscription_bid", ops))


@FUZZ
@given(mutation_lists())
def test_inscription_bid_taproot_payment(ops: list[Op]) -> None:
    check(run_flow("inscription_bid_taproot", ops))


@FUZZ
@given(mutation_lists())
def test_secure_listing(ops: list[Op]) -> None:
    check(run_flow("secure_listing", ops))


@FUZZ
@given(mutation_lists())
def test_secure_listing_runes(ops: list[Op]) -> None:
    check(run_flow("secure_listing_runes", ops))


@FUZZ
@given(st.integers(2, MAX_ITEMS), batch_ops(), st.sampled_from(ORDINALS_KINDS))
def test_secure_listing_bulk(n: int, ops: list[Op], ordinals: str) -> None:
    check(run_bulk(n, ops, ordinals))


@FUZZ
@given(st.sampled_from(OFFLINE_FLOWS), offline_ops())
def test_offline_import(flow: str, ops: list[Op]) -> None:
    check(run_offline(flow, ops))


def test_a_shared_escrow_batch_is_refused_by_the_collision_check() -> None:
    from tests.support.psbt_mut_bulk import EscrowOf

    outcome = run_bulk(3, [EscrowOf(0, 2)])
    assert outcome.kind is Kind.COLLISION, outcome.report()
