"""Esplora HTTP API bodies (Blockstream's esplora/electrs and mempool.space, which serves the same
API under /api plus its own /v1 endpoints).

Sources:
- MEMPOOL: https://github.com/mempool/mempool (snapshot 3b6ed8b) frontend/src/app/docs/api-docs/
  api-docs-data.ts, the mainnet `response` of the fragment named (JS object literals there,
  copied value for value; a trailing `...` dropped); served at https://mempool.space/docs/api/rest.
- API.md: https://github.com/Blockstream/esplora (snapshot a51df73) API.md, field lists and the
  /fee-estimates example.
- ELECTRS: https://github.com/Blockstream/electrs (snapshot abfbce7, branch new-index), the
  serde structs behind shapes neither doc shows (skip_serializing_if = "Option::is_none").
"""

from __future__ import annotations

from typing import Any

# MEMPOOL get-address, the testnet sample (the mainnet one has funded == spent).
ADDRESS = "tb1qp0we5epypgj4acd2c4au58045ruud2pd6heuee"
ADDRESS_STATS: dict[str, Any] = {
    "address": ADDRESS,
    "chain_stats": {
        "funded_txo_count": 6747,
        "funded_txo_sum": 84313783821,
        "spent_txo_count": 0,
        "spent_txo_sum": 0,
        "tx_count": 6747,
    },
    "mempool_stats": {
        "funded_txo_count": 0,
        "funded_txo_sum": 0,
        "spent_txo_count": 0,
        "spent_txo_sum": 0,
        "tx_count": 0,
    },
}

# MEMPOOL get-address-utxo (mainnet, 1KFHE7w8BhaENAswwryaoccDb6qcT6DbYY).
UTXO_CONFIRMED: dict[str, Any] = {
    "txid": "12f96289f8f9cd51ccfe390879a46d7eeb0435d9e0af9297776e6bdf249414ff",
    "vout": 0,
    "status": {
        "confirmed": True,
        "block_height": 698642,
        "block_hash": "00000000000000000007839f42e0e86fd53c797b64b7135fcad385158c9cafb8",
        "block_time": 1630561459,
    },
    "value": 644951084,
}
# ELECTRS src/rest.rs `UtxoValue` with src/util/transaction.rs `TransactionStatus` of a mempool
# transaction: {"confirmed": false}, the block fields left out.
UTXO_UNCONFIRMED: dict[str, Any] = {
    "txid": "c404bc4ba89e9423ff772cb45268ba6fba8b713f809484c1216f1a657aafa088",
    "vout": 1,
    "status": {"confirmed": False},
    "value": 1973787,
}

# MEMPOOL get-transaction-status.
STATUS_TXID = "15e10745f15593a899cef391191bdd3d7c12412cc4696b7bcb669d0feadc8521"
TX_STATUS_CONFIRMED: dict[str, Any] = {
    "confirmed": True,
    "block_height": 363348,
    "block_hash": "0000000000000000139385d7aa78ffb45469e0c715b8d6ea6cb2ffa98acc7171",
    "block_time": 1435754650,
}
# ELECTRS `TransactionStatus` of a mempool transaction (API.md: block_* "optional").
TX_STATUS_UNCONFIRMED: dict[str, Any] = {"confirmed": False}

# MEMPOOL get-transaction-outspend (15e10745…:3).
OUTSPEND_SPENT: dict[str, Any] = {
    "spent": True,
    "txid": "2a1b8ec06d68096911da82b02806c3848c415b0044a0046850c4a97cbffac7b1",
    "vin": 1,
    "status": {
        "confirmed": True,
        "block_height": 363354,
        "block_hash": "000000000000000012e6130dec174ca877bf39ead6e3d04a8ba3b0cd683c1661",
        "block_time": 1435758032,
    },
}
# ELECTRS src/rest.rs `SpendingValue::default()`: txid, vin and status left out.
OUTSPEND_UNSPENT: dict[str, Any] = {"spent": False}

# MEMPOOL get-block.
BLOCK_HASH = "000000000000000015dc777b3ff2611091336355d3f0ee9766a2cf3be8e4b1ce"
BLOCK: dict[str, Any] = {
    "id": BLOCK_HASH,
    "height": 363366,
    "version": 2,
    "timestamp": 1435766771,
    "tx_count": 494,
    "size": 286494,
    "weight": 1145976,
    "merkle_root": "9d3cb87bf05ebae366b4262ed5f768ce8c62fc385c3886c9cb097647b04b686c",
    "previousblockhash": "000000000000000010c545b6fa3ef1f7cf45a2a8760b1ee9f2e89673218207ce",
    "mediantime": 1435763435,
    "nonce": 2892644888,
    "bits": 404111758,
    "difficulty": 49402014931.2275,
}

# MEMPOOL get-block-tip-height and get-block-tip-hash: text/plain bodies (ELECTRS
# `http_message`, Content-Type text/plain).
TIP_HEIGHT_TEXT = "698767"
TIP_HASH_TEXT = "0000000000000000000624d76f52661d0f35a0da8b93a87cb93cf08fd9140209"

# API.md `GET /fee-estimates` example (its `...` left out).
FEE_ESTIMATES: dict[str, float] = {
    "1": 87.882,
    "2": 87.882,
    "3": 87.882,
    "4": 87.882,
    "5": 81.129,
    "6": 68.285,
    "144": 1.027,
    "504": 1.027,
    "1008": 1.027,
}
# MEMPOOL get-recommended-fees (`/v1/fees/recommended`; also what satflow-mm reads from
# memflow.satflow.com, [MM] src/services/fee-service.js:19).
RECOMMENDED_FEES: dict[str, float] = {
    "fastestFee": 1,
    "halfHourFee": 1,
    "hourFee": 1,
    "economyFee": 1,
    "minimumFee": 1,
}
# MEMPOOL get-recommended-fees-precise (`/v1/fees/precise`): the same five names with distinct
# values, so which name lands on which target shows.
PRECISE_FEES: dict[str, float] = {
    "fastestFee": 2.023,
    "halfHourFee": 1.094,
    "hourFee": 0.502,
    "economyFee": 0.2,
    "minimumFee": 0.1,
}

# MEMPOOL post-transaction: the raw transaction of its curl example (also what
# `GET /tx/:txid/hex` returns, as text/plain); the answer is the txid as text.
RAW_TX = (
    "0200000001fd5b5fcd1cb066c27cfc9fda5428b9be850b81ac440ea51f1ddba2f987189ac1010000008a4730"
    "440220686a40e9d2dbffeab4ca1ff66341d06a17806767f12a1fc4f55740a7af24c6b5022049dd3c9a85ac6c"
    "51fecd5f4baff7782a518781bbdd94453c8383755e24ba755c01410436d554adf4a3eb03a317c77aa4020a7b"
    "ba62999df633bba0ea8f83f48b9e01b0861d3b3c796840f982ee6b14c3c4b7ad04fcfcc3774f81bff9aaf52a"
    "15751fedfdffffff02416c00000000000017a914bc791b2afdfe1e1b5650864a9297b20d74c61f4787d71d00"
    "00000000001976a9140a59837ccd4df25adc31cdad39be6a8d97557ed688ac00000000"
)
# ELECTRS src/daemon.rs `"{} RPC error: {}"` (the node's JSON-RPC error), sent as a 400 text
# body by src/rest.rs `impl From<String> for HttpError`.
BROADCAST_REJECTED_TEXT = (
    'sendrawtransaction RPC error: {"code":-26,"message":"min relay fee not met, 110 < 141"}'
)
