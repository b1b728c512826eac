"""Response models of the Esplora subset, in Blockstream Esplora's / mempool.space's JSON shapes.

Optional fields are left out of a response when the chain leaves them out (the routes serialise
with `exclude_unset`), as Esplora omits e.g. `block_height` for unconfirmed transactions.
"""

from __future__ import annotations

from pydantic import BaseModel


class AddressStats(BaseModel):
    funded_txo_count: int
    funded_txo_sum: int
    spent_txo_count: int
    spent_txo_sum: int
    tx_count: int


class AddressInfo(BaseModel):
    address: str
    chain_stats: AddressStats
    mempool_stats: AddressStats


class TxStatus(BaseModel):
    confirmed: bool
    block_height: int | None = None
    block_hash: str | None = None
    block_time: int | None = None


class Utxo(BaseModel):
    txid: str
    vout: int
    value: int
    status: TxStatus


class TxOut(BaseModel):
    scriptpubkey: str
    scriptpubkey_asm: str
    scriptpubkey_type: str
    scriptpubkey_address: str | None = None
    value: int


class TxIn(BaseModel):
    txid: str
    vout: int
    prevout: TxOut | None
    scriptsig: str
    scriptsig_asm: str
    witness: list[str] | None = None
    is_coinbase: bool
    sequence: int
    inner_redeemscript_asm: str | None = None
    inner_witnessscript_asm: str | None = None


class Transaction(BaseModel):
    txid: str
    version: int
    locktime: int
    vin: list[TxIn]
    vout: list[TxOut]
    size: int
    weight: int
    fee: int
    status: TxStatus


class Outspend(BaseModel):
    """`{"spent": false}`, or the spending input and its transaction's status."""

    spent: bool
    txid: str | None = None
    vin: int | None = None
    status: TxStatus | None = None


class Block(BaseModel):
    """Esplora's block JSON; `previousblockhash` is null for the genesis block, `mediantime`
    the median time past (BIP-113) of the block."""

    id: str
    height: int
    version: int
    timestamp: int
    tx_count: int
    size: int
    weight: int
    merkle_root: str
    previousblockhash: str | None
    mediantime: int
    nonce: int
    bits: int
    difficulty: float


class RecommendedFees(BaseModel):
    """mempool.space's `GET /api/v1/fees/recommended`: whole sat/vB for the next block, about
    half an hour (3 blocks), an hour (6), a day (144), and the minimum the mempool takes."""

    fastestFee: int
    halfHourFee: int
    hourFee: int
    economyFee: int
    minimumFee: int
