"""What ord says of an inscription from its envelope and its relations: the `api::Inscription`
fields `charms`, `child_count`, `children`, `content_length`, `content_type`,
`effective_content_type`, `metaprotocol`, `next`, `parents`, `previous`, and the content its
`/content/<id>` serves. Read from the reveal the sandbox keeps (envelope_index.reveal_of).

Follows ordinals/ord at 5241ef311e015cff4759a379085c8cc8913e621a: src/index.rs
`get_inscription_info` (the first 4 parents and children, `child_count`, previous and next by
sequence number, the delegate's content type as the effective one, Lost when the satpoint is
null), src/index/updater/inscription_updater.rs (curses: an unrecognised even field, a
duplicate or incomplete field, not in the first input, not the input's first envelope, a
pointer, a pushnum, a stutter, a sat inscribed before by more than one inscription or by one
neither cursed nor vindicated; past the jubilee height a curse is the Vindicated charm;
Reinscription when it lands on a sat already inscribed; Unbound for an envelope in a 0-sat
input or with an unrecognised even field; Burned on an OP_RETURN output),
crates/ordinals/src/charm.rs (the charms' order and names) and src/subcommand/server/r.rs
`content_inner` (a delegate's content; 404 without a body).

Not told, as the sandbox keeps no sat index: sat charms (coin, uncommon, ...).
Every sandbox inscription is past regtest's jubilee (height 110; the chain starts at 150), so
none is cursed and numbers stay positive.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from app.core.inscription_envelope import Envelope, inscription_id_from_value
from app.sandbox.chain.envelope_index import parents_among, reveal_envelopes, reveal_of
from app.sandbox.chain.errors import NotFound

Json = dict[str, Any]
MAX_LISTED = 4  # ord lists the first 4 parents and the first 4 children
# crates/ordinals/src/charm.rs `Charm::ALL`, the order ord prints them in (those the sandbox tells).
CHARM_ORDER = ("reinscription", "unbound", "lost", "vindicated", "burned")
OP_RETURN = 0x6A


@dataclass(frozen=True)
class Content:
    """What `/content/<id>` serves: the body and the envelope's raw header fields."""

    body: bytes
    content_type: bytes | None
    content_encoding: bytes | None


def envelope_fields(
    conn: sqlite3.Connection,
    inscription_id: str,
    number: int,
    where: tuple[str, int, int] | None,
    confirmed_only: bool,
) -> Json:
    """The fields above for an inscription at satpoint `where` (None: on no output);
    `confirmed_only`: the relations ord knows (those a block holds), else the mempool's too."""
    found = reveal_of(conn, inscription_id)
    envelope = None if found is None else found[1]
    payload = None if envelope is None else envelope.payload
    parents = _parents(conn, inscription_id, envelope)
    children = _children(conn, inscription_id, confirmed_only)
    own_type = None if payload is None else payload.content_type_text()
    metaprotocol = (
        None if payload is None or payload.metaprotocol is None else _utf8(payload.metaprotocol)
    )
    return {
        "charms": _charms(conn, inscription_id, found, where),
        "child_count": len(children),
        "children": children[:MAX_LISTED],
        "content_length": None if payload is None or payload.body is None else len(payload.body),
        "content_type": own_type,
        "effective_content_type": _effective_type(conn, envelope, own_type, confirmed_only),
        "metaprotocol": metaprotocol,
        "next": _neighbour(conn, number, ">", confirmed_only),
        "parents": list(parents[:MAX_LISTED]),
        "previous": _neighbour(conn, number, "<", confirmed_only),
    }


def content(conn: sqlite3.Connection, inscription_id: str, confirmed_only: bool) -> Content:
    """ord's `/content/<id>`: the inscription's body, or its delegate's (NotFound for an unknown
    inscription or delegate, or one without a body)."""
    envelope = _known_envelope(conn, inscription_id, confirmed_only)
    if envelope is None:
        raise NotFound(f"inscription {inscription_id} not found")
    delegate = _delegate(envelope)
    if delegate is not None:
        envelope = _known_envelope(conn, delegate, confirmed_only)
        if envelope is None:
            raise NotFound(f"delegate {inscription_id} not found")
    payload = envelope.payload
    if payload.body is None:
        raise NotFound(f"inscription {inscription_id} content not found")
    return Content(payload.body, payload.content_type, payload.content_encoding)


def _known_envelope(
    conn: sqlite3.Connection, inscription_id: str, confirmed_only: bool
) -> Envelope | None:
    """The envelope of an inscription the view knows (ord: one a block holds)."""
    row = conn.execute(
        "SELECT t.height FROM inscriptions i JOIN txs t ON t.txid = i.genesis_txid WHERE i.id = ?",
        (inscription_id,),
    ).fetchone()
    if row is None or (confirmed_only and row[0] is None):
        return None
    found = reveal_of(conn, inscription_id)
    return None if found is None else found[1]


def _charms(
    conn: sqlite3.Connection,
    inscription_id: str,
    found: tuple[Any, Envelope] | None,
    where: tuple[str, int, int] | None,
) -> list[str]:
    charms: set[str] = set()
    if found is not None:
        tx, envelope = found
        payload = envelope.payload
        spent = tx.inputs[envelope.input]
        row = conn.execute(
            "SELECT value FROM outputs WHERE txid = ? AND vout = ?",
            (spent.prev_txid, spent.prev_vout),
        ).fetchone()
        if (row is not None and row[0] == 0) or payload.unrecognized_even_field:
            charms.add("unbound")
        cursed, reinscription = _at_creation(conn, inscription_id)
        if cursed:  # past the jubilee: vindicated, not cursed
            charms.add("vindicated")
        if reinscription:
            charms.add("reinscription")
    located = conn.execute(
        "SELECT 1 FROM inscription_locations WHERE id = ? "
        "AND (txid IS NOT NULL OR fee_txid IS NOT NULL)",
        (inscription_id,),
    ).fetchone()
    if located is None and "unbound" not in charms:
        charms.add("lost")  # its fee sats went unclaimed by the coinbase
    if where is not None:
        spk = conn.execute(
            "SELECT script_pubkey FROM outputs WHERE txid = ? AND vout = ?", where[:2]
        ).fetchone()
        if spk is not None and bytes(spk[0])[:1] == bytes([OP_RETURN]):
            charms.add("burned")
    return [charm for charm in CHARM_ORDER if charm in charms]


def _at_creation(
    conn: sqlite3.Connection, inscription_id: str, depth: int = 0
) -> tuple[bool, bool]:
    """(cursed, reinscription) as ord's `index_envelopes` decides them for the envelope, going
    through its reveal's inputs in order: the inscriptions each input carries (at the input's
    start + their offset), then the input's envelopes (cursed by the envelope itself, or by an
    inscription already on the input's first sat that was not itself cursed or vindicated, or
    by more than one there; a reinscription when it lands, after its pointer, on a sat already
    inscribed)."""
    txid, _, index = inscription_id.partition("i")
    found = reveal_envelopes(conn, txid)
    if found is None or not index.isdigit() or int(index) >= len(found[1]):
        return False, False
    tx, envelopes = found
    total_out = sum(o.value for o in tx.outputs)
    inscribed: dict[int, list[Any]] = {}  # sat position -> [first inscription there, count]
    total_in, number = 0, 0
    for input_index, txin in enumerate(tx.inputs):
        for old_id, old_offset in conn.execute(
            "SELECT s.id, s.offset FROM spent_inscriptions s JOIN inscriptions i ON i.id = s.id "
            "WHERE s.txid = ? AND s.vout = ? ORDER BY i.number",
            (txin.prev_txid, txin.prev_vout),
        ):
            inscribed.setdefault(total_in + int(old_offset), [str(old_id), 0])[1] += 1
        start = total_in
        row = conn.execute(
            "SELECT value FROM outputs WHERE txid = ? AND vout = ?",
            (txin.prev_txid, txin.prev_vout),
        ).fetchone()
        total_in += 0 if row is None else int(row[0])
        while number < len(envelopes) and envelopes[number].input == input_index:
            envelope = envelopes[number]
            cursed = _cursed_by_itself(envelope)
            if not cursed and start in inscribed:
                first, count = inscribed[start]
                # ord keeps the vindicated charm of the first one; a chain of reinscriptions
                # is bounded by the transactions the sandbox holds (depth: a guard)
                cursed = count > 1 or (depth < 100 and not _at_creation(conn, first, depth + 1)[0])
            pointer = envelope.payload.pointer_value()
            at = pointer if pointer is not None and pointer < total_out else start
            reinscription = at in inscribed
            inscribed.setdefault(at, [f"{txid}i{number}", 0])[1] += 1
            if number == int(index):
                return cursed, reinscription
            number += 1
    return False, False


def _cursed_by_itself(envelope: Envelope) -> bool:
    payload = envelope.payload
    return (
        payload.unrecognized_even_field
        or payload.duplicate_field
        or payload.incomplete_field
        or envelope.input != 0
        or envelope.offset != 0
        or payload.pointer is not None
        or envelope.pushnum
        or envelope.stutter
    )


def _parents(
    conn: sqlite3.Connection, inscription_id: str, envelope: Envelope | None
) -> tuple[str, ...]:
    """As the indexer found them: the envelope's parents its reveal spends."""
    if envelope is None:
        return ()
    spent = {
        str(row[0])
        for row in conn.execute(
            "SELECT s.id FROM outputs o JOIN spent_inscriptions s "
            "ON s.txid = o.txid AND s.vout = o.vout WHERE o.spent_txid = ?",
            (inscription_id.partition("i")[0],),
        )
    }
    return parents_among(envelope, spent)


def _children(conn: sqlite3.Connection, parent_id: str, confirmed_only: bool) -> list[str]:
    """Inscriptions revealed by a transaction spending the parent that name it, by number."""
    rows = conn.execute(
        "SELECT DISTINCT i.id, t.height FROM spent_inscriptions s "
        "JOIN outputs o ON o.txid = s.txid AND o.vout = s.vout "
        "JOIN inscriptions i ON i.genesis_txid = o.spent_txid "
        "JOIN txs t ON t.txid = i.genesis_txid WHERE s.id = ? ORDER BY i.number",
        (parent_id,),
    ).fetchall()
    children = []
    for child_id, height in rows:
        if confirmed_only and height is None:
            continue
        if parent_id in _parents(conn, str(child_id), _envelope(conn, str(child_id))):
            children.append(str(child_id))
    return children


def _envelope(conn: sqlite3.Connection, inscription_id: str) -> Envelope | None:
    found = reveal_of(conn, inscription_id)
    return None if found is None else found[1]


def _effective_type(
    conn: sqlite3.Connection, envelope: Envelope | None, own: str | None, confirmed_only: bool
) -> str | None:
    delegate = None if envelope is None else _delegate(envelope)
    if delegate is None:
        return own
    delegated = _known_envelope(conn, delegate, confirmed_only)
    return own if delegated is None else delegated.payload.content_type_text()


def _delegate(envelope: Envelope) -> str | None:
    value = envelope.payload.delegate
    return None if value is None else inscription_id_from_value(value)


def _neighbour(
    conn: sqlite3.Connection, number: int, side: str, confirmed_only: bool
) -> str | None:
    """The inscription numbered just before (`<`) or after (`>`) `number` in the view."""
    order = "DESC" if side == "<" else "ASC"
    confirmed = "AND t.height IS NOT NULL " if confirmed_only else ""
    row = conn.execute(
        "SELECT i.id FROM inscriptions i JOIN txs t ON t.txid = i.genesis_txid "
        f"WHERE i.number {side} ? {confirmed}ORDER BY i.number {order} LIMIT 1",
        (number,),
    ).fetchone()
    return None if row is None else str(row[0])


def _utf8(value: bytes) -> str | None:
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return None
