"""The chain watcher of secure listings: an active listing stops being active when its item's
output is spent, noticed on every mempool acceptance and every block.

- spent by the purchase the marketplace recorded for it -> `sold`;
- spent by anything else (the seller moved the item, or someone completed the listing PSBT
  outside the marketplace) -> `item_moved`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from app.sandbox.chain.events import SpentOutput
from app.sandbox.market.listings_items import is_spent
from app.sandbox.market.listings_store import (
    ITEM_MOVED,
    SOLD,
    SecureListing,
    active_listings,
    active_spending,
    end_listing,
)
from app.sandbox.market.service import Market

log = logging.getLogger(__name__)


def _status(listing: SecureListing, spender: str | None) -> str:
    return SOLD if spender is not None and spender == listing.purchase_txid else ITEM_MOVED


def check_transaction(market: Market, txid: str, spent: Sequence[SpentOutput]) -> None:
    outpoints = [output.outpoint for output in spent]
    with market.store.reading() as conn:  # most transactions touch no listing: skip the write
        if not active_spending(conn, outpoints):
            return
    now = market.now_ms()
    with market.store.transaction() as conn:  # asked again inside it: the answer may change
        for listing in active_spending(conn, outpoints):
            end_listing(conn, listing.id, _status(listing, txid), now, txid)


def sweep(market: Market) -> int:
    """Re-check every active listing's item; returns how many listings ended."""
    with market.store.reading() as conn:
        listings = active_listings(conn)
    ended = []
    for listing in listings:
        if not is_spent(market.node, listing.item_outpoint):
            continue
        bought = listing.purchase_txid is not None and (
            market.node.tx_status(listing.purchase_txid) is not None
        )
        spender = listing.purchase_txid if bought else None
        ended.append((listing, _status(listing, spender), spender))
    if ended:
        now = market.now_ms()
        with market.store.transaction() as conn:
            for listing, status, txid in ended:
                end_listing(conn, listing.id, status, now, txid)
        log.info("%d secure listing(s) ended by chain activity", len(ended))
    return len(ended)


def watch(market: Market) -> None:
    """End listings as the chain moves: each accepted transaction, once per batch of blocks."""
    market.watch_chain_state(
        lambda event: check_transaction(market, event.txid or "", event.spent),
        lambda: sweep(market),
    )
