"""What every PSBT flow tab does around the review dialog: get a signing context (asking for
the password when the wallet is locked), show a refusal in the dialog, and turn errors into
the plain sentence shown where the user acted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from app.ui import strings
from app.ui.profile_session import NotReadyError, not_connected_text, profile_session

if TYPE_CHECKING:
    # Typing only: the tabs import this module when the window is built, before the startup
    # preload; the review dialog and the core review model load on the first review.
    from app.core.psbt_review import Review
    from app.core.signing_policy import Verdict
    from app.services.context import ServiceContext
    from app.services.errors import PolicyRefusedError
    from app.ui.context import AppContext
    from app.ui.controller import AppController
    from app.ui.models.review_model import ReviewedPsbt


@dataclass(frozen=True)
class RefusedPsbt:
    """A refusal as the dialog draws it (the error's review is typed optional)."""

    review: Review
    verdict: Verdict
    label: str = ""


async def signing_context(context: AppContext, controller: AppController) -> ServiceContext:
    """A context that can sign this one operation; a locked wallet asks for its password first.
    Raises `NotReadyError` (with the sentence to show) when it still cannot sign."""
    session = profile_session(context)
    if context.connection is None:
        raise NotReadyError(not_connected_text(context))
    await session.ensure_ready()  # the service's published facts (its key) before any review
    if not context.wallet_lock.unlocked and not context.watch_only:
        await controller.unlock()
    return session.signing_context()


def connection_key(context: AppContext) -> tuple[int, str | None]:
    """Which connection and profile a tab's facts belong to: a lock or unlock keeps the key
    (the facts stay true), a reconnection or another profile changes it."""
    profile = context.profile
    return id(context.connection), None if profile is None else profile.name


def still_unlocked(context: AppContext) -> ServiceContext:
    """After the review, a fresh signing context: raises `NotReadyError` if the wallet was
    locked meanwhile (nothing is then signed, even with keys borrowed before)."""
    return profile_session(context).signing_context()


async def public_context(context: AppContext) -> ServiceContext:
    """A public-keys context (balances, lists, requests to review); `NotReadyError` if none."""
    session = profile_session(context)
    await session.ensure_ready()
    return session.read_context()


async def confirm(
    parent: QWidget,
    context: AppContext,
    plans: Sequence[ReviewedPsbt],
    *,
    title: str,
    action: str,
    notes: Sequence[str] = (),
    warnings: Sequence[str] = (),
    signed_here: bool = True,
) -> bool:
    from app.ui.dialogs.psbt_review_dialog import PsbtReviewDialog

    return await PsbtReviewDialog.ask(
        parent,
        plans,
        title=title,
        action=action,
        notes=notes,
        warnings=warnings,
        context=context,
        signed_here=signed_here,
    )


async def show_refusal(
    parent: QWidget, context: AppContext, error: PolicyRefusedError, *, title: str
) -> None:
    """Draw a refused PSBT in the review dialog: it says why, and has no Sign button."""
    if error.review is None:
        return  # nothing to draw: the caller shows the error's sentence
    refused = RefusedPsbt(error.review, error.verdict, error.label)
    await confirm(parent, context, [refused], title=title, action=strings.REVIEW_SIGN)


class TxidRow(QWidget):
    """A transaction id, selectable, with a Copy button (hidden until there is one)."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.label = QLabel()
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_button = QPushButton(strings.COPY_TXID)
        self.copy_button.clicked.connect(self.copy)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.copy_button)
        self.set_txid(None)

    def set_txid(self, txid: str | None) -> None:
        self.txid = txid
        self.label.setText(txid or "")
        self.setVisible(txid is not None)

    def copy(self) -> None:
        if self.txid:
            QGuiApplication.clipboard().setText(self.txid)
            self._context.info(strings.COPIED.format(what=strings.TXID_WHAT))
