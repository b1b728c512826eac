"""The strategy editor (issue 17): a strategy made from the Bid tab's "Keep this bid…", or one
of the Strategies tab's edited, previewed, then approved."""

from __future__ import annotations

from typing import Final

from app.ui.strings.plural import Counted

KEEP_BID: Final = "&Keep this bid…"
KEEP_BID_TIP: Final = (
    "Make a strategy of this bid: it keeps the bid placed, renewed before it lapses and"
    " re-placed after a fill, within the limits you approve."
)
KEEP_BID_NOT_READY: Final = "Not kept: {reason}"

EDITOR_TITLE_NEW: Final = "New strategy"
EDITOR_TITLE_EDIT: Final = "Edit strategy {name}"
EDITOR_INTRO: Final = (
    "A strategy keeps bids placed for you within limits you approve. Preview shows what it"
    " would do now; nothing is signed before you approve it."
)
EDITOR_NAME: Final = "&Name:"
EDITOR_NAME_HINT: Final = "Letters, digits, - and _ (up to 64)."
EDITOR_NAME_INVALID: Final = "A name is 1 to 64 letters, digits, - or _."
EDITOR_NAME_TAKEN: Final = (
    "A strategy named {name} exists already: choose another name (or edit it from the"
    " Strategies tab)."
)
EDITOR_RUNNING: Final = (
    "This strategy is running: stop it in the Strategies tab before changing it (a running"
    " strategy's approval cannot be replaced)."
)
EDITOR_POOLS: Final = "Pools"
EDITOR_POOL_COLLECTION: Final = "Collection {slug}"
EDITOR_POOL_TRAIT: Final = "{slug}, trait {trait}: {value}"
EDITOR_POOL_RUNE: Final = "Rune {name}"
EDITOR_RULE: Final = "Rule:"
EDITOR_RULE_FIXED: Final = "Fixed price"
EDITOR_RULE_BELOW_FLOOR: Final = "Below the floor by a percentage"
EDITOR_RULE_ABOVE_TOP: Final = "One step above the top bid"
EDITOR_RULE_EXPLAINED: Final = (
    "Bids this price whatever the market does, renewing each bid before it lapses.",
    "Bids the floor (the lowest listing) less this percentage, never above the cap.",
    "Bids one step above the best competing bid, never above the cap nor this share of the floor.",
)
EDITOR_PER_UNIT: Final = "{price} per unit"
EDITOR_LADDER_HINT: Final = "A ladder of prices is set in the strategy's file (docs/strategies.md)."
EDITOR_LADDER_KEPT: Final = (
    "This pool's rule is a ladder, kept as its file says (the window edits one rule per pool)."
)
EDITOR_PRICE: Final = "Price per item:"
EDITOR_PERCENT_BELOW: Final = "Below the floor by:"
EDITOR_CAP: Final = "At most, per item:"
EDITOR_RUNE_PRICE: Final = "Total price for {units} units:"
EDITOR_RUNE_CAP: Final = "At most, for {units} units:"
EDITOR_FLOOR_SHARE: Final = "At most this share of the floor:"
EDITOR_OPENING: Final = "With no other bid:"
EDITOR_OPENING_HINT: Final = "Empty: wait for a competing bid."
EDITOR_RUNE_UNITS: Final = "Totals are for:"
EDITOR_RUNE_UNITS_SUFFIX: Final = " units"
EDITOR_RUNE_PRICES_HINT: Final = (
    "Prices below are totals for this many units, as the Bid tab's Total price. The strategy"
    " bids the price per unit shown under each: changing the units keeps it."
)
EDITOR_POOL_BUDGET: Final = "Pool budget:"
EDITOR_POOL_BUDGET_HINT: Final = (
    "What its fills spent plus what its open bids commit (maker fee included) stays within it."
)
EDITOR_POOL_BUDGET_OVER_TOTAL: Final = (
    "Larger than the total budget: the total budget of {total} binds first."
)
EDITOR_TOTAL_BUDGET: Final = "&Total budget:"
EDITOR_TOTAL_BUDGET_HINT: Final = (
    "What all its pools' fills spent plus what their open bids commit (maker fee included)"
    " stays within it. Fills are kept in the profile: they still count when the strategy is"
    " approved again."
)
EDITOR_MAX_BIDS: Final = "&Maximum bids:"
EDITOR_LIFETIME: Final = "Bid &lifetime:"
EDITOR_LIFETIME_SUFFIX: Final = " min"
EDITOR_LIFETIME_TOO_SHORT: Final = (
    "At least {minutes} minutes: the service's 15 and a minute for the bid to reach it."
)
EDITOR_LIFETIME_HINT: Final = "At least 16 minutes; renewed before it lapses."
EDITOR_LIFETIME_NOT_BID_TAB: Final = (
    "At least 16 minutes. A strategy keeps short bids and renews them before they lapse: the"
    " Bid tab's expiry of {expiry} is not used."
)
EDITOR_SPAN_DAYS: Final = Counted("{count} day", "{count} days")
EDITOR_SPAN_HOURS: Final = Counted("{count} hour", "{count} hours")
EDITOR_SPAN_MINUTES: Final = Counted("{count} minute", "{count} minutes")
EDITOR_VALIDITY: Final = "&Approval valid for:"
EDITOR_VALIDITY_HOURS: Final = Counted("{count} hour", "{count} hours")
EDITOR_VALIDITY_WEEK: Final = "1 week"

EDITOR_PRICE_MISSING: Final = "Enter a price."
EDITOR_CAP_MISSING: Final = "Enter the most it may pay."
EDITOR_BUDGET_MISSING: Final = "Enter a budget."
EDITOR_OPENING_ABOVE_CAP: Final = (
    "The price with no other bid ({opening}) is above the cap ({cap})."
)
EDITOR_PRICE_TOO_LOW: Final = "At least {minimum} per item."
EDITOR_BUDGET_TOO_SMALL: Final = "Too small for one bid at {price} ({cost} with the maker fee)."

EDITOR_PREVIEW: Final = "What it would do now"
EDITOR_PREVIEW_BUTTON: Final = "&Preview"
EDITOR_PREVIEW_EMPTY: Final = "Press Preview to see what it would place and cancel now, and why."
EDITOR_PREVIEW_READING: Final = "Reading the market…"
EDITOR_PREVIEW_STALE: Final = "Changed since this preview: press Preview again."
EDITOR_PREVIEW_FAILED: Final = "No preview: {reason}"
EDITOR_PREVIEW_NOTHING_SIGNED: Final = "A preview signs nothing and places nothing."
EDITOR_FIX_FIRST: Final = "Fix the fields marked above first."

EDITOR_NEXT: Final = "&Review approval…"
EDITOR_BACK: Final = "&Back"
EDITOR_CANCEL: Final = "Cancel"
EDITOR_APPROVE_START: Final = "Approve and &start"
EDITOR_APPROVE: Final = "&Approve"
EDITOR_APPROVING: Final = "Approving…"
EDITOR_NOT_APPROVED: Final = "Not approved: {reason}"
EDITOR_APPROVED_NOT_STARTED: Final = (
    "Approved, but not started: {reason} Start it from the Strategies tab."
)

APPROVAL_TITLE: Final = "You approve strategy {name}"
APPROVAL_INTRO: Final = (
    "Until {until} ({hours} from now) it may place bids for you, signed with your payment key:"
)
APPROVAL_POOL_ITEM: Final = "• {pool}: at most {cap} per item"
APPROVAL_POOL_UNIT: Final = "• {pool}: at most {cap} per unit"
APPROVAL_EXPOSURE: Final = (
    "Its open bids together commit at most {total} at any one time, maker fee included. As"
    " bids fill it may bid again until the approval ends, while what its fills spent plus"
    " what its open bids commit stays within the strategy's budgets (fills are kept in the"
    " profile: they still count when it is approved again)."
)
APPROVAL_MAX_BIDS: Final = Counted(
    "The strategy keeps at most {count} bid open (this approval bounds the money, not the count).",
    "The strategy keeps at most {count} bids open (this approval bounds the money, not the count).",
)
APPROVAL_BIDDER: Final = (
    "Its bids name your payment address {payment} and are paid from your bidding wallet; items"
    " won go to your ordinals address {receive}."
)
APPROVAL_RUNS_WHILE_OPEN: Final = (
    "It runs only while Bidwallet is open and the wallet unlocked (the wallet locks after"
    " {minutes} idle: Settings). To run it unattended, use the command bidwallet strategies run."
)
APPROVAL_ONLY_MESSAGES: Final = (
    "It can sign bid messages only, never a transaction. Stopping it revokes this approval."
)
APPROVAL_REPLACES: Final = "This replaces the strategy's earlier approval."

STOPPED_BY_LOCK_TITLE: Final = "Strategies stopped: the wallet locked"
STOPPED_BY_LOCK_TEXT: Final = Counted(
    "{count} strategy stopped when the wallet locked. Its bids stay open until they expire"
    " (Open bids tab); unlock and start it again in the Strategies tab.",
    "{count} strategies stopped when the wallet locked. Their bids stay open until they expire"
    " (Open bids tab); unlock and start them again in the Strategies tab.",
)
