"""Market reads beyond the order pages (``../shared/notes/satflow-market-data.md``, section 2):

- ``GET /collection-stats?collectionId=``: one collection's floor, listed count, volumes (the
  ``...ChangePercent`` fields are strings [DOC]) and ``metadata`` (name, total_items);
- ``GET /collection-stats/floors?type=ordinals|runes&slugs=a,b``: floors of several slugs at once;
- ``GET /address/wallet-contents?address=``: what an address holds, with its listings:
  ``data.results.ordinals[]`` and ``data.results.runes[]`` {collection, token, listing} and
  ``data.nextCursor`` [DOC]. satflow-mm reads a rune's symbol and divisibility on
  ``collection`` where the docs put them on ``token``: both are read.

A 404 the service answers itself means it knows no such collection (None, or no floors); an
entry that cannot be read is skipped and counted, and so are entries past ``MAX_ROWS`` in one
answer (not read); a body without the documented object or array is a ``BadResponse``. A
listing price that is not a positive number of sats up to all the bitcoin there is
(``MAX_MONEY_SATS``) is no price (the item reads as not listed); a percentage that is not a
finite number is None.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from app.core.limits import MAX_MONEY_SATS
from app.net.fields import Reader, as_epoch_ms, as_int, as_str

STATS_PATH: Final = "/collection-stats"
FLOORS_PATH: Final = "/collection-stats/floors"
WALLET_CONTENTS_PATH: Final = "/address/wallet-contents"
FLOOR_TYPES: Final = frozenset({"ordinals", "runes"})
ITEM_TYPES: Final = frozenset({"inscription", "rune", "all"})
# Entries read of one answer (a list of floors, a page of a wallet's inscriptions or runes):
# more than any request asks for; past it they are not read.
MAX_ROWS: Final = 1_000


@dataclass(frozen=True)
class CollectionStats:
    slug: str
    name: str | None
    floor: int | None
    listed_count: int | None
    total_items: int | None
    volume_1d: int | None
    volume_7d: int | None
    volume_30d: int | None
    volume_1d_change_percent: float | None
    volume_7d_change_percent: float | None
    volume_30d_change_percent: float | None


@dataclass(frozen=True)
class CollectionFloor:
    slug: str
    floor: int | None
    listed_count: int | None
    owner_count: int | None
    one_day_change: float | None  # floor change in percent
    seven_day_change: float | None
    at_ms: int | None


@dataclass(frozen=True)
class FloorsPage:
    floors: tuple[CollectionFloor, ...]
    skipped: int


@dataclass(frozen=True)
class HeldInscription:
    collection_slug: str | None
    collection_name: str | None
    inscription_id: str
    inscription_number: int | None
    name: str | None
    listing_price: int | None  # None: not listed


@dataclass(frozen=True)
class HeldRune:
    rune_name: str  # the spaced name, as the service spells it
    amount: int | None  # in the rune's smallest units
    divisibility: int | None
    symbol: str | None
    output: str | None
    listing_price: int | None  # the total, sats
    listing_price_per_rune: float | None


@dataclass(frozen=True)
class WalletContents:
    inscriptions: tuple[HeldInscription, ...]
    runes: tuple[HeldRune, ...]
    next_cursor: int | None
    skipped: int


def _number(value: Any) -> float | None:
    """A finite number from a JSON number or a decimal string ("-73.0676")."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (ValueError, OverflowError):  # not a number; an integer too long for a float
        return None
    return number if math.isfinite(number) else None  # JSON may say NaN or Infinity


def _sats(value: Any) -> int | None:
    """A price in whole sats: positive, at most all the bitcoin there is; else None."""
    sats = as_int(value)
    return sats if sats is not None and 0 < sats <= MAX_MONEY_SATS else None


def _listing_per_rune(value: Any) -> float | None:
    price = _number(value)
    return price if price is not None and 0 < price <= MAX_MONEY_SATS else None


def _obj(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def parse_collection_stats(r: Reader, body: Any, slug: str) -> CollectionStats:
    data = r.obj(r.data(body), "data")
    metadata = _obj(data.get("metadata"))
    return CollectionStats(
        slug=as_str(metadata.get("id")) or slug,
        name=as_str(metadata.get("name")),
        floor=_sats(data.get("floor")),
        listed_count=as_int(data.get("listedCount")),
        total_items=as_int(metadata.get("total_items")),
        volume_1d=as_int(data.get("volume1d")),
        volume_7d=as_int(data.get("volume7d")),
        volume_30d=as_int(data.get("volume30d")),
        volume_1d_change_percent=_number(data.get("volume1dChangePercent")),
        volume_7d_change_percent=_number(data.get("volume7dChangePercent")),
        volume_30d_change_percent=_number(data.get("volume30dChangePercent")),
    )


def parse_floors(r: Reader, body: Any) -> FloorsPage:
    entries = r.obj(body).get("data")
    if not isinstance(entries, list):
        raise r.error("data is not a list of floors", "data")
    floors = []
    for entry in entries[:MAX_ROWS]:
        slug = as_str(entry.get("slug")) if isinstance(entry, Mapping) else None
        if not slug:
            continue
        floors.append(
            CollectionFloor(
                slug=slug,
                floor=_sats(entry.get("floor")),
                listed_count=as_int(entry.get("listedCount")),
                owner_count=as_int(entry.get("ownerCount")),
                one_day_change=_number(entry.get("oneDayChange")),
                seven_day_change=_number(entry.get("sevenDayChange")),
                at_ms=as_epoch_ms(entry.get("timestamp")),
            )
        )
    return FloorsPage(tuple(floors), len(entries) - len(floors))


def parse_wallet_contents(r: Reader, body: Any) -> WalletContents:
    data = r.data(body)
    results = data.get("results")
    if not isinstance(results, Mapping):
        raise r.error("data.results is not an object", "data.results")
    ordinals, runes = results.get("ordinals"), results.get("runes")
    ordinals, runes = [] if ordinals is None else ordinals, [] if runes is None else runes
    if not isinstance(ordinals, list) or not isinstance(runes, list):
        raise r.error("data.results.ordinals / runes are not lists", "data.results")
    held = [h for h in (_inscription(e) for e in ordinals[:MAX_ROWS]) if h is not None]
    held_runes = [h for h in (_rune(e) for e in runes[:MAX_ROWS]) if h is not None]
    return WalletContents(
        inscriptions=tuple(held),
        runes=tuple(held_runes),
        next_cursor=as_int(data.get("nextCursor")),
        skipped=len(ordinals) + len(runes) - len(held) - len(held_runes),
    )


def _inscription(entry: Any) -> HeldInscription | None:
    if not isinstance(entry, Mapping):
        return None
    token, collection = _obj(entry.get("token")), _obj(entry.get("collection"))
    inscription_id = as_str(token.get("inscription_id"))
    if not inscription_id:
        return None
    return HeldInscription(
        collection_slug=as_str(collection.get("id")) or as_str(entry.get("collection")),
        collection_name=as_str(collection.get("name")),
        inscription_id=inscription_id,
        inscription_number=as_int(token.get("inscription_number")),
        name=as_str(token.get("name")),
        listing_price=_sats(_obj(entry.get("listing")).get("price")),
    )


def _rune(entry: Any) -> HeldRune | None:
    if not isinstance(entry, Mapping):
        return None
    token, collection = _obj(entry.get("token")), _obj(entry.get("collection"))
    name = as_str(collection.get("id")) or as_str(entry.get("collection")) or None
    name = name or as_str(token.get("name"))
    if not name:
        return None
    listing = _obj(entry.get("listing"))
    return HeldRune(
        rune_name=name,
        amount=as_int(token.get("rune_amount")),
        divisibility=as_int(
            _first(token.get("rune_divisibility"), collection.get("rune_divisibility"))
        ),
        symbol=as_str(_first(token.get("rune_symbol"), collection.get("rune_symbol"))),
        output=as_str(_first(token.get("output"), token.get("rune_utxo_id"))),
        listing_price=_sats(listing.get("price")),
        listing_price_per_rune=_listing_per_rune(listing.get("price_per_rune_sats")),
    )


def _first(*values: Any) -> Any:
    return next((v for v in values if v is not None), None)
