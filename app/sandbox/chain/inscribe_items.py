"""The scenario's inscriptions (`Node.create_inscription(s)`: the demo, the market's sellers,
`POST /sandbox/inscriptions`), made as ord makes them, through `inscribe.inscribe`: a commit,
then a reveal whose witness carries one envelope per item, each with a content type and body
(by default a short text naming the item), and the item's traits as the envelope's CBOR
metadata. Several items are one ord batch: one commit, one reveal paying each item's postage
to its own output, each envelope's pointer naming the first sat of its output.

Collection membership is the marketplace's curation, as on the public service, whose
collections are lists of inscription ids: once the reveal is accepted the catalog puts the
inscription in its collection, and its traits are read back from the envelope's metadata
(envelope_index.curate). A TAP transfer is a real TAP `token-transfer` inscription (its body
the TAP JSON); the index tells it from its content (tap.py), nothing is declared.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.core.inscription_envelope import Inscription, pointer_field
from app.sandbox.chain import catalog, envelope_index, tap
from app.sandbox.chain.addresses import script_for_address
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.inscribe import inscribe

if TYPE_CHECKING:
    from app.sandbox.chain.node import Node

Json = dict[str, Any]
Transaction = Callable[[], AbstractContextManager[sqlite3.Connection]]
MAX_ITEMS_PER_REVEAL = 100  # ord's batches have no such limit; ours keeps a reveal standard
MAX_POSTAGE = 1_000_000
MAX_CONTENT_TYPE = 200
MAX_BODY_BYTES = 100_000  # well inside a standard transaction's 400,000 weight units


@dataclass(frozen=True)
class NewItem:
    """One inscription to make: a new output of `address` receives `postage` sats holding it
    (a default body names the item; `content_type` defaults to UTF-8 text)."""

    address: str
    postage: int = 10_000
    collection_slug: str | None = None
    attributes: Sequence[Mapping[str, Any]] | Mapping[str, str] | None = None
    tap_transfer: bool = False
    content_type: str | None = None
    body: bytes | None = None


def create_items(node: Node, items: Sequence[NewItem], transaction: Transaction) -> list[Json]:
    """Inscribe `items` in one commit and one reveal (call under the node's lock: the reveal
    and the catalog's curation, in `transaction`, go back to back); per item {inscriptionId,
    number, outpoint}. Checks every item but its postage (the node's) before anything is
    broadcast (InvalidRequest)."""
    if not items:
        raise InvalidRequest("at least one inscription is needed")
    if len(items) > MAX_ITEMS_PER_REVEAL:
        raise InvalidRequest(f"at most {MAX_ITEMS_PER_REVEAL} inscriptions at once")
    outputs = [(script_for_address(item.address), item.postage) for item in items]
    checked = node.read_index(lambda conn: [_checked(conn, item) for item in items])
    envelopes, at = [], 0
    for item, (_, traits), (_, postage) in zip(items, checked, outputs, strict=True):
        envelopes.append(_envelope(item, traits, pointer=at))
        at += postage
    revealed = inscribe(node, envelopes, outputs)
    with transaction() as conn:
        numbers = [
            envelope_index.curate(conn, ins_id, slug)
            for ins_id, (slug, _) in zip(revealed.inscription_ids, checked, strict=True)
        ]
    return [
        {"inscriptionId": ins_id, "number": number, "outpoint": f"{revealed.reveal_txid}:{vout}"}
        for vout, (ins_id, number) in enumerate(zip(revealed.inscription_ids, numbers, strict=True))
    ]


def _checked(conn: sqlite3.Connection, item: NewItem) -> tuple[str | None, list[catalog.Json]]:
    if not isinstance(item.tap_transfer, bool):
        raise InvalidRequest("tapTransfer must be true or false")
    if item.content_type is not None and (
        not isinstance(item.content_type, str)
        or not 0 < len(item.content_type) <= MAX_CONTENT_TYPE
        or not item.content_type.isprintable()
    ):
        raise InvalidRequest(f"contentType must be 1-{MAX_CONTENT_TYPE} printable characters")
    if item.body is not None and (
        not isinstance(item.body, bytes) or len(item.body) > MAX_BODY_BYTES
    ):
        raise InvalidRequest(f"body must be at most {MAX_BODY_BYTES} bytes")
    slug = catalog.require_collection(conn, item.collection_slug)
    traits = catalog.normalize_attributes(conn, slug, item.attributes)
    if item.tap_transfer and (item.body is not None or item.content_type is not None):
        raise InvalidRequest("a TAP transfer's content is the TAP JSON: give no body for it")
    return slug, traits


def _envelope(item: NewItem, traits: list[catalog.Json], pointer: int) -> Inscription:
    if item.tap_transfer:
        content_type, body = tap.CONTENT_TYPE, tap.token_transfer_body()
    else:
        content_type = item.content_type or catalog.DEFAULT_CONTENT_TYPE
        body = item.body if item.body is not None else _naming_body(item, traits)
    return Inscription(
        content_type=content_type.encode(),
        body=body,
        metadata=envelope_index.metadata_for_traits(traits) if traits else None,
        pointer=pointer_field(pointer) if pointer else None,  # ord's batch: the item's output
    )


def _naming_body(item: NewItem, traits: list[catalog.Json]) -> bytes:
    lines = [item.collection_slug or "sandbox inscription"]
    lines += [f"{t['trait_type']}: {t['value']}" for t in traits]
    return "\n".join(lines).encode()
