"""The seller's side of the Listings tab (issue 15): which held items are listed, the question
before relisting one, and ending a listing by moving the item back to the ordinals address."""

from typing import Final

from app.ui.strings.plural import Counted

# -- the Listed column of the held items -----------------------------------------------------
LISTINGS_LISTED_AT: Final = "Listed · {price}"
LISTINGS_LISTED_TIP: Final = (
    "Listed at {price} (listing {listing}). It stays listed until it sells, a new listing "
    "replaces it, or the item moves: End listing moves it back to you."
)
LISTINGS_NOT_LISTED: Final = "Not listed"
LISTINGS_NOT_LISTED_TIP: Final = "The service lists no active listing of this item."
LISTINGS_LISTED_UNKNOWN: Final = "Unknown"
LISTINGS_LISTED_UNKNOWN_TIP: Final = (
    "This service does not list your listings, so whether this item is listed cannot be told."
)
LISTINGS_LISTED_UNREAD_TIP: Final = "Your listings could not be read: {reason}"
LISTINGS_MINE_UNREAD: Final = "Your listings could not be read: {reason}"
# ... and from the record of our own live listing signatures, whatever the service says
LISTINGS_SIGNED_AT: Final = "Signed at {price}"
LISTINGS_SIGNED_NO_PRICE: Final = "an unrecorded price"
LISTINGS_SIGNED_NOT_LISTED: Final = "{signed} · service: not listed"
LISTINGS_LISTED_SIGNED_TOO: Final = "{listed} · also signed at {price}"
LISTINGS_SIGNED_TIP: Final = (
    "You signed a listing of this item at {prices}: anyone holding this signature can buy it "
    "at that price until the item moves; End listing moves it."
)
LISTINGS_SIGNED_DISAGREE_TIP: Final = (
    "The service says it is not listed, but that does not end the signature: only moving the "
    "item does."
)
LISTINGS_LISTED_UNSIGNED_TIP: Final = (
    "No live signature of this listing is recorded on this computer: it was signed elsewhere."
)
LISTINGS_LEDGER_UNREAD_TIP: Final = (
    "Your record of listing signatures could not be read ({reason}), so a signature the "
    "service does not list cannot be shown."
)

# -- relisting a listed item -----------------------------------------------------------------
RELIST_TITLE: Final = "List again?"
RELIST_ONE: Final = "{item} is listed at {price}."
RELIST_MANY: Final = Counted(
    "{count} of the selected items is listed already:",
    "{count} of the selected items are listed already:",
)
RELIST_LINE: Final = "{item} — listed at {price}"
RELIST_ONE_SIGNED: Final = "{item} carries your listing signature at {price}."
RELIST_LINE_SIGNED: Final = "{item} — signed at {price}"
RELIST_EXPLAIN: Final = (
    "A new listing replaces the current one: the service ends it as “Replaced” and lists the "
    "item at the new price. But the signature you gave for the current listing stays valid "
    "until the item moves, so it could still be completed at the old price. To be sure only "
    "the new price counts, cancel, use End listing (it moves the item back to you), then "
    "list it again."
)
RELIST_EXPLAIN_SIGNED: Final = (
    "The service does not list it, but the signature you gave stays valid until the item moves, "
    "so it could still be completed at that price. To be sure only the new price counts, "
    "cancel, tick it alone and use End listing (it moves the item back to you), then list it "
    "again."
)
RELIST_YES: Final = Counted("&List it again", "&List them again")
RELIST_NO: Final = "Cancel"
RELIST_CANCELLED: Final = "Nothing was signed: the current listings stay as they are."

# -- ending a listing ------------------------------------------------------------------------
END_LISTING: Final = "En&d listing…"
END_LISTING_TIP: Final = (
    "Moves the item back to your ordinals address in a transaction of yours (reviewed first). "
    "A listing's signature is valid until its item moves: this ends it for good once the "
    "move confirms."
)
END_LISTING_FEE: Final = "Fee to end a listing:"
END_LISTING_PICK: Final = (
    "Select an active listing of an item you hold, or tick one item marked “Signed at …”, to "
    "end it."
)
END_LISTING_NOT_HELD: Final = (
    "This listing's item is not among the items your ordinals address holds: refresh the list."
)
END_LISTING_WATCH_ONLY: Final = (
    "A watch-only profile cannot end a listing here: move the item in the wallet that holds "
    "its keys."
)
END_LISTING_TITLE: Final = "End a listing"
END_LISTING_ACTION: Final = "&Sign and send"
END_LISTING_NOTE: Final = (
    "{item} moves back to your ordinals address {address} (a new output there), which ends its "
    "listing at {price}. The network fee comes from your payment address."
)
END_LISTING_DONE: Final = (
    "Sent {txid}: the item moves back to your ordinals address, and its listing ends with it "
    "(for good once the transaction confirms)."
)
END_LISTING_NOT_DONE: Final = "The listing was not ended: {reason}"
