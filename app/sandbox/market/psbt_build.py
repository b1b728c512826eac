"""PSBT construction helpers for the marketplace's own PSBTs (inscription bids, secure listings,
secure purchases): inputs with their UTXO data, fixed outputs, and size estimates.

Built on `app.wallet.psbt_fixes` (embit with its bugs worked around): the transaction gets its
own input/output lists, every input carries `witness_utxo` (taproot sighashes commit to the
amounts and scripts of ALL inputs, so a taproot signer needs them even for other people's
inputs), P2SH-P2WPKH inputs their redeem script and key-path taproot inputs their internal key.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from embit import ec
from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.wallet.psbt_fixes import FixedPSBT, new_transaction

SEQUENCE_RBF = 0xFFFFFFFD  # opts in to replacement, no relative lock-time
TX_VERSION = 2

# Weight units of the parts of a segwit transaction (signatures at their largest).
_TX_OVERHEAD_WU = 4 * (4 + 4 + 1 + 1) + 2  # version, locktime, in/out counts; marker + flag
_INPUT_BASE_WU = 4 * (32 + 4 + 1 + 4)  # outpoint, empty scriptSig length, nSequence
_P2SH_P2WPKH_SCRIPTSIG_WU = 4 * 23  # push of the 22-byte redeem script
_P2WPKH_WITNESS_WU = 1 + (1 + 72) + (1 + 33)  # item count, DER sig + hash type, pubkey
_P2TR_KEYPATH_WITNESS_WU = 1 + (1 + 65)  # item count, Schnorr sig + hash type byte


class PsbtBuildError(ValueError):
    """A PSBT cannot be built for these inputs (unsupported script type, bad key)."""


@dataclass(frozen=True)
class Coin:
    """An output being spent: where it is, its amount and its scriptPubKey."""

    txid: str
    vout: int
    value: int
    script_pubkey: bytes

    @property
    def outpoint(self) -> str:
        return f"{self.txid}:{self.vout}"

    @property
    def spent_pair(self) -> tuple[int, bytes]:
        """(amount, scriptPubKey): the form the kernel verifier and the sandbox signer take."""
        return self.value, self.script_pubkey


@dataclass(frozen=True)
class InputSpec:
    """One PSBT input: the coin plus the fields its signer needs."""

    coin: Coin
    sequence: int = SEQUENCE_RBF
    sighash_type: int | None = None
    redeem_script: bytes | None = None
    tap_internal_key: bytes | None = None  # x-only, for key-path taproot inputs


def build_psbt(inputs: Sequence[InputSpec], outputs: Sequence[tuple[bytes, int]]) -> FixedPSBT:
    """An unsigned PSBT (version 2 tx, locktime 0) spending `inputs` to `outputs`
    ((scriptPubKey, sats) pairs), in the given order."""
    vin = [
        TransactionInput(bytes.fromhex(spec.coin.txid), spec.coin.vout, sequence=spec.sequence)
        for spec in inputs
    ]
    vout = [TransactionOutput(value, Script(spk)) for spk, value in outputs]
    psbt = FixedPSBT(new_transaction(TX_VERSION, 0, vin, vout))
    for inp, spec in zip(psbt.inputs, inputs, strict=True):
        inp.witness_utxo = TransactionOutput(spec.coin.value, Script(spec.coin.script_pubkey))
        if spec.sighash_type is not None:
            inp.sighash_type = spec.sighash_type
        if spec.redeem_script is not None:
            inp.redeem_script = Script(spec.redeem_script)
        if spec.tap_internal_key is not None:
            inp.taproot_internal_key = ec.PublicKey.from_xonly(spec.tap_internal_key)
    return psbt


def is_p2wpkh(spk: bytes) -> bool:
    return len(spk) == 22 and spk[:2] == b"\x00\x14"


def is_p2sh(spk: bytes) -> bool:
    return len(spk) == 23 and spk[:2] == b"\xa9\x14" and spk[22] == 0x87


def is_p2tr(spk: bytes) -> bool:
    return len(spk) == 34 and spk[:2] == b"\x51\x20"


def input_weight(spk: bytes) -> int:
    """Weight of an input spending `spk` once signed (P2WPKH, P2SH-P2WPKH, P2TR key path)."""
    if is_p2wpkh(spk):
        return _INPUT_BASE_WU + _P2WPKH_WITNESS_WU
    if is_p2sh(spk):  # only P2SH-P2WPKH is ever built here
        return _INPUT_BASE_WU + _P2SH_P2WPKH_SCRIPTSIG_WU + _P2WPKH_WITNESS_WU
    if is_p2tr(spk):
        return _INPUT_BASE_WU + _P2TR_KEYPATH_WITNESS_WU
    raise PsbtBuildError(f"cannot size an input spending script {spk.hex()}")


def output_weight(spk: bytes) -> int:
    return 4 * (8 + 1 + len(spk))


def estimate_vsize(input_spks: Sequence[bytes], output_spks: Sequence[bytes]) -> int:
    """Virtual size of the signed transaction (upper bound: largest signatures)."""
    weight = _TX_OVERHEAD_WU + sum(input_weight(s) for s in input_spks)
    weight += sum(output_weight(s) for s in output_spks)
    return math.ceil(weight / 4)


def fee_for(vsize: int, fee_rate: float) -> int:
    return math.ceil(vsize * fee_rate)
