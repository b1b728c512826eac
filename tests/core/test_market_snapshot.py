"""A pool's market snapshot: which bids join the pool, floor, top bid, levels, rank and ties."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core import limits
from app.core.bid_request import Trait
from app.core.market_snapshot import (
    BidKindName,
    BidRank,
    InvalidMarketInput,
    MarketBid,
    MarketListing,
    MarketSnapshot,
    PriceLevel,
    build_snapshot,
    floor_minus_percent,
    is_rune_pool,
    pays_the_floor,
    rank_for_price,
    rank_of,
    top_bid_plus_step,
)
from app.core.pools import PoolKey

PUPPETS = PoolKey("bitcoin-puppets")
BLUE = Trait("Background", "Blue")
BLUE_POOL = PoolKey("bitcoin-puppets", BLUE)
DOG = PoolKey("DOG•GO•TO•THE•MOON")
ME = "bc1qme"
ME_ORD = "bc1pme"
OWN = frozenset({ME, ME_ORD})


def bid(
    bid_id: str,
    price: float,
    units: int = 1,
    bidder: str = "bc1qrival",
    kind: BidKindName = "collection",
    trait: Trait | None = None,
    slug: str | None = None,
) -> MarketBid:
    return MarketBid(bid_id, price, units, bidder, kind, trait, None, slug)


def listing(listing_id: str, price: float, seller: str = "bc1pseller") -> MarketListing:
    return MarketListing(listing_id, f"{listing_id}i0", price, seller)


def snap(
    pool: PoolKey,
    bids: Iterable[MarketBid],
    listings: Iterable[MarketListing] = (),
    own_bid_ids: frozenset[str] = frozenset(),
    skipped_rows: int = 0,
    rune: bool | None = None,
) -> MarketSnapshot:
    return build_snapshot(
        pool,
        bids,
        listings,
        own_addresses=OWN,
        own_bid_ids=own_bid_ids,
        fetched_at_ms=7,
        skipped_rows=skipped_rows,
        rune=rune,
    )


def test_floor_top_levels_and_spread_exclude_ours_but_count_them_in_depth() -> None:
    bids = [
        bid("a", 9_000, 2),
        bid("b", 8_000),
        bid("mine1", 10_000, bidder=ME),
        bid("c", 8_000, 3),
        bid("mine2", 8_000, units=2, bidder="bc1pbidding"),
    ]
    listings = [listing("l1", 20_000), listing("l2", 15_000, seller=ME_ORD), listing("l3", 18_000)]
    s = snap(PUPPETS, bids, listings, own_bid_ids=frozenset({"mine2"}), skipped_rows=3)
    assert s.floor == 18_000
    assert s.top_bid == 9_000
    assert s.spread == 9_000
    assert s.bid_levels == (
        PriceLevel(10_000, 1, 1),
        PriceLevel(9_000, 2, 0),
        PriceLevel(8_000, 6, 2),
    )
    assert s.ask_levels == (
        PriceLevel(15_000, 1, 1),
        PriceLevel(18_000, 1, 0),
        PriceLevel(20_000, 1, 0),
    )
    assert (s.bid_units, s.listing_count, s.fetched_at_ms, s.skipped_rows) == (9, 3, 7, 3)
    assert s.my_ranks == (
        BidRank("mine1", 10_000, rank=1, of=9, below_top=0.0, is_top=True),
        BidRank("mine2", 8_000, rank=3, of=9, below_top=1_000.0, is_top=False),
    )


def test_rank_of_one_of_our_bids() -> None:
    s = snap(PUPPETS, [bid("x", 9_000), bid("m", 8_000, bidder=ME)])
    assert rank_of(s, "m") == BidRank("m", 8_000, 2, 2, 1_000.0, False)
    assert rank_of(s, "x") is None and rank_of(s, "gone") is None


def test_ties_share_a_rank_and_a_tie_at_the_top_is_the_top() -> None:
    bids = [bid("a", 5_000, 4), bid("b", 5_000), bid("mine", 5_000, bidder=ME), bid("c", 4_000)]
    s = snap(PUPPETS, bids)
    assert s.my_ranks == (BidRank("mine", 5_000, 1, 7, 0.0, True),)
    assert rank_for_price(s, 5_000) == BidRank("", 5_000, 1, 8, 0.0, True)
    assert rank_for_price(s, 4_000, units=3) == BidRank("", 4_000, 6, 10, 1_000.0, False)
    assert rank_for_price(s, 3_000) == BidRank("", 3_000, 7, 8, 2_000.0, False)
    assert rank_for_price(s, 6_000) == BidRank("", 6_000, 1, 8, 0.0, True)


def test_our_bids_alone_at_the_top_do_not_outrank_each_other() -> None:
    bids = [bid("m1", 12_000, bidder=ME), bid("m2", 11_000, bidder=ME_ORD), bid("x", 10_000, 5)]
    s = snap(PUPPETS, bids)
    assert s.top_bid == 10_000
    assert [(r.bid_id, r.rank, r.of, r.is_top, r.below_top) for r in s.my_ranks] == [
        ("m1", 1, 7, True, 0.0),
        ("m2", 1, 7, True, 0.0),
    ]
    assert top_bid_plus_step(s) == 11_000


def test_empty_sides() -> None:
    s = snap(PUPPETS, [])
    assert (s.floor, s.top_bid, s.spread, s.bid_levels, s.ask_levels) == (None, None, None, (), ())
    assert (s.bid_units, s.listing_count, s.my_ranks) == (0, 0, ())
    assert rank_for_price(s, 1_000) == BidRank("", 1_000, 1, 1, 0.0, True)
    assert floor_minus_percent(s, 10) is None
    assert top_bid_plus_step(s) is None


def test_only_our_own_orders_leave_no_floor_and_no_top_bid() -> None:
    s = snap(PUPPETS, [bid("m", 3_000, bidder=ME)], [listing("l", 9_000, seller=ME)])
    assert (s.floor, s.top_bid, s.spread) == (None, None, None)
    assert s.my_ranks == (BidRank("m", 3_000, 1, 1, 0.0, True),)
    assert s.ask_levels == (PriceLevel(9_000, 1, 1),)


def test_a_collection_pool_takes_collection_wide_bids_of_its_slug_only() -> None:
    bids = [
        bid("c", 5_000),
        bid("t", 9_000, kind="trait", trait=BLUE),
        bid("r", 9_000, kind="rune", slug="bitcoin-puppets"),
        bid("other", 9_000, slug="nodemonkes"),
        bid("named", 4_000, slug="bitcoin-puppets"),
    ]
    s = snap(PUPPETS, bids)
    assert s.bid_levels == (PriceLevel(5_000, 1, 0), PriceLevel(4_000, 1, 0))


def test_a_trait_pool_takes_that_traits_bids_only() -> None:
    bids = [
        bid("c", 9_000),
        bid("blue", 6_000, 2, kind="trait", trait=BLUE),
        bid("red", 7_000, kind="trait", trait=Trait("Background", "Red")),
        bid("mine", 5_000, kind="trait", trait=BLUE, bidder=ME),
    ]
    s = snap(BLUE_POOL, bids, [listing("l", 30_000)])
    assert s.bid_levels == (PriceLevel(6_000, 2, 0), PriceLevel(5_000, 1, 1))
    assert s.my_ranks == (BidRank("mine", 5_000, 3, 3, 1_000.0, False),)
    assert s.floor == 30_000
    assert not s.is_rune


def test_rune_pool_compares_names_whatever_the_spacers() -> None:
    bids = [
        bid("a", 0.5, 20_000, kind="rune", slug="DOGGOTOTHEMOON"),
        bid("b", 0.75, 10_000, kind="rune", slug="DOG.GO.TO.THE.MOON"),
        bid("c", 0.6, 5_000, kind="rune", slug="dog•go•to•the•moon"),
        bid("d", 0.9, 1_000, kind="rune", slug="OTHER•RUNE"),
        bid("e", 0.4, 1_000, kind="rune"),
        bid("f", 9.0, 1, kind="collection", slug="DOG•GO•TO•THE•MOON"),
    ]
    s = snap(DOG, bids)
    assert s.is_rune
    assert [(lv.unit_price, lv.units) for lv in s.bid_levels] == [
        (0.75, 10_000),
        (0.6, 5_000),
        (0.5, 20_000),
        (0.4, 1_000),
    ]
    assert s.top_bid == 0.75
    assert rank_for_price(s, 0.55, units=500).rank == 15_001
    assert top_bid_plus_step(s) is None  # no per-unit step: the form's rune price is a total
    assert floor_minus_percent(snap(DOG, bids, [listing("l", 1.0)]), 10) is None


@pytest.mark.parametrize(
    ("slug", "rune"),
    [
        ("DOG•GO•TO•THE•MOON", True),
        ("UNCOMMONGOODS", True),
        ("bitcoin-puppets", False),
        ("sub10k", False),
        ("NODE-MONKES", False),
        ("", False),
    ],
)
def test_is_rune_pool(slug: str, rune: bool) -> None:
    assert is_rune_pool(PoolKey(slug)) is rune
    assert not is_rune_pool(PoolKey(slug, BLUE))


def test_the_rune_flag_can_be_given() -> None:
    s = snap(PoolKey("RUNE"), [bid("c", 5_000)], rune=False)
    assert s.top_bid == 5_000 and not s.is_rune


@pytest.mark.parametrize(
    ("floor", "percent", "expected"),
    [
        (20_000, 10, 18_000),
        (20_000, 0, 20_000),
        (19_999, 0, 19_000),
        (20_000, 12.5, 17_000),
        (10_000, 10.1, 8_000),  # 8,990 exactly: down to the step
        (100_000, 0.1, 99_000),
        (30_000, 70, 9_000),  # float maths would give 8,999.99...
        (1_500, 30, 1_000),
        (1_200, 50, None),  # below the lowest ordinals price
    ],
)
def test_floor_minus_percent_rounds_down_to_the_step(
    floor: int, percent: float, expected: int | None
) -> None:
    s = snap(PUPPETS, [], [listing("l", floor)])
    assert floor_minus_percent(s, percent) == expected


@pytest.mark.parametrize("percent", [-1, 100, 150])
def test_floor_minus_percent_refuses_a_percentage_out_of_range(percent: float) -> None:
    s = snap(PUPPETS, [], [listing("l", 20_000)])
    with pytest.raises(InvalidMarketInput, match="percentage"):
        floor_minus_percent(s, percent)


def test_rank_for_price_refuses_no_units() -> None:
    with pytest.raises(InvalidMarketInput, match="at least one unit"):
        rank_for_price(snap(PUPPETS, []), 1_000, units=0)


@pytest.mark.parametrize(
    ("top", "expected"), [(5_000, 6_000), (5_500, 6_000), (999, 1_000), (0.5, 1_000)]
)
def test_top_bid_plus_step_is_on_the_grid(top: float, expected: int) -> None:
    assert top_bid_plus_step(snap(PUPPETS, [bid("x", top)])) == expected


def test_a_bid_of_no_units_is_left_out() -> None:
    assert snap(PUPPETS, [bid("x", 5_000, units=0)]).bid_levels == ()


def test_step_helpers() -> None:
    assert limits.price_step_at_or_below(999) == 0
    assert limits.price_step_at_or_below(1_000) == 1_000
    assert limits.price_step_above(1_000) == 2_000
    assert limits.price_step_above(1_999.5) == 2_000


bid_rows = st.lists(
    st.tuples(
        st.integers(1, 50).map(lambda k: k * 1_000),
        st.integers(1, 5),
        st.booleans(),
    ),
    max_size=40,
)


def _from_rows(rows: list[tuple[int, int, bool]]) -> list[MarketBid]:
    return [
        bid(f"b{i}", price, units, bidder=ME if ours else f"bc1q{i}")
        for i, (price, units, ours) in enumerate(rows)
    ]


@given(bid_rows)
def test_levels_sum_to_the_units_and_run_highest_first(rows: list[tuple[int, int, bool]]) -> None:
    s = snap(PUPPETS, _from_rows(rows))
    assert sum(lv.units for lv in s.bid_levels) == s.bid_units == sum(u for _, u, _ in rows)
    assert sum(lv.mine for lv in s.bid_levels) == sum(u for _, u, ours in rows if ours)
    prices = [lv.unit_price for lv in s.bid_levels]
    assert prices == sorted(set(prices), reverse=True)


@given(bid_rows, st.integers(0, 60_000), st.integers(0, 60_000))
def test_rank_is_monotone_in_price(rows: list[tuple[int, int, bool]], p: int, q: int) -> None:
    s = snap(PUPPETS, _from_rows(rows))
    low, high = sorted((p, q))
    assert rank_for_price(s, high).rank <= rank_for_price(s, low).rank
    others = sum(u for _, u, ours in rows if not ours)
    assert 1 <= rank_for_price(s, low).rank <= 1 + others


@given(bid_rows)
def test_our_ranks_agree_with_rank_for_price(rows: list[tuple[int, int, bool]]) -> None:
    s = snap(PUPPETS, _from_rows(rows))
    for mine in s.my_ranks:
        typed = rank_for_price(s, mine.unit_price)
        assert (typed.rank, typed.is_top, typed.below_top) == (
            mine.rank,
            mine.is_top,
            mine.below_top,
        )


# --- a market that lies: the shortcuts stay prices -----------------------------------------


def test_no_shortcut_gives_more_than_all_the_bitcoin_there_is() -> None:
    lie = float(limits.MAX_MONEY_SATS)  # a top bid and a floor no one can pay
    s = snap(PUPPETS, [bid("x", lie)], [listing("l", lie * 2)])
    assert top_bid_plus_step(s) is None
    assert floor_minus_percent(s, 10) is None
    below = snap(PUPPETS, [bid("x", lie - 1_000)])
    assert top_bid_plus_step(below) == limits.MAX_MONEY_SATS


def test_pays_the_floor_tells_a_bid_that_would_buy_the_cheapest_listing_for_less() -> None:
    s = snap(PUPPETS, [bid("x", 30_000)], [listing("l", 25_000)])
    price = top_bid_plus_step(s)  # a top bid above the floor: its step is too
    assert price == 31_000 and pays_the_floor(s, price)
    assert pays_the_floor(s, 25_000) and not pays_the_floor(s, 24_999)
    assert not pays_the_floor(snap(PUPPETS, [bid("x", 30_000)]), 10**9)  # no floor
    ours = snap(PUPPETS, [], [listing("l", 1_000, seller=ME_ORD)])
    assert not pays_the_floor(ours, 5_000)  # our own listing is no floor
