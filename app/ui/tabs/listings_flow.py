"""The Listings tab's three flows, each review-first:

- sign here: request and review every PSBT (progress) -> one review table -> sign each in the
  executor (progress, Cancel between items) -> one submission;
- export: the same review -> the PSBTs and their manifest written to a folder;
- import: the signed folder re-reviewed online and checked against its signatures -> the review
  table -> one submission.
Nothing is sent unless every item was reviewed, approved, signed and checked.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.async_tools import run_blocking
from app.ui.dialogs.psbt_review_flow import (
    confirm,
    read_context,
    show_refusal,
    signing_context,
    still_unlocked,
)
from app.ui.wallet_session import failure_text, tracked

if TYPE_CHECKING:
    from app.services.context import ServiceContext
    from app.services.listings import ListingPlan
    from app.services.offline_manifest import Manifest
    from app.ui.context import AppContext
    from app.ui.controller import AppController
    from app.ui.tabs.listings_items import HeldItem
    from app.ui.tabs.listings_tab import ListingsTab


def sats(n: int) -> str:
    return strings.SATS.format(sats=n)


class ListingsFlow:
    def __init__(self, tab: ListingsTab, context: AppContext, controller: AppController) -> None:
        self._tab = tab
        self._context = context
        self._controller = controller
        self.busy = False
        self.exported: dict[Path, Manifest] = {}  # folder -> manifest, checked on import

    @contextmanager
    def _running(self) -> Iterator[None]:
        self.busy = True
        self._tab._selection_changed()
        try:
            yield
        finally:
            self.busy = False
            self._tab.progress.end()
            self._tab._selection_changed()

    async def _prepare(
        self, ctx: ServiceContext, items: Sequence[HeldItem], prices: Sequence[int]
    ) -> ListingPlan | None:
        """Request and review every PSBT; a refusal is shown in the dialog (None returned)."""
        from app.services.listings import prepare_listings
        from app.services.psbt_flow import PsbtRefusedError

        tab = self._tab
        wanted = [item.listing(price) for item, price in zip(items, prices, strict=True)]
        token = tab.progress.begin(strings.LISTINGS_REVIEWING, len(wanted))
        tab.show_status(strings.FLOW_REVIEWING)
        try:
            async with tracked(self._context, "listings.prepare", count=len(wanted)):
                return await prepare_listings(
                    ctx, wanted, progress=tab.progress.progress, cancel=token
                )
        except PsbtRefusedError as exc:
            tab.show_status(strings.FLOW_REFUSED, "error")
            tab.progress.end()
            await show_refusal(tab, self._context, exc, title=strings.LISTINGS_TITLE)
        except Exception as exc:
            cancelled = type(exc).__name__ == "OperationCancelledError"
            tab.show_status(strings.FLOW_CANCELLED if cancelled else self._failed(exc), "error")
        return None

    def _failed(self, exc: Exception) -> str:
        from app.services.psbt_flow import OperationCancelledError

        if isinstance(exc, OperationCancelledError):
            return strings.LISTINGS_CANCELLED_AFTER.format(done=exc.done, total=exc.total)
        return strings.LISTINGS_NOT_DONE.format(reason=failure_text(exc))

    def _notes(self, plan: ListingPlan) -> list[str]:
        total = sum(i.listing.price for i in plan.items)
        return [
            strings.LISTINGS_NOTE.format(
                count=len(plan.items), total=sats(total), address=plan.receive_address
            )
        ]

    async def sign_and_submit(self, items: Sequence[HeldItem], prices: Sequence[int]) -> None:
        from app.services.listings import execute_listings

        tab = self._tab
        with self._running():
            try:
                ctx = await signing_context(self._context, self._controller)
            except Exception as exc:
                tab.show_status(self._failed(exc), "error")
                return
            plan = await self._prepare(ctx, items, prices)
            if plan is None:
                return
            tab.progress.end()
            plans = [i.psbt for i in plan.items]
            action = strings.LISTINGS_ACTION.format(count=len(plans))
            title, notes = strings.LISTINGS_TITLE, self._notes(plan)
            if not await confirm(
                tab, self._context, plans, title=title, action=action, notes=notes
            ):
                tab.show_status(strings.FLOW_CANCELLED)
                return
            token = tab.progress.begin(strings.LISTINGS_SIGNING, len(plans))
            tab.show_status(strings.FLOW_SIGNING)

            def locked(unlocked: bool) -> None:
                if not unlocked:  # a lock stops the signing between items, like Cancel
                    tab.progress.cancel()

            self._context.lock_changed.connect(locked)
            try:
                ctx = still_unlocked(self._context)
                async with tracked(self._context, "listings.submit", count=len(plans)) as result:
                    done = await execute_listings(ctx, plan, tab.progress.progress, token)
                    result.message = ", ".join(x.listing_id for x in done.listings)
            except Exception as exc:
                tab.show_status(self._failed(exc), "error")
                return
            finally:
                self._context.lock_changed.disconnect(locked)
            tab.show_status(strings.LISTINGS_DONE.format(count=len(done.listings)), "ok")

    async def export(self, items: Sequence[HeldItem], prices: Sequence[int], folder: Path) -> None:
        from app.services.offline import export_offline, listing_export_items

        tab = self._tab
        with self._running():
            try:
                ctx = await read_context(self._context)
            except Exception as exc:
                tab.show_status(self._failed(exc), "error")
                return
            plan = await self._prepare(ctx, items, prices)
            if plan is None:
                return
            tab.progress.end()
            plans = [i.psbt for i in plan.items]
            action = strings.LISTINGS_EXPORT_ACTION.format(count=len(plans))
            title, notes = strings.LISTINGS_TITLE, self._notes(plan)
            if not await confirm(
                tab, self._context, plans, title=title, action=action, notes=notes
            ):
                tab.show_status(strings.FLOW_CANCELLED)
                return
            try:
                async with tracked(self._context, "listings.export", count=len(plans)) as result:
                    manifest = await run_blocking(
                        export_offline, folder, listing_export_items(plan)
                    )
                    result.message = str(folder)
            except Exception as exc:
                tab.show_status(self._failed(exc), "error")
                return
            self.exported[folder.resolve()] = manifest
            text = strings.LISTINGS_EXPORTED.format(count=len(plans), folder=folder)
            tab.show_status(text, "ok")

    async def import_and_submit(self, folder: Path) -> None:
        from app.services.offline import import_signed, submit_imported
        from app.services.psbt_flow import PsbtRefusedError

        tab = self._tab
        with self._running():
            tab.show_status(strings.FLOW_REVIEWING)
            try:
                ctx = await read_context(self._context)
                expected = self.exported.get(folder.resolve())
                batch = await import_signed(ctx, folder, expected=expected)
            except PsbtRefusedError as exc:
                tab.show_status(strings.FLOW_REFUSED, "error")
                await show_refusal(tab, self._context, exc, title=strings.LISTINGS_TITLE)
                return
            except Exception as exc:
                reason = failure_text(exc)
                tab.show_status(strings.LISTINGS_IMPORT_FAILED.format(reason=reason), "error")
                return
            plans = [x.plan for x in batch]
            action = strings.LISTINGS_SUBMIT_ACTION.format(count=len(plans))
            if not await confirm(
                tab, self._context, plans, title=strings.LISTINGS_TITLE, action=action
            ):
                tab.show_status(strings.FLOW_CANCELLED)
                return
            tab.show_status(strings.FLOW_SUBMITTING)
            try:
                async with tracked(self._context, "listings.import", count=len(plans)):
                    done = await submit_imported(ctx, batch)
            except Exception as exc:
                tab.show_status(self._failed(exc), "error")
                return
            count = len(getattr(done, "listings", ())) or len(plans)
            tab.show_status(strings.LISTINGS_DONE.format(count=count), "ok")
