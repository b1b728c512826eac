"""The facts the Withdraw tab shows before any review: the bidding wallet, its balance, the
open bids and which of them a given balance after the withdrawal no longer covers (the core
pool rule the service applies), and the network's fee estimates (for its fee picker)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.ui import strings

if TYPE_CHECKING:
    from app.services.bidding_wallet import BiddingWalletBalance
    from app.services.context import ServiceContext
    from app.services.maker_fee import AssumedMakerFee
    from app.services.open_bids import BidListEntry


@dataclass(frozen=True)
class WalletFacts:
    address: str
    payment_address: str
    balance: BiddingWalletBalance
    bids: tuple[BidListEntry, ...]
    maker_fee: AssumedMakerFee  # what the pool rule counts per bid, and where it came from
    fee_estimates: dict[int, float] | None = None  # sat/vB by target; None: none known


async def load_facts(ctx: ServiceContext) -> WalletFacts:
    from app.services.bidding_wallet import bidding_wallet_balance
    from app.services.errors import NetError
    from app.services.funding import fee_estimates
    from app.services.open_bids import fetch_open_bids

    async def known_estimates() -> dict[int, float] | None:
        try:
            return await fee_estimates(ctx)
        except NetError:  # no estimate now: the picker offers a custom rate
            return None

    balance, bids, estimates = await asyncio.gather(
        bidding_wallet_balance(ctx), fetch_open_bids(ctx), known_estimates()
    )
    return WalletFacts(
        balance.address,
        ctx.payment_address,
        balance,
        tuple(bids),
        ctx.assumed_maker_fee,
        estimates,
    )


def at_risk_rows(facts: WalletFacts, balance_after: int) -> list[str]:
    """One line per open bid that `balance_after` sats no longer cover."""
    from app.services.withdraw import bids_at_risk

    doomed = bids_at_risk(facts.bids, balance_after, facts.maker_fee.fee)
    return [
        strings.WITHDRAW_AT_RISK_ROW.format(
            pool=bid.pool, bid=bid.bid_id, price=strings.SATS.format(sats=bid.price)
        )
        for bid in doomed
    ]
