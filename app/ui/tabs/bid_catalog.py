"""The Bid tab's catalog: the collections to suggest and a typed slug's traits, from
`services.catalog`. The form only shows them (`BidForm.set_collections`, `add_collection`,
`show_slug_note`); this object asks the service, off the GUI thread, and words the answer.

- On the sandbox every collection is suggested; elsewhere only those of our open bids, and the
  form says the service lists none to search (type the slug).
- A slug the user commits is looked up (`GET /collection`): its name and size are said under
  the field and its traits fill the picker; a slug the service does not know is said as such
  and the Bid tab does not place it (`BidForm.mark_unknown_collection`); a service without a
  catalog, or one that cannot be asked, leaves traits to be typed (and the bid placeable).
- Rune names are suggested from ord's list of etched runes (`services.rune_names`), matched
  whatever their spacers (`bid_rune_completion`).
- A rune name the user commits is read by ord's rules (here, without asking anyone) and looked
  up in ord: the field then holds its etched spelling (`DOGGOTOTHEMOON` becomes
  `DOG•GO•TO•THE•MOON`), the one a bid is signed, placed and pooled under, so the preview's
  message is the one signed. Until then the Bid tab does not place (`BidForm.rune_lookup`:
  pending), nor after ord refused the name or could not be asked (failed, with the reason).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from app.core.rune_names import RuneNameError, parse_typed_rune, rune_letters
from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.profile_session import NotReadyError, ProfileSession, failure_text

if TYPE_CHECKING:
    from app.services.catalog import CatalogAnswer
    from app.services.context import ServiceContext
    from app.services.sandbox_facts import CollectionInfo
    from app.ui.tabs.bid_form import BidForm


T = TypeVar("T")
# Rune names are read again after this long (new etchings), or on a new connection.
RUNE_NAMES_FRESH_S = 300.0


class BidCatalog:
    def __init__(self, form: BidForm, session: ProfileSession) -> None:
        self.form = form
        self.session = session
        self._rune_names_read: tuple[object, float] | None = None  # (connection, when)
        self._etched: tuple[str, ...] = ()  # the names ord lists
        self._seen_runes: tuple[str, ...] = ()  # runes seen named (ours, held, traded lately)
        form.slug_committed.connect(self.look_up)

    async def load_suggestions(self) -> None:
        from app.services.catalog import suggested_collections
        from app.services.errors import NetError

        if not self.session.connected:
            return
        root = self.session.sandbox_root
        try:
            found = await self._ask(lambda ctx: suggested_collections(ctx, root))
        except (NotReadyError, NetError):
            return  # nothing to suggest: the slug is typed
        if found is not None:
            self.form.set_collections(found.collections, searchable=found.searchable)
            self._seen_runes = found.runes
        await self.load_rune_names()

    async def load_rune_names(self) -> None:
        """The rune names ord lists, suggested in the rune field (none when it lists none or
        cannot be asked: a name is then typed, and still looked up by its letters)."""
        from app.services.errors import NetError
        from app.services.rune_names import suggested_rune_names

        if not self.session.connected:
            return
        connection = self.session.context.connection
        read = self._rune_names_read
        now = time.monotonic()
        if read is None or read[0] is not connection or now - read[1] >= RUNE_NAMES_FRESH_S:
            # a few pages of ord's list: not again each time the tab is shown
            try:
                names = await self._ask(suggested_rune_names)
            except (NotReadyError, NetError):
                names = None
            if names is not None:
                self._rune_names_read = (connection, now)
                self._etched = tuple(names)
        self.form.set_rune_names(rune_suggestions(self._etched, self._seen_runes))

    @async_slot(str)
    async def look_up(self, slug: str) -> None:
        """Ask the service about `slug` unless its traits and their counts are known already
        (ord, for a rune)."""
        from app.services.catalog import lookup_collection
        from app.services.errors import NetError

        if not self._still(slug):
            return  # committed as the field was emptied (Ordinals <-> Runes): nothing to ask
        if self.form.runes:
            await self._etched_name(slug)
            return
        known = self.form.collection(slug)
        quiet = known is not None and bool(known.traits)
        if quiet:
            assert known is not None
            self.form.show_slug_note(_found_text(known))  # described before: said again
            if known.trait_counts:
                return
            # The sandbox's list names traits without counts: asked once, without a word
        if not self.session.connected:
            return
        if not quiet:
            self.form.show_slug_note(strings.BID_CATALOG_LOOKING.format(slug=slug))
        try:
            answer = await self._ask(lambda ctx: lookup_collection(ctx, slug))
        except (NotReadyError, NetError) as exc:
            if self._still(slug) and not quiet:
                reason = failure_text(exc)
                self.form.mark_traits_typed(slug)
                self.form.show_slug_note(strings.BID_CATALOG_FAILED.format(reason=reason))
            return
        if quiet and (answer is None or answer.collection is None):
            return  # asked only for counts: a known collection is not made unknown by it
        if answer is not None and self._still(slug):
            self._show(slug, answer)

    async def _etched_name(self, typed: str) -> None:
        from app.services.errors import NetError, ServiceError, UnknownRuneError
        from app.services.rune_names import canonical_rune_name

        if self.form.rune_is_etched():
            return
        try:
            parse_typed_rune(typed)
        except RuneNameError as exc:  # ord's rules, read here: no need to ask it
            self._rune_failed(typed, strings.BID_RUNE_MALFORMED.format(name=typed, reason=exc))
            return
        if not self.session.connected:
            return
        self.form.mark_rune_looking(typed)
        self.form.show_slug_note(strings.BID_RUNE_LOOKING.format(name=typed))
        try:
            name = await self._ask(lambda ctx: canonical_rune_name(ctx, typed))
        except UnknownRuneError:
            if self._still(typed):
                self._rune_failed(typed, strings.BID_RUNE_UNKNOWN.format(name=typed))
            return
        except (NotReadyError, ServiceError, NetError) as exc:
            if self._still(typed):
                self._rune_failed(typed, failure_text(exc))
            return
        if name is None or not self._still(typed):
            return
        self.form.mark_etched(name)
        if name != typed:
            self.form.slug.setText(name)
            self.form.show_slug_note(strings.BID_RUNE_ETCHED.format(name=name))
        else:
            self.form.show_slug_note("")

    async def _ask(self, question: Callable[[ServiceContext], Awaitable[T]]) -> T | None:
        """The answer of `question` on a ready read context; None when the connection closed
        under it (the tab moved on to another profile). Expected failures propagate."""
        connection = self.session.context.connection
        try:
            await self.session.ensure_ready()
            return await question(self.session.read_context())
        except Exception:
            if self.session.context.connection is not connection:
                return None
            raise

    def _rune_failed(self, typed: str, reason: str) -> None:
        self.form.mark_rune_failed(typed, reason)
        self.form.show_slug_note(reason, "error")

    def _still(self, slug: str) -> bool:
        """The user has not moved on to another slug while we asked."""
        return self.form.slug.text().strip() == slug

    def _show(self, slug: str, answer: CatalogAnswer) -> None:
        form = self.form
        if not answer.offered:  # only then is a slug unknown to the service still placeable
            form.mark_traits_typed(slug)
            form.show_slug_note(strings.BID_CATALOG_NOT_OFFERED)
            return
        info = answer.collection
        if info is None:
            form.mark_unknown_collection(slug)
            form.show_slug_note(strings.BID_CATALOG_UNKNOWN.format(slug=slug), "error")
            return
        form.add_collection(info)
        form.show_slug_note(_found_text(info))


def rune_suggestions(etched: Sequence[str], seen: Sequence[str]) -> list[str]:
    """Ord's etched names, then the runes seen named that ord did not list (the public
    service's market and our wallet name runes ord's list may not reach), one per rune
    whatever its spacers, in ord's spelling where it has one."""
    names = list(etched)
    known = {rune_letters(name) for name in names}
    for name in seen:
        letters = rune_letters(name)
        if letters and letters not in known:
            known.add(letters)
            names.append(name)
    return names


def _found_text(info: CollectionInfo) -> str:
    """What the service said of a collection it knows: its name and size."""
    if info.total_items is None:
        return strings.BID_CATALOG_FOUND_NO_SIZE.format(name=info.name)
    items = strings.counted(strings.BID_CATALOG_ITEMS, info.total_items)
    return strings.BID_CATALOG_FOUND.format(name=info.name, items=items)
