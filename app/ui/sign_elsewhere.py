"""What a watch-only profile does where others sign: its keys are in another wallet.

- A PSBT flow (Fund, Withdraw, Inscription bid; Listings has its own buttons) is reviewed by
  the one flow runner as always (saying nothing is signed here), then, once accepted, written
  to a folder the user chooses for the other wallet instead of signed (`SignElsewhere.export`,
  services.offline.export_for_signing: the PSBT names its keys by origin).
  `SignElsewhere.import_and_submit` reads that folder back once the signed PSBT is saved in
  it: reviewed again, checked signature by signature, submitted the flow's way.
- As QR codes, the way those wallets move PSBTs: "Show PSBT as QR…" shows the exported PSBT
  itself (BBQr P / UR crypto-psbt), or the whole export for Bidwallet's own `--offline` signer;
  "Scan signed QR…" reads the signed PSBT the other wallet shows, or the signed export that
  offline signer shows, saves it into the export's folder once it is the same transaction or
  the very export there (services.offline_qr.write_scanned_signed) and goes on exactly as
  Import signed….
- A collection, trait or rune bid and a cancel need a message signature: the exact message (or
  challenge) and the address that signs it are shown with the time left to sign it, the
  signature pasted back is verified and sent (`place_bid_signed_elsewhere`,
  `cancel_signed_elsewhere`, services.signed_elsewhere); once that time has passed, the dialog
  offers a new message (the pre-flight runs again) rather than a send the service would refuse.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtWidgets import QPushButton, QWidget

from app.core.animated_qr import PayloadKind
from app.ui import strings
from app.ui.async_tools import run_blocking
from app.ui.dialogs.animated_qr_dialog import ShowQrButton
from app.ui.dialogs.qr_scan_dialog import SCAN_ICON, QrScanDialog
from app.ui.dialogs.sign_message_dialog import Deadline, MessageToSign, SignMessageDialog
from app.ui.file_dialogs import ask_folder
from app.ui.icons import set_themed_icon
from app.ui.profile_session import failure_text, profile_session, tracked
from app.ui.psbt_flow_runner import FlowRun, FlowSteps, PsbtFlowRunner, Show
from app.ui.state.wallet_state import WalletState

if TYPE_CHECKING:
    from app.services.bids import BidOutcome, BidSpec
    from app.services.cancel import CancelReport
    from app.services.context import ServiceContext
    from app.services.offline import ExportItem, ImportedItem
    from app.services.offline_manifest import Manifest
    from app.ui.context import AppContext
    from app.ui.controller import AppController

PlanT = TypeVar("PlanT")

# What each window exported, by folder: its import must find the same manifest there.
_exported: weakref.WeakKeyDictionary[AppContext, dict[Path, Manifest]] = weakref.WeakKeyDictionary()


def _while_watch_only(button: QPushButton, context: AppContext) -> QPushButton:
    def follow() -> None:
        button.setVisible(context.watch_only)

    context.profile_changed.connect(follow)
    follow()
    return button


def import_button(context: AppContext) -> QPushButton:
    """ "Import signed…", shown only while the active profile is watch-only."""
    return _while_watch_only(QPushButton(strings.ELSEWHERE_IMPORT), context)


def scan_button(context: AppContext) -> QPushButton:
    """ "Scan signed QR…" (the signed PSBT another wallet shows, or the signed export of
    Bidwallet's offline signer), while watch-only."""
    button = QPushButton(strings.ELSEWHERE_SCAN)
    button.setToolTip(strings.ELSEWHERE_SCAN_TIP)
    set_themed_icon(button, SCAN_ICON)
    return _while_watch_only(button, context)


def qr_button(parent: QWidget, context: AppContext) -> QPushButton:
    """ "Show PSBT as QR…" (the latest export's PSBT, as other wallets scan it), while
    watch-only."""
    button = ShowQrButton(parent, context, lambda: last_export(context), psbts=True)
    return _while_watch_only(button, context)


def last_export(context: AppContext) -> Path | None:
    """The folder this window exported to last, if any."""
    return next(reversed(_exported.get(context, {})), None)


class SignElsewhere:
    """A tab's PSBT flow for keys kept in another wallet: export the reviewed PSBT, import
    what that wallet signed. `show(text, role)` says what happened where the user acted."""

    def __init__(
        self,
        parent: QWidget,
        context: AppContext,
        controller: AppController | None,
        show: Show,
    ) -> None:
        self._parent = parent
        self._context = context
        self._show = show
        self._runner = PsbtFlowRunner(parent, context, controller, show)

    # A folder chosen by the user (tests monkeypatch it on the class).
    ask_folder = staticmethod(ask_folder)

    async def export(
        self,
        steps: FlowSteps[PlanT, Any],
        items: Callable[[PlanT], Sequence[ExportItem]],
    ) -> Manifest | None:
        """`steps`' review, then (the folder asked once it is accepted) its PSBTs written for
        signing elsewhere (not signed here)."""
        from app.services.offline import export_for_signing

        chosen: list[Path] = []

        async def execute(ctx: ServiceContext, plan: PlanT, _run: FlowRun) -> Manifest | None:
            folder = await self.ask_folder(self._parent, strings.ELSEWHERE_EXPORT_FOLDER)
            if folder is None:
                self._show(strings.ELSEWHERE_NOT_EXPORTED, "hint")
                return None
            chosen.append(folder)
            async with tracked(self._context, "psbt.export", folder=str(folder)):
                return await export_for_signing(ctx, folder, items(plan))

        exporting: FlowSteps[PlanT, Manifest | None] = FlowSteps(
            title=steps.title,
            action=strings.ELSEWHERE_EXPORT_ACTION,
            prepare=steps.prepare,
            plans=steps.plans,
            execute=execute,
            notes=steps.notes,
            warnings=steps.warnings,
            accept_fee=steps.accept_fee,
            signs=False,  # signed in the other wallet
            signed_in_other_wallet=True,
            failed=steps.failed,
            working=strings.ELSEWHERE_EXPORTING,
            review_activity=steps.review_activity,
        )
        manifest = await self._runner.run(exporting)
        if manifest is not None:
            folder = chosen[0]
            exported = _exported.setdefault(self._context, {})
            exported.pop(folder.resolve(), None)  # the latest export last (`last_export`)
            exported[folder.resolve()] = manifest
            files = ", ".join(item.psbt_file for item in manifest.items)
            text = strings.counted(
                strings.ELSEWHERE_EXPORTED, len(manifest.items), folder=folder, files=files
            )
            self._show(text, "ok")
        return manifest

    async def scan_and_submit(self) -> object | None:
        """The signed PSBT the other wallet shows (or the signed export Bidwallet's offline
        signer shows), scanned, saved into the export's folder (this window's last export, else
        the one the user picks) once it is that export's transaction (or that very export),
        then `import_and_submit` of that folder; a refusal is said, nothing written."""
        from app.services.errors import ServiceError
        from app.services.offline_qr import write_scanned_signed

        folder = last_export(self._context)
        if folder is None:
            folder = await self.ask_folder(self._parent, strings.ELSEWHERE_IMPORT_FOLDER)
        if folder is None:
            return None
        dialog = QrScanDialog(frozenset(PayloadKind), self._parent, signed_back=True)
        self._context.dialog_opened.emit(dialog)
        try:
            payload = await dialog.run()
        finally:
            dialog.deleteLater()
        if payload is None:
            return None
        try:
            scanned = await run_blocking(write_scanned_signed, folder, payload)
        except (ServiceError, OSError) as exc:
            reason = exc.user_message if isinstance(exc, ServiceError) else str(exc)
            self._show(strings.ELSEWHERE_IMPORT_FAILED.format(reason=reason), "error")
            return None
        saved = {"file": ", ".join(path.name for path in scanned.paths), "folder": folder}
        if scanned.unsigned:  # an export of several PSBTs: submitted once all are signed
            files = ", ".join(scanned.unsigned)
            text = strings.counted(
                strings.ELSEWHERE_SCAN_MORE, len(scanned.unsigned), files=files, **saved
            )
            self._show(text, "hint")
            return None
        self._show(strings.ELSEWHERE_SCAN_SAVED.format(**saved), "hint")
        return await self.import_and_submit(folder)

    async def import_and_submit(self, folder: Path | None = None) -> object | None:
        """The export's folder (`folder`, else asked) read back with the PSBT the other
        wallet signed: reviewed again with fresh facts, each signature checked, then
        submitted; the result said."""
        from app.services.offline import import_signed, submit_imported

        if folder is None:
            folder = await self.ask_folder(self._parent, strings.ELSEWHERE_IMPORT_FOLDER)
        if folder is None:
            return None
        expected = _exported.get(self._context, {}).get(folder.resolve())

        async def prepare(ctx: ServiceContext, _run: FlowRun) -> list[ImportedItem]:
            return await import_signed(ctx, folder, expected=expected)

        async def execute(ctx: ServiceContext, batch: list[ImportedItem], _run: FlowRun) -> object:
            async with tracked(self._context, "psbt.import", count=len(batch)):
                return await submit_imported(ctx, batch)

        steps: FlowSteps[list[ImportedItem], object] = FlowSteps(
            title=strings.ELSEWHERE_IMPORT_TITLE,
            action=lambda batch: strings.counted(strings.ELSEWHERE_SUBMIT_ACTION, len(batch)),
            prepare=prepare,
            plans=lambda batch: [x.plan for x in batch],
            execute=execute,
            signs=False,  # signed elsewhere: only checked and submitted here
            failed=lambda exc: strings.ELSEWHERE_IMPORT_FAILED.format(reason=failure_text(exc)),
            working=strings.FLOW_SUBMITTING,
        )
        result = await self._runner.run(steps)
        if result is not None:
            self._show(done_text(result), "ok")
            WalletState.of(self._context).request_refresh()
        return result


def done_text(result: object) -> str:
    """What a submitted import did, in the words of the flow it belongs to."""
    from app.services.funding import FundingResult
    from app.services.inscription_bid import InscriptionBidPlaced
    from app.services.listings import ListingsDone
    from app.services.withdraw import WithdrawDone

    def sats(n: int) -> str:
        return strings.SATS.format(sats=n)

    if isinstance(result, FundingResult):
        return strings.WALLET_FUND_DONE.format(
            amount=sats(result.amount), fee=sats(result.fee), txid=result.txid
        )
    if isinstance(result, WithdrawDone):
        return strings.WITHDRAW_DONE.format(amount=sats(result.amount), txid=result.txid)
    if isinstance(result, InscriptionBidPlaced):
        return strings.ELSEWHERE_INSCRIPTION_BID_DONE.format(
            inscription=result.inscription_id, price=sats(result.price)
        )
    if isinstance(result, ListingsDone):
        return strings.counted(strings.LISTINGS_DONE, len(result.listings))
    raise TypeError(f"no sentence for {type(result).__name__}")


# --- message signatures ------------------------------------------------------------------------


async def place_bid_signed_elsewhere(
    parent: QWidget, context: AppContext, spec: BidSpec
) -> BidOutcome | None:
    """Pre-flight `spec`, show its exact message to sign elsewhere, then verify and place
    the signature pasted back; None when the user closed the dialog. A new message (after
    the 2 minutes passed) runs the pre-flight again. Errors of the pre-flight (rules, pools,
    the network) are raised for the tab to say."""
    from app.services.signed_elsewhere import (
        SEND_MARGIN_MS,
        BidToSign,
        place_signed_bid,
        prepare_bid_message,
    )

    session = profile_session(context)
    await session.ensure_ready()
    ctx = session.read_context()
    placed: list[BidOutcome] = []

    async def send_signed(wanted: BidToSign, signatures: dict[str, str]) -> None:
        async with tracked(context, "bid.place", collection=spec.collection_slug):
            placed.append(await place_signed_bid(ctx, wanted, signatures[wanted.address]))

    while True:
        wanted = await prepare_bid_message(ctx, spec)
        dialog = SignMessageDialog(
            title=strings.ELSEWHERE_BID_TITLE,
            intro=strings.ELSEWHERE_BID_INTRO.format(address=wanted.address),
            items=[MessageToSign(wanted.address, wanted.message, "bid-message.txt")],
            send_label=strings.ELSEWHERE_SEND_BID,
            send=partial(send_signed, wanted),
            context=context,
            deadline=Deadline(  # what this app still sends: the travel margin before it
                wanted.deadline_ms - SEND_MARGIN_MS,
                session.clock.now_ms,
                strings.ELSEWHERE_TIME_UP,
                strings.ELSEWHERE_RENEW_BID,
            ),
            parent=parent,
        )
        sent = await dialog.run()
        if not dialog.renew_asked:
            return placed[0] if sent and placed else None


async def cancel_signed_elsewhere(
    parent: QWidget, context: AppContext, bid_ids: Sequence[str]
) -> CancelReport | None:
    """The challenge of each address that cancels `bid_ids`, signed elsewhere, verified and
    used; None when the user closed the dialog. The challenges' expiry is counted down; once
    it passed, new challenges can be asked for."""
    from app.services.signed_elsewhere import (
        SEND_MARGIN_MS,
        CancelToSign,
        cancel_with_signatures,
        prepare_cancel,
    )

    session = profile_session(context)
    await session.ensure_ready()
    ctx = session.read_context()
    reports: list[CancelReport] = []

    async def send_signed(wanted: CancelToSign, signatures: dict[str, str]) -> None:
        async with tracked(context, "bids.cancel", count=len(wanted.bid_ids)):
            reports.append(await cancel_with_signatures(ctx, wanted, signatures))

    while True:
        wanted = await prepare_cancel(ctx, bid_ids)
        items = [
            MessageToSign(c.address, c.challenge, f"cancel-challenge-{n}.txt")
            for n, c in enumerate(wanted.challenges, start=1)
        ]
        expiries = [c.expires_at_ms for c in wanted.challenges if c.expires_at_ms is not None]
        deadline = None
        if expiries:  # the service said when: counted down, as it refuses a late one
            deadline = Deadline(
                min(expiries) - SEND_MARGIN_MS,
                session.clock.now_ms,
                strings.ELSEWHERE_CANCEL_TIME_UP,
                strings.ELSEWHERE_RENEW_CANCEL,
            )
        dialog = SignMessageDialog(
            title=strings.ELSEWHERE_CANCEL_TITLE,
            intro=strings.counted(strings.ELSEWHERE_CANCEL_INTRO, len(items)),
            items=items,
            send_label=strings.ELSEWHERE_SEND_CANCEL,
            send=partial(send_signed, wanted),
            context=context,
            deadline=deadline,
            parent=parent,
        )
        sent = await dialog.run()
        if not dialog.renew_asked:
            return reports[0] if sent and reports else None
