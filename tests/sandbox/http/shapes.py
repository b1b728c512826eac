"""Key sets of the public APIs the sandbox imitates, from their documentation.

Esplora: Blockstream/esplora API.md ("Transaction format", "Block format",
`GET /address/:address`, `/utxo`, `/fee-estimates`, `/tx/:txid/outspend/:vout`).
ord: ordinals/ord `src/api.rs` (`Output`, `Inscription`) and its address JSON.
mempool.space: its REST API docs, `GET /api/v1/fees/recommended`.
"""

from __future__ import annotations

# ord's `/rune/<RUNE>` (docs/src/guides/api.md); the sandbox serves these of the entry's fields.
ORD_RUNE = {"entry", "id", "mintable", "parent"}
ORD_RUNE_ENTRY_SERVED = {"spaced_rune", "divisibility", "number", "symbol"}
MEMPOOL_RECOMMENDED_FEES = {"fastestFee", "halfHourFee", "hourFee", "economyFee", "minimumFee"}
ESPLORA_ADDRESS = {"address", "chain_stats", "mempool_stats"}
ESPLORA_ADDRESS_STATS = {
    "tx_count",
    "funded_txo_count",
    "funded_txo_sum",
    "spent_txo_count",
    "spent_txo_sum",
}
ESPLORA_UTXO = {"txid", "vout", "value", "status"}
ESPLORA_TX = {"txid", "version", "locktime", "size", "weight", "fee", "vin", "vout", "status"}
ESPLORA_VIN_REQUIRED = {
    "txid",
    "vout",
    "prevout",
    "scriptsig",
    "scriptsig_asm",
    "is_coinbase",
    "sequence",
}
ESPLORA_VIN_OPTIONAL = {"witness", "inner_redeemscript_asm", "inner_witnessscript_asm"}
ESPLORA_VOUT = {
    "scriptpubkey",
    "scriptpubkey_asm",
    "scriptpubkey_type",
    "scriptpubkey_address",
    "value",
}
ESPLORA_STATUS_CONFIRMED = {"confirmed", "block_height", "block_hash", "block_time"}
ESPLORA_STATUS_UNCONFIRMED = {"confirmed"}
# `GET /tx/:txid/outspend/:vout`: "`spent` (boolean), `txid` (optional), `vin` (optional) and
# `status` (optional, the status of the spending tx)"; electrs leaves the optional ones out.
ESPLORA_OUTSPEND_SPENT = {"spent", "txid", "vin", "status"}
# "Block format" (and electrs `BlockValue`, in its order); `previousblockhash` is null at 0.
ESPLORA_BLOCK = {
    "id",
    "height",
    "version",
    "timestamp",
    "tx_count",
    "size",
    "weight",
    "merkle_root",
    "previousblockhash",
    "mediantime",
    "nonce",
    "bits",
    "difficulty",
}
# "The available confirmation targets are 2, 3, 4, 5, 6, 10, 20, 25, 144, 504 and 1008 blocks."
ESPLORA_FEE_TARGETS = {"2", "3", "4", "5", "6", "10", "20", "25", "144", "504", "1008"}

# ord's `Output` (api.rs) plus `outpoint`, which newer ord versions add.
ORD_OUTPUT = {
    "address",
    "indexed",
    "inscriptions",
    "outpoint",
    "runes",
    "sat_ranges",
    "script_pubkey",
    "spent",
    "transaction",
    "value",
}
# The part of ord's `Inscription` the app relies on, plus the sandbox's own fields the issue asks
# for (output, offset, collection, traits, tap_transfer).
ORD_INSCRIPTION_REQUIRED = {"address", "id", "number", "satpoint", "value"}
SANDBOX_INSCRIPTION_EXTRA = {"output", "offset", "collection", "traits", "tap_transfer"}
ORD_ADDRESS = {"outputs", "inscriptions", "sat_balance", "runes_balances"}
SANDBOX_ADDRESS_EXTRA = {"address"}
