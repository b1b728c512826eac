"""Named cases of the attack classes an adversarial review found (issue 12), one or more per
class: a listing's price paid "at least" (the overpaying listing of the double sale), size
hints that hide a fee rate, fee bounds that bound nothing, a counterparty that is us, time
locks, and amounts the chain does not confirm. Composition across PSBTs (two listings with
one output list) is tested where several PSBTs exist: tests/core/test_acp_composition.py and
tests/services/test_double_sale.py.
"""

from __future__ import annotations

import dataclasses

from embit.transaction import TransactionInput, TransactionOutput

from app.core.psbt_review import review
from app.core.psbt_review_context import InscriptionAt, KnownAddress, OutpointContents, Role
from app.core.signing_policy import RefusalCode as C
from app.wallet.psbt_reader import view_of
from tests.support.tamper_ops import Mutation, Tamper, Target, set_contents, set_output

BOGUS_LEAF = b"\x51" * 10_000  # 10,000 bytes of OP_1: a "script" nobody will ever run


# --- 1. the double sale's single-PSBT half: a listing that pays more than its price ------------


def listing_overpays(t: Target) -> str:
    """A cheaper listing whose PSBT pays more, so its outputs can equal a dearer listing's."""
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, delta=25_000)
    return "more than the listing price"


def listing_pays_twice(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, delta=-40_000)
    spk = t.psbt.outputs[i].script_pubkey
    t.psbt.outputs.append(type(t.psbt.outputs[0])(vout=TransactionOutput(40_000, spk)))
    return f"Outputs {i}, {len(t.psbt.outputs) - 1} pay your receive address"


def pay_fee_rate(t: Target, rate: int) -> None:
    """Take from our change what makes the fee `rate` sat/vB on the honest size."""
    reviewed = review(view_of(t.psbt, t.network), t.context)
    assert reviewed.fee is not None
    paying = Role.BIDDING_WALLET if Role.BIDDING_WALLET in t.out_roles(1) else Role.PAYMENT
    extra = rate * reviewed.vsize.vsize - reviewed.fee
    set_output(
        t, max(i for i in range(len(t.psbt.outputs)) if paying in t.out_roles(i)), delta=-extra
    )


def listing_signed_all_over_another_coin(t: Target) -> str:
    """ALL over [our item, another coin without UTXO data]: with the other coin listed
    ANYONECANPAY with these outputs, the two signatures make one purchase of two items."""
    t.psbt.inputs[0].sighash_type = 0x01
    other = t.psbt.inputs[0].__class__(vin=TransactionInput(b"\x42" * 32, 1))
    t.psbt.inputs.append(other)
    return f"Input {len(t.psbt.inputs) - 1} spends an output nobody can vouch for"


# --- 2. size hints on an input we do not sign ---------------------------------------------------


def bogus_leaf_hides_fee_rate(t: Target) -> str:
    """The seller's input 0 carries a 10 kB tap leaf: trusted, it would make a 100 sat/vB fee
    read as about 11 sat/vB."""
    pay_fee_rate(t, 100)
    item = t.psbt.inputs[0]
    internal = item.taproot_internal_key
    control_block = b"\xc0" + (internal.xonly() if internal else b"\x02" * 32)
    item.taproot_scripts = {control_block: BOGUS_LEAF + b"\xc0"}
    return "fee rate is 100"


# --- 3. fee bounds that mean something ---------------------------------------------------------


def fee_burns_a_third(t: Target) -> str:
    """40,000 sats more fee on a 100,000-sat withdrawal: taken from the change."""
    set_output(t, t.out_with(Role.BIDDING_WALLET), delta=-27_000)
    return "% of the 100,000 sats this transaction moves"


def fee_rate_above_market(t: Target) -> str:
    """40 sat/vB: under the user's 50 sat/vB cap, but 4 times the next-block estimate."""
    pay_fee_rate(t, 40)
    return "more than 3 times the estimate for the next block"


def no_fee_estimate(t: Target) -> str:
    t.context = dataclasses.replace(t.context, fastest_fee_rate=None)
    return "no fee estimate"


# --- 4. who the counterparty is ------------------------------------------------------------------


def bidding_wallet_is_our_ordinals_address(t: Target) -> str:
    ordinals = t.context.addresses_with(Role.ORDINALS)[0]
    t.context = dataclasses.replace(
        t.context,
        addresses=tuple(
            KnownAddress(ordinals, a.role, a.label) if a.role is Role.BIDDING_WALLET else a
            for a in t.context.addresses
        ),
    )
    return ordinals


def withdrawal_input_carries_an_inscription(t: Target) -> str:
    i = t.in_with(Role.BIDDING_WALLET)
    inscription = OutpointContents((InscriptionAt("ab" * 32 + "i0", 0),))
    set_contents(t, t.outpoint(i), inscription)
    return f"Input {i}"


# --- 5. time -------------------------------------------------------------------------------------


def locktime(value: int) -> Mutation:
    def mutate(t: Target) -> str:
        t.psbt.locktime = value
        return "the lock time is"

    return mutate


def final_sequences_and_locktime(value: int) -> Mutation:
    """Every nSequence final (nLockTime off in the PSBT), but ANYONECANPAY lets the buyer add an
    input that turns it on: a listing only usable from then on."""

    def mutate(t: Target) -> str:
        for inp in t.psbt.inputs:
            inp.sequence = 0xFFFFFFFF
        t.psbt.locktime = value
        return "the lock time is"

    return mutate


def relative_lock(which: Role | None) -> Mutation:
    def mutate(t: Target) -> str:
        i = 0 if which is None else t.in_with(which)
        t.psbt.inputs[i].sequence = 0x0000FFFF  # 65,535 blocks: about 455 days
        return f"Input {i}'s nSequence"

    return mutate


# --- 6. amounts the chain does not confirm ----------------------------------------------------


def seller_amount_unconfirmed(t: Target) -> str:
    """Esplora answers 404 for the seller's coin, and the PSBT overstates its amount (no full
    previous transaction to contradict it)."""
    item = t.psbt.inputs[0]
    item.non_witness_utxo = None
    utxo = item.witness_utxo
    item.witness_utxo = TransactionOutput(utxo.value + 20_000, utxo.script_pubkey)
    chain = {k: v for k, v in t.context.chain_utxos.items() if k != t.outpoint(0)}
    t.context = dataclasses.replace(t.context, chain_utxos=chain)
    return "input 0's amount is not confirmed by the chain"


W, B, L, F = "withdraw", "inscription_bid", "secure_listing", "funding"

GUARD_TAMPERS: tuple[Tamper, ...] = (
    Tamper(
        "listing: pays more than its price",
        L,
        C.LISTING_PAYS_OTHER_AMOUNT,
        "psbt",
        listing_overpays,
    ),
    Tamper(
        "listing: signed ALL over another coin without UTXO data",
        L,
        C.INPUT_NOT_ALLOWED,
        "psbt",
        listing_signed_all_over_another_coin,
    ),
    Tamper(
        "listing: price split over two outputs",
        L,
        C.LISTING_PAYS_OTHER_AMOUNT,
        "psbt",
        listing_pays_twice,
    ),
    Tamper(
        "bid: bogus tap leaf on the seller's input hides the fee rate",
        B,
        C.FEE_RATE_TOO_HIGH,
        "psbt",
        bogus_leaf_hides_fee_rate,
    ),
    Tamper(
        "withdraw: fee burns a third of the amount",
        W,
        C.FEE_SHARE_TOO_HIGH,
        "psbt",
        fee_burns_a_third,
    ),
    Tamper(
        "bid: fee rate four times the market",
        B,
        C.FEE_RATE_ABOVE_MARKET,
        "psbt",
        fee_rate_above_market,
    ),
    Tamper(
        "funding: no fee estimate to compare with",
        F,
        C.FEE_MARKET_UNKNOWN,
        "facts",
        no_fee_estimate,
    ),
    Tamper(
        "withdraw: bidding wallet is our ordinals address",
        W,
        C.COUNTERPARTY_IS_YOU,
        "facts",
        bidding_wallet_is_our_ordinals_address,
    ),
    Tamper(
        "withdraw: input carries an inscription",
        W,
        C.NOT_CARDINAL,
        "facts",
        withdrawal_input_carries_an_inscription,
    ),
    Tamper("withdraw: nLockTime 5,000,000", W, C.LOCKTIME_IN_FUTURE, "psbt", locktime(5_000_000)),
    Tamper(
        "bid: nLockTime 4,000,000,000", B, C.LOCKTIME_IN_FUTURE, "psbt", locktime(4_000_000_000)
    ),
    Tamper(
        "funding: nLockTime two blocks ahead", F, C.LOCKTIME_IN_FUTURE, "psbt", locktime(850_002)
    ),
    Tamper(
        "listing: far nLockTime behind final sequences",
        L,
        C.LOCKTIME_IN_FUTURE,
        "psbt",
        final_sequences_and_locktime(900_000),
    ),
    Tamper(
        "bid: relative lock on the seller's input",
        B,
        C.RELATIVE_LOCKTIME,
        "psbt",
        relative_lock(None),
    ),
    Tamper(
        "withdraw: relative lock on a wallet input",
        W,
        C.RELATIVE_LOCKTIME,
        "psbt",
        relative_lock(Role.BIDDING_WALLET),
    ),
    Tamper(
        "bid: seller amount unknown to the chain and overstated",
        B,
        C.FEE_UNKNOWN,
        "both",
        seller_amount_unconfirmed,
    ),
)
