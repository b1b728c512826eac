"""The Bid tab's catalog: which collections to suggest, and a collection's traits.

The public service offers no list or search of collections (`../shared/notes/
satflow-market-data.md`): a collection is looked up by its slug (`GET /collection`), which
gives its name and its traits with their values. So:
- `suggested_collections`: the sandbox's whole list where there is one (it is ours to read);
  elsewhere the collections of our own open bids. `searchable` says which, so the window can
  say "type the collection's slug" instead of showing a short list as if it were everything.
- `lookup_collection`: the service's entry of one slug (kept per context: a catalog moves
  slowly), or that it knows none, or that it offers no catalog (then traits are typed by hand).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from app.net.marketplace_catalog import CatalogAnswer, CollectionInfo
from app.services.context import ServiceContext
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.sandbox_facts import collection_catalog

__all__ = [
    "CatalogAnswer",
    "CollectionInfo",
    "Suggestions",
    "lookup_collection",
    "suggested_collections",
]


@dataclass(frozen=True)
class Suggestions:
    collections: tuple[CollectionInfo, ...]
    searchable: bool  # True: every collection the service has (the sandbox's list)


_answers: weakref.WeakKeyDictionary[ServiceContext, dict[str, CatalogAnswer]] = (
    weakref.WeakKeyDictionary()
)


async def suggested_collections(ctx: ServiceContext, sandbox_root: str | None) -> Suggestions:
    """The sandbox's collections, or (elsewhere) those of our open collection and trait bids,
    sorted by slug. Raises `NetError` when our open bids cannot be read."""
    if sandbox_root is not None:
        listed = await collection_catalog(sandbox_root)
        if listed:
            return Suggestions(tuple(listed), searchable=True)
    slugs = {
        key.collection_slug
        for bid in await fetch_open_bids(ctx)
        if (key := pool_key_of(bid)) is not None and not bid.is_rune_bid
    }
    return Suggestions(tuple(CollectionInfo(s, s, ()) for s in sorted(slugs)), searchable=False)


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
