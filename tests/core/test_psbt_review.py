"""The pure review: roles, amounts, fee (never guessed), landings, runes, summary, findings."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from app.core.psbt_review import Risk, review, sighash_info
from app.core.psbt_review_context import (
    NOTHING,
    ContextError,
    InscriptionAt,
    KnownUtxo,
    OutpointContents,
    ReviewContext,
    Role,
    RuneAmount,
)
from app.core.psbt_review_findings import FindingCode
from app.core.psbt_view import InputView, OutputView, PsbtView, ScriptType
from tests.support.psbt_scenarios import inscription_bid

P2WPKH = b"\x00\x14" + b"\x11" * 20
P2TR = b"\x51\x20" + b"\x22" * 32
PAY, ORD, OTHER = "bcrt1qpay", "bcrt1pord", "bcrt1qother"


def inp(i: int, value: int | None, address: str | None = PAY, **kw: object) -> InputView:
    """An input whose amount is authenticated (a non_witness_utxo matching its txid) unless
    it has none, or `non_witness_utxo_matches` says otherwise."""
    spk = None if value is None else P2WPKH
    fields: dict[str, object] = dict(
        index=i,
        prev_txid=f"{i:064x}",
        prev_vout=0,
        sequence=0xFFFFFFFD,
        value=value,
        script_pubkey=spk,
        address=address if value is not None else None,
        sighash_type=None,
        has_witness_utxo=value is not None,
        has_non_witness_utxo=value is not None,
        non_witness_utxo_matches=True if value is not None else None,
    )
    fields.update(kw)
    return InputView(**fields)  # type: ignore[arg-type]


def out(i: int, value: int, address: str | None = OTHER, spk: bytes = P2WPKH) -> OutputView:
    return OutputView(i, value, spk, address, spk[:1] == b"\x6a")


def view(inputs: list[InputView], outputs: list[OutputView], network: str = "regtest") -> PsbtView:
    return PsbtView(2, 0, tuple(inputs), tuple(outputs), "ab" * 32, network, "digest")


def ctx(**kw: object) -> ReviewContext:
    return ReviewContext.for_wallet("regtest", PAY, ORD, **kw)  # type: ignore[arg-type]


def test_bid_review_roles_amounts_landing_and_summary() -> None:
    r = inscription_bid().review()
    assert [i.role for i in r.inputs] == [Role.STRANGER, Role.PAYMENT, Role.PAYMENT]
    assert [o.role for o in r.outputs] == [Role.ORDINALS, Role.STRANGER, Role.SERVICE, Role.PAYMENT]
    assert [i.value for i in r.inputs] == [546, 60_000, 30_000]
    assert r.fee == 2_000 and r.fee_rate == Fraction(2_000, r.vsize.vsize)
    [landing] = r.landings
    assert (landing.output_index, landing.to_us, landing.from_ours) == (0, True, False)
    assert r.outputs[0].inscriptions == (landing.inscription_id,)
    s = r.summary
    assert s.inscriptions_received == (landing.inscription_id,) and not s.inscriptions_given
    assert s.flow(Role.PAYMENT).net == -52_546 and s.flow(Role.ORDINALS).net == 546
    assert s.you_give == 52_000
    assert f"You receive inscription {landing.inscription_id}." in s.lines()
    assert "Network fee: 2,000 sats." in s.lines()
    assert r.txid == r.view.txid_unsigned and not r.findings


def test_fee_is_unknown_when_any_input_amount_is_missing() -> None:
    v = view([inp(0, None), inp(1, 50_000)], [out(0, 40_000, PAY)])
    r = review(v, ctx())
    assert r.fee is None and r.fee_rate is None
    assert r.unknown_amount_inputs == (0,)
    assert (
        "Network fee: unknown (an input amount is missing or not confirmed by the chain)."
        in r.summary.lines()
    )
    [missing] = r.findings_of(FindingCode.MISSING_UTXO)
    assert missing.input_index == 0 and "Input 0" in missing.message
    assert r.inputs[0].role is Role.UNKNOWN


def test_an_amount_the_chain_does_not_confirm_leaves_the_fee_unknown() -> None:
    """Esplora answered 404 and no full previous transaction vouches for it: the PSBT's
    claimed amount is shown, never used for the fee or for where inscriptions land."""
    claimed = inp(0, 50_000, has_non_witness_utxo=False, non_witness_utxo_matches=None)
    r = review(view([claimed], [out(0, 40_000, PAY)]), ctx())
    assert r.fee is None and r.inputs[0].value is None and r.inputs[0].claimed_value == 50_000
    [f] = r.findings_of(FindingCode.AMOUNT_UNVERIFIED)
    assert f.input_index == 0 and "claims 50,000 sats" in f.message
    chain = {claimed.outpoint: KnownUtxo(50_000, P2WPKH)}
    assert review(view([claimed], [out(0, 40_000, PAY)]), ctx(chain_utxos=chain)).fee == 10_000


def test_a_service_address_that_is_ours_is_found() -> None:
    r = review(view([inp(0, 10_000)], [out(0, 9_000)]), ctx(bidding_wallet=ORD))
    [f] = r.findings_of(FindingCode.COUNTERPARTY_IS_YOU)
    assert ORD in f.message and f.risk is Risk.DANGER


def test_outputs_above_inputs_are_no_fee() -> None:
    r = review(view([inp(0, 10_000, ORD)], [out(0, 100_000, PAY)]), ctx())
    assert r.fee == -90_000 and r.fee_rate is None
    assert r.findings_of(FindingCode.OUTPUTS_EXCEED_INPUTS)
    assert any("someone else must add inputs" in line for line in r.summary.lines())


@pytest.mark.parametrize(
    ("value", "kind", "risk", "name"),
    [
        (None, ScriptType.P2WPKH, Risk.OK, "not set"),
        (0x00, ScriptType.P2TR, Risk.OK, "DEFAULT"),
        (0x00, ScriptType.P2WPKH, Risk.DANGER, "DEFAULT"),
        (0x01, ScriptType.P2WPKH, Risk.OK, "ALL"),
        (0x81, ScriptType.P2TR, Risk.NOTE, "ALL|ANYONECANPAY"),
        (0x02, ScriptType.P2TR, Risk.DANGER, "NONE"),
        (0x82, ScriptType.P2TR, Risk.DANGER, "NONE|ANYONECANPAY"),
        (0x03, ScriptType.P2WPKH, Risk.DANGER, "SINGLE"),
        (0x83, ScriptType.P2TR, Risk.DANGER, "SINGLE|ANYONECANPAY"),
        (0x42, ScriptType.P2TR, Risk.DANGER, "0x42"),
        (0x80, ScriptType.P2TR, Risk.DANGER, "0x80"),
    ],
)
def test_sighash_risk_grades(value: int | None, kind: ScriptType, risk: Risk, name: str) -> None:
    info = sighash_info(value, kind)
    assert (info.risk, info.name) == (risk, name)
    assert info.explanation.endswith(".")


def test_risky_sighash_is_a_finding_naming_the_input() -> None:
    r = review(view([inp(0, 10_000, sighash_type=0x83)], [out(0, 9_000)]), ctx())
    [f] = r.findings_of(FindingCode.RISKY_SIGHASH)
    assert f.risk is Risk.DANGER and f.message.startswith("Input 0 asks for SIGHASH_SINGLE|")


def test_unknown_contents_differ_from_nothing() -> None:
    a, b = inp(0, 10_000), inp(1, 20_000)
    r = review(view([a, b], [out(0, 29_000)]), ctx(contents={a.outpoint: NOTHING}))
    assert r.inputs[0].contents == NOTHING and r.inputs[0].contents.is_cardinal
    assert r.inputs[1].contents is None
    [f] = r.findings_of(FindingCode.CONTENTS_UNKNOWN)
    assert f.input_index == 1


def test_inscription_into_the_fee_is_found() -> None:
    a = inp(0, 10_000, ORD)
    contents = {a.outpoint: OutpointContents((InscriptionAt("x" * 64 + "i0", 9_999),))}
    r = review(view([a], [out(0, 5_000, PAY)]), ctx(contents=contents))
    assert r.landings[0].to_fee and r.summary.inscriptions_given == ("x" * 64 + "i0",)
    [f] = r.findings_of(FindingCode.INSCRIPTION_TO_FEE)
    assert "input 0" in f.message and "fee" in f.message


def test_landing_is_unknown_when_ord_and_the_psbt_disagree() -> None:
    a = inp(0, 1_000, ORD)
    contents = {a.outpoint: OutpointContents((InscriptionAt("y" * 64 + "i0", 5_000),))}
    r = review(view([a], [out(0, 900, PAY)]), ctx(contents=contents))
    assert r.landings[0].destination is None
    assert r.summary.inscriptions_unknown == ("y" * 64 + "i0",)
    assert r.findings_of(FindingCode.INSCRIPTION_LANDING_UNKNOWN)


def test_duplicate_inputs_and_lying_utxo_data_are_found() -> None:
    a = inp(0, 10_000)
    twin = dataclasses.replace(a, index=1)
    liar = inp(2, 5_000, utxo_problems=("its witness_utxo says 5,000 sats but ...",))
    r = review(view([a, twin, liar], [out(0, 19_000)]), ctx())
    [dup] = r.findings_of(FindingCode.DUPLICATE_INPUT)
    assert dup.input_index == 1 and "which input 0 already spends" in dup.message
    [lie] = r.findings_of(FindingCode.UTXO_MISMATCH)
    assert lie.message.startswith("Input 2 carries contradictory UTXO data")


def test_amounts_are_checked_against_the_chain() -> None:
    a = inp(0, 10_000)
    chain = {a.outpoint: KnownUtxo(7_000, P2WPKH)}
    [f] = review(view([a], [out(0, 9_000)]), ctx(chain_utxos=chain)).findings_of(
        FindingCode.UTXO_NOT_AS_ON_CHAIN
    )
    assert "claims 10,000 sats" in f.message and "holds 7,000 sats" in f.message
    chain = {a.outpoint: KnownUtxo(10_000, P2TR)}
    [f] = review(view([a], [out(0, 9_000)]), ctx(chain_utxos=chain)).findings_of(
        FindingCode.UTXO_NOT_AS_ON_CHAIN
    )
    assert "another script" in f.message


def test_wrong_network_view_and_served_addresses() -> None:
    r = review(view([inp(0, 10_000)], [out(0, 9_000)], network="main"), ctx())
    assert any("read as a main transaction" in f.message for f in r.findings)
    served = ctx(service=[("tb1qservicefee", "the service's fee address")])
    [f] = review(view([inp(0, 10_000)], [out(0, 9_000)]), served).findings_of(
        FindingCode.WRONG_NETWORK
    )
    assert "tb1qservicefee" in f.message and "regtest" in f.message
    with pytest.raises(ContextError):
        ReviewContext.for_wallet("mainnet", PAY, ORD)


def test_runes_move_to_the_first_non_op_return_output() -> None:
    seller = inp(0, 10_000, OTHER)
    contents = {seller.outpoint: OutpointContents(runes=(RuneAmount("RUNE", 5),))}
    outputs = [out(0, 0, None, b"\x6a\x01\x00"), out(1, 9_000, ORD)]
    r = review(view([seller], outputs), ctx(contents=contents))
    assert r.outputs[1].runes == (RuneAmount("RUNE", 5),)
    assert r.summary.runes_received == (RuneAmount("RUNE", 5),)
    assert r.outputs[0].role is Role.OP_RETURN


def test_a_malformed_runestone_burns_the_runes() -> None:
    """The payload [0, 1] is a body with a lone trailing integer: ord reads a cenotaph
    (TrailingIntegers), which burns every rune on the inputs (was: "not decoded")."""
    ours = inp(0, 10_000, ORD)
    contents = {ours.outpoint: OutpointContents(runes=(RuneAmount("RUNE", 5),))}
    outputs = [out(0, 9_000, OTHER), out(1, 0, None, b"\x6a\x5d\x02\x00\x01")]
    r = review(view([ours], outputs), ctx(contents=contents))
    assert r.summary.runes_burned == (RuneAmount("RUNE", 5),) and not r.summary.runes_given
    assert not r.summary.runes_unknown and r.outputs[0].runes == ()
    assert not r.findings_of(FindingCode.RUNESTONE_NOT_DECODED)
    [f] = r.findings_of(FindingCode.CENOTAPH)
    assert f.output_index == 1 and f.risk is Risk.DANGER
    assert "trailing integers in body" in f.message and "5 RUNE burned" in f.message


def test_one_address_for_payment_and_ordinals_is_counted_once() -> None:
    c = ReviewContext.for_wallet("regtest", PAY, PAY)
    r = review(view([inp(0, 10_000)], [out(0, 9_000, PAY.upper())]), c)
    assert r.outputs[0].roles == {Role.PAYMENT, Role.ORDINALS}
    assert r.outputs[0].role is Role.PAYMENT  # bech32 compared case-insensitively
    assert [f.role for f in r.summary.flows] == [Role.PAYMENT]
    assert r.summary.you_give == 1_000


def test_non_standard_outputs_are_noted() -> None:
    r = review(view([inp(0, 10_000)], [out(0, 9_000, None, b"\x52\x52\x93")]), ctx())
    [f] = r.findings_of(FindingCode.NON_STANDARD_OUTPUT)
    assert f.output_index == 0 and f.risk is Risk.NOTE
    assert r.outputs[0].role is Role.STRANGER
