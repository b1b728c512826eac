"""Malicious variants of a secure listing PSBT (our item at input 0, signed ALL|ANYONECANPAY)."""

from __future__ import annotations

from app.core.psbt_review_context import NOTHING, InscriptionAt, OutpointContents, Role
from app.core.signing_policy import RefusalCode as C
from tests.support.psbt_scenarios import OTHER_INSCRIPTION
from tests.support.tamper_ops import (
    ATTACKER_SPK,
    Mutation,
    Tamper,
    Target,
    add_input,
    duplicate_input,
    finalise,
    lie_about_amount,
    serve_on_mainnet,
    set_contents,
    set_output,
    set_sighash,
)

ITEM = 0


def price_below(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, delta=-40_000)
    return f"Output {i}"


def runes_price_below(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, delta=-1)
    return f"Output {i}"


def pays_someone_else(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, spk=ATTACKER_SPK)
    return f"output {i}"


def extra_payment_input(t: Target) -> str:
    return f"Input {add_input(t, t.spk_of(Role.PAYMENT), 50_000, NOTHING)}"


def extra_ordinals_input(t: Target) -> str:
    carried = OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),))
    return f"Input {add_input(t, t.spk_of(Role.ORDINALS), 10_000, carried)}"


def item_sighash(value: int) -> Mutation:
    def mutate(t: Target) -> str:
        set_sighash(t, ITEM, value)
        return "Input 0"

    return mutate


def item_swapped_for_plain_coin(t: Target) -> str:
    """Another coin of ours, carrying nothing, instead of the item: it would be sold."""
    listed = t.context.contents[t.outpoint(ITEM)].inscriptions[0].inscription_id
    i = add_input(t, t.spk_of(Role.ORDINALS), 10_000, NOTHING)
    t.psbt.inputs[ITEM] = t.psbt.inputs.pop(i)
    return listed


def missing_witness_utxo(t: Target) -> str:
    t.psbt.inputs[ITEM].witness_utxo = None
    return "Input 0"


def lying_item_amount(t: Target) -> str:
    lie_about_amount(t, ITEM, -5_000)
    return "Input 0"


def duplicated_item(t: Target) -> str:
    return f"Input {duplicate_input(t, ITEM)}"


def already_finalised(t: Target) -> str:
    finalise(t, ITEM)
    return "Input 0"


def item_carries_more(t: Target) -> str:
    """ord reports a second inscription on the item's output (kept with the listed one)."""
    current = t.context.contents[t.outpoint(ITEM)]
    more = (*current.inscriptions, InscriptionAt(OTHER_INSCRIPTION, 5_000))
    set_contents(t, t.outpoint(ITEM), OutpointContents(more, current.runes))
    return "Input 0"


def runes_item_carries_inscription(t: Target) -> str:
    current = t.context.contents[t.outpoint(ITEM)]
    extra = (InscriptionAt(OTHER_INSCRIPTION, 0),)
    set_contents(t, t.outpoint(ITEM), OutpointContents(extra, current.runes))
    return "Input 0"


def item_at_strangers_address(t: Target) -> str:
    utxo = t.psbt.inputs[ITEM].witness_utxo
    t.psbt.inputs[ITEM].witness_utxo = type(utxo)(
        utxo.value, type(utxo.script_pubkey)(ATTACKER_SPK)
    )
    return "Input 0"


def service_address_on_mainnet(t: Target) -> str:
    return serve_on_mainnet(t, Role.SERVICE)


S, SR = "secure_listing", "secure_listing_runes"
LISTING_TAMPERS = (
    Tamper("listing: price below", S, C.LISTING_UNDERPAID, "psbt", price_below),
    Tamper("listing: pays someone else", S, C.LISTING_UNDERPAID, "psbt", pays_someone_else),
    Tamper(
        "listing: extra payment input of ours",
        S,
        C.EXTRA_INPUT_OF_OURS,
        "both",
        extra_payment_input,
    ),
    Tamper(
        "listing: extra ordinals input of ours",
        S,
        C.EXTRA_INPUT_OF_OURS,
        "both",
        extra_ordinals_input,
    ),
    Tamper("listing: SINGLE|ANYONECANPAY", S, C.SIGHASH_NOT_ALLOWED, "psbt", item_sighash(0x83)),
    Tamper("listing: SIGHASH_NONE", S, C.SIGHASH_NOT_ALLOWED, "psbt", item_sighash(0x02)),
    Tamper("listing: SIGHASH_SINGLE", S, C.SIGHASH_NOT_ALLOWED, "psbt", item_sighash(0x03)),
    Tamper("listing: NONE|ANYONECANPAY", S, C.SIGHASH_NOT_ALLOWED, "psbt", item_sighash(0x82)),
    Tamper("listing: unknown sighash 0x42", S, C.SIGHASH_NOT_ALLOWED, "psbt", item_sighash(0x42)),
    Tamper(
        "listing: item swapped for a plain coin",
        S,
        C.ITEM_INPUT_WRONG,
        "both",
        item_swapped_for_plain_coin,
    ),
    Tamper(
        "listing: missing witness UTXO", S, C.MISSING_WITNESS_UTXO, "psbt", missing_witness_utxo
    ),
    Tamper("listing: lying item amount", S, C.UTXO_MISMATCH, "psbt", lying_item_amount),
    Tamper("listing: duplicated item input", S, C.DUPLICATE_INPUT, "psbt", duplicated_item),
    Tamper("listing: item already finalised", S, C.INPUT_ALREADY_FINAL, "psbt", already_finalised),
    Tamper(
        "listing: item carries a second inscription",
        S,
        C.ITEM_CARRIES_MORE,
        "facts",
        item_carries_more,
    ),
    Tamper(
        "listing: item at a stranger's address",
        S,
        C.ITEM_NOT_OURS,
        "psbt",
        item_at_strangers_address,
    ),
    Tamper(
        "listing: service address served for mainnet",
        S,
        C.WRONG_NETWORK,
        "facts",
        service_address_on_mainnet,
    ),
    Tamper(
        "listing (runes): price one sat below", SR, C.LISTING_UNDERPAID, "psbt", runes_price_below
    ),
    Tamper(
        "listing (runes): the runes coin also carries an inscription",
        SR,
        C.ITEM_CARRIES_MORE,
        "facts",
        runes_item_carries_inscription,
    ),
)
