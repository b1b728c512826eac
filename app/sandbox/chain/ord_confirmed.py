"""ord's views as real ord answers them: the confirmed state only (ord indexes blocks, never the
mempool), in the JSON of ord's `api::Output`, `api::Inscription` and `api::AddressInfo`
(ordinals/ord src/api.rs, src/index.rs `get_output_info`):

- an output of a mempool transaction: `indexed: false`, no inscriptions, no runes, 0
  confirmations (ord reads its value and script from Bitcoin Core);
- an output spent in the mempool: still indexed, with the contents it had in the last block,
  and `spent: true` (ord asks Core's `gettxout` with the mempool included);
- an output spent in a block: `indexed: false` and empty (ord drops spent outputs);
- an inscription whose reveal is in the mempool is unknown (404), one moved in the mempool is
  where the last block left it.

`ord_views` holds the current state, mempool included, which the market itself reads.
"""

from __future__ import annotations

import sqlite3

from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.ord_views import (
    RUNE_BALANCES,
    Json,
    check_inscription_id,
    inscription_json,
    inscription_row,
    outpoint_order,
    parse_outpoint,
    rune_piles,
    runes_balances,
)

# An output as the chain has it: value, script, its tx's height, who spent it and at what height.
_OUTPUT_ROW = (
    "SELECT o.value, o.script_pubkey, t.height, o.spent_txid, s.height FROM outputs o "
    "JOIN txs t ON t.txid = o.txid LEFT JOIN txs s ON s.txid = o.spent_txid "
    "WHERE o.txid = ? AND o.vout = ?"
)


def tip_height(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COALESCE(MAX(height), 0) FROM blocks").fetchone()[0])


def _contents(
    conn: sqlite3.Connection, txid: str, vout: int, spent: bool
) -> tuple[list[str], Json]:
    """The inscriptions (by inscription number, as ord sorts them) and rune piles of a
    confirmed output: the current ones, or those it held when spent (in the mempool)."""
    inscriptions_table = "spent_inscriptions" if spent else "inscription_locations"
    balances_table = "spent_rune_balances" if spent else "rune_balances"
    inscriptions = [
        r[0]
        for r in conn.execute(
            f"SELECT l.id FROM {inscriptions_table} l JOIN inscriptions i ON i.id = l.id "
            "WHERE l.txid = ? AND l.vout = ? ORDER BY i.number",
            (txid, vout),
        )
    ]
    runes = rune_piles(conn.execute(RUNE_BALANCES.format(table=balances_table), (txid, vout)))
    return inscriptions, runes


def output(conn: sqlite3.Connection, outpoint: str) -> Json | None:
    """ord `GET /output/<outpoint>` (`api::Output`); None when no such output exists."""
    txid, vout = parse_outpoint(outpoint)
    row = conn.execute(_OUTPUT_ROW, (txid, vout)).fetchone()
    if row is None:
        return None
    value, spk_blob, height, spent_txid, spent_height = row
    spk = bytes(spk_blob)
    spent = spent_txid is not None
    indexed = height is not None and spent_height is None
    inscriptions, runes = _contents(conn, txid, vout, spent) if indexed else ([], {})
    return {
        "address": address_for_script(spk),
        "confirmations": 0 if height is None else tip_height(conn) - height + 1,
        "indexed": indexed,
        "inscriptions": inscriptions,
        "outpoint": f"{txid}:{vout}",
        "runes": runes,
        "sat_ranges": None,  # ord has them only with --index-sats
        "script_pubkey": spk.hex(),
        "spent": spent,
        "transaction": txid,
        "value": value,
    }


def _satpoint(conn: sqlite3.Connection, inscription_id: str) -> tuple[str, int, int] | None:
    """Where the last block left the inscription: (txid, vout, offset), None when lost."""
    current = conn.execute(
        "SELECT l.txid, l.vout, l.offset FROM inscription_locations l "
        "JOIN txs t ON t.txid = l.txid WHERE l.id = ? AND t.height IS NOT NULL",
        (inscription_id,),
    ).fetchone()
    if current is not None:
        return current[0], current[1], current[2]
    # Moved (or sent to fees) by a mempool transaction: the confirmed output it left.
    left = conn.execute(
        "SELECT s.txid, s.vout, s.offset FROM spent_inscriptions s "
        "JOIN outputs o ON o.txid = s.txid AND o.vout = s.vout JOIN txs t ON t.txid = s.txid "
        "JOIN txs sp ON sp.txid = o.spent_txid "
        "WHERE s.id = ? AND t.height IS NOT NULL AND sp.height IS NULL",
        (inscription_id,),
    ).fetchone()
    return None if left is None else (left[0], left[1], left[2])


def inscription(conn: sqlite3.Connection, inscription_id: str) -> Json | None:
    """ord `GET /inscription/<id>`, where the last block left it; None when unknown or
    revealed in the mempool."""
    row = conn.execute(
        "SELECT i.number, i.genesis_txid, i.collection, i.attributes, i.tap_transfer, "
        "i.content_type, gt.height, gt.fee, b.time FROM inscriptions i "
        "JOIN txs gt ON gt.txid = i.genesis_txid JOIN blocks b ON b.height = gt.height "
        "WHERE i.id = ?",
        (check_inscription_id(inscription_id),),
    ).fetchone()
    if row is None:
        return None
    ins = inscription_row(inscription_id, row)
    return inscription_json(conn, ins, _satpoint(conn, inscription_id), confirmed_only=True)


def address(conn: sqlite3.Connection, address_text: str, spk: bytes) -> Json:
    """ord `GET /address/<address>` (`api::AddressInfo`, plus the address): the outputs of the
    last block's UTXO set (those spent in the mempool included), sorted, and their contents."""
    outputs = conn.execute(
        "SELECT o.txid, o.vout, o.value, o.spent_txid IS NOT NULL FROM outputs o "
        "JOIN txs t ON t.txid = o.txid LEFT JOIN txs s ON s.txid = o.spent_txid "
        "WHERE o.script_pubkey = ? AND t.height IS NOT NULL AND s.height IS NULL",
        (spk,),
    ).fetchall()
    outputs.sort(key=outpoint_order)
    inscriptions: list[str] = []
    piles: list[Json] = []
    for txid, vout, _, spent in outputs:
        on_output, runes = _contents(conn, txid, vout, bool(spent))
        inscriptions += on_output
        piles.append(runes)
    return {
        "address": address_text,
        "outputs": [f"{txid}:{vout}" for txid, vout, _, _ in outputs],
        "inscriptions": inscriptions,
        "sat_balance": sum(value for _, _, value, _ in outputs),
        "runes_balances": runes_balances(piles),
    }
