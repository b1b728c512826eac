"""The Inscription bid tab as a scenario drives it: an inscription id and a price typed (each
field says what is wrong with it once left), the fee rate, Review (the `ReviewPage`), the bid
placed, and the table of the user's inscription bids with their states."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.qa.actions import click
from app.ui.qa.app import Page
from app.ui.qa.pages import sign_elsewhere as elsewhere
from app.ui.qa.pages.form_steps import (
    FeeRate,
    choose_fee_rate,
    expect_signal,
    fee_presets_shown,
    replace_text,
)
from app.ui.tabs.inscription_bid_tab import InscriptionBidTab

if TYPE_CHECKING:
    from app.ui.qa.pages.review import ReviewPage

REVIEW_TIMEOUT_MS = 30_000
FORM_CHECKED_MS = 2_000  # the form is checked as it is typed: Review is on at once, or never
OUTCOME_SHOWN_MS = 2_000  # the bid id is set with the message approve() waited for
COL_INSCRIPTION, COL_PRICE, COL_STATE, COL_BID, COL_ENDED_BY = range(5)


@dataclass(frozen=True)
class InscriptionBidRow:
    """One row of "My inscription bids" as shown: the inscription and the ending txid whole
    (the cells shorten them, their tooltips do not), the price and the state in words."""

    inscription_id: str
    price: str
    state: str
    bid_id: str
    ended_by: str


@dataclass(frozen=True)
class FieldErrors:
    """What each field says is wrong ("" for nothing)."""

    inscription: str
    price: str


class InscriptionBidPage(Page):
    name = "Inscription bid"

    @property
    def widget(self) -> InscriptionBidTab:
        return self.app.tab("inscription_bid", InscriptionBidTab)

    # -- the list -----------------------------------------------------------------------------

    def bids(self, timeout_ms: int = 20_000) -> list[InscriptionBidRow]:
        """The user's inscription bids as the table lists them, once read."""
        tab = self.widget
        self.expect("bids", "the inscription bids read", lambda: tab.bids is not None,
                    timeout_ms)  # fmt: skip
        return self._rows()

    def _rows(self) -> list[InscriptionBidRow]:
        tab = self.widget
        rows = []
        for row in range(tab.model.rowCount()):
            cells = [tab.model.cell(row, column) for column in range(tab.model.columnCount())]
            rows.append(
                InscriptionBidRow(
                    inscription_id=cells[COL_INSCRIPTION].tooltip or cells[COL_INSCRIPTION].text,
                    price=cells[COL_PRICE].text,
                    state=cells[COL_STATE].text,
                    bid_id=cells[COL_BID].text,
                    ended_by=cells[COL_ENDED_BY].tooltip or cells[COL_ENDED_BY].text,
                )
            )
        return rows

    @property
    def list_hint(self) -> str:
        """What the list says above it ("No inscription bids yet.", a failure)."""
        return self.widget.list_hint.text()

    def refresh(self, timeout_ms: int = 20_000) -> list[InscriptionBidRow]:
        """Press Refresh and wait for the reading to end; the bids then listed."""
        tab = self.widget
        expect_signal(self, "refresh", "the inscription bids read again", tab.refreshed,
                      lambda: click(self.qtbot, tab.refresh_button), timeout_ms)  # fmt: skip
        return self.bids()

    def state_of(self, bid_id: str) -> str | None:
        """The state of bid `bid_id` as the table says it now (None: not listed)."""
        return next((r.state for r in self._rows() if r.bid_id == bid_id), None)

    def expect_state(self, bid_id: str, state: str, timeout_ms: int = 20_000) -> None:
        """Wait until the table lists `bid_id` in `state` ("open", "accepted", ...: the
        service's name, shown in words; the tab reads the list after an action, on its timer
        and on Refresh)."""
        shown = strings.INSCRIPTION_BID_STATES.get(state, state)
        self.expect(
            "expect_state",
            f"bid {bid_id} listed as {shown!r}",
            lambda: self.state_of(bid_id) == shown,
            timeout_ms,
        )

    # -- the form -----------------------------------------------------------------------------

    @property
    def status(self) -> str:
        """What the form says under its buttons (the bid placed, a refusal; "" for none)."""
        tab = self.widget
        return tab.status.text() if tab.status.isVisibleTo(tab) else ""

    def field_errors(self) -> FieldErrors:
        tab = self.widget
        return FieldErrors(
            tab.inscription_error.text() if tab.inscription_error.isVisibleTo(tab) else "",
            tab.price_error.text() if tab.price_error.isVisibleTo(tab) else "",
        )

    def fill(self, inscription_id: str, price: int | str, fee_rate: FeeRate = None) -> FieldErrors:
        """Type the inscription id and the price (sats, grouped as typed; a str is typed as
        it is), leave the fields, choose `fee_rate`: what each field then says is wrong."""
        tab = self.widget
        window = self.app.window
        window.activateWindow()  # focus leaves a field (and it is checked) in the active window
        self.expect("fill", "the window active", window.isActiveWindow)
        self.expect("fill", "the fee presets offered", lambda: fee_presets_shown(tab.fee))
        replace_text(self.qtbot, tab.inscription, inscription_id)
        replace_text(self.qtbot, tab.price.edit, price if isinstance(price, str) else f"{price:,}")
        choose_fee_rate(self.qtbot, tab.fee, fee_rate)
        tab.fee.setFocus()  # the price field left, as Tab would
        return self.field_errors()

    def review(self, inscription_id: str, price: int, fee_rate: FeeRate = None) -> ReviewPage:
        """Fill the form and press Review: the review of the bid's PSBT."""
        self.fill(inscription_id, price, fee_rate)
        tab = self.widget
        self.expect("review", "Review enabled", tab.review_button.isEnabled, FORM_CHECKED_MS)
        before = len(self.app.harness.dialogs)
        click(self.qtbot, tab.review_button)
        return self.app.review(before, REVIEW_TIMEOUT_MS)

    def export_bid(
        self, inscription_id: str, price: int, folder: Path, fee_rate: FeeRate = None
    ) -> str:
        """Watch-only: the bid reviewed, then its PSBT written to `folder` for the wallet that
        holds the keys: what the tab says ("Exported to ...")."""
        review = self.review(inscription_id, price, fee_rate)
        return elsewhere.export_reviewed(self, review, folder, "export_bid")

    def import_signed(self, folder: Path) -> ReviewPage:
        """Import signed… from `folder`: the review of the signed bid, to approve (placed)."""
        return elsewhere.import_signed(self, self.widget.import_button, folder, "import_signed")

    def place(self, inscription_id: str, price: int, fee_rate: FeeRate = None) -> str:
        """Review, approve (signed here and placed), and wait for the list read again: the
        bid's id. A failure the tab says instead is quoted in the ScenarioFailure."""
        tab = self.widget
        previous = tab.last_bid_id
        review = self.review(inscription_id, price, fee_rate)
        said: list[str] = []
        expect_signal(self, "place", "the bid's end and the list read again", tab.refreshed,
                      lambda: said.append(review.approve()), REVIEW_TIMEOUT_MS)  # fmt: skip
        self.expect(
            "place",
            f"a placed bid's id (the tab said {said[0]!r})",
            lambda: tab.last_bid_id not in (None, previous),
            OUTCOME_SHOWN_MS,
        )
        assert tab.last_bid_id is not None
        return tab.last_bid_id
