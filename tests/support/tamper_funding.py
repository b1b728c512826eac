"""Malicious variants of a funding PSBT (payment coins -> bidding wallet + change). Our own
code builds it, but from Esplora's UTXO list and ord's answers, which a hostile server serves."""

from __future__ import annotations

from app.core.psbt_review_context import (
    NOTHING,
    InscriptionAt,
    OutpointContents,
    Role,
    RuneAmount,
)
from app.core.signing_policy import RefusalCode as C
from tests.support.psbt_scenarios import OTHER_INSCRIPTION, key, p2wpkh_spk
from tests.support.tamper_ops import (
    ATTACKER_SPK,
    Tamper,
    Target,
    add_input,
    duplicate_input,
    input_value,
    serve_on_mainnet,
    set_contents,
    set_output,
    set_sighash,
)


def unknown_to_ord(t: Target) -> str:
    set_contents(t, t.outpoint(1), None)
    return "Input 1"


def coin_is_inscribed(t: Target) -> str:
    set_contents(t, t.outpoint(0), OutpointContents((InscriptionAt(OTHER_INSCRIPTION, 0),)))
    return "Input 0"


def coin_holds_runes(t: Target) -> str:
    set_contents(t, t.outpoint(1), OutpointContents(runes=(RuneAmount("DOG•GO•TO•THE•MOON", 7),)))
    return "Input 1"


def change_to_stranger(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, spk=ATTACKER_SPK)
    return f"Output {i}"


def bidding_wallet_underfunded(t: Target) -> str:
    i = t.out_with(Role.BIDDING_WALLET)
    set_output(t, i, delta=-20_000)
    set_output(t, t.out_with(Role.PAYMENT), delta=20_000)
    return f"output {i}"


def inflate_fee(t: Target) -> str:
    set_output(t, t.out_with(Role.PAYMENT), delta=-20_000)
    return "network fee"


def bidding_wallet_on_mainnet(t: Target) -> str:
    return serve_on_mainnet(t, Role.BIDDING_WALLET)


def foreign_input(t: Target) -> str:
    i = add_input(t, p2wpkh_spk(key(669)), 15_000, NOTHING)
    set_output(t, t.out_with(Role.PAYMENT), delta=15_000)
    return f"Input {i}"


def ordinals_coin_spent(t: Target) -> str:
    i = add_input(t, t.spk_of(Role.ORDINALS), 10_000, NOTHING)
    set_output(t, t.out_with(Role.PAYMENT), delta=10_000)
    return f"Input {i}"


def sighash_none_anyonecanpay(t: Target) -> str:
    set_sighash(t, 0, 0x82)
    return "Input 0"


def missing_witness_utxo(t: Target) -> str:
    t.psbt.inputs[1].witness_utxo = None
    return "Input 1"


def amount_unlike_chain(t: Target) -> str:
    utxo = t.psbt.inputs[0].witness_utxo
    t.psbt.inputs[0].witness_utxo = type(utxo)(utxo.value + 10_000, utxo.script_pubkey)
    set_output(t, t.out_with(Role.PAYMENT), delta=10_000)
    return "Input 0"


def duplicated_input(t: Target) -> str:
    i = duplicate_input(t, 0)
    set_output(t, t.out_with(Role.PAYMENT), delta=input_value(t, 0))
    return f"Input {i}"


S = "funding"
FUNDING_TAMPERS = (
    Tamper("funding: coin unknown to ord", S, C.CONTENTS_UNKNOWN, "facts", unknown_to_ord),
    Tamper("funding: coin carries an inscription", S, C.NOT_CARDINAL, "facts", coin_is_inscribed),
    Tamper("funding: coin holds runes", S, C.NOT_CARDINAL, "facts", coin_holds_runes),
    Tamper("funding: change to a stranger", S, C.OUTPUT_NOT_ALLOWED, "psbt", change_to_stranger),
    Tamper(
        "funding: bidding wallet underfunded",
        S,
        C.AMOUNT_MISMATCH,
        "psbt",
        bidding_wallet_underfunded,
    ),
    Tamper("funding: inflated fee", S, C.FEE_TOO_HIGH, "psbt", inflate_fee),
    Tamper(
        "funding: bidding wallet served as a mainnet address",
        S,
        C.WRONG_NETWORK,
        "facts",
        bidding_wallet_on_mainnet,
    ),
    Tamper("funding: someone else's input", S, C.FOREIGN_INPUT, "both", foreign_input),
    Tamper("funding: ordinals coin spent", S, C.INPUT_NOT_ALLOWED, "both", ordinals_coin_spent),
    Tamper(
        "funding: NONE|ANYONECANPAY",
        S,
        C.SIGHASH_NOT_ALLOWED,
        "psbt",
        sighash_none_anyonecanpay,
    ),
    Tamper(
        "funding: missing witness UTXO", S, C.MISSING_WITNESS_UTXO, "psbt", missing_witness_utxo
    ),
    Tamper(
        "funding: amount unlike the chain's", S, C.UTXO_NOT_AS_ON_CHAIN, "psbt", amount_unlike_chain
    ),
    Tamper("funding: duplicated input", S, C.DUPLICATE_INPUT, "psbt", duplicated_input),
)
