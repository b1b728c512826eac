"""``GET /address/bids`` entries, parsed tolerantly into ``BidListEntry``.

The spec shows only ``type``, ``attribute`` and ``bid_id.$oid``; Satflow's docs add
``bid_id`` as a plain string, ``price``, ``expiration``, ``inscription_id`` and the metadata
objects its market maker matches on: ``inscription_metadata.collection.id`` (a collection or
trait bid's collection) and ``runes_metadata.runes[]`` (a rune bid's spaced ``name``, its
``amount`` in the rune's smallest units and the rune's ``divisibility``). Those documented
fields are read first; the sandbox's ``collectionSlug`` and ``quantity`` and older names
stand in where they are missing. Only the id is required (without it a bid cannot be
cancelled); the raw object is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.net.fields import Reader, as_int, as_str, object_id


@dataclass(frozen=True)
class BidTrait:
    trait_type: str
    value: str


@dataclass(frozen=True)
class BidListEntry:
    """One listed bid. ``listed_under`` is the address whose list it came from (the address
    the service keys it by, which a cancel must name as the maker); ``rune_amount`` is a rune
    bid's amount in the rune's smallest units, ``rune_divisibility`` the rune's."""

    bid_id: str
    type: str | None = None
    price: int | None = None
    quantity: int | None = None
    expiration_ms: int | None = None
    collection_slug: str | None = None
    attribute: BidTrait | None = None
    inscription_id: str | None = None
    rune_name: str | None = None
    is_non_custodial: bool | None = None
    rune_amount: int | None = None
    rune_divisibility: int | None = None
    listed_under: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def is_trait_bid(self) -> bool:
        return self.attribute is not None

    @property
    def is_rune_bid(self) -> bool:
        return self.type == "rune"


def parse_bid_list(r: Reader, body: Any, listed_under: str | None = None) -> list[BidListEntry]:
    results = r.need_list(body, "results")
    return [_parse_entry(r, item, i, listed_under) for i, item in enumerate(results)]


def _parse_entry(r: Reader, item: Any, index: int, listed_under: str | None) -> BidListEntry:
    entry = r.obj(item, f"data.results[{index}]")
    bid_id = object_id(_first(entry, "bid_id", "bidId", "_id", "id"))
    if bid_id is None:
        raise r.error(
            f"data.results[{index}] has no usable bid_id (string or {{'$oid': ...}})",
            f"results[{index}].bid_id",
        )
    non_custodial = entry.get("isNonCustodial")
    rune = _first_rune(entry)
    amount = None if rune is None else as_int(rune.get("amount"))
    divisibility = None if rune is None else as_int(rune.get("divisibility"))
    quantity = as_int(_first(entry, "quantity", "bid_quantity"))
    if quantity is None and amount is not None:
        quantity = _whole_units(amount, divisibility or 0)
    return BidListEntry(
        bid_id=bid_id,
        type=as_str(entry.get("type")),
        price=as_int(_first(entry, "price", "bid_price", "unitPrice")),
        quantity=quantity,
        expiration_ms=as_int(_first(entry, "expiration", "bidExpiry", "bid_expiry", "expiresAt")),
        collection_slug=_collection_slug(entry),
        attribute=_trait(entry.get("attribute")),
        inscription_id=as_str(_first(entry, "inscription_id", "inscriptionId")),
        rune_name=_rune_name(entry, rune),
        is_non_custodial=non_custodial if isinstance(non_custodial, bool) else None,
        rune_amount=amount,
        rune_divisibility=divisibility,
        listed_under=listed_under,
        raw=entry,
    )


def _first(entry: Mapping[str, Any], *names: str) -> Any:
    for name in names:
        value = entry.get(name)
        if value is not None:
            return value
    return None


def _collection_slug(entry: Mapping[str, Any]) -> str | None:
    metadata = entry.get("inscription_metadata")
    if isinstance(metadata, Mapping) and isinstance(metadata.get("collection"), Mapping):
        documented = as_str(_first(metadata["collection"], "id", "slug"))
        if documented:
            return documented
    direct = as_str(_first(entry, "collectionSlug", "collection_slug"))
    if direct:
        return direct
    collection = entry.get("collection")
    if isinstance(collection, str):
        return collection
    if isinstance(collection, Mapping):
        return as_str(_first(collection, "slug", "id"))
    return None


def _first_rune(entry: Mapping[str, Any]) -> Mapping[str, Any] | None:
    metadata = entry.get("runes_metadata")
    if isinstance(metadata, Mapping):
        runes = metadata.get("runes")
        if isinstance(runes, list) and runes and isinstance(runes[0], Mapping):
            first: Mapping[str, Any] = runes[0]
            return first
    return None


def _rune_name(entry: Mapping[str, Any], rune: Mapping[str, Any] | None) -> str | None:
    if rune is not None:
        documented = as_str(_first(rune, "name", "spaced_name", "spacedRune"))
        if documented:
            return documented
    direct = as_str(_first(entry, "rune", "runeName", "rune_name"))
    if direct:
        return direct
    metadata = entry.get("runes_metadata")
    if isinstance(metadata, Mapping):
        named = as_str(_first(metadata, "name", "rune"))
        if named:
            return named
    if entry.get("type") == "rune":
        # A rune bid's collectionSlug is the rune name (spec 2.3).
        return as_str(_first(entry, "collectionSlug", "collection_slug"))
    return None


def _whole_units(amount: int, divisibility: int) -> int | None:
    """A rune bid's quantity (whole units) from its amount in smallest units, when exact."""
    if not 0 <= divisibility <= 38:
        return None
    units, rest = divmod(amount, 10**divisibility)
    return units if rest == 0 else None


def _trait(value: Any) -> BidTrait | None:
    if isinstance(value, Mapping):
        trait_type, trait_value = value.get("trait_type"), value.get("value")
        if isinstance(trait_type, str) and isinstance(trait_value, str):
            return BidTrait(trait_type, trait_value)
    return None
