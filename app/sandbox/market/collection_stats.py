"""`GET /v1/collection-stats` and `/v1/collection-stats/floors`: a collection's floor, listed
count, owners and rolling sales volumes, in the public service's shapes (docs/market-data.md).

- floor: the lowest active listing's price (per whole rune unit for runes), null when none;
  a past floor (the floors' one- and seven-day change) is the lowest listing active at that
  moment, read from each listing's creation and end times;
- volumes: the sum of the sales (activity_views.sales_source) in rolling windows ending now
  at the service clock; the change compares with the window before (sats, and a percent
  written as a string with 4 decimals like the public service, null when the window before
  sold nothing);
- owners: distinct holders on the chain (`chain/holdings.py`).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from app.sandbox.chain.holdings import collection_holdings, rune_owner_counts
from app.sandbox.market import listing_targets
from app.sandbox.market.activity_views import iso_ms, sales_source
from app.sandbox.market.listings_store import ACTIVE
from app.sandbox.market.service import Json, Market

DAY_MS = 86_400_000
VOLUME_WINDOWS = (("1d", DAY_MS), ("7d", 7 * DAY_MS), ("30d", 30 * DAY_MS))


def category_attributes(market: Market, collection: Json) -> list[Json]:
    """`category_attributes[]`: each trait type with its values and how many items carry each."""
    counts = market.node.collection_trait_counts(collection["slug"])
    return [
        {
            "key": trait["trait_type"],
            "values": [
                {"value": value, "count": counts.get((trait["trait_type"], value), 0)}
                for value in trait["values"]
            ],
        }
        for trait in collection["traits"]
    ]


def _floor_now(conn: sqlite3.Connection, slugs: list[str]) -> dict[str, tuple[float, int]]:
    """slug -> (lowest active unit price, active listings) for those with any."""
    marks = ",".join("?" * len(slugs))
    rows = conn.execute(
        "SELECT t.slug, MIN(t.unit_price), COUNT(*) FROM secure_listings s JOIN listing_targets t "
        f"ON t.listing_id = s.id WHERE s.status = ? AND t.slug IN ({marks}) GROUP BY t.slug",
        [ACTIVE, *slugs],
    ).fetchall()
    return {slug: (low, count) for slug, low, count in rows}


def _floor_at(conn: sqlite3.Connection, slug: str, at_ms: int) -> float | None:
    """The lowest listing that was active at `at_ms` (created by then, not yet ended)."""
    row = conn.execute(
        "SELECT MIN(t.unit_price) FROM secure_listings s JOIN listing_targets t "
        "ON t.listing_id = s.id WHERE t.slug = ? AND s.created_ms <= ? "
        "AND (s.ended_ms IS NULL OR s.ended_ms > ?)",
        (slug, at_ms, at_ms),
    ).fetchone()
    return None if row is None or row[0] is None else float(row[0])


def _percent(now: float | None, then: float | None) -> float | None:
    if now is None or not then:
        return None
    return round((now - then) / then * 100, 4)


def _price(value: float | None) -> int | float | None:
    """Whole sats as an int (ordinals), a fraction kept for a rune unit's price."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


def _volumes(conn: sqlite3.Connection, slug: str, now: int) -> Json:
    source, args = sales_source(slug)
    # Per window: the sum over (now - span, now], then over the span before it.
    window_sum = "COALESCE(SUM(CASE WHEN ended_ms > ? AND ended_ms <= ? THEN price END), 0)"
    sums = [window_sum] * (2 * len(VOLUME_WINDOWS))
    bounds: list[Any] = []
    for _, span in VOLUME_WINDOWS:
        bounds += [now - span, now, now - 2 * span, now - span]
    row = conn.execute(f"SELECT {', '.join(sums)} FROM ({source})", [*bounds, *args]).fetchone()
    data: Json = {}
    for index, (name, _) in enumerate(VOLUME_WINDOWS):
        current, before = int(row[2 * index]), int(row[2 * index + 1])
        percent = None if before == 0 else f"{(current - before) / before * 100:.4f}"
        data[f"volume{name}"] = current
        data[f"volume{name}Change"] = current - before
        data[f"volume{name}ChangePercent"] = percent
    return data


def collection_stats(market: Market, collection: Json) -> Json:
    """The `data` of `/collection-stats` for a known collection (as `Node.collection` gives it)."""
    slug = collection["slug"]
    listing_targets.sync(market)
    now = market.now_ms()
    with market.store.reading() as conn:
        floor, listed = _floor_now(conn, [slug]).get(slug, (None, 0))
        volumes = _volumes(conn, slug, now)
    holding = market.node.read_index(lambda conn: collection_holdings(conn, [slug])).get(slug)
    metadata = {
        "_id": slug,
        "id": slug,
        "name": collection["name"],
        "description": None,
        "image_url": None,
        "image_url_content_type": None,
        "total_items": collection["inscriptionCount"],
        "inscription_min": None if holding is None else holding.inscription_min,
        "inscription_max": None if holding is None else holding.inscription_max,
        "twitter_username": None,
        "external_url": None,
        "discord_url": None,
        "creator_tips_address": None,
        "creator_fees_enabled": False,
        "royalties": [],
        "category_attributes": category_attributes(market, collection),
        "supportsLiquidiumLoans": False,
    }
    return {
        "floor": _price(floor),
        "listedCount": listed,
        "ownerCount": 0 if holding is None else holding.owners,
        **volumes,
        "timestamp": iso_ms(now),
        "metadata": metadata,
    }


def floors(market: Market, slugs: list[str], runes: bool) -> list[Json]:
    """`/collection-stats/floors` entries of `slugs` (known collections, or etched runes by
    spaced name), in the order asked."""
    listing_targets.sync(market)
    now = market.now_ms()
    with market.store.reading() as conn:
        current = _floor_now(conn, slugs)
        past = {
            slug: (_floor_at(conn, slug, now - DAY_MS), _floor_at(conn, slug, now - 7 * DAY_MS))
            for slug in slugs
        }
    if runes:
        owners = market.node.read_index(lambda conn: rune_owner_counts(conn, slugs))
    else:
        held = market.node.read_index(lambda conn: collection_holdings(conn, slugs))
        owners = {slug: holding.owners for slug, holding in held.items()}
    entries = []
    for slug in slugs:
        floor, listed = current.get(slug, (None, 0))
        day_ago, week_ago = past[slug]
        entries.append(
            {
                "slug": slug,
                "floor": _price(floor),
                "listedCount": listed,
                "ownerCount": owners.get(slug, 0),
                "oneDayChange": _percent(floor, day_ago),
                "sevenDayChange": _percent(floor, week_ago),
                "timestamp": iso_ms(now),
            }
        )
    return entries
