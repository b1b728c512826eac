"""The tamper table: every malicious variant of every flow is refused with its specific
reason, naming the input or output at fault, and nothing is left to sign."""

from __future__ import annotations

import pytest

from app.core.signing_policy import Flow, evaluate
from app.wallet.psbt_reader import psbt_digest
from app.wallet.signing_gate import VerdictMismatchError, approved_sign_requests
from tests.support.policy_checks import assert_refused
from tests.support.psbt_tamper import SCENARIOS, TAMPERS, Tamper, apply_to, tampers_for


def test_the_table_is_large_and_covers_every_flow() -> None:
    names = [t.name for t in TAMPERS]
    assert len(set(names)) == len(names) >= 40
    flows = {SCENARIOS[t.scenario]().verdict().flow for t in TAMPERS}
    assert flows == set(Flow)
    assert {t.scenario for t in TAMPERS} == set(SCENARIOS)
    assert all(tampers_for(name) for name in SCENARIOS)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_good_scenario_is_approved(name: str) -> None:
    verdict = SCENARIOS[name]().verdict()
    assert verdict.approved and verdict.to_sign, verdict.reasons()


@pytest.mark.parametrize("tamper", TAMPERS, ids=[t.name for t in TAMPERS])
def test_tampered_psbt_is_refused_with_its_reason(tamper: Tamper) -> None:
    good = SCENARIOS[tamper.scenario]()
    bad, blame = apply_to(tamper, good)
    # The mutation changed what it says it changes, and only that.
    psbt_changed = psbt_digest(bad.psbt) != psbt_digest(good.psbt)
    facts_changed = bad.context != good.context
    assert (psbt_changed, facts_changed) == {
        "psbt": (True, False),
        "facts": (False, True),
        "both": (True, True),
    }[tamper.changes]
    verdict = evaluate(bad.review(), bad.intent)
    assert_refused(verdict, tamper.code, blame)
    with pytest.raises(VerdictMismatchError):
        approved_sign_requests(bad.psbt, verdict)


def test_an_approval_does_not_carry_over_to_a_tampered_psbt() -> None:
    """A verdict on the good PSBT cannot be used to sign a PSBT changed after review."""
    for tamper in TAMPERS:
        if tamper.changes == "facts":
            continue
        good = SCENARIOS[tamper.scenario]()
        verdict = good.verdict()
        bad, _ = apply_to(tamper, good)
        with pytest.raises(VerdictMismatchError, match="changed after review"):
            approved_sign_requests(bad.psbt, verdict)
