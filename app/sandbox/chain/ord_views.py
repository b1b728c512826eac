"""ord's JSON API shapes (`/output`, `/inscription`, `/address`), read from the SQLite index.

The sandbox shows the current state including the mempool (real ord indexes blocks only), so
a transfer is visible as soon as it is acknowledged. `unindexed` is what real ord answers for
an output it has not indexed yet (any mempool transaction's): the node serves it instead when
the scenario API says so (`POST /sandbox/ord/mempool {"indexed": false}`).
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.errors import InvalidRequest

Json = dict[str, Any]
OUTPOINT_PATTERN = re.compile(r"^([0-9a-f]{64}):(\d{1,10})$")
INSCRIPTION_ID_PATTERN = re.compile(r"^[0-9a-f]{64}i\d{1,10}$")


def parse_outpoint(outpoint: Any) -> tuple[str, int]:
    match = OUTPOINT_PATTERN.match(outpoint) if isinstance(outpoint, str) else None
    if match is None or int(match.group(2)) > 0xFFFFFFFF:
        raise InvalidRequest("outpoint must look like <64 hex txid>:<vout>", "INVALID_OUTPOINT")
    return match.group(1), int(match.group(2))


def check_inscription_id(inscription_id: Any) -> str:
    if not isinstance(inscription_id, str) or not INSCRIPTION_ID_PATTERN.match(inscription_id):
        raise InvalidRequest(
            "inscription id must look like <64 hex txid>i<index>", "INVALID_INSCRIPTION_ID"
        )
    return inscription_id


def _runes_on(conn: sqlite3.Connection, txid: str, vout: int) -> Json:
    rows = conn.execute(
        "SELECT r.spaced, b.amount, r.divisibility, r.symbol FROM rune_balances b "
        "JOIN runes r ON r.rune = b.rune WHERE b.txid = ? AND b.vout = ? ORDER BY r.number",
        (txid, vout),
    ).fetchall()
    return {
        spaced: {"amount": int(amount), "divisibility": div, "symbol": symbol}
        for spaced, amount, div, symbol in rows
    }


def output(conn: sqlite3.Connection, outpoint: str) -> Json | None:
    txid, vout = parse_outpoint(outpoint)
    row = conn.execute(
        "SELECT value, script_pubkey, spent_txid FROM outputs WHERE txid = ? AND vout = ?",
        (txid, vout),
    ).fetchone()
    if row is None:
        return None
    value, spk, spent_txid = row[0], bytes(row[1]), row[2]
    inscriptions = [
        r[0]
        for r in conn.execute(
            "SELECT l.id FROM inscription_locations l JOIN inscriptions i ON i.id = l.id "
            "WHERE l.txid = ? AND l.vout = ? ORDER BY l.offset, i.number",
            (txid, vout),
        )
    ]
    return {
        "address": address_for_script(spk),
        "indexed": True,
        "inscriptions": inscriptions,
        "outpoint": f"{txid}:{vout}",
        "runes": _runes_on(conn, txid, vout),
        "sat_ranges": None,
        "script_pubkey": spk.hex(),
        "spent": spent_txid is not None,
        "transaction": txid,
        "value": value,
    }


def confirmed(conn: sqlite3.Connection, txid: str) -> bool:
    """Whether the transaction is in a block (False: in the mempool, or unknown)."""
    row = conn.execute("SELECT height FROM txs WHERE txid = ?", (txid,)).fetchone()
    return row is not None and row[0] is not None


def unindexed(output: Json) -> Json:
    """`output` as real ord shows an output it has not indexed: value, address and script (ord
    reads them from Bitcoin Core), `indexed: false`, no inscriptions, no runes, no sat ranges,
    and not spent (ord does not follow the mempool)."""
    return output | {
        "indexed": False,
        "inscriptions": [],
        "runes": {},
        "sat_ranges": None,
        "spent": False,
    }


def inscription(conn: sqlite3.Connection, inscription_id: str) -> Json | None:
    row = conn.execute(
        "SELECT i.number, i.genesis_txid, i.collection, i.attributes, i.tap_transfer, "
        "i.content_type, i.created_ms, l.txid, l.vout, l.offset, gt.height, gt.fee "
        "FROM inscriptions i LEFT JOIN inscription_locations l ON l.id = i.id "
        "LEFT JOIN txs gt ON gt.txid = i.genesis_txid WHERE i.id = ?",
        (check_inscription_id(inscription_id),),
    ).fetchone()
    if row is None:
        return None
    number, genesis_txid, collection, attributes, tap, ctype, created_ms = row[:7]
    txid, vout, offset, height, fee = row[7:]
    address = value = None
    if txid is not None:
        out = conn.execute(
            "SELECT value, script_pubkey FROM outputs WHERE txid = ? AND vout = ?", (txid, vout)
        ).fetchone()
        value, address = out[0], address_for_script(bytes(out[1]))
    return {
        "id": inscription_id,
        "number": number,
        "address": address,
        "output": None if txid is None else f"{txid}:{vout}",
        "offset": offset,
        "satpoint": None if txid is None else f"{txid}:{vout}:{offset}",
        "value": value,
        "content_type": ctype,
        "genesis_txid": genesis_txid,
        "genesis_height": height,
        "genesis_fee": fee,
        "timestamp": created_ms // 1000,
        "collection": collection,
        "traits": json.loads(attributes),
        "tap_transfer": bool(tap),
        "charms": [],
        "parents": [],
        "children": [],
        "sat": None,
    }


def address(conn: sqlite3.Connection, address_text: str, spk: bytes) -> Json:
    outputs = conn.execute(
        "SELECT o.txid, o.vout, o.value FROM outputs o JOIN txs t ON t.txid = o.txid "
        "WHERE o.script_pubkey = ? AND o.spent_txid IS NULL "
        "ORDER BY t.height IS NULL, t.height, o.txid, o.vout",
        (spk,),
    ).fetchall()
    inscriptions = [
        r[0]
        for r in conn.execute(
            "SELECT l.id FROM inscription_locations l JOIN outputs o "
            "ON o.txid = l.txid AND o.vout = l.vout JOIN inscriptions i ON i.id = l.id "
            "WHERE o.script_pubkey = ? ORDER BY i.number",
            (spk,),
        )
    ]
    balances: dict[str, tuple[int, str]] = {}
    for spaced, amount, symbol in conn.execute(
        "SELECT r.spaced, b.amount, r.symbol FROM rune_balances b JOIN outputs o "
        "ON o.txid = b.txid AND o.vout = b.vout JOIN runes r ON r.rune = b.rune "
        "WHERE o.script_pubkey = ? ORDER BY r.number",
        (spk,),
    ):
        total, _ = balances.get(spaced, (0, symbol))
        balances[spaced] = (total + int(amount), symbol)
    return {
        "address": address_text,
        "outputs": [f"{txid}:{vout}" for txid, vout, _ in outputs],
        "inscriptions": inscriptions,
        "sat_balance": sum(value for _, _, value in outputs),
        "runes_balances": [[name, str(total), sym] for name, (total, sym) in balances.items()],
    }
