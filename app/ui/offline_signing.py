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
from app.ui.profile_session import NotReadyError
from app.ui.psbt_flow_runner import FlowRun, FlowSteps, PsbtFlowRunner

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from app.services.key_vault import WalletKeys
    from app.services.offline import OfflineSigned
    from app.services.offline_manifest import Manifest
    from app.ui.context import AppContext
    from app.ui.widgets.progress_panel import ProgressPanel

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
    from app.services.offline_files import read_manifest

    return await run_blocking(read_manifest, folder)


async def review_and_sign(
    parent: QWidget,
    context: AppContext,
    folder: Path,
    keys: WalletKeys,
    progress: ProgressPanel,
) -> SignOutcome:
    """Review every PSBT of `folder` (nothing is signed if any is refused), ask the user in the
    review dialog, then sign and write each signed file (the one PSBT flow runner)."""
    from app.services.acp_signatures import ledger_of
    from app.services.errors import ServiceError
    from app.services.offline import record_reviewed, review_offline, sign_reviewed
    from app.services.psbt_flow import OperationCancelledError, accept_fee

    ledger = ledger_of(context.options.data_dir)  # this machine's record of its ACP signatures

    async def open_keys() -> WalletKeys:
        if not context.wallet_lock.unlocked:  # locked since the review: nothing is signed
            raise NotReadyError(strings.UNLOCK_TO_SIGN_HINT)
        return keys

    async def prepare(keys: WalletKeys, _run: FlowRun) -> list[OfflineSigned]:
        return await run_blocking(review_offline, folder, keys)

    def with_fees_accepted(reviewed: list[OfflineSigned]) -> list[OfflineSigned]:
        return [
            replace(r, plan=accept_fee(r.plan)) if r.plan.needs_fee_consent else r for r in reviewed
        ]

    async def execute(keys: WalletKeys, reviewed: list[OfflineSigned], run: FlowRun) -> int:
        token = run.begin(strings.LISTINGS_SIGNING, len(reviewed))
        await run_blocking(record_reviewed, reviewed, ledger)  # the set, or nothing signed
        for done, item in enumerate(reviewed):
            if token is not None and token.cancelled:
                raise OperationCancelledError(done, len(reviewed))
            await run_blocking(sign_reviewed, folder, item, keys, ledger)
            written.append(folder / item.item.signed_psbt_file)
            run.progress(done + 1, len(reviewed))
        return len(written)

    def failed(exc: BaseException) -> str:
        if isinstance(exc, OperationCancelledError):
            return strings.LISTINGS_CANCELLED_AFTER.format(done=exc.done, total=exc.total)
        if isinstance(exc, ServiceError | NotReadyError):
            return strings.OFFLINE_SIGN_FAILED.format(reason=exc.user_message)
        if isinstance(exc, OSError):
            return strings.OFFLINE_SIGN_FAILED.format(reason=str(exc))
        raise exc  # a bug: the app's error dialog, not a sentence

    written: list[Path] = []
    said: list[str] = []
    steps = FlowSteps(
        title=strings.OFFLINE_SIGN_TITLE,
        action=lambda reviewed: strings.counted(strings.OFFLINE_SIGN_ACTION, len(reviewed)),
        prepare=prepare,
        plans=lambda reviewed: [r.plan for r in reviewed],
        notes=lambda _reviewed: [strings.OFFLINE_FACTS_NOTE],
        accept_fee=with_fees_accepted,
        execute=execute,
        open=open_keys,
        failed=failed,
    )

    def show(text: str, _role: str) -> None:
        said.append(text)

    count = await PsbtFlowRunner(parent, context, None, show, progress).run(steps)
    if count is None:
        return SignOutcome(False, said[-1] if said else strings.FLOW_CANCELLED, tuple(written))
    text = strings.counted(strings.OFFLINE_SIGNED, count, folder=folder)
    return SignOutcome(True, text, tuple(written))
