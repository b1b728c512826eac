"""The offline signer's review-and-sign step: the PSBTs of an export folder (with its
manifest.json) reviewed against the LOCAL keys and the facts recorded at export, drawn in the
same review dialog as every flow, then signed one by one off the GUI thread (progress, Cancel
between items). The signed files are written beside the exported ones. No network client is
constructed here: services.offline's offline path never makes one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.async_tools import run_blocking

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from app.services.offline_manifest import Manifest
    from app.ui.context import AppContext
    from app.ui.widgets.progress_panel import ProgressPanel
    from app.wallet.keys import WalletKeys

MANIFEST_NAME = "manifest.json"  # app.services.offline_manifest.MANIFEST_NAME (checked in a test)


@dataclass(frozen=True)
class SignOutcome:
    ok: bool
    message: str
    signed_files: tuple[Path, ...] = ()


def export_folder_of(path: Path) -> Path | None:
    """The export folder `path` belongs to: manifest.json itself, or a file beside one."""
    folder = path if path.is_dir() else path.parent
    return folder if (folder / MANIFEST_NAME).is_file() else None


async def read_export(folder: Path) -> Manifest:
    from app.services.offline import read_manifest

    return await run_blocking(read_manifest, folder)


async def review_and_sign(
    parent: QWidget,
    context: AppContext,
    folder: Path,
    keys: WalletKeys,
    progress: ProgressPanel,
) -> SignOutcome:
    """Review every PSBT of `folder` (nothing is signed if any is refused), ask the user in the
    review dialog, then sign and write each signed file."""
    from app.services.acp_signatures import ledger_of
    from app.services.errors import ServiceError
    from app.services.offline import review_offline, sign_reviewed
    from app.services.psbt_flow import PsbtRefusedError, accept_fee
    from app.ui.dialogs.psbt_review_flow import confirm, show_refusal

    try:
        reviewed = await run_blocking(review_offline, folder, keys)
    except PsbtRefusedError as exc:
        await show_refusal(parent, context, exc, title=strings.OFFLINE_SIGN_TITLE)
        return SignOutcome(False, strings.FLOW_REFUSED)
    except (ServiceError, OSError) as exc:
        reason = getattr(exc, "user_message", None) or str(exc)
        return SignOutcome(False, strings.OFFLINE_SIGN_FAILED.format(reason=reason))
    plans = [r.plan for r in reviewed]
    action = strings.OFFLINE_SIGN_ACTION.format(count=len(plans))
    notes = [strings.OFFLINE_FACTS_NOTE]
    title = strings.OFFLINE_SIGN_TITLE
    if not await confirm(parent, context, plans, title=title, action=action, notes=notes):
        return SignOutcome(False, strings.FLOW_CANCELLED)
    ledger = ledger_of(context.options.data_dir)  # this machine's record of its ACP signatures
    token = progress.begin(strings.LISTINGS_SIGNING, len(reviewed))
    written: list[Path] = []
    try:
        for done, item in enumerate(reviewed):
            if token.cancelled:
                text = strings.LISTINGS_CANCELLED_AFTER.format(done=done, total=len(reviewed))
                return SignOutcome(False, text, tuple(written))
            if item.plan.needs_fee_consent:  # the user ticked the box accepting this fee
                item = replace(item, plan=await run_blocking(accept_fee, item.plan))
            await run_blocking(sign_reviewed, folder, item, keys, ledger)
            written.append(folder / item.item.signed_psbt_file)
            progress.progress(done + 1, len(reviewed))
    except (ServiceError, OSError) as exc:  # PsbtRefusedError included (a colliding signature)
        reason = getattr(exc, "user_message", None) or str(exc)
        return SignOutcome(False, strings.OFFLINE_SIGN_FAILED.format(reason=reason), tuple(written))
    finally:
        progress.end()
    text = strings.OFFLINE_SIGNED.format(count=len(written), folder=folder)
    return SignOutcome(True, text, tuple(written))
