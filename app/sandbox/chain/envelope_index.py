"""New inscriptions derived from a transaction's envelopes, by ord's rules.

Follows ord's `InscriptionUpdater::index_inscriptions` (src/index/updater/inscription_updater.rs,
github.com/ordinals/ord at 5241ef311e015cff4759a379085c8cc8913e621a): the n-th envelope of the
transaction (every input, in order) is inscription `<txid>i<n>`; it sits on the first sat of
the input that carries it, or on the sat its pointer names when the pointer is below the
transaction's total output value; a sat past the outputs is in the fee, which the block's
coinbase claims (or which is lost: indexer.connect_block does that part). An envelope with an
unrecognised even tag, or in an input worth 0 sats, is unbound: ord keeps it on no sat.
A parent counts only when the transaction spends it (ord's potential parents).

The catalog's fields come from the chain too: a child of a spent parent joins the parent's
collection (as does an inscription the marketplace curates into one: `curate`), and its traits
are the metadata's `attributes` (CBOR, ord's metadata field: a list of {trait_type, value} or a
{trait_type: value} map) when the collection has them; metadata that does not decode, or traits
the collection does not have, give no traits (ord ignores metadata it cannot read). A TAP
token-transfer is told from the body (tap.py). The catalog row outlives an index rebuild: a
row already recorded for `<txid>i<n>` is kept (its collection may be the curation's).
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from app.core import cbor, sat_flow
from app.core.cbor import CborValue
from app.core.inscription_envelope import Envelope, envelopes_from_witnesses
from app.sandbox.chain import catalog, tap
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.rawtx import ParsedTx, parse_tx


@dataclass(frozen=True)
class NewInscription:
    """Where a new inscription lands: output (vout, offset), the fee (fee_offset), or nowhere
    (unbound: all three None)."""

    inscription_id: str
    envelope: Envelope
    vout: int | None
    offset: int | None
    fee_offset: int | None
    parents: tuple[str, ...]


class SpentCoin(Protocol):
    @property
    def txid(self) -> str: ...
    @property
    def vout(self) -> int: ...
    @property
    def value(self) -> int: ...


# indexer._place: (id, txid, vout, offset, fee_txid, fee_offset)
Place = Callable[[str, str | None, int | None, int | None, str | None, int | None], None]


def index_envelopes(
    conn: sqlite3.Connection, tx: ParsedTx, coins: Sequence[SpentCoin], place: Place
) -> set[str]:
    """Derive, record and place the inscriptions `tx` creates (call before the inputs'
    inscriptions move on); returns their ids."""
    spent = {
        str(row[0])
        for coin in coins
        for row in conn.execute(
            "SELECT id FROM inscription_locations WHERE txid = ? AND vout = ?",
            (coin.txid, coin.vout),
        )
    }
    created = new_inscriptions(tx, [c.value for c in coins], spent)
    record(conn, tx, created)
    for new in created:
        if new.vout is not None:
            place(new.inscription_id, tx.txid, new.vout, new.offset, None, None)
        elif new.fee_offset is not None:
            place(new.inscription_id, None, None, None, tx.txid, new.fee_offset)
        else:
            place(new.inscription_id, None, None, None, None, None)
    return {new.inscription_id for new in created}


def new_inscriptions(
    tx: ParsedTx, input_values: Sequence[int], spent_inscriptions: set[str]
) -> list[NewInscription]:
    """The inscriptions `tx` creates; `spent_inscriptions` are those its inputs carry."""
    if tx.is_coinbase:
        return []
    envelopes = envelopes_from_witnesses([i.witness for i in tx.inputs])
    if not envelopes:
        return []
    output_values = [o.value for o in tx.outputs]
    total_out = sum(output_values)
    starts = [sum(input_values[:i]) for i in range(len(input_values))]
    result = []
    for number, env in enumerate(envelopes):
        pointer = env.payload.pointer_value()
        position = pointer if pointer is not None and pointer < total_out else starts[env.input]
        seen = parents_among(env, spent_inscriptions)
        ins_id = f"{tx.txid}i{number}"
        unbound = input_values[env.input] == 0 or env.payload.unrecognized_even_field
        if unbound:
            result.append(NewInscription(ins_id, env, None, None, None, seen))
            continue
        dest = sat_flow.locate(output_values, position)
        if dest.to_fee:
            result.append(NewInscription(ins_id, env, None, None, dest.offset, seen))
        else:
            result.append(NewInscription(ins_id, env, dest.vout, dest.offset, None, seen))
    return result


def parents_among(envelope: Envelope, spent_inscriptions: set[str]) -> tuple[str, ...]:
    """ord's parents of an envelope: its parent fields that decode as ids, each once, of
    inscriptions the transaction spends."""
    seen: list[str] = []
    for parent in envelope.payload.parent_ids():
        if parent in spent_inscriptions and parent not in seen:
            seen.append(parent)
    return tuple(seen)


def record(conn: sqlite3.Connection, tx: ParsedTx, created: Sequence[NewInscription]) -> None:
    """Catalog rows for `created` (kept when recorded before: an index rebuilt); a child of a
    spent parent joins the parent's collection."""
    for new in created:
        if conn.execute(
            "SELECT 1 FROM inscriptions WHERE id = ?", (new.inscription_id,)
        ).fetchone():
            continue
        payload = new.envelope.payload
        accepted = conn.execute(
            "SELECT accepted_ms FROM raw_txs WHERE txid = ?", (tx.txid,)
        ).fetchone()
        collection = _parent_collection(conn, new.parents)
        traits = metadata_traits(conn, collection, payload.metadata)
        catalog.declare_inscription(
            conn, tx.txid, new.vout or 0, collection, traits, tap.is_token_transfer(payload.body),
            int(accepted[0]) if accepted else 0,
            index=int(new.inscription_id.rsplit("i", 1)[1]),
            content_type=payload.content_type_text() or "",
        )  # fmt: skip


def curate(conn: sqlite3.Connection, inscription_id: str, collection: str | None) -> int:
    """Put the recorded inscription in `collection` (the marketplace's curated list; None
    leaves it as it is), its traits read from its envelope's metadata; returns its number."""
    row = conn.execute("SELECT number FROM inscriptions WHERE id = ?", (inscription_id,)).fetchone()
    if row is None:
        raise InvalidRequest(f"no inscription {inscription_id}", "INSCRIPTION_NOT_FOUND")
    if collection is not None:
        envelope = envelope_of(conn, inscription_id)
        metadata = None if envelope is None else envelope.payload.metadata
        traits = metadata_traits(conn, collection, metadata)
        conn.execute(
            "UPDATE inscriptions SET collection = ?, attributes = ? WHERE id = ?",
            (collection, json.dumps(traits, ensure_ascii=False), inscription_id),
        )
    return int(row[0])


def envelope_of(conn: sqlite3.Connection, inscription_id: str) -> Envelope | None:
    """The envelope inscription `<txid>i<n>` came from: the n-th of its reveal (None when the
    sandbox does not hold that transaction or it has fewer envelopes)."""
    found = reveal_of(conn, inscription_id)
    return None if found is None else found[1]


def reveal_of(conn: sqlite3.Connection, inscription_id: str) -> tuple[ParsedTx, Envelope] | None:
    """The reveal of inscription `<txid>i<n>` and its n-th envelope, as `envelope_of`."""
    txid, _, index = inscription_id.partition("i")
    found = reveal_envelopes(conn, txid)
    if found is None or not index.isdigit():
        return None
    tx, envelopes = found
    n = int(index)
    return (tx, envelopes[n]) if n < len(envelopes) else None


def reveal_envelopes(
    conn: sqlite3.Connection, txid: str
) -> tuple[ParsedTx, tuple[Envelope, ...]] | None:
    """Transaction `txid` as the sandbox holds it, and its envelopes in ord's order."""
    row = conn.execute("SELECT raw FROM raw_txs WHERE txid = ?", (txid,)).fetchone()
    return None if row is None else _parsed_reveal(bytes(row[0]))


@functools.lru_cache(maxsize=64)  # ord's views read the same reveals again and again
def _parsed_reveal(raw: bytes) -> tuple[ParsedTx, tuple[Envelope, ...]]:
    tx = parse_tx(raw)
    return tx, tuple(envelopes_from_witnesses([i.witness for i in tx.inputs]))


def _parent_collection(conn: sqlite3.Connection, parents: Sequence[str]) -> str | None:
    for parent in parents:
        row = conn.execute("SELECT collection FROM inscriptions WHERE id = ?", (parent,)).fetchone()
        if row is not None and row[0] is not None:
            return str(row[0])
    return None


def metadata_for_traits(attributes: Sequence[Mapping[str, str]]) -> bytes:
    """The metadata field `metadata_traits` reads: CBOR {"attributes": [{trait_type, value}]}."""
    listed: list[CborValue] = [
        {"trait_type": a["trait_type"], "value": a["value"]} for a in attributes
    ]
    return cbor.encode({"attributes": listed})


def metadata_traits(
    conn: sqlite3.Connection, collection: str | None, metadata: bytes | None
) -> list[catalog.Json]:
    """The traits `metadata` gives an item of `collection`; none when it does not read."""
    if collection is None or metadata is None:
        return []
    try:
        value = cbor.decode(metadata)
    except cbor.CborError:
        return []
    if not isinstance(value, dict) or "attributes" not in value:
        return []
    try:
        return catalog.normalize_attributes(conn, collection, value["attributes"])
    except InvalidRequest:
        return []
