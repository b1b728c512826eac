"""Live updates: what the market did without a click of ours, as the Activity tab, the
desktop notifications and the status bar say it; the Settings toggle."""

from __future__ import annotations

from typing import Final

from app.ui.strings.plural import Counted

# Each event: a headline (the notification's title) and its details. `{bid}` names what a bid
# is: "1 × nodemonkes at 120,000 sats".
LIVE_BID: Final = "{quantity:,} × {what} at {price}"
LIVE_PRICE: Final = "{sats:,} sats"
LIVE_PRICE_UNKNOWN: Final = "an unknown price"
LIVE_BID_FILLED: Final = "Bid filled"
LIVE_BID_PARTLY_FILLED: Final = "Bid partly filled"
LIVE_PARTLY_DETAIL: Final = "{bid}: {filled:,} filled, {remaining:,} still open"
LIVE_BID_EXPIRED: Final = "Bid expired"
LIVE_BID_CANCELLED: Final = "Bid cancelled by the service"
LIVE_CANCELLED_BALANCE: Final = "{bid}: the bidding wallet no longer covers it"
LIVE_BID_ENDED: Final = "Bid ended"
LIVE_ENDED_UNEXPLAINED: Final = (
    "{bid}: the service no longer lists it (filled or cancelled there; not by you, not expired)"
)
LIVE_ENDED_BECAUSE: Final = "{bid}: {state}"
LIVE_LISTING_SOLD: Final = "Listing sold"
LIVE_LISTING: Final = "{what} for {price}"
LIVE_LISTING_ENDED: Final = "Listing ended"
LIVE_BALANCE_BIDDING: Final = "Bidding wallet balance changed"
LIVE_BALANCE_PAYMENT: Final = "Payment address balance changed"
LIVE_BALANCE: Final = "{before:,} → {after:,} sats"
LIVE_BALANCE_BIDDING_WALLET: Final = "Bidding wallet"
LIVE_BALANCE_PAYMENT_ADDRESS: Final = "Payment address"
LIVE_BALANCE_OF: Final = "{wallet}: {change}"
# One notification for the events of a reading past the first few (a service that ends
# thousands of bids at once must not make thousands of notifications).
LIVE_MORE_EVENTS_TITLE: Final = "More market events"
LIVE_MORE_EVENTS: Final = Counted(
    "{count:,} more event: see the Activity tab", "{count:,} more events: see the Activity tab"
)
# The status bar's line (where there is no tray): headline and details in one sentence.
LIVE_ACTIVITY: Final = "{title}: {detail}"
# How the Activity tab names an action recorded under an internal name (others as recorded).
ACTIVITY_ACTION_NAMES: Final = {
    "market.bid_filled": "Bid filled",
    "market.bid_partly_filled": "Bid partly filled",
    "market.bid_expired": "Bid expired",
    "market.bid_cancelled_by_service": "Bid cancelled by the service",
    "market.bid_ended": "Bid ended",
    "market.listing_sold": "Listing sold",
    "market.listing_ended": "Listing ended",
    "market.balance_changed": "Balance changed",
}
LIVE_UPDATE_FAILED: Final = "Live updates paused: {reason} Trying again in {seconds:,} s."

# The system tray icon and the Settings toggle.
TRAY_TOOLTIP: Final = "Bidwallet"
TRAY_SHOW: Final = "&Show Bidwallet"
SETTINGS_NOTIFICATIONS: Final = "&Desktop notifications"
SETTINGS_NOTIFICATIONS_HINT: Final = (
    "Fills, sales, expiries and cancellations by the service, as they happen. They are always "
    "in the Activity tab."
)
