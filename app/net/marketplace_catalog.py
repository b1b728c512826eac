"""``GET /collection``: one collection's catalog entry and its traits, as the public service
documents it (``../shared/notes/satflow-market-data.md``, "/collection"):

    {"success": true, "data": {"collection": [{"id": "nodemonkes", "name": "NodeMonkes",
     "total_items": 10000, ..., "category_attributes": [{"key": "Body",
     "values": [{"value": "Blue", "count": 123}, ...]}, ...]}]}}

Query ``collection_id`` (snake case, still) and ``categoryAttributes=true`` for the traits.
``data.collection`` is an array; the entry whose ``id`` is the slug asked for is the answer,
and only it: an array without it is no entry (another collection's, perhaps one named to look
like it, would enter the Bid tab's suggestions under its own slug, and its traits would be
offered for the slug typed). The service offers no search or list of collections: a client
can only look one up by its slug.

A 404 answered by the service (its ``{"error"}`` or ``{"code": "NOT_FOUND"}`` body) means it
knows no such collection; a 404 of a framework's unknown route (``{"detail": "Not Found"}``)
or a 405 means the service does not offer the endpoint (``CatalogAnswer.offered`` False).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from app.net.fields import Reader, as_int, as_str, loads_json

COLLECTION_PATH = "/collection"


@dataclass(frozen=True)
class CollectionInfo:
    """One collection and its traits: (trait_type, the values it takes) pairs, and how many
    items carry each value where the service says (`trait_counts`: (type, value, count))."""

    slug: str
    name: str
    traits: tuple[tuple[str, tuple[str, ...]], ...]
    total_items: int | None = None
    trait_counts: tuple[tuple[str, str, int], ...] = ()

    def count_of(self, trait_type: str, value: str) -> int | None:
        """How many items carry `value` of `trait_type`; None when the service did not say."""
        return next((n for t, v, n in self.trait_counts if t == trait_type and v == value), None)


@dataclass(frozen=True)
class CatalogAnswer:
    """What the service said of one slug: its entry, or (offered, no entry) that it knows no
    such collection, or (not offered) that it has no catalog to ask."""

    offered: bool
    collection: CollectionInfo | None = None


def not_offered(response: httpx.Response) -> bool:
    """A 405, or a 404 whose body is a web framework's unknown-route answer."""
    if response.status_code == 405:
        return True
    if response.status_code != 404:
        return False
    try:
        body = loads_json(response.content)
    except ValueError:
        return True  # an HTML or empty 404 is no service's "not found" answer
    return isinstance(body, Mapping) and set(body) == {"detail"}


def parse_collection_catalog(r: Reader, body: Any, slug: str) -> CollectionInfo | None:
    """The entry of `slug` in a ``/collection`` body (None: the array holds no entry whose id
    is `slug`). The envelope and the array are required; a malformed trait or value is left
    out."""
    data = r.obj(r.obj(body).get("data", body), "data")
    entries = data.get("collection")
    if isinstance(entries, Mapping):
        entries = [entries]  # tolerate a single object where the docs show an array
    if not isinstance(entries, list):
        raise r.error("data.collection is not a list", "data.collection")
    entry = next((e for e in entries if isinstance(e, Mapping) and e.get("id") == slug), None)
    if entry is None:
        return None
    traits, counts = [], []
    for attribute in _list(entry.get("category_attributes")):
        key = as_str(attribute.get("key")) if isinstance(attribute, Mapping) else None
        if not key:
            continue
        values = []
        for item in _list(attribute.get("values")):
            value = as_str(item.get("value")) if isinstance(item, Mapping) else None
            if not value:
                continue
            values.append(value)
            count = as_int(item.get("count"))
            if count is not None and count >= 0:
                counts.append((key, value, count))
        if values:
            traits.append((key, tuple(values)))
    return CollectionInfo(
        slug=str(entry["id"]),
        name=as_str(entry.get("name")) or str(entry["id"]),
        traits=tuple(traits),
        total_items=as_int(entry.get("total_items")),
        trait_counts=tuple(counts),
    )


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
