"""Malicious variants of an end-of-listing PSBT (our item at input 0 back to our ordinals
address, a plain payment coin at input 1 for the fee, change to the payment address)."""

from __future__ import annotations

from app.core.psbt_review_context import NOTHING, InscriptionAt, OutpointContents, Role
from app.core.signing_policy import RefusalCode as C
from tests.support.psbt_scenarios import OTHER_INSCRIPTION
from tests.support.tamper_ops import (
    ATTACKER_SPK,
    OP_RETURN_SPK,
    Mutation,
    Tamper,
    Target,
    add_input,
    add_output,
    set_contents,
    set_output,
    set_sighash,
)

ITEM, FEE_COIN = 0, 1


def item_to_attacker(t: Target) -> str:
    i = t.out_with(Role.ORDINALS)
    set_output(t, i, spk=ATTACKER_SPK)
    return f"output {i}"


def item_to_bidding_wallet(t: Target) -> str:
    i = t.out_with(Role.ORDINALS)
    set_output(t, i, spk=t.spk_of(Role.BIDDING_WALLET))
    return f"output {i}"


def change_to_attacker(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, spk=ATTACKER_SPK)
    return f"output {i}"


def skim_to_attacker(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, delta=-1_000)
    return f"output {add_output(t, ATTACKER_SPK, 1_000)}"


def burn_in_op_return(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, delta=-1_000)
    return f"output {add_output(t, OP_RETURN_SPK, 1_000)}"


def absurd_fee(t: Target) -> str:
    set_output(t, t.out_with(Role.PAYMENT), delta=-15_000)
    return "17,100 sats"


def another_item_of_ours(t: Target) -> str:
    carried = OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),))
    return f"Input {add_input(t, t.spk_of(Role.ORDINALS), 10_000, carried)} spends"


def fee_coin_carries_an_inscription(t: Target) -> str:
    carried = OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),))
    set_contents(t, t.outpoint(FEE_COIN), carried)
    return "Input 1"


def fee_coin_unknown_to_ord(t: Target) -> str:
    set_contents(t, t.outpoint(FEE_COIN), None)
    return "Input 1"


def item_unknown_to_ord(t: Target) -> str:
    set_contents(t, t.outpoint(ITEM), None)
    return "Input 0"


def strangers_coin(t: Target) -> str:
    return f"Input {add_input(t, ATTACKER_SPK, 5_000, NOTHING)}"


def sighash(index: int, value: int) -> Mutation:
    def mutate(t: Target) -> str:
        set_sighash(t, index, value)
        return f"Input {index}"

    return mutate


E, ER = "end_listing", "end_listing_runes"
END_LISTING_TAMPERS = (
    Tamper("end listing: item to an attacker", E, C.OUTPUT_NOT_ALLOWED, "psbt", item_to_attacker),
    Tamper(
        "end listing: item to the bidding wallet",
        E,
        C.INSCRIPTION_NOT_RECEIVED,
        "psbt",
        item_to_bidding_wallet,
    ),
    Tamper(
        "end listing: change to an attacker", E, C.OUTPUT_NOT_ALLOWED, "psbt", change_to_attacker
    ),
    Tamper("end listing: 1,000 sats skimmed", E, C.OUTPUT_NOT_ALLOWED, "psbt", skim_to_attacker),
    Tamper(
        "end listing: sats burned in an OP_RETURN",
        E,
        C.OUTPUT_NOT_ALLOWED,
        "psbt",
        burn_in_op_return,
    ),
    Tamper("end listing: absurd fee", E, C.FEE_TOO_HIGH, "psbt", absurd_fee),
    Tamper(
        "end listing: another of our items spent",
        E,
        C.EXTRA_INPUT_OF_OURS,
        "both",
        another_item_of_ours,
    ),
    Tamper(
        "end listing: the fee coin carries an inscription",
        E,
        C.NOT_CARDINAL,
        "facts",
        fee_coin_carries_an_inscription,
    ),
    Tamper(
        "end listing: ord cannot describe the fee coin",
        E,
        C.CONTENTS_UNKNOWN,
        "facts",
        fee_coin_unknown_to_ord,
    ),
    Tamper("end listing: a stranger's coin", E, C.FOREIGN_INPUT, "both", strangers_coin),
    Tamper(
        "end listing: item ALL|ANYONECANPAY",
        E,
        C.SIGHASH_NOT_ALLOWED,
        "psbt",
        sighash(ITEM, 0x81),
    ),
    Tamper(
        "end listing: fee coin SINGLE|ANYONECANPAY",
        E,
        C.SIGHASH_NOT_ALLOWED,
        "psbt",
        sighash(FEE_COIN, 0x83),
    ),
    Tamper("end listing: fee coin NONE", E, C.SIGHASH_NOT_ALLOWED, "psbt", sighash(FEE_COIN, 0x02)),
    Tamper(
        "end listing (runes): ord cannot describe the item",
        ER,
        C.CONTENTS_UNKNOWN,
        "facts",
        item_unknown_to_ord,
    ),
    Tamper(
        "end listing (runes): runes to an attacker",
        ER,
        C.INSCRIPTION_NOT_RECEIVED,
        "psbt",
        item_to_attacker,
    ),
)
