"""The Wallet, Bid and Open bids tabs."""

from __future__ import annotations

from typing import Final

from app.ui.strings.plural import Counted

# -- Wallet tab (UI-A) ---------------------------------------------------------------------
TAB_WALLET: Final = "Wallet"
WALLET_ADDRESSES: Final = "Addresses"
WALLET_PAYMENT: Final = "Payment:"
WALLET_ORDINALS: Final = "Ordinals:"
WALLET_BIDDING: Final = "Bidding wallet:"
WALLET_PAYMENT_WHAT: Final = "Payment address"
WALLET_ORDINALS_WHAT: Final = "Ordinals address"
WALLET_BIDDING_WHAT: Final = "Bidding wallet address"
WALLET_ADDRESS_UNKNOWN: Final = "—"
WALLET_BALANCE: Final = "Balances"
WALLET_CONFIRMED: Final = "Confirmed:"
WALLET_UNCONFIRMED: Final = "Unconfirmed:"
WALLET_TOTAL: Final = "Bidding wallet (counts for bids):"
WALLET_PAYMENT_SPENDABLE: Final = "Payment address, spendable:"
WALLET_PAYMENT_SPENDABLE_TIP: Final = (
    "What funding the bidding wallet may spend: the payment address's coins that ord has"
    " indexed and that carry no inscription or runes."
)
WALLET_PAYMENT_OF_TOTAL: Final = "of {total} in total"
WALLET_PAYMENT_ALL_SPENDABLE: Final = "all of its {total} can fund the bidding wallet"
WALLET_PAYMENT_CARRYING: Final = "{sats} carry inscriptions or runes (never spent to fund)"
WALLET_PAYMENT_WAITING: Final = "{sats} wait for the indexer"
WALLET_PAYMENT_LOADING: Final = "Reading the payment address's coins…"
WALLET_PAYMENT_UNKNOWN: Final = "Not known now: {reason}"
WALLET_POOLS: Final = "Bid pools"
WALLET_POOLS_HINT: Final = (
    "What each pool commits (its open bids plus their maker fees) against the balance."
)
WALLET_POOLS_EMPTY: Final = "No open bids: every pool can use the whole balance."
MAKER_FEE_ASSUMED: Final = "Assuming a maker fee of {fee} per bid ({source})."
MAKER_FEE_ASSUMED_NONE: Final = "Assuming no maker fee ({source})."
MAKER_FEE_SHARE: Final = "{percent}% of its price"
MAKER_FEE_FLAT_AND_SHARE: Final = "{flat} + {share}"
MAKER_FEE_SOURCES: Final = {
    "profile": "profile setting",
    "service": "from the service",
    "default": "default: the service publishes none; change it in Settings",
}
WALLET_FUND: Final = "Fund the bidding wallet"
WALLET_FUND_AMOUNT: Final = "&Amount:"
WALLET_FUND_FEE: Final = "F&ee rate:"
WALLET_FUND_BUTTON: Final = "Review and f&und…"
WALLET_FUND_QR: Final = "Pay from another &wallet (QR)"
WALLET_FUND_QR_HINT: Final = "Scan with any Bitcoin wallet, or copy the payment link:"
WALLET_FUND_COPY_LINK: Final = "Copy &link"
WALLET_FUND_LINK_WHAT: Final = "Payment link"
WALLET_FUND_TITLE: Final = "Fund the bidding wallet"
WALLET_FUND_ACTION: Final = "&Sign and broadcast"
WALLET_FUND_PREPARING: Final = "Choosing coins and building the transaction…"
WALLET_FUND_SIGNING: Final = "Signing and broadcasting…"
WALLET_FUND_CANCELLED: Final = "Not funded: nothing was signed."
WALLET_FUND_DONE: Final = (
    "Sent {amount} to the bidding wallet (fee {fee}). Transaction {txid}; it counts at once,"
    " unconfirmed until the next block."
)
WALLET_FUND_NEED_AMOUNT: Final = "Enter the amount to send to the bidding wallet."
WALLET_COPY_TXID: Final = "Copy &txid"
WALLET_TXID_WHAT: Final = "Txid"
WALLET_FUND_NOTE_SKIPPED: Final = Counted(
    "{count} coin carries inscriptions or runes and was left untouched.",
    "{count} coins carry inscriptions or runes and were left untouched.",
)
WALLET_FUND_NOTE_WAITING: Final = Counted(
    "{count} coin ({sats}) is waiting for the indexer and was not used: ord has not indexed it"
    " yet, usually until its transaction confirms.",
    "{count} coins ({sats}) are waiting for the indexer and were not used: ord has not indexed"
    " them yet, usually until their transactions confirm.",
)
WALLET_FUND_NOTE_CHOSEN: Final = Counted(
    "Spends the coin you chose ({sats}).",
    "Spends the {count} coins you chose ({sats}).",
)
# Coin control: the Fund panel's "Choose coins…" and its dialog.
WALLET_FUND_CHOOSE: Final = "Choose &coins…"
WALLET_FUND_ANY_COINS: Final = "Let the &wallet choose"
WALLET_FUND_LOADING_COINS: Final = "Reading the payment address's coins and what they carry…"
WALLET_FUND_CHOSEN: Final = Counted(
    "Funding spends the coin you chose: {sats}.",
    "Funding spends the {count} coins you chose: {sats}.",
)
COINS_TITLE: Final = "Choose the coins to fund with"
COINS_HINT: Final = (
    "Every coin you tick is spent; the change comes back to the payment address. Coins that"
    " carry an inscription or runes, and coins ord has not indexed yet, are shown but cannot be"
    " chosen."
)
COINS_COL_AMOUNT: Final = "Amount"
COINS_COL_CONFIRMATIONS: Final = "Confirmations"
COINS_COL_CARRIES: Final = "Carries"
COINS_COL_COIN: Final = "Coin"
COINS_UNCONFIRMED: Final = "unconfirmed"
COINS_NOTHING: Final = "Nothing"
COINS_WAITING: Final = "Unknown: waiting for the indexer"
COINS_INSCRIPTIONS: Final = Counted("{count} inscription ({ids})", "{count} inscriptions ({ids})")
COINS_RUNES: Final = "runes ({runes})"
COINS_WHY_CARRIES: Final = "Carries an inscription or runes: funding never spends it."
COINS_KEPT_CARRIES: Final = "Cannot be chosen: funding never spends it."
COINS_KEPT_WAITING: Final = "Cannot be chosen until ord indexes it."
COINS_WHY_WAITING: Final = (
    "ord has not indexed this coin yet (usually until its transaction confirms), so what it"
    " carries is unknown: it cannot be spent to fund."
)
COINS_NONE: Final = "The payment address has no coins."
COINS_SUMMARY: Final = Counted("{count} coin chosen: {sats}.", "{count} coins chosen: {sats}.")
COINS_SUMMARY_NONE: Final = "Tick the coins to spend."
COINS_USE: Final = "&Use these coins"
COINS_CANCEL: Final = "Cancel"
FEE_FAST: Final = "Fast (~1 block): {rate} sat/vB"
FEE_NORMAL: Final = "Normal (~3 blocks): {rate} sat/vB"
FEE_SLOW: Final = "Slow (~6 blocks): {rate} sat/vB"
FEE_CUSTOM: Final = "Custom"
FEE_NO_ESTIMATES: Final = "No fee estimates: enter a rate yourself."
FEE_ALL_SAME: Final = (
    "Every target has the same estimate now: the next block has room for all that waits."
)
POOL_CHART_LINE: Final = "{committed} of {balance} · open bids: {bids}"
POOL_CHART_OVER: Final = "over by {over}"
POOL_CHART_VALUE: Final = Counted("{sats} · {count} bid", "{sats} · {count} bids")
POOL_CHART_BALANCE: Final = "Your balance: {balance}"
POOL_CHART_AXIS_BTC: Final = "{btc} BTC"

# -- Bid tab (UI-A) ------------------------------------------------------------------------
TAB_BID: Final = "Bid"
BID_KIND: Final = "Bid on:"
BID_KIND_ORDINALS: Final = "&Ordinals"
BID_KIND_RUNES: Final = "R&unes"
BID_SCOPE: Final = "&Target:"
BID_SCOPES: Final = {
    "collection": "A collection",
    "sub1k": "Any inscription numbered under 1,000 (sub1k)",
    "sub10k": "Any inscription numbered under 10,000 (sub10k)",
    "sub100k": "Any inscription numbered under 100,000 (sub100k)",
}
BID_SCOPE_RUNE: Final = "A rune (named below)"
BID_COLLECTION: Final = "&Collection:"
BID_RUNE: Final = "&Rune:"
BID_COLLECTION_PLACEHOLDER: Final = "collection slug, e.g. pixel-pals"
BID_RUNE_PLACEHOLDER: Final = "rune name, e.g. BIDWALLET•DEMO"
BID_RUNE_LOOKING: Final = "Looking up the rune {name} in ord…"
BID_RUNE_ETCHED: Final = "Etched as {name}: the bid is signed and placed under this spelling."
BID_RUNE_UNKNOWN: Final = "ord knows no rune named {name}: check the name."
BID_RUNE_MALFORMED: Final = "“{name}” is not a rune name: {reason}."
BID_PREVIEW_NOTHING_TO_SIGN: Final = "Nothing to sign: {reason}"
BID_PREVIEW_NO_COLLECTION: Final = "the service knows no collection “{slug}”."
BID_PREVIEW_RUNE_PENDING: Final = (
    "The message is shown once ord has confirmed the rune's etched spelling (leave the rune"
    " field or press Enter)."
)
# The headline while the rune's spelling is unconfirmed (Place waits): no claim of what it places.
BID_PREVIEW_RUNE_SPELLING_PENDING: Final = "Waiting for ord to confirm the rune's spelling."
BID_PRICE: Final = "&Price per item:"
BID_RUNE_PRICE: Final = "&Total price:"
BID_PRICE_HINT: Final = "In steps of 1,000 sats (↑/↓ change it by one step)."
BID_RUNE_PRICE_HINT: Final = "For all the units together; at least 10,000 sats."
BID_QUANTITY: Final = "&Quantity:"
BID_UNITS: Final = "&Units:"
BID_EXPIRY: Final = "&Expires:"
BID_EXPIRY_PRESETS: Final = (
    ("15 minutes", 15),
    ("1 hour", 60),
    ("6 hours", 360),
    ("1 day", 1440),
    ("7 days", 10080),
    ("30 days", 43200),
)
BID_EXPIRY_CUSTOM: Final = "At a date and time"
BID_TRAITS: Final = "Traits (optional)"
BID_TRAITS_SEARCH: Final = "Search traits…"
BID_TRAIT_WITH_COUNT: Final = "{trait} ({count:,})"  # how many items carry the trait
BID_TRAITS_TYPE: Final = "Type a trait as “type: value” and press Enter to add it."
BID_TRAITS_WAIT: Final = "Traits appear once a collection is chosen."
BID_TRAITS_NOT_RUNES: Final = "A rune bid takes no traits."
BID_TRAITS_NOT_RANGES: Final = "A range bid takes no traits: any inscription in it fills."
BID_TRAITS_TYPED_PLACEHOLDER: Final = "type: value, then Enter"
BID_TRAITS_TYPED_BAD: Final = "Write a trait as “type: value”, e.g. “Background: Blue”."
# The catalog (services/catalog.py): what the slug's hint line says.
BID_CATALOG_SEARCH_NONE: Final = (
    "This service lists no collections: type the slug of the collection's marketplace page."
)
BID_CATALOG_LOOKING: Final = "Looking up {slug}…"
BID_CATALOG_FOUND: Final = "{name}: {items}."
BID_CATALOG_ITEMS: Final = Counted("{count} item", "{count} items")
BID_CATALOG_FOUND_NO_SIZE: Final = "{name}."
BID_CATALOG_UNKNOWN: Final = "The service knows no collection “{slug}”: check the slug."
BID_CATALOG_NOT_OFFERED: Final = (
    "This service has no catalog to look collections up in: check the slug yourself, and type"
    " traits as “type: value”."
)
BID_CATALOG_FAILED: Final = "The collection could not be looked up ({reason}): traits can be typed."
BID_TRAITS_COUNT: Final = "{count} of at most {limit} selected: one bid per trait and item."
BID_TRAITS_LIMIT: Final = "At most {limit} traits per request: unselect one first."
BID_TRAITS_CLEAR: Final = "C&lear"
BID_FEE_RATE: Final = "Fee &rate when the bid fills:"
BID_FEE_RATE_HINT: Final = "Sent with the bid, not signed: the service may use another rate."
BID_FEE_FASTEST: Final = "Fastest — {rate} sat/vB now"
BID_FEE_HALF_HOUR: Final = "Within half an hour — {rate} sat/vB now"
BID_FEE_HOUR: Final = "Within an hour — {rate} sat/vB now"
BID_FEE_MINIMUM: Final = "Minimum — {rate} sat/vB now"
BID_FEE_FASTEST_UNKNOWN: Final = "Fastest"
BID_FEE_HALF_HOUR_UNKNOWN: Final = "Within half an hour"
BID_FEE_HOUR_UNKNOWN: Final = "Within an hour"
BID_FEE_MINIMUM_UNKNOWN: Final = "Minimum"
BID_FEE_NAME_TIP: Final = (
    "Sent as the service's rate “{name}”: it reads the rate when the bid fills."
)
BID_FEE_DEFAULT_TIP: Final = " The service's default."
BID_PREVIEW_FEE_NAMED: Final = (
    "Asks to be filled at the service's “{name}” rate ({rate} sat/vB now)."
)
BID_PREVIEW_FEE_NAMED_UNKNOWN: Final = "Asks to be filled at the service's “{name}” rate."
BID_PREVIEW_FEE_CUSTOM: Final = "Asks to be filled at {rate} sat/vB."
BID_PREVIEW: Final = "Preview"
BID_PREVIEW_COUNT: Final = Counted(
    "This request places {count:,} bid for {total} in all.",
    "This request places {count:,} bids for {total} in all.",
)
BID_PREVIEW_POOLS_HEADERS: Final = ("Pool", "Committed", "Adding", "Balance", "Fits")
BID_PREVIEW_FITS: Final = "yes"
BID_PREVIEW_SHORT: Final = "no: {short} short"
BID_PREVIEW_POOLS_BALANCE: Final = "Each pool is checked against your balance of {balance}."
BID_PREVIEW_MESSAGE: Final = (
    "Message to be signed (its timestamp, and a preset expiry, are set when you place it):"
)
BID_PREVIEW_NO_KEYS: Final = "Unlock the wallet to see the exact message."
BID_PREVIEW_READING_KEYS: Final = "Reading the wallet's addresses for the message…"
BID_PREVIEW_INCOMPLETE: Final = (
    "The exact message shows here once every field is filled in and follows the rules."
)
BID_PREVIEW_NO_BALANCE: Final = "The balance is not known yet: refresh the Wallet tab."
BID_PREVIEW_BALANCE_LOADING: Final = "Reading the bidding wallet's balance and open bids…"
BID_PREVIEW_BALANCE_FAILED: Final = "No pools checked: the balance could not be read ({reason})."
BID_PLACE: Final = "Place &bid"  # Alt+P is the price
BID_PLACING: Final = "Signing, checking the signature and sending…"
BID_WAITING: Final = "Waiting {seconds:.1f} s: the service allows one bid per 500 ms per trait…"
BID_PLACED: Final = Counted(
    "Placed: {count:,} bid in {pools}. {attempts}",
    "Placed: {count:,} bids in {pools}. {attempts}",
)
BID_ATTEMPTS_ONE: Final = "Accepted at the first attempt."
BID_ATTEMPTS_MANY: Final = "Accepted at attempt {n} ({why})."
BID_NOT_PLACED: Final = "Not placed: {reason}"
# The question before a bid message is signed (bid_confirm.py).
BID_CONFIRM_TITLE: Final = "Sign this bid?"
BID_CONFIRM_INTRO: Final = Counted(
    "Your payment key signs this message and the bid is sent: {count:,} bid for {total} in"
    " all, paid from the bidding wallet only if it fills.",
    "Your payment key signs this message and the bids are sent: {count:,} bids for {total} in"
    " all, paid from the bidding wallet only as they fill.",
)
BID_CONFIRM_POOLS: Final = "Pool:"
BID_CONFIRM_POOL_LINE: Final = Counted("{pool}: {count:,} bid", "{pool}: {count:,} bids")
BID_CONFIRM_PRICE: Final = "Price:"
BID_CONFIRM_PRICE_ITEM: Final = "{price} per item"
BID_CONFIRM_PRICE_RUNE: Final = "{price} for all the units together"
BID_CONFIRM_QUANTITY: Final = "Quantity:"
BID_CONFIRM_ITEMS: Final = Counted("{count:,} item", "up to {count:,} items")
BID_CONFIRM_UNITS: Final = Counted("{count:,} unit", "{count:,} units")
BID_CONFIRM_EXPIRY: Final = "Expires:"
BID_CONFIRM_FEE_RATE: Final = "Fee rate:"
BID_CONFIRM_MESSAGE: Final = (
    "Message to be signed (its timestamp is set again at the moment it is signed):"
)
BID_CONFIRM_DONT_ASK: Final = "&Don't ask again (Settings turns this question back on)"
BID_CONFIRM_SIGN: Final = "&Sign and place"
BID_CONFIRM_CANCEL: Final = "Cancel"
BID_CONFIRM_CANCELLED: Final = "Not placed: nothing was signed."
BID_CONFIRM_NOT_SAVED: Final = "“Don't ask again” could not be saved: {reason}"
INSCRIPTION_BID_PRICE_MIN: Final = "Offer at least {min} for one inscription."
SETTINGS_BIDS: Final = "Bids"
SETTINGS_CONFIRM_BIDS: Final = "Ask before si&gning a bid, showing what will be signed"
BID_ELSEWHERE_CLOSED: Final = "Not placed: nothing was sent."
BID_NEED_SLUG: Final = "Enter the collection to bid on."
BID_NEED_RUNE: Final = "Enter the rune to bid on."
BID_NEED_PRICE: Final = "Enter a price."
BID_EXPIRY_PAST: Final = "Choose a time at least 15 minutes from now."
# The rules of app.core.bid_validation, said at the field (bid_messages.py).
BID_RULE_PRICE_MIN: Final = "Offer at least {min} per item."
BID_RULE_RUNE_PRICE_MIN: Final = "Offer at least {min} for all the units together."
BID_RULE_PRICE_STEP: Final = "Steps of {step}{options}."
BID_RULE_PRICE_OPTIONS: Final = ": use {low} or {high}"
BID_RULE_QUANTITY_MIN: Final = "Bid on at least 1 item."
BID_RULE_UNITS_MIN: Final = "Bid on at least 1 unit."
BID_RULE_TOO_MANY_BIDS: Final = "That makes {count:,} bids; one request places {limit:,} at most."
BID_RULE_NO_TRAITS: Final = "Traits apply to a collection only: untick them."
BID_RULE_TRAIT_TEXT: Final = "A trait needs a type and a value, like “Background: Blue”."
BID_RULE_TRAIT_TWICE: Final = "The same trait is ticked twice: untick one."
BID_RULE_WHAT_SLUG: Final = "A collection slug"
BID_RULE_WHAT_RUNE: Final = "A rune name"
BID_RULE_NAME_COLON: Final = "{what} never contains “:”: check it."
BID_RULE_NAME_CONTROL: Final = "{what} never contains control characters: check it."

# -- Open bids tab (UI-A) ------------------------------------------------------------------
TAB_OPEN_BIDS: Final = "Open bids"
OPEN_BIDS_HEADERS: Final = (
    "Collection / rune",
    "Trait",
    "Kind",
    "Price",
    "Qty",
    "Rank",  # in the pool's market (issue 16): "3rd of 41 bids"
    "Expires",
    "Bid id",
    "Strategy",  # the bid strategy that placed it and keeps it (issue 17); empty: yours
)
OPEN_BIDS_KINDS: Final = {
    "collection": "Collection",
    "trait": "Trait",
    "rune": "Rune",
    "range": "Range",
    "inscription": "Inscription",
}
OPEN_BIDS_FILTER: Final = "Filter by collection, trait, price or id…"
OPEN_BIDS_COUNTS: Final = Counted(
    "{count:,} open bid in {pools}",
    "{count:,} open bids in {pools}",
)
OPEN_BIDS_POOL_COUNT: Final = Counted("{count:,} pool", "{count:,} pools")
OPEN_BIDS_SHOWN: Final = " ({shown:,} shown)"  # only while the filter hides some
OPEN_BIDS_EMPTY: Final = "No open bids. Place one in the Bid tab."
OPEN_BIDS_CANCEL: Final = "&Cancel selected…"
OPEN_BIDS_POOLS_HEADERS: Final = ("Pool", "Bids", "Committed", "Balance", "Free")
OPEN_BIDS_OVER: Final = "over by {over}"
OPEN_BIDS_CONFIRM_TITLE: Final = "Cancel bids"
OPEN_BIDS_CONFIRM_TEXT: Final = Counted(
    (
        "Cancel {count} open bid? The service asks your ordinals key to sign a challenge; "
        "the funds stay in the bidding wallet."
    ),
    (
        "Cancel {count} open bids? The service asks your ordinals key to sign a challenge; "
        "the funds stay in the bidding wallet."
    ),
)
OPEN_BIDS_CONFIRM_YES: Final = Counted(
    "Cancel &{count} bid",
    "Cancel &{count} bids",
)
OPEN_BIDS_CONFIRM_NO: Final = Counted("&Keep it", "&Keep them")
OPEN_BIDS_CONFIRM_STRATEGY: Final = Counted(
    (
        "{count} of these bids is kept by a bid strategy ({strategies}): the strategy places "
        "it again at its next check unless you stop the strategy in the Strategies tab."
    ),
    (
        "{count} of these bids are kept by a bid strategy ({strategies}): the strategy places "
        "them again at its next check unless you stop the strategy in the Strategies tab."
    ),
)
OPEN_BIDS_STRATEGY_TIP: Final = (
    "Placed by the strategy {strategy}, which keeps it: cancelled by hand, it is placed again "
    "unless the strategy is stopped."
)
OPEN_BIDS_CANCELLING: Final = Counted(
    "Cancelling {count} bid…",
    "Cancelling {count} bids…",
)
OPEN_BIDS_CANCELLED: Final = Counted(
    "{done} of {count} bid cancelled.",
    "{done} of {count} bids cancelled.",
)
OPEN_BIDS_RESULT_OK: Final = "✓ Cancelled: {bid}"
OPEN_BIDS_RESULT_FAILED: Final = "✗ Not cancelled: {bid}: {reason}"
OPEN_BIDS_DESCRIBED: Final = "{what} · {price} sats · bid {bid}"  # confirm list and results
OPEN_BIDS_NO_PRICE: Final = Counted(
    "{count} bid was listed without a price and is not counted.",
    "{count} bids were listed without a price and are not counted.",
)
