"""The balance rule (spec 1 and 3): when a bidding wallet's balance drops (a fill, a
withdrawal, any spend seen on the chain), cancel the open bids it no longer covers.

Which ones: `app.core.pools.bids_to_cancel` (each pool on its own against the whole balance;
highest price first, then oldest, then id; each bid kept while it still fits beside the ones
kept before it). Idempotent: running it again cancels nothing more.
"""

from __future__ import annotations

import logging

from app.core.pools import bids_to_cancel
from app.sandbox.market.bid_store import end_bids, open_pool_bids
from app.sandbox.market.service import Market
from app.sandbox.market.wallets import wallet_by_id

log = logging.getLogger(__name__)

REASON_BALANCE = "balance"


def cancel_uncovered(market: Market, wallet_id: int, reason: str = REASON_BALANCE) -> list[str]:
    """Cancel the wallet's open bids its balance no longer covers; returns their ids."""
    with market.lock:
        with market.store.reading() as conn:
            wallet = wallet_by_id(conn, wallet_id)
        if wallet is None:
            return []
        balance = market.balance(wallet.multisig_address)
        now = market.now_ms()
        with market.store.transaction() as conn:
            doomed = bids_to_cancel(balance, open_pool_bids(conn, wallet_id, now), market.maker_fee)
            ended = end_bids(conn, [b.bid_id for b in doomed], "cancelled", reason, now)
    if ended:
        log.info(
            "cancelled %d bid(s) of %s: balance %d sats no longer covers them",
            len(ended),
            wallet.ordinals_address,
            balance,
        )
    return ended
