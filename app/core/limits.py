"""Every limit of the spec's section 8 (plus the price floors of 2.3 and 4.4), in one place.

Times are in milliseconds because the wire format carries milliseconds since the Unix epoch.
The comparison each limit takes (inclusive or exclusive) is written beside it, in the spec's
own words, and `app.core.bid_validation` applies it exactly so.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

MINUTE_MS: Final = 60_000

# "A request places at most 1,000 bids" (quantity times number of traits for trait bids).
MAX_BIDS_PER_REQUEST: Final = 1_000
# "At most 50 entries" in `attributes`.
MAX_TRAITS_PER_REQUEST: Final = 50
# "1 bid per 500 ms per bidderTokenReceiveAddress, across all collections; a bid on several
# traits counts once per trait."
BID_RATE_INTERVAL_MS: Final = 500
# "At least 15 minutes after the time of the request": exactly 15 minutes is accepted.
MIN_BID_EXPIRY_MS: Final = 15 * MINUTE_MS
# "Less than 2 minutes old": a timestamp exactly 2 minutes old is rejected.
TIMESTAMP_MAX_AGE_MS: Final = 2 * MINUTE_MS
# "No more than 30 seconds ahead of the service clock": exactly 30 s ahead is accepted.
TIMESTAMP_MAX_AHEAD_MS: Final = 30_000
# Ordinals prices are "a multiple of 1,000" sats; the smallest positive multiple is the floor.
ORDINALS_PRICE_STEP_SATS: Final = 1_000
MIN_ORDINALS_PRICE_SATS: Final = 1_000
# Rune bids: the total for `quantity` units, "at least 10,000".
MIN_RUNE_PRICE_SATS: Final = 10_000
# Single-inscription bids (`POST /intent/bid`, `POST /bid/place` with a PSBT): "at least 10,000".
MIN_SINGLE_INSCRIPTION_PRICE_SATS: Final = 10_000
# "At least 1" (for runes, whole units).
MIN_QUANTITY: Final = 1
# `listings` of `POST /intent/secure-bulk-sell`: "more than 100 returns 400".
MAX_LISTINGS_PER_BULK_REQUEST: Final = 100

# Ours, not the spec's: integers on the wire must survive a JavaScript client unchanged
# (Number.MAX_SAFE_INTEGER), because the signed message spells them in decimal.
MAX_SAFE_INTEGER: Final = 2**53 - 1
# Ours: no price can be more than every bitcoin there will ever be (21 million BTC). A price
# past it (a market page's, a shortcut's) is not a price.
MAX_MONEY_SATS: Final = 21_000_000 * 100_000_000


def price_step_at_or_below(price: float | Fraction) -> int:
    """The largest ordinals price on the step grid at or below `price` (0 when below one step)."""
    return int(price // ORDINALS_PRICE_STEP_SATS) * ORDINALS_PRICE_STEP_SATS


def price_step_above(price: float | Fraction) -> int:
    """The smallest ordinals price on the step grid strictly above `price`."""
    return price_step_at_or_below(price) + ORDINALS_PRICE_STEP_SATS
