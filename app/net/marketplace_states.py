"""Lists with a state that the spec does not have but a service may offer (the sandbox does):

- ``GET /listings?sellerOrdAddress=``: a seller's secure listings, each with its status;
- ``GET /address/inscription-bids?address=``: an address's single-inscription bids, each with
  its state (the spec's ``GET /address/bids`` lists open bids only).

A service without them answers 404 or 405; the client methods then return None ("not
offered"). The envelope is strict (``data.listings`` or ``data.results`` must be a list:
``BadResponse`` otherwise); an entry without its ids is skipped, since it can be neither shown
against an item nor acted on, and its other fields are read tolerantly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.net.fields import Reader, as_str, is_int, object_id

LISTINGS_PATH = "/listings"
INSCRIPTION_BIDS_PATH = "/address/inscription-bids"
NOT_OFFERED = frozenset({404, 405})  # the statuses of a service without the list


@dataclass(frozen=True)
class SellerListing:
    """One secure listing of the seller: an inscription or a runes output, and its status."""

    listing_id: str
    inscription_id: str | None
    runes_output: str | None
    price: int | None
    state: str  # "active", "sold", ...; "active" when the service does not say
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def item(self) -> str:
        """What is listed: the inscription id, else the runes output ("?" when neither)."""
        return self.inscription_id or self.runes_output or "?"


@dataclass(frozen=True)
class InscriptionBidState:
    """One single-inscription bid: its id, the inscription, price and state ("open",
    "accepted", "cancelled", ...), and the transaction that ended it when one did."""

    bid_id: str
    inscription_id: str
    price: int | None
    state: str  # "open" when the service does not say
    end_txid: str | None = None


def parse_seller_listings(r: Reader, body: Any) -> list[SellerListing]:
    rows = []
    for item in r.need_list(body, "listings"):
        if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
            continue
        price, state = item.get("price"), as_str(item.get("status"))
        rows.append(
            SellerListing(
                listing_id=item["id"],
                inscription_id=as_str(item.get("inscriptionId")) or None,
                runes_output=as_str(item.get("runesOutput")) or None,
                price=price if is_int(price) else None,
                state=state if state is not None else "active",
                raw=item,
            )
        )
    return rows


def parse_inscription_bid_states(r: Reader, body: Any) -> list[InscriptionBidState]:
    rows = []
    for item in r.need_list(body, "results"):
        if not isinstance(item, Mapping):
            continue
        bid_id, inscription = object_id(item.get("bid_id")), item.get("inscription_id")
        if bid_id is None or not isinstance(inscription, str):
            continue
        price, state = item.get("price"), as_str(item.get("status"))
        rows.append(
            InscriptionBidState(
                bid_id,
                inscription,
                price if is_int(price) else None,
                state if state is not None else "open",
                as_str(item.get("endTxid")),
            )
        )
    return rows
