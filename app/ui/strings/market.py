"""The market of a pool (issue 16): the Bid tab's market panel and depth chart, the Open bids
tab's Rank column. `ordinal(n)` says "1st", "2nd", "3rd", "11th"; `market_price(p)` says a
unit price (whole sats, or a fraction of a sat per rune unit)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from app.ui.strings.plural import Counted, counted
from app.ui.strings.review import SATS

if TYPE_CHECKING:
    from app.core.market_snapshot import BidRank

__all__ = [
    "MARKET_BOX",
    "MARKET_CHART_ASKS",
    "MARKET_CHART_BIDS",
    "MARKET_CHART_EMPTY",
    "MARKET_CHART_ITEMS",
    "MARKET_CHART_NONE",
    "MARKET_CHART_OURS",
    "MARKET_CONFIRM_ROW",
    "MARKET_FIRST_OF",
    "MARKET_FLOOR",
    "MARKET_FLOOR_MINUS",
    "MARKET_LINE_FIGURES",
    "MARKET_LINE_PAYS_FLOOR",
    "MARKET_LINE_TYPED",
    "MARKET_LINE_UNAVAILABLE",
    "MARKET_LOADING",
    "MARKET_NONE",
    "MARKET_NO_POOL",
    "MARKET_OFFLINE",
    "MARKET_PAYS_FLOOR",
    "MARKET_PRICE_MENU",
    "MARKET_PRICE_MENU_TIP",
    "MARKET_RANK",
    "MARKET_RANK_CELL",
    "MARKET_RANK_CELL_TOP",
    "MARKET_RANK_TOP",
    "MARKET_RUNE_PRICE",
    "MARKET_SHORTCUT",
    "MARKET_SHORTCUT_PAYS_FLOOR",
    "MARKET_SPREAD",
    "MARKET_STALE",
    "MARKET_STALE_WHY",
    "MARKET_TITLE",
    "MARKET_TOP_BID",
    "MARKET_TOP_PLUS_STEP",
    "MARKET_TYPED_RANK",
    "MARKET_UNAVAILABLE",
    "MARKET_UNITS",
    "MARKET_YOUR_BIDS",
    "MARKET_YOUR_NONE",
    "market_price",
    "ordinal",
    "rank_cell",
    "rank_text",
]

MARKET_BOX: Final = "Market: {pool}"
MARKET_NO_POOL: Final = "Choose a collection or a rune to see its market."
MARKET_LOADING: Final = "Reading the market…"
MARKET_OFFLINE: Final = "Offline: the market is not read."
MARKET_UNAVAILABLE: Final = "Market data unavailable: {reason}. You can still place a bid."
MARKET_TITLE: Final = "Market"
MARKET_CONFIRM_ROW: Final = "Market:"  # the bid confirmation's row: the typed price's rank
# The preview's one line: the typed price's rank, else the floor and the top bid.
MARKET_LINE_TYPED: Final = "Market — at {price}: {rank}"
MARKET_LINE_FIGURES: Final = "Market — floor {floor} · top bid {top}"
MARKET_LINE_UNAVAILABLE: Final = "Market data unavailable (see the Market page)."
MARKET_STALE: Final = "not updated since {time}"
MARKET_STALE_WHY: Final = "The last reading failed: {reason}"
MARKET_FIRST_OF: Final = "(the first of {count} pools)"
MARKET_CHART_NONE: Final = "No depth to draw."
MARKET_NONE: Final = "none"
MARKET_FLOOR: Final = "Floor: {price}"
MARKET_TOP_BID: Final = "Top bid: {price}"
MARKET_SPREAD: Final = "Spread: {price}"
# Our bids already in the pool: the best one's rank.
MARKET_YOUR_BIDS: Final = "Your best bid: {rank}"
MARKET_YOUR_NONE: Final = "You have no bid in this pool."
# "3rd of 41; 2,000 sats below the top bid" / "1st of 12, the top bid"
MARKET_RANK: Final = "{ordinal} of {of}; {below} below the top bid"
MARKET_RANK_TOP: Final = "{ordinal} of {of}, the top bid"
# The price being typed, before signing.
MARKET_TYPED_RANK: Final = "At {price}: {rank}"
MARKET_PRICE_MENU: Final = "Price from market"
MARKET_PRICE_MENU_TIP: Final = "Fill the price from the floor or the top bid, on the bid step"
MARKET_FLOOR_MINUS: Final = "Floor − {percent} %"
MARKET_TOP_PLUS_STEP: Final = "Top bid + step"
MARKET_SHORTCUT: Final = "{what}: {price}"
MARKET_SHORTCUT_PAYS_FLOOR: Final = "{what}: {price} (the floor or more)"
# A price at or above the cheapest listing (a collection or rune pool): buying costs no more.
MARKET_PAYS_FLOOR: Final = "Buying at the floor ({floor}) costs no more."
MARKET_LINE_PAYS_FLOOR: Final = "Market — at or above the floor ({floor})"
MARKET_RUNE_PRICE: Final = "{price} sats per unit"
# The depth chart.
MARKET_CHART_BIDS: Final = "Bids"
MARKET_CHART_ASKS: Final = "Listings"
MARKET_CHART_OURS: Final = "Yours"
MARKET_CHART_EMPTY: Final = "No bids and no listings in this pool."
# The chart's count scale: what its top line stands for.
MARKET_CHART_ITEMS: Final = Counted("{count:,} item", "{count:,} items")
MARKET_UNITS: Final = Counted("{count:,} unit", "{count:,} units")  # a rune's
# The Open bids tab.
MARKET_RANK_CELL: Final = "{ordinal} of {of}"
MARKET_RANK_CELL_TOP: Final = "{ordinal} of {of} · top bid"

_SUFFIXES: Final = {1: "st", 2: "nd", 3: "rd"}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th."""
    suffix = "th" if n % 100 in (11, 12, 13) else _SUFFIXES.get(n % 10, "th")
    return f"{n:,}{suffix}"


def market_price(price: float, rune: bool = False) -> str:
    """A unit price in words: "45,000 sats"; a rune unit's "0.25 sats per unit"."""
    if rune:
        text = f"{price:,.0f}" if price >= 100 else f"{price:,.4f}".rstrip("0").rstrip(".")
        return MARKET_RUNE_PRICE.format(price=text)
    return SATS.format(sats=round(price))


def _of(rank: BidRank, rune: bool) -> str:
    """What a rank is out of: bids ("41"), or a rune pool's units ("400,000 units": a rune
    bid's rank counts the units ahead of it)."""
    return counted(MARKET_UNITS, rank.of) if rune else f"{rank.of:,}"


def rank_text(rank: BidRank, rune: bool = False) -> str:
    """ "3rd of 41; 2,000 sats below the top bid", or "1st of 12, the top bid"."""
    if rank.is_top:
        return MARKET_RANK_TOP.format(ordinal=ordinal(rank.rank), of=_of(rank, rune))
    below = market_price(rank.below_top, rune)
    return MARKET_RANK.format(ordinal=ordinal(rank.rank), of=_of(rank, rune), below=below)


def rank_cell(rank: BidRank, rune: bool = False) -> str:
    """A table cell: "3rd of 41", or "1st of 12 · top bid"."""
    cell = MARKET_RANK_CELL_TOP if rank.is_top else MARKET_RANK_CELL
    return cell.format(ordinal=ordinal(rank.rank), of=_of(rank, rune))
