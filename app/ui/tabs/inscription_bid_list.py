"""The user's single-inscription bids with their state, for the Inscription bid tab.

The spec's `GET /address/bids` lists open bids only. A service that also offers
`GET /address/inscription-bids?address=` (the sandbox does) gives every bid with its state
(open, accepted, cancelled, ended); without it, the open ones are shown and the tab says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.ui import strings
from app.ui.models.review_model import Cell, short

if TYPE_CHECKING:
    from app.services.context import ServiceContext

STATE_PATH = "/address/inscription-bids"


@dataclass(frozen=True)
class InscriptionBidRow:
    bid_id: str
    inscription_id: str
    price: int | None
    state: str  # "open", "accepted", ...
    end_txid: str | None = None


@dataclass(frozen=True)
class InscriptionBids:
    rows: tuple[InscriptionBidRow, ...]
    with_states: bool  # False: the service lists open bids only


async def load_inscription_bids(ctx: ServiceContext) -> InscriptionBids:
    from app.net.errors import HttpError

    market = ctx.clients.marketplace
    try:
        body = await market.get_json(
            STATE_PATH, params={"address": ctx.ordinals_address}, on_error=market.marketplace_error
        )
    except HttpError as exc:
        if exc.status not in (404, 405):
            raise
        return InscriptionBids(await _open_only(ctx), with_states=False)
    return InscriptionBids(tuple(parse_state_list(body)), with_states=True)


async def _open_only(ctx: ServiceContext) -> tuple[InscriptionBidRow, ...]:
    from app.services.open_bids import fetch_open_bids, pool_key_of

    return tuple(
        InscriptionBidRow(b.bid_id, b.inscription_id or "", b.price, "open")
        for b in await fetch_open_bids(ctx)
        if pool_key_of(b) is None and b.inscription_id
    )


def parse_state_list(body: Any) -> list[InscriptionBidRow]:
    """Rows from `{"data": {"results": [...]}}`; entries without an id are skipped."""
    data = body.get("data") if isinstance(body, Mapping) else None
    results = data.get("results") if isinstance(data, Mapping) else None
    rows = []
    for item in results if isinstance(results, list) else []:
        if not isinstance(item, Mapping):
            continue
        raw_id = item.get("bid_id")
        bid_id = raw_id.get("$oid") if isinstance(raw_id, Mapping) else raw_id
        inscription = item.get("inscription_id")
        if not isinstance(bid_id, str) or not isinstance(inscription, str):
            continue
        price = item.get("price")
        state = item.get("status")
        txid = item.get("endTxid")
        rows.append(
            InscriptionBidRow(
                bid_id,
                inscription,
                price if isinstance(price, int) else None,
                state if isinstance(state, str) else "open",
                txid if isinstance(txid, str) else None,
            )
        )
    return rows


def bid_cells(rows: Sequence[InscriptionBidRow]) -> list[tuple[Cell, ...]]:
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
