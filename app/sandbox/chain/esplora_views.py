"""Esplora (Blockstream / mempool.space) JSON shapes, read from the SQLite index."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.mempool import Mempool
from app.sandbox.chain.rawtx import ParsedTx, parse_tx
from app.sandbox.chain.script_info import script_asm, script_type

Json = dict[str, Any]
TXID_PATTERN = re.compile(r"^[0-9a-f]{64}$")
FEE_TARGETS = [*range(1, 26), 144, 504, 1008]
BLOCK_VBYTES = 1_000_000


def check_txid(txid: Any) -> str:
    if not isinstance(txid, str) or not TXID_PATTERN.match(txid):
        raise InvalidRequest("txid must be 64 lower-case hex characters", "INVALID_TXID")
    return txid


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
    """Fee rate needed to be within the first `n` blocks of the current mempool, never below
    the relay minimum (an empty mempool gives the minimum for every target)."""
    rates = mempool.fee_rates_at_depths([t * BLOCK_VBYTES for t in FEE_TARGETS])
    return {
        str(target): round(max(floor, rate or floor), 3)
        for target, rate in zip(FEE_TARGETS, rates, strict=True)
    }
