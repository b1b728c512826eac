"""Test helper: verify a signed transaction input by input with Bitcoin Core's interpreter.

Uses py-bitcoinkernel (`pbk`): `ScriptPubkey(spk).verify(amount, Transaction(raw),
PrecomputedTransactionData(tx, all_spent_outputs), index, flags)`. Taproot needs every spent
output in the precomputed data, so callers always pass all of them, in input order.

    from tests.wallet.kernel import verify_inputs, assert_accepted
    assert_accepted(raw_tx, [(spk_bytes, amount_sats), ...])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pbk
from pbk.script import PrecomputedTransactionData

SpentOutput = tuple[bytes, int]  # (scriptPubKey, amount in sats)

F = pbk.ScriptVerificationFlags
STANDARD_FLAGS = (
    F.P2SH
    | F.DERSIG
    | F.NULLDUMMY
    | F.CHECKLOCKTIMEVERIFY
    | F.CHECKSEQUENCEVERIFY
    | F.WITNESS
    | F.TAPROOT
)


def _raw(tx: Any) -> bytes:
    """Accept raw bytes, hex, or anything with .serialize() (an embit Transaction)."""
    if isinstance(tx, bytes | bytearray):
        return bytes(tx)
    if isinstance(tx, str):
        return bytes.fromhex(tx)
    return bytes(tx.serialize())


def _spent(outputs: Sequence[Any]) -> list[SpentOutput]:
    """Accept (spk, amount) pairs or embit TransactionOutputs."""
    result = []
    for out in outputs:
        if isinstance(out, tuple):
            result.append((bytes(out[0]), int(out[1])))
        else:
            result.append((bytes(out.script_pubkey.data), int(out.value)))
    return result


def verify_inputs(tx: Any, spent_outputs: Sequence[Any], flags: Any = STANDARD_FLAGS) -> list[bool]:
    """Bitcoin Core's verdict for each input of `tx` (True = the script accepts the spend)."""
    raw = _raw(tx)
    spent = _spent(spent_outputs)
    kernel_tx = pbk.Transaction(raw)
    n_inputs = len(list(kernel_tx.inputs))
    if n_inputs != len(spent):
        raise ValueError(f"{n_inputs} inputs but {len(spent)} spent outputs given")
    kernel_outs = [pbk.TransactionOutput(pbk.ScriptPubkey(spk), amt) for spk, amt in spent]
    precomputed = PrecomputedTransactionData(kernel_tx, kernel_outs)
    verdicts = []
    for i, (spk, amount) in enumerate(spent):
        ok = pbk.ScriptPubkey(spk).verify(amount, kernel_tx, precomputed, i, flags)
        verdicts.append(bool(ok))
    return verdicts


def verify_input(tx: Any, spent_outputs: Sequence[Any], index: int) -> bool:
    return verify_inputs(tx, spent_outputs)[index]


def assert_accepted(
    tx: Any, spent_outputs: Sequence[Any], indices: Sequence[int] | None = None
) -> None:
    """Fail unless Bitcoin Core accepts every input (or just `indices`)."""
    verdicts = verify_inputs(tx, spent_outputs)
    wanted = range(len(verdicts)) if indices is None else indices
    rejected = [i for i in wanted if not verdicts[i]]
    assert not rejected, f"Bitcoin Core rejected inputs {rejected}"


def assert_rejected(tx: Any, spent_outputs: Sequence[Any], index: int) -> None:
    """Fail unless Bitcoin Core rejects input `index`."""
    assert not verify_inputs(tx, spent_outputs)[index], f"Bitcoin Core accepted input {index}"
