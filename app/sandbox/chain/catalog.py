"""The sandbox's catalog on top of the chain: collections with traits, and per inscription the
row envelope_index.py records from its envelope (number, content type, TAP transfer flag, traits
read from its metadata, and the collection the marketplace curates it into); the checks of a
rune name and amount asked of the scenario API (runes themselves come from runestones:
rune_etch.py makes them, rune_updater.py indexes them)."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from app.core.rune_names import RuneNameError, parse_spaced_rune
from app.sandbox.chain.errors import Conflict, InvalidRequest
from app.sandbox.chain.textcheck import is_utf8_encodable

Json = dict[str, Any]

SLUG_PATTERN = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")
MAX_NAME = 100
MAX_TRAIT_TYPES = 50
MAX_TRAIT_VALUES = 500
MAX_TEXT = 100
MAX_RUNE_LETTERS = 26
MAX_RUNE_AMOUNT = (1 << 128) - 1
DEFAULT_CONTENT_TYPE = "text/plain;charset=utf-8"


def _text(value: Any, field: str, limit: int = MAX_TEXT) -> str:
    if (
        not isinstance(value, str)
        or not value.strip()
        or len(value) > limit
        or not is_utf8_encodable(value)
    ):
        raise InvalidRequest(
            f"{field} must be a non-empty UTF-8 string of at most {limit} characters"
        )
    return value


def normalize_traits(traits: Any) -> list[Json]:
    if traits is None:
        return []
    if not isinstance(traits, Sequence) or isinstance(traits, str | bytes):
        raise InvalidRequest("traits must be a list of {trait_type, values}")
    if len(traits) > MAX_TRAIT_TYPES:
        raise InvalidRequest(f"at most {MAX_TRAIT_TYPES} trait types per collection")
    result, seen = [], set()
    for i, trait in enumerate(traits):
        if not isinstance(trait, Mapping):
            raise InvalidRequest(f"traits[{i}] must be an object {{trait_type, values}}")
        trait_type = _text(trait.get("trait_type"), f"traits[{i}].trait_type")
        if trait_type in seen:
            raise InvalidRequest(f"trait_type {trait_type!r} is listed twice")
        seen.add(trait_type)
        values = trait.get("values")
        if not isinstance(values, Sequence) or isinstance(values, str | bytes) or not values:
            raise InvalidRequest(f"traits[{i}].values must be a non-empty list of strings")
        if len(values) > MAX_TRAIT_VALUES:
            raise InvalidRequest(f"traits[{i}] has more than {MAX_TRAIT_VALUES} values")
        clean = [_text(v, f"traits[{i}].values[{j}]") for j, v in enumerate(values)]
        if len(set(clean)) != len(clean):
            raise InvalidRequest(f"traits[{i}].values has duplicates")
        result.append({"trait_type": trait_type, "values": clean})
    return result


def create_collection(
    conn: sqlite3.Connection, slug: Any, name: Any, traits: Any, now_ms: int
) -> Json:
    if not isinstance(slug, str) or not SLUG_PATTERN.match(slug):
        raise InvalidRequest(
            "slug must be 1-64 lower-case letters, digits and inner hyphens", "INVALID_SLUG"
        )
    clean_name = _text(name, "name", MAX_NAME)
    clean_traits = normalize_traits(traits)
    if conn.execute("SELECT 1 FROM collections WHERE slug = ?", (slug,)).fetchone():
        raise Conflict(f"collection {slug!r} already exists", "COLLECTION_EXISTS")
    conn.execute(
        "INSERT INTO collections (slug, name, traits, created_ms) VALUES (?, ?, ?, ?)",
        (slug, clean_name, json.dumps(clean_traits, ensure_ascii=False), now_ms),
    )
    result = collection_json(conn, slug)
    assert result is not None
    return result


def collection_json(conn: sqlite3.Connection, slug: str) -> Json | None:
    if not isinstance(slug, str) or not is_utf8_encodable(slug):
        raise InvalidRequest("slug must be a UTF-8 string", "INVALID_SLUG")
    row = conn.execute(
        "SELECT c.slug, c.name, c.traits, c.created_ms, "
        "(SELECT COUNT(*) FROM inscriptions i WHERE i.collection = c.slug) "
        "FROM collections c WHERE c.slug = ?",
        (slug,),
    ).fetchone()
    if row is None:
        return None
    return {
        "slug": row[0],
        "name": row[1],
        "traits": json.loads(row[2]),
        "createdAt": row[3],
        "inscriptionCount": row[4],
    }


def list_collections(conn: sqlite3.Connection) -> list[Json]:
    # Made in the same millisecond (the demo's are), they keep the order they were made in.
    slugs = [r[0] for r in conn.execute("SELECT slug FROM collections ORDER BY created_ms, rowid")]
    return [c for c in (collection_json(conn, s) for s in slugs) if c is not None]


def normalize_attributes(
    conn: sqlite3.Connection, collection_slug: str | None, attributes: Any
) -> list[Json]:
    """Validate attributes against the collection's traits; accepts a list of
    {trait_type, value} or a {trait_type: value} mapping."""
    if attributes is None or attributes == [] or attributes == {}:
        return []
    if collection_slug is None:
        raise InvalidRequest("attributes need a collection", "ATTRIBUTES_WITHOUT_COLLECTION")
    if isinstance(attributes, Mapping):
        pairs = [{"trait_type": k, "value": v} for k, v in attributes.items()]
    elif isinstance(attributes, Sequence) and not isinstance(attributes, str | bytes):
        pairs = list(attributes)
    else:
        raise InvalidRequest("attributes must be a list of {trait_type, value}")
    row = conn.execute(
        "SELECT traits FROM collections WHERE slug = ?", (collection_slug,)
    ).fetchone()
    assert row is not None
    allowed = {t["trait_type"]: set(t["values"]) for t in json.loads(row[0])}
    result, seen = [], set()
    for i, pair in enumerate(pairs):
        if not isinstance(pair, Mapping):
            raise InvalidRequest(f"attributes[{i}] must be an object {{trait_type, value}}")
        trait_type = _text(pair.get("trait_type"), f"attributes[{i}].trait_type")
        value = _text(pair.get("value"), f"attributes[{i}].value")
        if trait_type not in allowed:
            raise InvalidRequest(
                f"collection {collection_slug!r} has no trait {trait_type!r}", "UNKNOWN_TRAIT"
            )
        if value not in allowed[trait_type]:
            raise InvalidRequest(
                f"{value!r} is not a value of trait {trait_type!r}", "UNKNOWN_TRAIT_VALUE"
            )
        if trait_type in seen:
            raise InvalidRequest(f"trait {trait_type!r} is given twice")
        seen.add(trait_type)
        result.append({"trait_type": trait_type, "value": value})
    return result


def require_collection(conn: sqlite3.Connection, slug: Any) -> str | None:
    if slug is None:
        return None
    if (
        not isinstance(slug, str)
        or not conn.execute("SELECT 1 FROM collections WHERE slug = ?", (slug,)).fetchone()
    ):
        raise InvalidRequest(f"no collection {slug!r}", "UNKNOWN_COLLECTION")
    return slug


def declare_inscription(
    conn: sqlite3.Connection,
    txid: str,
    vout: int,
    collection: str | None,
    attributes: list[Json],
    tap_transfer: bool,
    now_ms: int,
    *,
    index: int = 0,
    content_type: str = DEFAULT_CONTENT_TYPE,
) -> tuple[str, int]:
    """The catalog row of inscription `<txid>i<index>`, which envelope_index.py derived from
    an envelope (and places); returns (id, number)."""
    number = int(
        conn.execute("SELECT COALESCE(MAX(number), -1) + 1 FROM inscriptions").fetchone()[0]
    )
    inscription_id = f"{txid}i{index}"
    conn.execute(
        "INSERT INTO inscriptions (id, number, genesis_txid, genesis_vout, collection, "
        "attributes, tap_transfer, content_type, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            inscription_id, number, txid, vout, collection,
            json.dumps(attributes, ensure_ascii=False), int(tap_transfer),
            content_type, now_ms,
        ),
    )  # fmt: skip
    return inscription_id, number


def normalize_rune(name: Any) -> tuple[str, str]:
    """(rune, spaced rune) from a name like 'DOG•GO•TO•THE•MOON' (or with '.' spacers), read as
    ord reads one (rune_names.parse_spaced_rune); at most 26 letters (27 and 28 are ord's
    reserved names, never etched by name)."""
    if not isinstance(name, str) or not name:
        raise InvalidRequest("rune must be a non-empty string", "INVALID_RUNE")
    try:
        spaced = parse_spaced_rune(name)
    except RuneNameError as exc:
        raise InvalidRequest(f"rune: {exc}", "INVALID_RUNE") from None
    if len(spaced.letters) > MAX_RUNE_LETTERS:
        raise InvalidRequest(
            f"rune: at most {MAX_RUNE_LETTERS} letters (longer names are ord's reserved ones)",
            "INVALID_RUNE",
        )
    return spaced.letters, str(spaced)


def check_rune_amount(amount: Any) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_RUNE_AMOUNT:
        raise InvalidRequest("amount must be a positive integer below 2^128", "INVALID_AMOUNT")
    return amount


def trait_value_counts(conn: sqlite3.Connection, slug: str) -> dict[tuple[str, str], int]:
    """How many of the collection's inscriptions carry each (trait_type, value)."""
    rows = conn.execute(
        "SELECT json_extract(a.value, '$.trait_type'), json_extract(a.value, '$.value'), "
        "COUNT(*) FROM inscriptions i, json_each(i.attributes) a WHERE i.collection = ? "
        "GROUP BY 1, 2",
        (slug,),
    )
    return {(str(t), str(v)): int(n) for t, v, n in rows}
