"""The Inscription bid tab's table of the user's single-inscription bids with their state.

The rows come from `app.services.inscription_bid.my_inscription_bids`: every bid with its
state where the service offers that list, else the open ones (the tab then says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.models.review_model import Cell, short

if TYPE_CHECKING:
    from app.services.inscription_bid import InscriptionBidState


def bid_cells(rows: Sequence[InscriptionBidState]) -> list[tuple[Cell, ...]]:
    colours = {"open": None, "accepted": "ok", "cancelled": "muted"}
    return [
        (
            Cell(short(r.inscription_id, 10), tooltip=r.inscription_id),
            Cell("—" if r.price is None else strings.SATS.format(sats=r.price)),
            Cell(
                strings.INSCRIPTION_BID_STATES.get(r.state, r.state),
                colours.get(r.state, "warning"),
            ),
            Cell(r.bid_id),
            Cell(short(r.end_txid, 10) if r.end_txid else "", tooltip=r.end_txid),
        )
        for r in rows
    ]
