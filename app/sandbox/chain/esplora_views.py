"""Esplora (Blockstream / mempool.space) JSON shapes, read from the SQLite index."""

from __future__ import annotations

import re
import sqlite3
import struct
from typing import Any

from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.blocks import HEADER_SIZE, block_transactions
from app.sandbox.chain.consensus import (
    COINBASE_WEIGHT_RESERVE,
    MAX_BLOCK_WEIGHT,
    compact_size,
    sha256d,
)
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.mempool import Mempool
from app.sandbox.chain.rawtx import ParsedTx, parse_tx
from app.sandbox.chain.script_info import script_asm, script_type

Json = dict[str, Any]
TXID_PATTERN = re.compile(r"^[0-9a-f]{64}$")
FEE_TARGETS = [*range(1, 26), 144, 504, 1008]
# What a mined block holds (engine._template): the block weight less the coinbase's reserve.
BLOCK_VBYTES = (MAX_BLOCK_WEIGHT - COINBASE_WEIGHT_RESERVE) // 4


def check_txid(txid: Any) -> str:
    if not isinstance(txid, str) or not TXID_PATTERN.match(txid):
        raise InvalidRequest("txid must be 64 lower-case hex characters", "INVALID_TXID")
    return txid


def check_block_hash(block_hash: Any) -> str:
    if not isinstance(block_hash, str) or not TXID_PATTERN.match(block_hash):
        raise InvalidRequest(
            "block hash must be 64 lower-case hex characters", "INVALID_BLOCK_HASH"
        )
    return block_hash


def _stats(conn: sqlite3.Connection, spk: bytes, confirmed: bool) -> Json:
    cond = "IS NOT NULL" if confirmed else "IS NULL"
    funded = conn.execute(
        f"SELECT COUNT(*), COALESCE(SUM(o.value), 0) FROM outputs o JOIN txs t ON t.txid = o.txid "
        f"WHERE o.script_pubkey = ? AND t.height {cond}",
        (spk,),
    ).fetchone()
    spent = conn.execute(
        f"SELECT COUNT(*), COALESCE(SUM(o.value), 0) FROM outputs o "
        f"JOIN txs s ON s.txid = o.spent_txid WHERE o.script_pubkey = ? AND s.height {cond}",
        (spk,),
    ).fetchone()
    tx_count = conn.execute(
        f"SELECT COUNT(*) FROM (SELECT o.txid FROM outputs o JOIN txs t ON t.txid = o.txid "
        f"WHERE o.script_pubkey = ? AND t.height {cond} UNION SELECT o.spent_txid FROM outputs o "
        f"JOIN txs s ON s.txid = o.spent_txid WHERE o.script_pubkey = ? AND s.height {cond})",
        (spk, spk),
    ).fetchone()[0]
    return {
        "funded_txo_count": funded[0],
        "funded_txo_sum": funded[1],
        "spent_txo_count": spent[0],
        "spent_txo_sum": spent[1],
        "tx_count": tx_count,
    }


def address_stats(conn: sqlite3.Connection, address: str, spk: bytes) -> Json:
    return {
        "address": address,
        "chain_stats": _stats(conn, spk, True),
        "mempool_stats": _stats(conn, spk, False),
    }


def address_utxos(conn: sqlite3.Connection, spk: bytes) -> list[Json]:
    rows = conn.execute(
        "SELECT o.txid, o.vout, o.value, t.height, b.hash, b.time FROM outputs o "
        "JOIN txs t ON t.txid = o.txid LEFT JOIN blocks b ON b.height = t.height "
        "WHERE o.script_pubkey = ? AND o.spent_txid IS NULL "
        "ORDER BY t.height IS NULL, t.height, o.txid, o.vout",
        (spk,),
    ).fetchall()
    return [
        {"txid": txid, "vout": vout, "status": _status(height, bhash, btime), "value": value}
        for txid, vout, value, height, bhash, btime in rows
    ]


def _status(height: int | None, block_hash: str | None, block_time: int | None) -> Json:
    if height is None:
        return {"confirmed": False}
    return {
        "confirmed": True,
        "block_height": height,
        "block_hash": block_hash,
        "block_time": block_time,
    }


def tx_status(conn: sqlite3.Connection, txid: str) -> Json | None:
    row = conn.execute(
        "SELECT t.height, b.hash, b.time FROM txs t LEFT JOIN blocks b ON b.height = t.height "
        "WHERE t.txid = ?",
        (check_txid(txid),),
    ).fetchone()
    return None if row is None else _status(*row)


def tx_hex(conn: sqlite3.Connection, txid: str) -> str | None:
    row = conn.execute(
        "SELECT r.raw FROM raw_txs r JOIN txs t ON t.txid = r.txid WHERE r.txid = ?",
        (check_txid(txid),),
    ).fetchone()
    return None if row is None else bytes(row[0]).hex()


def outspend(conn: sqlite3.Connection, txid: str, vout: int) -> Json:
    """Esplora `GET /tx/{txid}/outspend/{vout}`: `{"spent": false}`, or `{"spent": true,
    "txid", "vin", "status"}` naming the spending input, a mempool spend included. Like
    Esplora (electrs `rest.rs`, which only looks the spend up), an unknown transaction or a vout
    past its outputs is `{"spent": false}` too, not an error."""
    row = conn.execute(
        "SELECT o.spent_txid, o.spent_vin, t.height, b.hash, b.time FROM outputs o "
        "LEFT JOIN txs t ON t.txid = o.spent_txid LEFT JOIN blocks b ON b.height = t.height "
        "WHERE o.txid = ? AND o.vout = ?",
        (check_txid(txid), vout),
    ).fetchone()
    if row is None or row[0] is None:
        return {"spent": False}
    spent_txid, vin, height, block_hash, block_time = row
    return {
        "spent": True,
        "txid": spent_txid,
        "vin": vin,
        "status": _status(height, block_hash, block_time),
    }


def difficulty(bits: int) -> float:
    """Bitcoin Core's `GetDifficulty` of a compact target (regtest: 4.656542373906925e-10), as
    mempool.space's electrs reports it (Blockstream's reports rust-bitcoin's integer quotient,
    0 on regtest)."""
    shift = (bits >> 24) & 0xFF
    value = 0x0000FFFF / (bits & 0x00FFFFFF)
    while shift < 29:
        value *= 256.0
        shift += 1
    while shift > 29:
        value /= 256.0
        shift -= 1
    return value


def block_json(raw_block: bytes, height: int, median_time: int) -> Json:
    """Esplora `GET /block/{hash}` of a raw block at `height` whose median time past (BIP-113:
    the median of the times of the last 11 blocks up to and including it) is `median_time`.
    Keys in Esplora's order; `previousblockhash` is null for the genesis block."""
    header = raw_block[:HEADER_SIZE]
    (version,) = struct.unpack_from("<I", header, 0)
    timestamp, bits, nonce = struct.unpack_from("<III", header, 68)
    previous = header[4:36][::-1].hex()
    txs = block_transactions(raw_block)
    # Weight = 3 x stripped size + total size: 4 per byte of header and tx count, plus each
    # transaction's own weight.
    weight = 4 * (HEADER_SIZE + len(compact_size(len(txs)))) + sum(tx.weight for tx in txs)
    return {
        "id": sha256d(header)[::-1].hex(),
        "height": height,
        "version": version,
        "timestamp": timestamp,
        "tx_count": len(txs),
        "size": len(raw_block),
        "weight": weight,
        "merkle_root": header[36:68][::-1].hex(),
        "previousblockhash": None if previous == "00" * 32 else previous,
        "mediantime": median_time,
        "nonce": nonce,
        "bits": bits,
        "difficulty": difficulty(bits),
    }


def _output_json(value: int, spk: bytes) -> Json:
    out: Json = {
        "scriptpubkey": spk.hex(),
        "scriptpubkey_asm": script_asm(spk),
        "scriptpubkey_type": script_type(spk),
    }
    address = address_for_script(spk)
    if address is not None:
        out["scriptpubkey_address"] = address
    out["value"] = value
    return out


def tx_json(conn: sqlite3.Connection, txid: str) -> Json | None:
    row = conn.execute(
        "SELECT r.raw, t.fee FROM raw_txs r JOIN txs t ON t.txid = r.txid WHERE r.txid = ?",
        (check_txid(txid),),
    ).fetchone()
    if row is None:
        return None
    tx = parse_tx(bytes(row[0]))
    status = tx_status(conn, txid)
    return {
        "txid": tx.txid,
        "version": tx.version,
        "locktime": tx.locktime,
        "vin": _inputs_json(conn, tx),
        "vout": [_output_json(o.value, o.script_pubkey) for o in tx.outputs],
        "size": tx.size,
        "weight": tx.weight,
        "fee": row[1],
        "status": status,
    }


def _inputs_json(conn: sqlite3.Connection, tx: ParsedTx) -> list[Json]:
    result = []
    for inp in tx.inputs:
        prevout = None
        if not tx.is_coinbase:
            prev = conn.execute(
                "SELECT value, script_pubkey FROM outputs WHERE txid = ? AND vout = ?",
                (inp.prev_txid, inp.prev_vout),
            ).fetchone()
            prevout = None if prev is None else _output_json(prev[0], bytes(prev[1]))
        item: Json = {
            "txid": inp.prev_txid,
            "vout": inp.prev_vout,
            "prevout": prevout,
            "scriptsig": inp.script_sig.hex(),
            "scriptsig_asm": script_asm(inp.script_sig),
        }
        if inp.witness:
            item["witness"] = [w.hex() for w in inp.witness]
        item["is_coinbase"] = tx.is_coinbase
        item["sequence"] = inp.sequence
        result.append(item)
    return result


def fee_estimates(mempool: Mempool, floor: float) -> dict[str, float]:
    """For each confirmation target n, the fee rate a transaction needs to be among the first
    n blocks mined from the current mempool: blocks are projected as the sandbox mines them
    (BLOCK_VBYTES each, best fee rate first, like mempool.space's projected blocks), and the
    rate is that of the transaction waiting just past n blocks' worth, the one to outbid.
    Never below the relay minimum: with less than n blocks' worth waiting, the minimum is
    enough (an empty mempool gives it for every target). A busy mempool
    (`POST /sandbox/mempool/traffic`) makes them differ by target."""
    rates = mempool.fee_rates_at_depths([t * BLOCK_VBYTES for t in FEE_TARGETS])
    return {
        str(target): round(max(floor, rate or floor), 3)
        for target, rate in zip(FEE_TARGETS, rates, strict=True)
    }
