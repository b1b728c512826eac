"""ord's JSON API shapes (`/output`, `/inscription`, `/address`) of the current state, mempool
included, read from the SQLite index: what the market itself reads (a transfer counts as soon
as it is acknowledged). Real ord indexes blocks only: `/ord` serves `ord_confirmed`'s views
unless the scenario API asks for these (`POST /sandbox/ord/mempool {"indexed": true}`).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.rune_names import rune_letters, rune_value
from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.ord_envelope_fields import envelope_fields

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


# An output's rune balances: (letters, spaced name, amount, divisibility, symbol) per rune.
RUNE_BALANCES = (
    "SELECT r.rune, r.spaced, b.amount, r.divisibility, r.symbol FROM {table} b "
    "JOIN rune_entries r ON r.rune = b.rune WHERE b.txid = ? AND b.vout = ?"
)


def rune_piles(rows: Iterable[Sequence[Any]]) -> Json:
    """`/output`'s `runes` from RUNE_BALANCES rows: {spaced: {amount, divisibility, symbol}}
    in ord's order, a `BTreeMap<SpacedRune, Pile>`'s (by rune number, not etching order)."""
    return {
        spaced: {"amount": int(amount), "divisibility": div, "symbol": symbol}
        for _, spaced, amount, div, symbol in sorted(rows, key=lambda r: rune_value(r[0]))
    }


def runes_balances(piles: Iterable[Json]) -> list[list[str | None]]:
    """`/address`'s `runes_balances` from its outputs' `rune_piles`: [spaced, amount, symbol]
    per rune, the amounts summed and written as ord's `Decimal` of the rune's divisibility
    ("123.45"), in a `BTreeMap<SpacedRune, _>`'s order (src/index.rs
    `get_aggregated_rune_balances_for_outputs`)."""
    totals: dict[str, Json] = {}
    for runes in piles:
        for spaced, pile in runes.items():
            total = totals.setdefault(spaced, {**pile, "amount": 0})
            total["amount"] += pile["amount"]
    ordered = sorted(totals.items(), key=lambda item: rune_value(rune_letters(item[0])))
    return [
        [spaced, ord_decimal(t["amount"], t["divisibility"]), t["symbol"]] for spaced, t in ordered
    ]


def ord_decimal(value: int, scale: int) -> str:
    """ord's `Decimal` as it writes one (src/decimal.rs): `value` / 10^scale, no trailing
    zeros in the fraction, no point when there is none."""
    integer, fraction = divmod(value, 10**scale)
    if fraction == 0:
        return str(integer)
    return f"{integer}.{str(fraction).rjust(scale, '0').rstrip('0')}"


def outpoint_order(row: Sequence[Any]) -> tuple[bytes, int]:
    """The sort key of ord's `OutPoint` for a row starting (txid, vout): the txid's bytes as
    stored, the reverse of its hex, then the vout (how `/address` sorts its outputs)."""
    return bytes.fromhex(row[0])[::-1], int(row[1])


def _runes_on(conn: sqlite3.Connection, txid: str, vout: int) -> Json:
    return rune_piles(conn.execute(RUNE_BALANCES.format(table="rune_balances"), (txid, vout)))


def output(conn: sqlite3.Connection, outpoint: str) -> Json | None:
    txid, vout = parse_outpoint(outpoint)
    row = conn.execute(
        "SELECT o.value, o.script_pubkey, o.spent_txid, t.height, "
        "(SELECT MAX(height) FROM blocks) FROM outputs o JOIN txs t ON t.txid = o.txid "
        "WHERE o.txid = ? AND o.vout = ?",
        (txid, vout),
    ).fetchone()
    if row is None:
        return None
    value, spk_blob, spent_txid, height, tip = row
    spk = bytes(spk_blob)
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
        "confirmations": 0 if height is None else tip - height + 1,
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


@dataclass(frozen=True)
class InscriptionRow:
    """An inscription's catalog row and genesis, as both views read them."""

    id: str
    number: int
    genesis_txid: str
    collection: str | None
    attributes: str  # JSON
    tap_transfer: bool
    content_type: str
    height: int | None  # of the genesis; None in the mempool
    fee: int | None
    timestamp: int


def inscription_row(inscription_id: str, row: Sequence[Any]) -> InscriptionRow:
    """From the columns number, genesis_txid, collection, attributes, tap_transfer,
    content_type, genesis height, genesis fee, timestamp."""
    number, genesis_txid, collection, attributes, tap, ctype, height, fee, timestamp = row
    return InscriptionRow(
        inscription_id, number, genesis_txid, collection, attributes, bool(tap), ctype,
        height, fee, timestamp,
    )  # fmt: skip


def _etched_rune(conn: sqlite3.Connection, ins: InscriptionRow, confirmed_only: bool) -> str | None:
    """ord's `rune` of an inscription: the spaced name of the rune its reveal etched, when it
    is the reveal's first (`<txid>i0`: rune_updater.rs `create_rune_entry`)."""
    if ins.id != f"{ins.genesis_txid}i0":
        return None
    row = conn.execute(
        "SELECT e.spaced, t.height FROM rune_entries e JOIN txs t ON t.txid = e.etching "
        "WHERE e.etching = ?",
        (ins.genesis_txid,),
    ).fetchone()
    if row is None or (confirmed_only and row[1] is None):
        return None
    return str(row[0])


def inscription_json(
    conn: sqlite3.Connection,
    ins: InscriptionRow,
    where: tuple[str, int, int] | None,
    confirmed_only: bool = False,
) -> Json:
    """ord's `api::Inscription` fields, plus the sandbox's `collection`, `traits`,
    `tap_transfer` and the older `output`, `offset`, `genesis_*`; `where` is its satpoint
    (txid, vout, offset), None when lost to fees. Those from its envelope and relations come
    from ord_envelope_fields (`confirmed_only`: the relations a block holds)."""
    address = value = None
    if where is not None:
        out = conn.execute(
            "SELECT value, script_pubkey FROM outputs WHERE txid = ? AND vout = ?", where[:2]
        ).fetchone()
        value, address = out[0], address_for_script(bytes(out[1]))
    fields = envelope_fields(conn, ins.id, ins.number, where, confirmed_only)
    return {
        "address": address,
        "charms": fields["charms"],
        "child_count": fields["child_count"],
        "children": fields["children"],
        "content_length": fields["content_length"],
        "content_type": fields["content_type"],
        "effective_content_type": fields["effective_content_type"],
        "fee": ins.fee,
        "height": ins.height,
        "id": ins.id,
        "metaprotocol": fields["metaprotocol"],
        "next": fields["next"],
        "number": ins.number,
        "parents": fields["parents"],
        "previous": fields["previous"],
        "properties": {},
        "rune": _etched_rune(conn, ins, confirmed_only),
        "sat": None,
        "satpoint": None if where is None else f"{where[0]}:{where[1]}:{where[2]}",
        "timestamp": ins.timestamp,
        "value": value,
        "output": None if where is None else f"{where[0]}:{where[1]}",
        "offset": None if where is None else where[2],
        "genesis_txid": ins.genesis_txid,
        "genesis_height": ins.height,
        "genesis_fee": ins.fee,
        "collection": ins.collection,
        "traits": json.loads(ins.attributes),
        "tap_transfer": ins.tap_transfer,
    }


def inscription(conn: sqlite3.Connection, inscription_id: str) -> Json | None:
    """The inscription where it is now (moved by the mempool, or in a mempool fee: no
    satpoint); its timestamp is its declaration's until a block holds it."""
    row = conn.execute(
        "SELECT i.number, i.genesis_txid, i.collection, i.attributes, i.tap_transfer, "
        "i.content_type, gt.height, gt.fee, COALESCE(b.time, i.created_ms / 1000), "
        "l.txid, l.vout, l.offset FROM inscriptions i "
        "LEFT JOIN inscription_locations l ON l.id = i.id "
        "LEFT JOIN txs gt ON gt.txid = i.genesis_txid "
        "LEFT JOIN blocks b ON b.height = gt.height WHERE i.id = ?",
        (check_inscription_id(inscription_id),),
    ).fetchone()
    if row is None:
        return None
    ins = inscription_row(inscription_id, row[:9])
    return inscription_json(conn, ins, None if row[9] is None else (row[9], row[10], row[11]))


def address(conn: sqlite3.Connection, address_text: str, spk: bytes) -> Json:
    outputs = conn.execute(
        "SELECT o.txid, o.vout, o.value FROM outputs o WHERE o.script_pubkey = ? "
        "AND o.spent_txid IS NULL",
        (spk,),
    ).fetchall()
    outputs.sort(key=outpoint_order)
    inscriptions = [
        r[0]
        for r in conn.execute(
            "SELECT l.id FROM inscription_locations l JOIN outputs o "
            "ON o.txid = l.txid AND o.vout = l.vout JOIN inscriptions i ON i.id = l.id "
            "WHERE o.script_pubkey = ? ORDER BY i.number",
            (spk,),
        )
    ]
    return {
        "address": address_text,
        "outputs": [f"{txid}:{vout}" for txid, vout, _ in outputs],
        "inscriptions": inscriptions,
        "sat_balance": sum(value for _, _, value in outputs),
        "runes_balances": runes_balances(_runes_on(conn, txid, vout) for txid, vout, _ in outputs),
    }
