"""Malicious variants of an inscription bid PSBT (seller's inscription at input 0, our payment
inputs after it)."""

from __future__ import annotations

from app.core.psbt_review_context import NOTHING, InscriptionAt, OutpointContents, Role
from app.core.signing_policy import RefusalCode as C
from tests.support.psbt_scenarios import OTHER_INSCRIPTION, key, p2wpkh_spk
from tests.support.tamper_ops import (
    ATTACKER_SPK,
    Mutation,
    Tamper,
    Target,
    add_input,
    drop_utxo,
    duplicate_input,
    input_value,
    lie_about_amount,
    set_contents,
    set_output,
    set_sighash,
    swap,
)

ITEM = 0


def _seller_output(t: Target) -> int:
    return t.out_with(Role.STRANGER)


def swap_input_0(t: Target) -> str:
    swap(t.psbt.inputs, ITEM, t.in_with(Role.PAYMENT))
    return "Input 0"


def other_coin_at_input_0(t: Target) -> str:
    """Input 0 becomes a plain coin of the same value: we would pay for nothing."""
    value = input_value(t, ITEM)
    i = add_input(t, p2wpkh_spk(key(668)), value, NOTHING)
    t.psbt.inputs[ITEM] = t.psbt.inputs.pop(i)
    return "Input 0"


def extra_ordinals_input(t: Target) -> str:
    carried = OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),))
    i = add_input(t, t.spk_of(Role.ORDINALS), 10_000, carried)
    set_output(t, t.out_with(Role.PAYMENT), delta=10_000)
    return f"Input {i}"


def postage_after_seller_output(t: Target) -> str:
    """The ordinals output moved after the seller's: the inscribed sat lands on the seller's."""
    i = t.out_with(Role.ORDINALS)
    swap(t.psbt.outputs, i, i + 1)
    return f"output {i}"


def ordinals_output_redirected(t: Target) -> str:
    i = t.out_with(Role.ORDINALS)
    set_output(t, i, spk=ATTACKER_SPK)
    return f"output {i}"


def change_to_stranger(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, spk=ATTACKER_SPK)
    return f"output {i}"


def inflate_fee(t: Target) -> str:
    set_output(t, t.out_with(Role.PAYMENT), delta=-20_000)
    return "network fee"


def inflate_price(t: Target) -> str:
    i = _seller_output(t)
    set_output(t, i, delta=15_000)
    set_output(t, t.out_with(Role.PAYMENT), delta=-15_000)
    return f"output {i}"


def payment_sighash(value: int, which: int) -> Mutation:
    def mutate(t: Target) -> str:
        i = [j for j in range(len(t.psbt.inputs)) if Role.PAYMENT in t.in_roles(j)][which]
        set_sighash(t, i, value)
        return f"Input {i}"

    return mutate


def missing_witness_utxo(t: Target) -> str:
    i = t.in_with(Role.PAYMENT)
    t.psbt.inputs[i].witness_utxo = None
    return f"Input {i}"


def seller_utxo_missing(t: Target) -> str:
    drop_utxo(t, ITEM)
    return "Input 0"


def lying_seller_amount(t: Target) -> str:
    lie_about_amount(t, ITEM, 30_000)
    return "Input 0"


def duplicated_payment_input(t: Target) -> str:
    src = t.in_with(Role.PAYMENT)
    i = duplicate_input(t, src)
    set_output(t, t.out_with(Role.PAYMENT), delta=input_value(t, src))
    return f"Input {i}"


def ord_says_input_0_is_empty(t: Target) -> str:
    set_contents(t, t.outpoint(ITEM), NOTHING)
    return "Input 0"


def payment_coin_inscribed(t: Target) -> str:
    i = t.in_with(Role.PAYMENT)
    set_contents(t, t.outpoint(i), OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),)))
    return f"Input {i}"


def payment_coin_unknown_to_ord(t: Target) -> str:
    i = t.in_with(Role.PAYMENT)
    set_contents(t, t.outpoint(i), None)
    return f"Input {i}"


S, ST = "inscription_bid", "inscription_bid_taproot"
BID_TAMPERS = (
    Tamper("bid: our coin swapped into input 0", S, C.ITEM_INPUT_WRONG, "psbt", swap_input_0),
    Tamper(
        "bid: input 0 is not the inscription", S, C.ITEM_INPUT_WRONG, "both", other_coin_at_input_0
    ),
    Tamper(
        "bid: extra input of ours (ordinals)", S, C.INPUT_NOT_ALLOWED, "both", extra_ordinals_input
    ),
    Tamper(
        "bid: postage output moved after the seller's",
        S,
        C.INSCRIPTION_NOT_RECEIVED,
        "psbt",
        postage_after_seller_output,
    ),
    Tamper(
        "bid: inscription output redirected",
        S,
        C.INSCRIPTION_NOT_RECEIVED,
        "psbt",
        ordinals_output_redirected,
    ),
    Tamper("bid: change to a stranger", S, C.PAYMENT_MISMATCH, "psbt", change_to_stranger),
    Tamper("bid: inflated fee", S, C.FEE_TOO_HIGH, "psbt", inflate_fee),
    Tamper("bid: price inflated", S, C.PAYMENT_MISMATCH, "psbt", inflate_price),
    Tamper(
        "bid: ALL|ANYONECANPAY on a payment input",
        S,
        C.SIGHASH_NOT_ALLOWED,
        "psbt",
        payment_sighash(0x81, 0),
    ),
    Tamper(
        "bid: SIGHASH_NONE on a payment input",
        S,
        C.SIGHASH_NOT_ALLOWED,
        "psbt",
        payment_sighash(0x02, 1),
    ),
    Tamper(
        "bid: SIGHASH_SINGLE on a payment input",
        S,
        C.SIGHASH_NOT_ALLOWED,
        "psbt",
        payment_sighash(0x03, 0),
    ),
    Tamper("bid: missing witness UTXO", S, C.MISSING_WITNESS_UTXO, "psbt", missing_witness_utxo),
    Tamper("bid: lying seller amount", S, C.UTXO_MISMATCH, "psbt", lying_seller_amount),
    Tamper("bid: duplicated payment input", S, C.DUPLICATE_INPUT, "psbt", duplicated_payment_input),
    Tamper(
        "bid: ord says input 0 is empty", S, C.ITEM_INPUT_WRONG, "facts", ord_says_input_0_is_empty
    ),
    Tamper("bid: inscribed payment coin", S, C.NOT_CARDINAL, "facts", payment_coin_inscribed),
    Tamper(
        "bid: payment coin unknown to ord",
        S,
        C.CONTENTS_UNKNOWN,
        "facts",
        payment_coin_unknown_to_ord,
    ),
    Tamper(
        "bid (taproot payment): seller input without UTXO",
        ST,
        C.MISSING_WITNESS_UTXO,
        "psbt",
        seller_utxo_missing,
    ),
)
