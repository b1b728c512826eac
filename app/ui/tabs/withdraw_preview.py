"""The facts the Withdraw tab shows before any review: the bidding wallet, its balance, the
open bids and which of them a given balance after the withdrawal no longer covers (the core
pool rule the service applies). They come from `WalletState`'s readings (its loads and the
live updates), so the tab follows the balance as the Wallet tab does."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.ui import strings

if TYPE_CHECKING:
    from app.services.bidding_wallet import BiddingWalletBalance
    from app.services.maker_fee import AssumedMakerFee
    from app.services.open_bids import BidListEntry, OpenBidsView


@dataclass(frozen=True)
class WalletFacts:
    address: str
    payment_address: str
    balance: BiddingWalletBalance
    bids: tuple[BidListEntry, ...]
    maker_fee: AssumedMakerFee  # what the pool rule counts per bid, and where it came from


def facts_of(view: OpenBidsView, payment_address: str) -> WalletFacts:
    """The facts of one `WalletState` reading, the withdrawal going to `payment_address`."""
    balance = view.balance
    return WalletFacts(balance.address, payment_address, balance, view.bids, view.maker_fee)


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
