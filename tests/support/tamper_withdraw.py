"""Malicious variants of a withdrawal PSBT (bidding wallet -> payment address)."""

from __future__ import annotations

from app.core.psbt_review_context import Role
from app.core.signing_policy import RefusalCode as C
from tests.support.psbt_scenarios import key, p2wpkh_spk
from tests.support.tamper_ops import (
    ATTACKER_SPK,
    OP_RETURN_SPK,
    Tamper,
    Target,
    add_input,
    add_output,
    duplicate_input,
    finalise,
    input_value,
    lie_about_amount,
    serve_on_mainnet,
    set_output,
    set_sighash,
)


def redirect_payment(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, spk=ATTACKER_SPK)
    return f"Output {i}"


def change_to_stranger(t: Target) -> str:
    i = t.out_with(Role.BIDDING_WALLET)
    set_output(t, i, spk=ATTACKER_SPK)
    return f"Output {i}"


def change_burned(t: Target) -> str:
    i = t.out_with(Role.BIDDING_WALLET)
    set_output(t, i, spk=OP_RETURN_SPK)
    return f"Output {i}"


def skim_to_extra_output(t: Target) -> str:
    set_output(t, t.out_with(Role.BIDDING_WALLET), delta=-5_000)
    return f"Output {add_output(t, ATTACKER_SPK, 5_000)}"


def pay_less(t: Target) -> str:
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, delta=-10_000)
    set_output(t, t.out_with(Role.BIDDING_WALLET), delta=10_000)
    return f"output {i}"


def drain_more(t: Target) -> str:
    """More than asked leaves the bidding wallet (and can cancel the user's bids)."""
    i = t.out_with(Role.PAYMENT)
    set_output(t, i, delta=10_000)
    set_output(t, t.out_with(Role.BIDDING_WALLET), delta=-10_000)
    return f"output {i}"


def inflate_fee(t: Target) -> str:
    set_output(t, t.out_with(Role.BIDDING_WALLET), delta=-25_000)
    return "network fee"


def foreign_input(t: Target) -> str:
    i = add_input(t, p2wpkh_spk(key(667)), 20_000)
    set_output(t, t.out_with(Role.BIDDING_WALLET), delta=20_000)
    return f"Input {i}"


def sighash_none(t: Target) -> str:
    set_sighash(t, 0, 0x02)
    return "Input 0"


def sighash_single_anyonecanpay(t: Target) -> str:
    set_sighash(t, 1, 0x83)
    return "Input 1"


def missing_witness_utxo(t: Target) -> str:
    t.psbt.inputs[0].witness_utxo = None
    return "Input 0"


def lying_witness_utxo(t: Target) -> str:
    lie_about_amount(t, 0, 50_000)
    return "Input 0"


def amount_unlike_chain(t: Target) -> str:
    """Understate an input so 20,000 sats of extra fee hide; the chain's amount exposes it."""
    utxo = t.psbt.inputs[1].witness_utxo
    t.psbt.inputs[1].witness_utxo = type(utxo)(utxo.value - 20_000, utxo.script_pubkey)
    set_output(t, t.out_with(Role.BIDDING_WALLET), delta=-20_000)
    return "Input 1"


def duplicated_input(t: Target) -> str:
    i = duplicate_input(t, 0)
    set_output(t, t.out_with(Role.BIDDING_WALLET), delta=input_value(t, 0))
    return f"Input {i}"


def non_witness_utxo_of_another_tx(t: Target) -> str:
    other = next(tx for op, tx in t.prev_txs.items() if op != t.outpoint(1))
    t.psbt.inputs[1].non_witness_utxo = other
    return "Input 1"


def already_finalised(t: Target) -> str:
    finalise(t, 0)
    return "Input 0"


def bidding_wallet_on_mainnet(t: Target) -> str:
    return serve_on_mainnet(t, Role.BIDDING_WALLET)


S = "withdraw"
WITHDRAW_TAMPERS = (
    Tamper(
        "withdraw: payment output redirected", S, C.OUTPUT_NOT_ALLOWED, "psbt", redirect_payment
    ),
    Tamper("withdraw: change to a stranger", S, C.OUTPUT_NOT_ALLOWED, "psbt", change_to_stranger),
    Tamper("withdraw: change burned in OP_RETURN", S, C.OUTPUT_NOT_ALLOWED, "psbt", change_burned),
    Tamper(
        "withdraw: extra output skims change", S, C.OUTPUT_NOT_ALLOWED, "psbt", skim_to_extra_output
    ),
    Tamper("withdraw: pays less than asked", S, C.AMOUNT_MISMATCH, "psbt", pay_less),
    Tamper("withdraw: takes more than asked", S, C.AMOUNT_MISMATCH, "psbt", drain_more),
    Tamper("withdraw: inflated fee", S, C.FEE_TOO_HIGH, "psbt", inflate_fee),
    Tamper("withdraw: someone else's input", S, C.FOREIGN_INPUT, "psbt", foreign_input),
    Tamper("withdraw: SIGHASH_NONE", S, C.SIGHASH_NOT_ALLOWED, "psbt", sighash_none),
    Tamper(
        "withdraw: SIGHASH_SINGLE|ANYONECANPAY",
        S,
        C.SIGHASH_NOT_ALLOWED,
        "psbt",
        sighash_single_anyonecanpay,
    ),
    Tamper(
        "withdraw: missing witness UTXO", S, C.MISSING_WITNESS_UTXO, "psbt", missing_witness_utxo
    ),
    Tamper("withdraw: lying witness UTXO amount", S, C.UTXO_MISMATCH, "psbt", lying_witness_utxo),
    Tamper(
        "withdraw: amount unlike the chain's",
        S,
        C.UTXO_NOT_AS_ON_CHAIN,
        "psbt",
        amount_unlike_chain,
    ),
    Tamper("withdraw: duplicated input", S, C.DUPLICATE_INPUT, "psbt", duplicated_input),
    Tamper(
        "withdraw: non_witness_utxo of another transaction",
        S,
        C.UTXO_MISMATCH,
        "psbt",
        non_witness_utxo_of_another_tx,
    ),
    Tamper(
        "withdraw: input already finalised", S, C.INPUT_ALREADY_FINAL, "psbt", already_finalised
    ),
    Tamper(
        "withdraw: bidding wallet served as a mainnet address",
        S,
        C.WRONG_NETWORK,
        "facts",
        bidding_wallet_on_mainnet,
    ),
)
