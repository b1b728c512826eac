"""Checking the signatures a user put in a PSBT the marketplace built, input by input.

For each input to check: finalise it (on a copy) to get its witness, check the hash type the
signature commits to, then run Bitcoin Core's script interpreter (libbitcoinkernel, `pbk`) on
a transaction carrying those witnesses. Inputs the user does not sign (the seller's input 0 of
an inscription bid) stay empty; Core verifies one input at a time, so that is fine. The amounts
and scripts come from the marketplace's own record of the coins, never from the PSBT.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import pbk
from embit.script import Script, Witness
from pbk.script import PrecomputedTransactionData

from app.sandbox.market.psbt_build import Coin, is_p2sh, is_p2tr, is_p2wpkh
from app.wallet.finalize import FinalizeError, finalize_input, is_finalized
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_signer import PsbtSigningError
from app.wallet.sighash import sighash_name

SCRIPT_FLAGS = pbk.ScriptVerificationFlags.ALL  # P2SH DERSIG NULLDUMMY CLTV CSV WITNESS TAPROOT
_ANNEX_TAG = 0x50


class SignatureCheckError(ValueError):
    """Input `input_index` is not signed as required; `reason` says how."""

    def __init__(self, input_index: int, reason: str) -> None:
        super().__init__(f"input {input_index}: {reason}")
        self.input_index = input_index
        self.reason = reason


@dataclass(frozen=True)
class InputWitness:
    script_sig: bytes
    witness: tuple[bytes, ...]


def final_witnesses(psbt: FixedPSBT, indices: Sequence[int]) -> dict[int, InputWitness]:
    """The final scriptSig and witness of each input in `indices` (finalising a copy)."""
    copy = FixedPSBT.parse(psbt.serialize())  # the finaliser mutates; the caller's PSBT stays
    result = {}
    for i in indices:
        inp = copy.inputs[i]
        if not is_finalized(inp):
            try:
                finalize_input(copy, i)
            except (FinalizeError, PsbtSigningError) as exc:
                raise SignatureCheckError(i, f"not signed ({exc.reason})") from None
        witness = inp.final_scriptwitness
        script_sig = inp.final_scriptsig
        result[i] = InputWitness(
            b"" if script_sig is None else bytes(script_sig.data),
            () if witness is None else tuple(bytes(item) for item in witness.items),
        )
    return result


def hash_type_of(script_pubkey: bytes, witness: InputWitness) -> int:
    """The sighash type the input's signature commits to (0x00 = taproot DEFAULT)."""
    items = witness.witness
    if is_p2wpkh(script_pubkey) or is_p2sh(script_pubkey):
        if len(items) != 2 or not items[0]:
            raise ValueError("expected a witness of a signature and a public key")
        return items[0][-1]
    if is_p2tr(script_pubkey):
        if len(items) == 2 and items[1][:1] == bytes([_ANNEX_TAG]):
            raise ValueError("a witness with an annex is not accepted")
        if len(items) != 1 or len(items[0]) not in (64, 65):
            raise ValueError("expected a taproot key-path signature")
        return 0x00 if len(items[0]) == 64 else items[0][64]
    raise ValueError("unsupported script type")


def tx_with_witnesses(psbt: FixedPSBT, witnesses: Mapping[int, InputWitness]) -> bytes:
    """The PSBT's transaction with the given inputs' final scriptSig/witness filled in."""
    tx = psbt.tx
    for i, w in witnesses.items():
        tx.vin[i].script_sig = Script(w.script_sig)
        tx.vin[i].witness = Witness(list(w.witness))
    raw: bytes = tx.serialize()
    return raw


def failing_inputs(raw_tx: bytes, coins: Sequence[Coin], indices: Sequence[int]) -> list[int]:
    """Inputs among `indices` whose script Bitcoin Core's interpreter rejects."""
    ktx = pbk.Transaction(raw_tx)
    outputs = [pbk.TransactionOutput(pbk.ScriptPubkey(c.script_pubkey), c.value) for c in coins]
    precomputed = PrecomputedTransactionData(ktx, outputs)
    failing = []
    for i in indices:
        coin = coins[i]
        try:
            ok = pbk.ScriptPubkey(coin.script_pubkey).verify(
                coin.value, ktx, precomputed, i, SCRIPT_FLAGS
            )
        except pbk.ScriptVerifyException:
            ok = False
        if not ok:
            failing.append(i)
    return failing


def check_signed_inputs(
    psbt: FixedPSBT,
    coins: Sequence[Coin],
    indices: Sequence[int],
    hash_types: Mapping[int, Collection[int]],
) -> dict[int, InputWitness]:
    """Witnesses of `indices` after checking each one's hash type (allowed per input index)
    and its validity under Core's interpreter; raises SignatureCheckError on the first fault."""
    witnesses = final_witnesses(psbt, indices)
    for i in indices:
        try:
            hash_type = hash_type_of(coins[i].script_pubkey, witnesses[i])
        except ValueError as exc:
            raise SignatureCheckError(i, str(exc)) from None
        allowed = hash_types[i]
        if hash_type not in allowed:
            wanted = " or ".join(sighash_name(h) for h in sorted(allowed))
            raise SignatureCheckError(
                i, f"signed with SIGHASH_{sighash_name(hash_type)}, expected SIGHASH_{wanted}"
            )
    failing = failing_inputs(tx_with_witnesses(psbt, witnesses), coins, indices)
    if failing:
        raise SignatureCheckError(
            failing[0], "the signature does not verify under Bitcoin Core's script interpreter"
        )
    return witnesses
