"""The Bid tab's catalog: the collections to suggest and a typed slug's traits, from
`services.catalog`. The form only shows them (`BidForm.set_collections`, `add_collection`,
`show_slug_note`); this object asks the service, off the GUI thread, and words the answer.

- On the sandbox every collection is suggested; elsewhere only those of our open bids, and the
  form says the service lists none to search (type the slug).
- A slug the user commits is looked up (`GET /collection`): its name and size are said under
  the field and its traits fill the picker; a slug the service does not know is said as such;
  a service without a catalog, or one that cannot be asked, leaves traits to be typed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.async_tools import async_slot
from app.ui.profile_session import NotReadyError, ProfileSession, failure_text

if TYPE_CHECKING:
    from app.services.catalog import CatalogAnswer
    from app.ui.tabs.bid_form import BidForm


class BidCatalog:
    def __init__(self, form: BidForm, session: ProfileSession) -> None:
        self.form = form
        self.session = session
        form.slug_committed.connect(self.look_up)

    @async_slot()
    async def load_suggestions(self) -> None:
        from app.services.catalog import suggested_collections
        from app.services.errors import NetError

        if not self.session.connected:
            return
        try:
            await self.session.ensure_ready()
            found = await suggested_collections(
                self.session.read_context(), self.session.sandbox_root
            )
        except (NotReadyError, NetError):
            return  # nothing to suggest: the slug is typed
        self.form.set_collections(found.collections, searchable=found.searchable)

    @async_slot(str)
    async def look_up(self, slug: str) -> None:
        """Ask the service about `slug` unless its traits are known already."""
        from app.services.catalog import lookup_collection
        from app.services.errors import NetError

        known = self.form.collection(slug)
        if (known is not None and known.traits) or not self.session.connected:
            return
        self.form.show_slug_note(strings.BID_CATALOG_LOOKING.format(slug=slug))
        try:
            await self.session.ensure_ready()
            answer = await lookup_collection(self.session.read_context(), slug)
        except (NotReadyError, NetError) as exc:
            if self._still(slug):
                reason = failure_text(exc)
                self.form.show_slug_note(strings.BID_CATALOG_FAILED.format(reason=reason))
            return
        if self._still(slug):
            self._show(slug, answer)

    def _still(self, slug: str) -> bool:
        """The user has not moved on to another slug while we asked."""
        return self.form.slug.text().strip() == slug

    def _show(self, slug: str, answer: CatalogAnswer) -> None:
        form = self.form
        if not answer.offered:
            form.show_slug_note(strings.BID_CATALOG_NOT_OFFERED)
            return
        info = answer.collection
        if info is None:
            form.show_slug_note(strings.BID_CATALOG_UNKNOWN.format(slug=slug), "error")
            return
        form.add_collection(info)
        if info.total_items is None:
            text = strings.BID_CATALOG_FOUND_NO_SIZE.format(name=info.name)
        else:
            items = strings.counted(strings.BID_CATALOG_ITEMS, info.total_items)
            text = strings.BID_CATALOG_FOUND.format(name=info.name, items=items)
        form.show_slug_note(text)
