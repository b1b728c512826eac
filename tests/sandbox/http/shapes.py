"""Key sets of the public APIs the sandbox imitates, from their documentation.

Esplora: Blockstream/esplora API.md ("Transaction format", "Block format",
`GET /address/:address`, `/utxo`, `/fee-estimates`, `/tx/:txid/outspend/:vout`).
ord: ordinals/ord at commit 5241ef311e015cff4759a379085c8cc8913e621a: `src/api.rs` (`Output`,
`Inscription`, `AddressInfo`, `Rune`) and `src/index/entry.rs` (`RuneEntry`).
mempool.space: its REST API docs, `GET /api/v1/fees/recommended`.
"""

from __future__ import annotations

# ord's `/rune/<RUNE>` (`api::Rune`, a re-export of templates/rune.rs's `RuneHtml`) and its
# `RuneEntry` (src/index/entry.rs).
ORD_RUNE = {"entry", "id", "mintable", "parent"}
ORD_RUNE_ENTRY = {
    "block",
    "burned",
    "divisibility",
    "etching",
    "mints",
    "number",
    "premine",
    "spaced_rune",
    "symbol",
    "terms",
    "timestamp",
    "turbo",
}
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

# ord's `Output` (api.rs).
ORD_OUTPUT = {
    "address",
    "confirmations",
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
# ord's `Inscription` (api.rs), plus the sandbox's own fields (collection, traits, tap_transfer)
# and the older names it still serves (output, offset, genesis_*).
ORD_INSCRIPTION = {
    "address",
    "charms",
    "child_count",
    "children",
    "content_length",
    "content_type",
    "effective_content_type",
    "fee",
    "height",
    "id",
    "metaprotocol",
    "next",
    "number",
    "parents",
    "previous",
    "properties",
    "rune",
    "sat",
    "satpoint",
    "timestamp",
    "value",
}
ORD_INSCRIPTION_REQUIRED = {"address", "id", "number", "satpoint", "value"}
SANDBOX_INSCRIPTION_EXTRA = {
    "output",
    "offset",
    "genesis_txid",
    "genesis_height",
    "genesis_fee",
    "collection",
    "traits",
    "tap_transfer",
}
ORD_ADDRESS = {"outputs", "inscriptions", "sat_balance", "runes_balances"}
SANDBOX_ADDRESS_EXTRA = {"address"}
