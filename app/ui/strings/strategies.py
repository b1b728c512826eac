"""The Strategies tab (issue 17): the strategies, each one's pools and journal, start and
stop, and the desktop notifications a running strategy makes."""

from __future__ import annotations

from typing import Final

from app.ui.strings.plural import Counted

TAB_STRATEGIES: Final = "Strategies"

# -- the buttons -----------------------------------------------------------------------------
STRATEGIES_NEW: Final = "&New strategy…"
STRATEGIES_EDIT: Final = "&Edit…"
STRATEGIES_START: Final = "&Start"
STRATEGIES_STOP: Final = "S&top…"
STRATEGIES_START_ALL: Final = "Start &all"
STRATEGIES_STOP_ALL: Final = "Stop a&ll…"
STRATEGIES_DELETE: Final = "&Delete…"
STRATEGIES_START_NEEDS_APPROVAL: Final = (
    "Not approved: open it with Edit… and approve it to start it."
)
STRATEGIES_EDIT_RUNNING: Final = "Stop it first: a running strategy cannot be changed."
STRATEGIES_NEW_HINT: Final = (
    "A strategy keeps a bid placed: fill in the bid here, then Keep this bid… makes it a strategy."
)
STRATEGIES_DELETE_RUNNING: Final = "Stop it first: only a stopped strategy can be deleted."

# -- the lines above and below the tables ----------------------------------------------------
STRATEGIES_EMPTY: Final = (
    "No strategy yet. A strategy keeps a bid placed for you: fill in the bid in the Bid tab, "
    "then Keep this bid… (New strategy… takes you there)."
)
STRATEGIES_COUNTS: Final = Counted(
    "{count:,} strategy, {running:,} running.", "{count:,} strategies, {running:,} running."
)
STRATEGIES_LOCK_RULE: Final = (
    "A running strategy signs bids with this wallet's key: every strategy stops when the "
    "wallet locks."
)
STRATEGIES_STOPPED_BY_LOCK: Final = Counted(
    "The wallet locked at {at}, so {count:,} strategy stopped (its bids stay open until they "
    "expire). Start it again with the wallet unlocked.",
    "The wallet locked at {at}, so {count:,} strategies stopped (their bids stay open until "
    "they expire). Start them again with the wallet unlocked.",
)
STRATEGIES_LOADING: Final = "Loading the strategies…"
STRATEGIES_STARTING: Final = "Starting {strategy}: reading its open bids…"
STRATEGIES_STARTED: Final = Counted(
    "{names} is running.", "{count:,} strategies are running: {names}."
)
STRATEGIES_STOPPING: Final = "Stopping {strategy}…"
STRATEGIES_STOPPED: Final = "{strategy} stopped; its approval is revoked."
STRATEGIES_STOPPED_CANCELLED: Final = Counted(
    "{strategy} stopped; its approval is revoked and {count:,} bid cancelled.",
    "{strategy} stopped; its approval is revoked and {count:,} bids cancelled.",
)
STRATEGIES_STOPPED_ALL: Final = Counted(
    "{count:,} strategy stopped ({names}); its approval is revoked.",
    "{count:,} strategies stopped ({names}); their approvals are revoked.",
)
STRATEGIES_BIDS_CANCELLED: Final = Counted("{count:,} bid cancelled.", "{count:,} bids cancelled.")
STRATEGIES_BIDS_KEPT: Final = Counted(
    "{count:,} bid stays open until {until} (Open bids tab); it can still be filled.",
    "{count:,} bids stay open, the last until {until} (Open bids tab); they can still be filled.",
)
STRATEGIES_DELETED: Final = "{strategy} deleted (its journal stays)."
STRATEGIES_SAVED: Final = "{strategy} saved."
STRATEGIES_APPROVED: Final = "{strategy} saved and approved until {until}; press Start to run it."
STRATEGIES_FAILED: Final = "{strategy}: {reason}"
STRATEGIES_NOTHING_TO_START: Final = "Every approved strategy is already running."
STRATEGIES_NONE_RUNNING: Final = "No strategy is running."

# -- the strategies table --------------------------------------------------------------------
STRATEGIES_HEADERS: Final = ("Strategy", "Status", "Pools", "Committed", "Approved until")
STRATEGY_RUNNING: Final = "Running"
STRATEGY_STOPPED: Final = "Stopped"
STRATEGY_NOT_APPROVED: Final = "Not approved"
STRATEGY_REVOKED: Final = "Stopped (approval revoked)"
STRATEGY_UNTIL_REVOKED: Final = "Revoked"
STRATEGY_UNREADABLE: Final = "Cannot be read"
STRATEGY_FAILED: Final = "Stopped on an error"
STRATEGY_NO_CONFIG: Final = "no strategy file"
STRATEGY_BUDGET: Final = "{used:,} of {budget:,} sats"
STRATEGY_BUDGET_TIP: Final = (
    "Committed of the budget of {budget:,} sats: {spent:,} sats spent by fills + "
    "{exposure:,} sats in open bids (they may fill)"
)
STRATEGY_ENDED: Final = "{until} (ended)"

# -- the selected strategy's pools -----------------------------------------------------------
STRATEGY_POOLS_TAB: Final = "Pools"
STRATEGY_JOURNAL_TAB: Final = "Journal"
STRATEGY_POOLS_HEADERS: Final = (
    "Pool",
    "Status",
    "Target",
    "Live bids",
    "Committed",
    "Last action",
    "Next action",
)
POOL_BIDDING: Final = "Bidding"
POOL_HOLDING: Final = "Holding"
POOL_STOPPED: Final = "Stopped"
POOL_NOT_CHECKED: Final = "Not checked yet"
POOL_NOT_RUNNING: Final = "Not running"
POOL_TARGET_BIDS: Final = "{quantity:,} × {price}"
POOL_TARGET_UNITS: Final = "{quantity:,} units at {price}"
POOL_NO_TARGET: Final = "—"
POOL_LIVE_BIDS: Final = "{live:,} of {wanted:,}"
POOL_LIVE_BIDS_TIP: Final = (
    "{live:,} open now ({kept:,} kept as they were, {made:,} placed or renewed at the last "
    "check); the target wants {wanted:,}."
)
POOL_LAST_NONE: Final = "No change needed"
POOL_LAST_AT: Final = "{text} · {time}"
POOL_KEPT_BIDS: Final = Counted("{count:,} bid open", "{count:,} bids open")
POOL_KEPT_BIDS_TIP: Final = Counted(
    "{count:,} bid left open when it stopped, until {until} at the latest (Open bids tab); "
    "a kept bid can still be filled.",
    "{count:,} bids left open when it stopped, until {until} at the latest (Open bids tab); "
    "a kept bid can still be filled.",
)
POOL_NONE_OPEN: Final = "None open"
POOL_LAST_ACTION: Final = "{verb} {what}"
POOL_LAST_FAILED: Final = "{verb} failed: {detail}"
POOL_LAST_MORE: Final = "{text} (+{count:,} more)"
POOL_ACTION_VERBS: Final = {"place": "Placed", "renew": "Renewed", "cancel": "Cancelled"}
POOL_ACTION_FAILED_VERBS: Final = {"place": "Place", "renew": "Renewal", "cancel": "Cancel"}
POOL_ACTION_PENDING: Final = {"place": "Place", "renew": "Renew", "cancel": "Cancel"}
POOL_ACTION_BIDS: Final = Counted("{count:,} bid at {price}", "{count:,} bids at {price}")
POOL_ACTION_UNITS: Final = "{count:,} units at {price}"
POOL_NEXT_PENDING: Final = "{what} at the next check"
POOL_NEXT_CHECK: Final = "Next check in {seconds:,} s"
POOL_CHECKING: Final = "Checking now…"
POOL_FIRST_CHECK: Final = "First check running…"

# -- the journal -----------------------------------------------------------------------------
STRATEGY_JOURNAL_HEADERS: Final = (
    "Time",
    "Kind",
    "Pool",
    "Price",
    "Quantity",
    "State",
    "Outcome and reason",
)
JOURNAL_EMPTY: Final = "Nothing signed yet."
JOURNAL_KINDS: Final = {
    "ordinals": "Collection",
    "trait": "Trait",
    "rune": "Rune",
    "range": "Range",
}
JOURNAL_STATES: Final = {
    "intent": "Signing",
    "refused": "Refused by the policy",
    "signed": "Signed",
    "abandoned": "Abandoned",
    "placed": "Placed",
    "rejected": "Rejected",
    "not_placed": "Not placed",
    "unknown": "Unknown (checked again)",
    "ended": "Ended",
}
JOURNAL_ENDS: Final = {"filled": "Filled", "cancelled": "Cancelled", "expired": "Expired"}
JOURNAL_OUTCOME_REASON: Final = "{outcome} — {reason}"

# -- the stop question -----------------------------------------------------------------------
STOP_TITLE: Final = "Stop the strategy"
STOP_ALL_TITLE: Final = "Stop every strategy"
STOP_TEXT: Final = (
    "Stop {strategy}? Stopping revokes its approval: nothing more is signed under it, and "
    "starting it again needs a new approval (Edit…).\n\nIts open bids can be cancelled now, "
    "or kept until they expire (a kept bid can still be filled)."
)
STOP_ALL_TEXT: Final = Counted(
    "Stop the {count:,} running strategy? Stopping revokes its approval: nothing more is "
    "signed under it, and starting it again needs a new approval (Edit…).\n\nIts open bids "
    "can be cancelled now, or kept until they expire (a kept bid can still be filled).",
    "Stop the {count:,} running strategies? Stopping revokes their approvals: nothing more is "
    "signed under them, and starting one again needs a new approval (Edit…).\n\nTheir open "
    "bids can be cancelled now, or kept until they expire (a kept bid can still be filled).",
)
STOP_AND_CANCEL: Final = "Stop and &cancel its bids"
STOP_AND_CANCEL_ALL: Final = "Stop and &cancel their bids"
STOP_KEEP_BIDS: Final = "Stop, &keep its bids until they expire"
STOP_KEEP_BIDS_ALL: Final = "Stop, &keep their bids until they expire"
STOP_CANCEL: Final = "Don't stop"
DELETE_TITLE: Final = "Delete the strategy"
DELETE_TEXT: Final = (
    "Delete {strategy}? Its file and its approval are removed; its journal stays. Its open "
    "bids, if any, stay until they expire."
)
DELETE_TEXT_NO_BIDS: Final = (
    "Delete {strategy}? Its file and its approval are removed; its journal stays. It has no "
    "open bid."
)
DELETE_TEXT_BIDS: Final = Counted(
    "Delete {strategy}? Its file and its approval are removed; its journal stays. Its "
    "{count:,} open bid stays until {until} (Open bids tab) and can still be filled.",
    "Delete {strategy}? Its file and its approval are removed; its journal stays. Its "
    "{count:,} open bids stay, the last until {until} (Open bids tab), and can still be filled.",
)
STOP_OPEN_BIDS: Final = Counted(
    "It has {count:,} bid open now, until {until}.",
    "It has {count:,} bids open now, the last until {until}.",
)
STOP_ALL_OPEN_BIDS: Final = Counted(
    "They have {count:,} bid open now, until {until}.",
    "They have {count:,} bids open now, the last until {until}.",
)
DELETE_YES: Final = "&Delete"
DELETE_NO: Final = "&Keep it"

# -- desktop notifications -------------------------------------------------------------------
NOTICE_FILLED: Final = "Bid filled — {strategy}"
NOTICE_FILLED_TEXT: Final = "{sats:,} sats spent; {left:,} sats of the budget left to bid"
NOTICE_OUTBID: Final = "Outbid — {strategy}"
NOTICE_OUTBID_REBID: Final = "top bid {top}: the strategy bid again at {rebid}"
NOTICE_OUTBID_ABOVE_CAP: Final = (
    "top bid {top} is above your cap of {cap}: the strategy holds at {cap}"
)
NOTICE_OUTBID_WAITS: Final = (
    "top bid {top}, yours {ours}: the strategy bids again at its next check"
)
NOTICE_POOL_PREFIX: Final = "{pool}: {text}"
NOTICE_BUDGET_SPENT: Final = "Budget spent — {strategy}"
NOTICE_BUDGET_TOO_LOW: Final = (
    "Budget too low for another bid in {pool}: {left:,} sats left, one bid costs {cost:,} sats"
)
NOTICE_STOPPED: Final = "Strategy pool stopped — {strategy}"

# -- in place of the tables, when strategies cannot run --------------------------------------
STRATEGIES_LOCKED: Final = (
    "The wallet is locked: unlock it (Ctrl+U) to see and run its strategies. A strategy signs "
    "bids with the wallet's key, so none runs while it is locked."
)
STRATEGIES_WATCH_ONLY: Final = (
    "This profile is watch-only: strategies sign bids as they run, so they need a profile "
    "that holds its keys."
)
