"""The Bid tab's catalog: which collections to suggest, and a collection's traits.

The public service offers no list or search of collections (`../shared/notes/
satflow-market-data.md`): a collection is looked up by its slug (`GET /collection`), which
gives its name and its traits with their values. So:
- `suggested_collections`: the sandbox's whole list where there is one (it is ours to read);
  elsewhere what we have seen named: the collections and runes of our own open bids, of what
  our addresses hold (`/address/wallet-contents`) and of the market's most recent listings,
  bids and sales (`/activity/*` without a collection: what the sandbox serves; the public
  service's answer to it is undocumented). `searchable` says which, so the window can say
  "type the collection's slug" instead of showing a short list as if it were everything. Only
  our open bids must be read; the other sources are skipped when they fail. Every source is the
  service's word, so a name that could pass for another is not suggested: a collection slug
  only when it is printable ASCII without blanks (a bidi override, a zero-width character or a
  Cyrillic look-alike would show as a collection it is not), a rune only when ord's rules read
  it (`parse_typed_rune`: letters A-Z and spacers); a collection's name only when printable
  (else its slug stands for it). Such a name can still be typed, and is then looked up.
- `lookup_collection`: the service's entry of one slug (kept per context: a catalog moves
  slowly) with its traits and how many items carry each value (`CollectionInfo.count_of`), or
  that it knows none, or that it offers no catalog (then traits are typed by hand).
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass
from typing import Final, TypeVar

from app.core.market_snapshot import is_rune_pool
from app.core.pools import PoolKey
from app.core.rune_names import RuneNameError, parse_typed_rune
from app.net.marketplace_catalog import CatalogAnswer, CollectionInfo
from app.services.context import ServiceContext
from app.services.errors import NetError
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.sandbox_facts import collection_catalog

__all__ = [
    "CatalogAnswer",
    "CollectionInfo",
    "Suggestions",
    "lookup_collection",
    "suggested_collections",
]


log = logging.getLogger(__name__)
T = TypeVar("T")
RECENT_ROWS: Final = 100  # a page of each side of the market's latest activity


@dataclass(frozen=True)
class Suggestions:
    collections: tuple[CollectionInfo, ...]
    searchable: bool  # True: every collection the service has (the sandbox's list)
    runes: tuple[str, ...] = ()  # rune names seen (not searchable): ours, held, traded lately


_answers: weakref.WeakKeyDictionary[ServiceContext, dict[str, CatalogAnswer]] = (
    weakref.WeakKeyDictionary()
)


async def suggested_collections(ctx: ServiceContext, sandbox_root: str | None) -> Suggestions:
    """The sandbox's collections, or (elsewhere) the collections and runes seen named (module
    docstring), each sorted. Raises `NetError` when our open bids cannot be read."""
    if sandbox_root is not None:
        listed = await collection_catalog(sandbox_root)
        if listed:
            return Suggestions(tuple(listed), searchable=True)
    seen = _Seen()
    for bid in await fetch_open_bids(ctx):
        key = pool_key_of(bid)
        if key is not None:
            seen.add(key.collection_slug, rune=bid.is_rune_bid)
    await _seen_held(ctx, seen)
    await _seen_traded(ctx, seen)
    collections = (CollectionInfo(s, seen.names.get(s) or s, ()) for s in sorted(seen.names))
    return Suggestions(tuple(collections), searchable=False, runes=tuple(sorted(seen.runes)))


class _Seen:
    def __init__(self) -> None:
        self.names: dict[str, str | None] = {}  # slug -> a name, when one was seen
        self.runes: set[str] = set()

    def add(self, slug: str | None, name: str | None = None, *, rune: bool | None = None) -> None:
        if not slug or not slug.strip():
            return
        if rune if rune is not None else is_rune_pool(PoolKey(slug)):
            if _readable_rune(slug):
                self.runes.add(slug)
            return
        if not _plain_slug(slug):
            return
        name = name if name and name.isprintable() else None
        if name or slug not in self.names:
            self.names[slug] = name or self.names.get(slug)


def _plain_slug(slug: str) -> bool:
    """A slug no look-alike hides in: printable ASCII, no blanks."""
    return slug.isascii() and slug.isprintable() and not any(ch.isspace() for ch in slug)


def _readable_rune(name: str) -> bool:
    try:
        parse_typed_rune(name)
    except RuneNameError:
        return False
    return True


async def _soft(what: str, read: Awaitable[T]) -> T | None:
    """A source of suggestions that may fail: None then (logged), never the whole list."""
    try:
        return await read
    except NetError as exc:
        log.info("no suggestions from %s: %s", what, type(exc).__name__)
        return None


async def _seen_held(ctx: ServiceContext, seen: _Seen) -> None:
    market = ctx.clients.marketplace
    for address in dict.fromkeys((ctx.ordinals_address, ctx.payment_address)):
        held = await _soft("wallet contents", market.get_wallet_contents(address))
        if held is None:
            continue
        for item in held.inscriptions:
            seen.add(item.collection_slug, item.collection_name, rune=False)
        for rune in held.runes:
            seen.add(rune.rune_name, rune=True)


async def _seen_traded(ctx: ServiceContext, seen: _Seen) -> None:
    market = ctx.clients.marketplace
    size, by, latest_first = RECENT_ROWS, "createdAt", "desc"
    asks = await _soft(
        "recent listings",
        market.get_activity_listings(None, page_size=size, sort_by=by, sort_direction=latest_first),
    )
    bids = await _soft(
        "recent bids",
        market.get_activity_bids(None, page_size=size, sort_by=by, sort_direction=latest_first),
    )
    sales = await _soft("recent sales", market.get_activity_sales(None, page_size=size))
    slugs: Iterable[tuple[str | None, bool | None]] = [
        *((a.collection_slug, None) for a in (asks.rows if asks else ())),
        *((b.collection_slug, b.kind == "rune") for b in (bids.rows if bids else ())),
        *((s.collection_slug, None) for s in (sales.rows if sales else ())),
    ]
    for slug, rune in slugs:
        seen.add(slug, rune=rune)


async def lookup_collection(ctx: ServiceContext, slug: str) -> CatalogAnswer:
    """The service's catalog entry of `slug` (with its traits). Raises `NetError` when the
    service cannot be asked; an answer is kept for the context's life."""
    slug = slug.strip()
    known = _answers.get(ctx)
    if known is None:
        known = _answers[ctx] = {}
    if slug not in known:
        known[slug] = await ctx.clients.marketplace.get_collection(slug)
    return known[slug]
