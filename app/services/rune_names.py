"""Rune names as the service spells them: the canonical spaced name of ord's rune entry.

The service names a rune by its etched spelling (`DOG•GO•TO•THE•MOON`). A user may type
`DOGGOTOTHEMOON`, `dog.go.to.the.moon` or another spacing: `canonical_rune_name` reads it by
ord's rules (`app.core.rune_names`) and asks ord for the rune's entry, whose `spaced_rune` is
the one spelling bids are placed, pooled and matched under. Answers are kept per context
(a rune's spelling never changes).

`suggested_rune_names` lists the etched names ord has (its `/runes`, newest first, a few pages:
mainnet has far more runes than a completion list can hold; any other name is still found by
its letters), for the Bid tab to suggest while the user types.

`with_canonical_rune_names` gives listed rune bids that spelling too: a name the service
lists with spacers is its spelling already (only '.' is written '•'); a name listed without
any is looked up in ord, and kept as listed when ord cannot say (the list is still shown).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import replace

from app.core.rune_names import (
    RUNE_SPACER_LOOKALIKES,
    SPACER,
    RuneNameError,
    parse_spaced_rune,
    parse_typed_rune,
)
from app.net.errors import NetError
from app.net.marketplace_bids import BidListEntry
from app.services.context import ServiceContext
from app.services.errors import OrdUnavailableError, UnknownRuneError

_known: weakref.WeakKeyDictionary[ServiceContext, dict[str, str]] = weakref.WeakKeyDictionary()


def _spellings(ctx: ServiceContext) -> dict[str, str]:
    """Letters -> canonical spaced name, as ord answered for this context."""
    known = _known.get(ctx)
    if known is None:
        known = _known[ctx] = {}
    return known


async def canonical_rune_name(ctx: ServiceContext, typed: str) -> str:
    """The etched spelling of the rune the user typed, from ord's entry.

    Raises `UnknownRuneError` when the text is not a rune name or ord knows no such rune, and
    `OrdUnavailableError` when ord cannot be asked."""
    try:
        letters = parse_typed_rune(typed).letters
    except RuneNameError as exc:
        raise UnknownRuneError(f"{typed.strip()!r} is not a rune name: {exc}.") from None
    known = _spellings(ctx)
    if letters in known:
        return known[letters]
    try:
        entry = await ctx.clients.ord.rune(letters)
    except NetError as exc:
        raise OrdUnavailableError(
            f"ord could not be asked how the rune {letters} is spelled ({type(exc).__name__}), "
            "so no bid was placed: bids are placed under the rune's etched name."
        ) from exc
    if entry is None or entry.letters != letters:
        raise UnknownRuneError(
            f"No rune named {typed.strip()} is etched (ord knows none with the letters "
            f"{letters}): check the name."
        )
    known[letters] = entry.spaced_name
    return entry.spaced_name


# ord lists 50 runes a page (server.rs `runes_paginated`): the newest 500 are suggested.
SUGGESTION_PAGES = 10


async def suggested_rune_names(ctx: ServiceContext) -> tuple[str, ...]:
    """The etched spellings of the runes ord lists (up to `SUGGESTION_PAGES` pages), sorted;
    () when this ord lists none. Raises `NetError` when ord cannot be asked."""
    known = _spellings(ctx)
    names: set[str] = set()
    page: int | None = 0
    for _ in range(SUGGESTION_PAGES):
        if page is None:
            break
        listed = await ctx.clients.ord.runes(page)
        if listed is None:
            break
        for entry in listed.entries:
            names.add(entry.spaced_name)
            known[entry.letters] = entry.spaced_name  # a rune's spelling never changes
        page = listed.next_page
    return tuple(sorted(names))


async def with_canonical_rune_names(
    ctx: ServiceContext, entries: Sequence[BidListEntry]
) -> list[BidListEntry]:
    """`entries` with each rune bid's name in its etched spelling where it can be known."""
    spelled = {
        name: await _listed_spelling(ctx, name)
        for name in {e.rune_name for e in entries if e.rune_name}
    }
    return [
        replace(e, rune_name=spelled[e.rune_name])
        if e.rune_name and spelled[e.rune_name] != e.rune_name
        else e
        for e in entries
    ]


async def _listed_spelling(ctx: ServiceContext, listed: str) -> str:
    if any(ch in RUNE_SPACER_LOOKALIKES for ch in listed):
        try:
            return str(parse_spaced_rune(listed.replace(".", SPACER)))
        except RuneNameError:
            return listed
    try:
        return await canonical_rune_name(ctx, listed)
    except (UnknownRuneError, OrdUnavailableError):
        return listed
