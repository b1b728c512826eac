"""The Listings tab's four flows, each review-first:

- sign here: request and review every PSBT (progress) -> one review table -> sign each in the
  executor (progress, Cancel between items) -> one submission;
- export: the same review -> the PSBTs and their manifest written to a folder;
- import: the signed folder re-reviewed online and checked against its signatures -> the review
  table -> one submission;
- end a listing: the item moved back to the ordinals address (our transaction, fee from the
  payment address) -> the review (fee consent when outside the bounds) -> sign -> broadcast.
Nothing is sent unless every item was reviewed, approved, signed and checked.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.dialogs.animated_qr_dialog import ShowQrButton
from app.ui.profile_session import failure_text, tracked
from app.ui.psbt_flow_runner import FlowRun, FlowSteps, PsbtFlowRunner
from app.ui.tabs.listings_items import item_name, price_text

if TYPE_CHECKING:
    from app.services.context import ServiceContext
    from app.services.end_listing import EndListingDone, EndListingPlan
    from app.services.listings import ListingPlan, ListingsDone
    from app.services.listings_inventory import HeldItem
    from app.services.offline import ImportedItem
    from app.services.offline_manifest import Manifest
    from app.ui.context import AppContext
    from app.ui.controller import AppController
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
        self.qr_button = ShowQrButton(tab, context, self.last_export)

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
        self, ctx: ServiceContext, run: FlowRun, items: Sequence[HeldItem], prices: Sequence[int]
    ) -> ListingPlan:
        """Request and review every PSBT, with progress and Cancel."""
        from app.services.listings import prepare_listings

        wanted = [item.listing(price) for item, price in zip(items, prices, strict=True)]
        token = run.begin(strings.LISTINGS_REVIEWING, len(wanted))
        return await prepare_listings(ctx, wanted, progress=run.progress, cancel=token)

    def _failed(self, exc: BaseException) -> str:
        from app.services.psbt_flow import OperationCancelledError

        if isinstance(exc, OperationCancelledError):
            return strings.LISTINGS_CANCELLED_AFTER.format(done=exc.done, total=exc.total)
        return strings.LISTINGS_NOT_DONE.format(reason=failure_text(exc))

    def _notes(self, plan: ListingPlan) -> list[str]:
        total = sum(i.listing.price for i in plan.items)
        return [
            strings.counted(
                strings.LISTINGS_NOTE,
                len(plan.items),
                total=sats(total),
                address=plan.receive_address,
            )
        ]

    def _runner(self) -> PsbtFlowRunner:
        tab = self._tab
        return PsbtFlowRunner(tab, self._context, self._controller, tab.show_status, tab.progress)

    async def sign_and_submit(self, items: Sequence[HeldItem], prices: Sequence[int]) -> None:
        from app.services.listings import execute_listings

        async def execute(ctx: ServiceContext, plan: ListingPlan, run: FlowRun) -> ListingsDone:
            token = run.begin(strings.LISTINGS_SIGNING, len(plan.items))
            async with tracked(self._context, "listings.submit", count=len(plan.items)) as result:
                done = await execute_listings(ctx, plan, run.progress, token)
                result.message = ", ".join(x.listing_id for x in done.listings)
            return done

        steps = FlowSteps(
            title=strings.LISTINGS_TITLE,
            action=strings.counted(strings.LISTINGS_ACTION, len(items)),
            prepare=lambda ctx, run: self._prepare(ctx, run, items, prices),
            plans=lambda plan: [i.psbt for i in plan.items],
            notes=self._notes,
            execute=execute,
            failed=self._failed,
            review_activity="listings.prepare",
        )
        with self._running():
            done = await self._runner().run(steps)
        if done is not None:
            self._tab.items_model.untick([i.key for i in items])
            self._tab.show_status(strings.counted(strings.LISTINGS_DONE, len(done.listings)), "ok")

    async def export(self, items: Sequence[HeldItem], prices: Sequence[int], folder: Path) -> None:
        from app.services.offline import export_for_signing, listing_export_items

        async def execute(ctx: ServiceContext, plan: ListingPlan, _run: FlowRun) -> Manifest:
            async with tracked(self._context, "listings.export", count=len(plan.items)) as result:
                # Keys named by origin: an offline Bidwallet or any wallet that signs PSBTs.
                manifest = await export_for_signing(ctx, folder, listing_export_items(plan))
                result.message = str(folder)
            return manifest

        steps = FlowSteps(
            title=strings.LISTINGS_TITLE,
            action=strings.counted(strings.LISTINGS_EXPORT_ACTION, len(items)),
            prepare=lambda ctx, run: self._prepare(ctx, run, items, prices),
            plans=lambda plan: [i.psbt for i in plan.items],
            notes=self._notes,
            execute=execute,
            signs=False,  # signed on the offline machine
            failed=self._failed,
            review_activity="listings.prepare",
            working=strings.LISTINGS_EXPORTING,
        )
        with self._running():
            manifest = await self._runner().run(steps)
        if manifest is not None:
            self.exported.pop(folder.resolve(), None)  # the latest export last (`last_export`)
            self.exported[folder.resolve()] = manifest
            text = strings.counted(strings.LISTINGS_EXPORTED, len(manifest.items), folder=folder)
            self._tab.show_status(text, "ok")

    def last_export(self) -> Path | None:
        """The folder this tab exported to last, if any."""
        return next(reversed(self.exported), None)

    async def import_and_submit(self, folder: Path) -> None:
        from app.services.listings import ListingsDone
        from app.services.offline import import_signed, submit_imported

        async def prepare(ctx: ServiceContext, _run: FlowRun) -> list[ImportedItem]:
            expected = self.exported.get(folder.resolve())
            return await import_signed(ctx, folder, expected=expected)

        async def execute(ctx: ServiceContext, batch: list[ImportedItem], _run: FlowRun) -> int:
            async with tracked(self._context, "listings.import", count=len(batch)):
                done = await submit_imported(ctx, batch)
            return len(done.listings) if isinstance(done, ListingsDone) else len(batch)

        steps = FlowSteps(
            title=strings.LISTINGS_TITLE,
            action=lambda batch: strings.counted(strings.LISTINGS_SUBMIT_ACTION, len(batch)),
            prepare=prepare,
            plans=lambda batch: [x.plan for x in batch],
            execute=execute,
            signs=False,  # signed offline: only checked and submitted here
            failed=lambda exc: strings.LISTINGS_IMPORT_FAILED.format(reason=failure_text(exc)),
            working=strings.FLOW_SUBMITTING,
        )
        with self._running():
            count = await self._runner().run(steps)
        if count is not None:
            self._tab.show_status(strings.counted(strings.LISTINGS_DONE, count), "ok")

    async def end_listing(self, item: HeldItem, price: int | None, rate: Fraction) -> None:
        """Move `item` (listed, or signed by us, at `price`) back to the ordinals address."""
        from app.services.end_listing import execute_end_listing, prepare_end_listing
        from app.services.psbt_flow import accept_fee

        async def prepare(ctx: ServiceContext, _run: FlowRun) -> EndListingPlan:
            return await prepare_end_listing(ctx, item, rate)

        async def execute(ctx: ServiceContext, plan: EndListingPlan, _run: FlowRun) -> str:
            async with tracked(self._context, "listings.end", item=item.key) as result:
                done: EndListingDone = await execute_end_listing(ctx, plan)
                result.message = done.txid
            return done.txid

        def note(plan: EndListingPlan) -> list[str]:
            what = item_name(item)
            return [
                strings.END_LISTING_NOTE.format(
                    item=what[:1].upper() + what[1:],
                    address=plan.psbt.review.outputs[0].address or "",
                    price=price_text(price),
                )
            ]

        steps = FlowSteps(
            title=strings.END_LISTING_TITLE,
            action=strings.END_LISTING_ACTION,
            prepare=prepare,
            plans=lambda plan: [plan.psbt],
            notes=note,
            accept_fee=lambda plan: replace(plan, psbt=accept_fee(plan.psbt)),
            execute=execute,
            failed=lambda exc: strings.END_LISTING_NOT_DONE.format(reason=failure_text(exc)),
        )
        with self._running():
            txid = await self._runner().run(steps)
        if txid is not None:
            self._tab.show_status(strings.END_LISTING_DONE.format(txid=txid), "ok")
