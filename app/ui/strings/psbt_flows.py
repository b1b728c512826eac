"""The PSBT flows: Withdraw, Inscription bid, Listings, the offline signer's review."""

from __future__ import annotations

from typing import Final

from app.ui.strings.plural import Counted

# -- PSBT flows, shared (UI-B: Withdraw, Inscription bid, Listings, offline signer) -----------
PROGRESS_FORMAT: Final = "%v of %m"
PROGRESS_CANCEL: Final = "Ca&ncel"
PROGRESS_CANCELLING: Final = "Cancelling after the current item…"
FLOW_REVIEWING: Final = "Asking the service for the transaction and reviewing it…"
FLOW_SIGNING: Final = "Signing…"
FLOW_SUBMITTING: Final = "Sending…"
FLOW_CANCELLED: Final = "Cancelled: nothing was signed or sent."
FLOW_REVIEW_CANCELLED: Final = "Cancelled at the review: nothing was signed or sent."
FLOW_REFUSED: Final = "Refused: Bidwallet did not sign it (the review shows why). Nothing was sent."
COPY_TXID: Final = "Copy &txid"
# The fee rate asked of the service that builds the transaction, and what its PSBT pays.
FEE_ASKED_AS_ASKED: Final = "Fee rate: pays {paid} sat/vB, the rate you asked for ({asked} sat/vB)."
FEE_ASKED_LOWER: Final = (
    "Not the fee rate you chose: you asked for {asked} sat/vB; the service's transaction pays"
    " {paid} sat/vB, so it may take longer to confirm. Sign only if that rate suits you."
)
FEE_ASKED_HIGHER: Final = (
    "Not the fee rate you chose: you asked for {asked} sat/vB; the service's transaction pays"
    " {paid} sat/vB, more than you chose. Sign only if that fee suits you."
)
FEE_ASKED_UNKNOWN: Final = (
    "You asked for {asked} sat/vB; the fee of the service's transaction cannot be known (an"
    " input's amount is not confirmed), so whether it pays that rate cannot be said."
)
TXID_WHAT: Final = "Txid"

# -- Withdraw tab (UI-B) -------------------------------------------------------------------
TAB_WITHDRAW: Final = "Withdraw"
WITHDRAW_WALLET: Final = "Bidding wallet"
WITHDRAW_ADDRESS: Final = "Address:"
WITHDRAW_BALANCE: Final = "Balance:"
WITHDRAW_BALANCE_TEXT: Final = "{total} ({confirmed} confirmed, {unconfirmed} unconfirmed)"
WITHDRAW_BOX: Final = "Withdraw"
WITHDRAW_AMOUNT: Final = "&Amount:"
WITHDRAW_MAX: Final = "&Max"
WITHDRAW_TO: Final = "To:"
WITHDRAW_FEE: Final = "F&ee rate:"
WITHDRAW_FEE_HINT: Final = (
    "Asked of the service, which may not follow it: the review shows the rate its transaction pays."
)
WITHDRAW_TO_HINT: Final = (
    "Withdrawals always go to your payment address; the network fee is paid on top (with Max,"
    " it comes out of the amount)."
)
WITHDRAW_AT_RISK: Final = "Bids this withdrawal cancels"
WITHDRAW_AT_RISK_NONE: Final = "None: your open bids stay covered."
WITHDRAW_AT_RISK_SOME: Final = Counted(
    "{count} open bid would no longer be covered; the service cancels it:",
    "{count} open bids would no longer be covered; the service cancels them:",
)
WITHDRAW_AT_RISK_ROW: Final = "{pool}: bid {bid} at {price}"
WITHDRAW_REVIEW: Final = "Review &withdrawal…"
WITHDRAW_NEED_AMOUNT: Final = "Enter the amount to withdraw, or press Max."
# The service's rule: the network fee is paid on top of the amount, except for the whole
# balance (a sweep, the fee taken from it); see app/services/withdraw.py.
# One line at 1024 px wide: a second line would move the fields below.
WITHDRAW_TOO_MUCH: Final = (
    "The wallet holds {balance} and the fee comes on top: withdraw less, or all with Max."
)
WITHDRAW_EMPTY: Final = "The bidding wallet is empty: there is nothing to withdraw."
WITHDRAW_TITLE: Final = "Withdraw from the bidding wallet"
WITHDRAW_ACTION: Final = "&Sign and withdraw"
WITHDRAW_NOTE: Final = "You withdraw {amount} from the bidding wallet to {address}."
WITHDRAW_NOTE_SWEEP: Final = (
    "You withdraw the whole balance ({amount}, fee taken from it) to {address}."
)
WITHDRAW_NOTE_CANCELS: Final = Counted(
    "This cancels {count} open bid: {bids}.",
    "This cancels {count} open bids: {bids}.",
)
WITHDRAW_DONE: Final = "Withdrawn {amount}: transaction {txid}."
WITHDRAW_DONE_CANCELLED: Final = Counted(
    "The service cancelled {count} bid the balance no longer covers.",
    "The service cancelled {count} bids the balance no longer covers.",
)
WITHDRAW_NOT_DONE: Final = "Not withdrawn: {reason}"

# -- Inscription bid tab (UI-B) ------------------------------------------------------------
TAB_INSCRIPTION_BID: Final = "Inscription bid"
INSCRIPTION_BID_BOX: Final = "Bid on one inscription"
INSCRIPTION_BID_INTRO: Final = (
    "Offer a price for one inscription. The service builds a transaction paid from your"
    " payment address; the inscription comes to your ordinals address when the owner accepts."
)
INSCRIPTION_BID_ID: Final = "I&nscription:"  # &I is "Import signed…" (watch-only)
INSCRIPTION_BID_ID_PLACEHOLDER: Final = "inscription id, e.g. 6fb9…2799i0"
INSCRIPTION_BID_ID_INVALID: Final = (
    "An inscription id is 64 hex characters, then i and a number (like …799i0)."
)
INSCRIPTION_BID_PRICE: Final = "&Price:"
INSCRIPTION_BID_PRICE_HINT: Final = "At least 10,000 sats; postage and the network fee come on top."
INSCRIPTION_BID_FEE: Final = "F&ee rate:"
INSCRIPTION_BID_FEE_HINT: Final = (
    "Paid if the owner accepts; the review shows the rate the service's transaction pays."
)
INSCRIPTION_BID_REVIEW: Final = "Review &bid…"
INSCRIPTION_BID_TITLE: Final = "Bid on an inscription"
INSCRIPTION_BID_ACTION: Final = "&Sign and place bid"
INSCRIPTION_BID_NOTE: Final = (
    "You pay {total} (price, postage and network fee); you receive inscription {inscription}"
    " with its postage at {address}."
)
INSCRIPTION_BID_NOTE_UNKNOWN: Final = (
    "You pay {total} (price and network fee; the postage cannot be told apart, since where"
    " inscription {inscription} would land cannot be known)."
)
INSCRIPTION_BID_PLACED: Final = "Bid placed on {inscription} for {price} (bid {bid})."
INSCRIPTION_BID_NOT_PLACED: Final = "Not placed: {reason}"
INSCRIPTION_BID_MINE: Final = "Your inscription bids"
INSCRIPTION_BID_HEADERS: Final = ("Inscription", "Price", "State", "Bid", "Ended by")
INSCRIPTION_BID_STATES: Final = {
    "open": "Open",
    "accepted": "Filled (accepted by the owner)",
    "cancelled": "Cancelled",
    "inscription_moved": "Ended: the inscription moved",
    "funding_spent": "Ended: your payment coins were spent",
}
INSCRIPTION_BID_NONE: Final = "No inscription bids yet."
INSCRIPTION_BID_OPEN_ONLY: Final = (
    "This service lists only open bids: filled and ended ones are not shown."
)

# -- Listings tab (UI-B) -------------------------------------------------------------------
TAB_LISTINGS: Final = "Listings"
LISTINGS_HELD: Final = "Your inscriptions and runes"
LISTINGS_HELD_HEADERS: Final = ("List", "Item", "Kind", "Collection", "Listed", "Price (sats)")
LISTINGS_KIND_INSCRIPTION: Final = "Inscription"
LISTINGS_KIND_RUNES: Final = "Runes"
LISTINGS_KIND_TAP: Final = "Inscription (TAP transfer)"
LISTINGS_NONE_HELD: Final = "The ordinals address holds no inscriptions or runes."
LISTINGS_HELD_BY: Final = "Held by your ordinals address {address} (from ord)."
LISTINGS_PRICE_ALL: Final = "Price for all &selected:"
LISTINGS_APPLY_PRICE: Final = "&Apply"
LISTINGS_SELECT_ALL: Final = "Select a&ll"
LISTINGS_SELECT_NONE: Final = "Select n&one"
LISTINGS_RECEIVE: Final = "Payments go to:"
LISTINGS_RECEIVE_HINT: Final = "your payment address"
LISTINGS_SELECTED: Final = "{count} selected (at most {limit} per request)."
LISTINGS_NEED_PRICE: Final = "Give every selected item a price (whole sats, more than 0)."
LISTINGS_TOO_MANY: Final = "At most {limit} items per request: {count} are selected."
LISTINGS_MIXED: Final = (
    "Inscriptions and runes are listed in separate requests: tick only one kind, then the other."
)
LISTINGS_TAP: Final = (
    "A TAP transfer cannot be a secure listing: list it with a regular listing, or untick it."
)
# "Select all" ticks what can go in one request and says what it left out, and why.
LISTINGS_LEFT_OUT_RUNES: Final = "Runes left out: they are listed in a request of their own."
LISTINGS_LEFT_OUT_TAP: Final = "TAP transfers left out: they cannot be a secure listing."
LISTINGS_LEFT_OUT_LIMIT: Final = "Only the first {limit} ticked: at most {limit} per request."
LISTINGS_LEFT_OUT_LISTED: Final = Counted(
    "{count} listed item left out: tick it to relist it.",
    "{count} listed items left out: tick one to relist it.",
)
LISTINGS_SIGN: Final = "Review and si&gn…"
LISTINGS_EXPORT: Final = "&Export for offline signing…"
LISTINGS_IMPORT: Final = "&Import signed…"
LISTINGS_REVIEWING: Final = "Reviewing"
LISTINGS_SIGNING: Final = "Signing"
LISTINGS_TITLE: Final = "Secure listings"
LISTINGS_ACTION: Final = Counted(
    "&Sign {count} listing",
    "&Sign {count} listings",
)
LISTINGS_EXPORT_ACTION: Final = Counted(
    "&Export {count} PSBT",
    "&Export {count} PSBTs",
)
LISTINGS_SUBMIT_ACTION: Final = Counted(
    "&Submit {count} listing",
    "&Submit {count} listings",
)
LISTINGS_EXPORTING: Final = "Writing the PSBT files…"
LISTINGS_NOTE: Final = Counted(
    "You list {count} item for {total}; the payment goes to {address}.",
    "You list {count} items for {total} in all; payments go to {address}.",
)
LISTINGS_DONE: Final = Counted(
    "Listed {count} item.",
    "Listed {count} items.",
)
LISTINGS_NOT_DONE: Final = "Not listed: {reason}"
LISTINGS_CANCELLED_AFTER: Final = "Cancelled after signing {done} of {total}: nothing was sent."
# "‑‑offline" in non-breaking hyphens (U+2011): a wrapped label broke the option at its
# hyphens. (The label is not selectable: nobody copies it into a shell.)
LISTINGS_EXPORTED: Final = Counted(
    (
        "Exported {count} PSBT to {folder}. Sign it in the offline signer (bidwallet "
        "\u2011\u2011offline), bring the folder back, then press Import signed. Or, with"
        " no USB stick: Show as QR… for the offline signer to scan, then Scan QR… here to read"
        " the signed one back."
    ),
    (
        "Exported {count} PSBTs to {folder}. Sign them in the offline signer (bidwallet "
        "\u2011\u2011offline), bring the folder back, then press Import signed. Or, with"
        " no USB stick: Show as QR… for the offline signer to scan, then Scan QR… here to read"
        " the signed ones back."
    ),
)
LISTINGS_EXPORT_FOLDER: Final = "Choose an empty folder for the PSBTs"
LISTINGS_IMPORT_FOLDER: Final = "Choose the folder with the signed PSBTs"
LISTINGS_IMPORT_FAILED: Final = "Not imported: {reason}"
LISTINGS_MINE: Final = "Your listings"
LISTINGS_MINE_HEADERS: Final = ("Item", "Price", "State", "Listing")
LISTINGS_NO_ID: Final = "The service names this listing in what the address holds, without its id."
LISTINGS_STATES: Final = {
    "active": "Active",
    "sold": "Sold",
    "replaced": "Replaced",
    "item_moved": "Ended: the item moved",
}
LISTINGS_MINE_NONE: Final = "No listings yet."
LISTINGS_MINE_UNAVAILABLE: Final = (
    "This service does not list your listings; the ones made here are in the Activity tab."
)

# -- offline signer: review and sign (UI-B) --------------------------------------------------
OFFLINE_REVIEW_SIGN: Final = "&Review and sign…"
OFFLINE_MANIFEST_LOADED: Final = Counted(
    "{folder}: {count} PSBT for a {flow}, exported with its manifest.",
    "{folder}: {count} PSBTs for a {flow}, exported with their manifest.",
)
# The next step, in the line the signing outcome replaces (it would be stale beside it).
OFFLINE_REVIEW_NEXT: Final = (
    "Next: Review and sign… shows what each PSBT does before anything is signed (it asks for"
    " the key's password first if the key is locked)."
)
OFFLINE_NO_MANIFEST: Final = (
    "{name} has no manifest.json beside it, so Bidwallet cannot tell what it is meant to do"
    ' and will not sign it. Export PSBTs with Bidwallet\'s "Export for offline signing": the'
    " folder then holds the manifest."
)
OFFLINE_SIGN_TITLE: Final = "Review before signing offline"
OFFLINE_SIGN_ACTION: Final = Counted(
    "&Sign {count} PSBT",
    "&Sign {count} PSBTs",
)
OFFLINE_SIGNED: Final = Counted(
    (
        "Signed {count} PSBT; the signed file is in {folder}. Carry the folder back to the "
        "online Bidwallet and press Import signed. Or go back as a QR code: Show signed as"
        " QR… here, read online by Scan QR… on the Listings tab (a listing) or by Scan signed"
        " QR… on the tab that exported it (a withdrawal, a funding, an inscription bid)."
    ),
    (
        "Signed {count} PSBTs; the signed files are in {folder}. Carry the folder back to "
        "the online Bidwallet and press Import signed. Or go back as a QR code: Show signed as"
        " QR… here, read online by Scan QR… on the Listings tab (listings) or by Scan signed"
        " QR… on the tab that exported them (a withdrawal, a funding, an inscription bid)."
    ),
)
OFFLINE_SIGN_FAILED: Final = "Not signed: {reason}"
OFFLINE_FACTS_NOTE: Final = (
    "Offline, what each coin carries is as recorded online at export (ord and the chain);"
    " this computer cannot check it."
)
OPEN_BIDS_POOLS: Final = "Pools: each may use the whole balance on its own"
