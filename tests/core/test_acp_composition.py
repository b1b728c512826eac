"""What two ANYONECANPAY signatures allow together (issue 12, class 1): equal commitments on
different inputs combine into one transaction that pays once; anything else cannot."""

from __future__ import annotations

import dataclasses

from app.core.acp_composition import AcpSignature, acp_signatures, collisions, commitment_of
from app.core.signing_policy import RefusalCode, SignPermission
from tests.support.psbt_scenarios import secure_listing

A, B, C = "aa" * 32 + ":0", "bb" * 32 + ":1", "cc" * 32 + ":2"
X, Y = "1" * 64, "2" * 64


def test_equal_commitments_on_different_inputs_collide() -> None:
    [found] = collisions([AcpSignature(B, X, "second")], [AcpSignature(A, X, "first")])
    assert (found.new.outpoint, found.other.outpoint, found.other_is_live) == (B, A, True)
    refusal = found.refusal()
    assert refusal.code is RefusalCode.ACP_SIGNATURE_COLLISION
    assert "(first)" in refusal.message and "both items for one price" in refusal.message


def test_other_commitments_and_the_same_input_do_not_collide() -> None:
    assert not collisions([AcpSignature(B, Y)], [AcpSignature(A, X)])
    # A relisting of one item: both signatures spend the same coin, never one transaction.
    assert not collisions([AcpSignature(A, X)], [AcpSignature(A, X)])


def test_a_batch_is_checked_against_itself_in_order() -> None:
    found = collisions([AcpSignature(A, X), AcpSignature(B, Y), AcpSignature(C, X)], [])
    assert [(c.new.outpoint, c.other.outpoint, c.other_is_live) for c in found] == [(C, A, False)]


def test_the_commitment_covers_version_locktime_and_every_output() -> None:
    view = secure_listing().review().view
    base = commitment_of(view)
    assert commitment_of(dataclasses.replace(view, locktime=1)) != base
    assert commitment_of(dataclasses.replace(view, version=1)) != base
    out = view.outputs[1]
    other_value = dataclasses.replace(out, value=out.value + 1)
    assert commitment_of(dataclasses.replace(view, outputs=(view.outputs[0], other_value))) != base
    # Inputs are not committed: another coin with the same outputs has the same commitment.
    other_input = dataclasses.replace(view.inputs[0], prev_vout=view.inputs[0].prev_vout + 1)
    assert commitment_of(dataclasses.replace(view, inputs=(other_input,))) == base


def test_only_anyonecanpay_permissions_are_signatures_to_record() -> None:
    s = secure_listing()
    review, verdict = s.review(), s.verdict()
    [sig] = acp_signatures(review, verdict, "label")
    assert sig.outpoint == review.inputs[0].outpoint and sig.label == "label"
    plain = dataclasses.replace(verdict, to_sign=(SignPermission(0, 0x01),))
    assert acp_signatures(review, plain) == ()
