"""What our ALL|ANYONECANPAY runes-listing signature commits to, checked by Bitcoin Core's
interpreter (py-bitcoinkernel): a buyer's input added before ours keeps it valid (inputs and our
position are not committed); any runestone appended, an output changed or reordered voids it.
And what SINGLE|ANYONECANPAY would have allowed (the policy never makes one).

So a service cannot add or move a runestone after we sign a rune listing: the policy signs
listings only ALL|ANYONECANPAY (an implementation we did not write says what it commits to)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_signer import SignRequest, sign_psbt
from tests.core.test_policy_runes_attacks import GOODS_ID, rune_listing
from tests.support.psbt_scenarios import Scenario, coin, parties
from tests.support.runestones import encipher
from tests.wallet.kernel import verify_inputs


def signed_listing(sighash: int) -> Scenario:
    p = parties()
    outs = [(p.service_escrow_spk, 10_000), (p.payment_spk, 100_000), (p.service_fee_spk, 2_000)]
    s = rune_listing(outs, sighash=sighash)
    sign_psbt(s.psbt, s.parties.ordinals, [SignRequest(0, sighash)])
    return s


def with_buyer(
    s: Scenario,
    first: bool,
    extra_outputs: Sequence[tuple[bytes, int]] = (),
    edit: Callable[[list[TransactionOutput]], None] | None = None,
) -> bool:
    """The purchase: our finalised input plus a buyer's 200,000-sat coin (first or last), the
    outputs as signed (then `extra_outputs` appended, or `edit` applied)."""
    p = parties()
    finalize_psbt(s.psbt)
    tx = extract_transaction(s.psbt)
    buyer = coin(p.stranger_spk, 200_000)
    buyer_in = TransactionInput(buyer.prev_tx.txid(), buyer.vout)
    ours = tx.vin[0]
    vin = [buyer_in, ours] if first else [ours, buyer_in]
    vout = [TransactionOutput(o.value, Script(bytes(o.script_pubkey.data))) for o in tx.vout]
    vout += [TransactionOutput(v, Script(spk)) for spk, v in extra_outputs]
    if edit:
        edit(vout)
    new = Transaction(version=tx.version, locktime=tx.locktime, vin=vin, vout=vout)
    spent = [buyer.txout, s.coins[0].txout] if first else [s.coins[0].txout, buyer.txout]
    ours_at = 1 if first else 0
    return verify_inputs(new, spent)[ours_at]


def test_all_acp_survives_buyer_inputs_in_any_order() -> None:
    assert with_buyer(signed_listing(0x81), first=False)
    assert with_buyer(signed_listing(0x81), first=True)


def test_all_acp_is_void_with_a_runestone_appended() -> None:
    stone = encipher([(*GOODS_ID, 0, 2)])  # every listed rune to the service's fee output
    assert not with_buyer(signed_listing(0x81), first=False, extra_outputs=[(stone, 0)])
    assert not with_buyer(
        signed_listing(0x81), first=True, extra_outputs=[(encipher(pointer=2), 0)]
    )


def test_all_acp_is_void_with_outputs_reordered_or_changed() -> None:
    def swap(v: list[TransactionOutput]) -> None:
        v[0], v[2] = v[2], v[0]

    def cheaper(v: list[TransactionOutput]) -> None:
        v[1] = TransactionOutput(v[1].value - 1, v[1].script_pubkey)

    assert not with_buyer(signed_listing(0x81), first=False, edit=swap)
    assert not with_buyer(signed_listing(0x81), first=False, edit=cheaper)


def test_single_acp_would_let_a_runestone_in_and_the_policy_refuses_it() -> None:
    """For contrast: with SINGLE|ANYONECANPAY (0x83) only output 0 (same index as our input)
    is committed: a runestone appended later still verifies. The policy never signs 0x83."""
    s = signed_listing(0x83)
    assert with_buyer(s, first=False, extra_outputs=[(encipher([(*GOODS_ID, 0, 2)]), 0)])
    from app.core.signing_policy import RefusalCode

    v = rune_listing(listing_outputs(b"\x6a\x5d\x00"), sighash=0x83).verdict()
    assert RefusalCode.SIGHASH_NOT_ALLOWED in {r.code for r in v.refusals}


def listing_outputs(stone: bytes) -> list[tuple[bytes, int]]:
    p = parties()
    return [
        (p.service_escrow_spk, 10_000),
        (p.payment_spk, 100_000),
        (p.service_fee_spk, 2_000),
        (stone, 0),
    ]
