"""Building and signing simple spends with keys the caller holds (tests, benchmarks and
scenario scripts; the sandbox's own wallet goes through wallet.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from embit.ec import PrivateKey
from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.sandbox.chain.keys import sign_transaction


@dataclass(frozen=True)
class Utxo:
    txid: str
    vout: int
    value: int
    script_pubkey: bytes


def build_spend(
    utxos: Sequence[Utxo],
    outputs: Sequence[tuple[bytes, int]],
    keys: Mapping[bytes, PrivateKey],
    *,
    version: int = 2,
    locktime: int = 0,
    sequence: int = 0xFFFFFFFD,
) -> bytes:
    """Raw transaction spending `utxos` to `outputs` ((scriptPubKey, value) pairs), with every
    input whose scriptPubKey is in `keys` signed (P2WPKH: ALL, P2TR key path: DEFAULT)."""
    tx = Transaction(
        version=version,
        vin=[TransactionInput(bytes.fromhex(u.txid), u.vout, sequence=sequence) for u in utxos],
        vout=[TransactionOutput(value, Script(spk)) for spk, value in outputs],
        locktime=locktime,
    )
    sign_transaction(tx, [(u.value, u.script_pubkey) for u in utxos], keys.get)
    return bytes(tx.serialize())
