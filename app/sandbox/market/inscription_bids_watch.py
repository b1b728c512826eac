"""The chain watcher of single-inscription bids (spec section 3): an open bid ends when a coin
it spends is spent by anyone, noticed on every mempool acceptance and every block.

- the bid's own transaction (the accepted bid, same txid as its intent) -> `accepted`;
- another transaction spending input 0 (the inscription moved) -> `inscription_moved`;
- another transaction spending a bidder coin -> `funding_spent`.
A mempool event checks that transaction's inputs; a block event re-checks every open bid
(it also catches up after a restart or a re-indexed mempool).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from app.sandbox.chain.events import SpentOutput
from app.sandbox.market.inscription_bids_store import (
    ACCEPTED,
    FUNDING_SPENT,
    INSCRIPTION_MOVED,
    end_bid,
    open_bid_coins,
    open_bids_spending,
)
from app.sandbox.market.listings_items import is_spent
from app.sandbox.market.service import Market

log = logging.getLogger(__name__)


def end_status(spender: str | None, intent_txid: str, input_index: int) -> str:
    if spender == intent_txid:
        return ACCEPTED
    return INSCRIPTION_MOVED if input_index == 0 else FUNDING_SPENT


def watch(market: Market) -> None:
    """End bids as the chain moves: each accepted transaction, and once per batch of blocks."""
    market.watch_chain_state(
        lambda event: check_transaction(market, event.txid or "", event.spent),
        lambda: sweep(market),
    )


def check_transaction(market: Market, txid: str, spent: Sequence[SpentOutput]) -> None:
    """End the open bids `txid` spends a coin of."""
    outpoints = [output.outpoint for output in spent]
    with market.store.reading() as conn:  # most transactions touch no bid: skip the write
        if not open_bids_spending(conn, outpoints):
            return
    now = market.now_ms()
    with market.store.transaction() as conn:  # asked again inside it: the answer may change
        for bid_id, intent_txid, index in open_bids_spending(conn, outpoints):
            end_bid(conn, bid_id, end_status(txid, intent_txid, index), now, txid)


def sweep(market: Market) -> int:
    """Re-check every open bid's coins; returns how many bids ended."""
    with market.store.reading() as conn:
        coins = open_bid_coins(conn)
    ended: dict[str, tuple[str, str | None]] = {}
    for bid_id, intent_txid, outpoint, index in coins:
        if bid_id in ended or not is_spent(market.node, outpoint):
            continue
        own = market.node.tx_status(intent_txid) is not None
        spender = intent_txid if own else None
        ended[bid_id] = (end_status(spender, intent_txid, index), spender)
    if ended:
        now = market.now_ms()
        with market.store.transaction() as conn:
            for bid_id, (status, txid) in ended.items():
                end_bid(conn, bid_id, status, now, txid)
        log.info("%d single-inscription bid(s) ended by chain activity", len(ended))
    return len(ended)
