"""Assertions shared by the policy tests: a refusal names its culprit, and an approved sign
list, signed by the real signer, gives signatures Bitcoin Core's interpreter accepts."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from embit import ec

from app.core.signing_policy import RefusalCode, Verdict
from app.wallet.acp_ledger import AcpLedger
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_signer import SignRequest, sign_psbt
from app.wallet.signing_gate import approved_sign_requests
from tests.support.psbt_scenarios import Scenario
from tests.wallet.kernel import assert_accepted


def assert_refused(verdict: Verdict, code: RefusalCode, blame: str) -> None:
    """Refused, nothing to sign, and a `code` refusal whose sentence contains `blame`."""
    assert not verdict.approved and verdict.to_sign == ()
    messages = [r.message for r in verdict.refusals if r.code is code]
    assert messages, f"no {code} refusal among {verdict.codes}"
    assert any(blame.lower() in m.lower() for m in messages), (blame, messages)
    assert all(m.endswith(".") and m[0].isupper() for m in verdict.reasons())


def sign_approved_and_verify(
    scenario: Scenario,
    verdict: Verdict,
    others: Sequence[tuple[ec.PrivateKey, SignRequest]] = (),
) -> None:
    """Sign exactly what `verdict` approved with the scenario's key (plus the other parties'
    signatures), finalise, and have Bitcoin Core verify the inputs we signed. An
    ANYONECANPAY signature is recorded in a fresh signature ledger first, as the app does."""
    with tempfile.TemporaryDirectory() as folder:
        ledger = AcpLedger(Path(folder) / "ledger.json")
        requests = approved_sign_requests(scenario.psbt, verdict, ledger)
    signed = sign_psbt(scenario.psbt, scenario.signer, requests)
    assert [(s.input_index, s.sighash) for s in signed] == [
        (p.input_index, p.sighash) for p in verdict.to_sign
    ]
    for key, request in others:
        sign_psbt(scenario.psbt, key, [request])
    ours = [p.input_index for p in verdict.to_sign]
    finalize_psbt(scenario.psbt, ours + [r.input_index for _, r in others])
    spent = [c.txout for c in scenario.coins]
    assert_accepted(extract_transaction(scenario.psbt), spent, ours)
