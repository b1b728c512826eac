"""Bid pools: committed sats per pool, whether a request fits, and what a fill cancels."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.bid_request import Trait
from app.core.errors import ERROR_CODES, ErrorCode
from app.core.pools import (
    InvalidPoolInput,
    MakerFee,
    OpenBid,
    PoolKey,
    bid_cost,
    bids_to_cancel,
    check_request_fits,
    committed_by_pool,
    request_pools,
)

from .builders import make_request

NO_FEE = MakerFee(basis_points=0, flat_sats=0)
PUPPETS = PoolKey("bitcoin-puppets")
BLUE = PoolKey("bitcoin-puppets", Trait("Background", "Blue"))
LASER = PoolKey("bitcoin-puppets", Trait("Eyes", "Laser"))


def bid(bid_id: str, pool: PoolKey, price: int, created: int = 0) -> OpenBid:
    return OpenBid(bid_id=bid_id, pool=pool, price=price, created_at_ms=created)


@pytest.mark.parametrize(
    ("fee", "price", "expected"),
    [
        (NO_FEE, 10_000, 0),
        (MakerFee(basis_points=250, flat_sats=0), 1_000, 25),
        (MakerFee(basis_points=250, flat_sats=0), 1_001, 26),  # 25.025 rounds up
        (MakerFee(basis_points=0, flat_sats=1_000), 5_000, 1_000),
        (MakerFee(basis_points=100, flat_sats=600), 20_000, 800),
    ],
)
def test_maker_fee_per_bid_rounds_up(fee: MakerFee, price: int, expected: int) -> None:
    assert fee.on(price) == expected
    assert bid_cost(price, fee) == price + expected


@pytest.mark.parametrize(("bps", "flat"), [(-1, 0), (0, -1)])
def test_negative_fee_is_refused(bps: int, flat: int) -> None:
    with pytest.raises(InvalidPoolInput):
        MakerFee(basis_points=bps, flat_sats=flat)


def test_committed_per_pool_includes_the_fee_and_keeps_trait_pools_apart() -> None:
    fee = MakerFee(basis_points=100, flat_sats=0)
    bids = [bid("1", PUPPETS, 10_000), bid("2", PUPPETS, 5_000), bid("3", BLUE, 2_000)]
    assert committed_by_pool(bids, fee) == {PUPPETS: 15_150, BLUE: 2_020}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"quantity": 3}, {PUPPETS: 3}),
        ({"quantity": 2, "attributes": (BLUE.trait, LASER.trait)}, {BLUE: 2, LASER: 2}),
        ({"quantity": 4, "attribute": LASER.trait}, {LASER: 4}),
        ({"quantity": 5_000, "meta_type": "runes", "collection_slug": "DOG"}, {PoolKey("DOG"): 1}),
        ({"quantity": 2, "collection_slug": "sub1k"}, {PoolKey("sub1k"): 2}),
    ],
)
def test_request_pools(changes: dict[str, object], expected: dict[PoolKey, int]) -> None:
    assert request_pools(make_request(**changes)) == expected


def test_fits_when_every_pool_stays_within_the_balance() -> None:
    report = check_request_fits(20_000, [bid("1", PUPPETS, 10_000)], make_request(), NO_FEE)
    assert report.fits and report.short_pools == () and report.violations() == []
    (usage,) = report.pools
    assert (usage.committed, usage.adding, usage.needed, usage.shortfall) == (
        10_000,
        10_000,
        20_000,
        0,
    )


def test_does_not_fit_reports_needed_available_and_shortfall() -> None:
    fee = MakerFee(basis_points=0, flat_sats=500)
    open_bids = [bid("1", PUPPETS, 6_000)]
    report = check_request_fits(10_000, open_bids, make_request(price=2_000, quantity=2), fee)
    assert not report.fits
    (short,) = report.short_pools
    assert (short.pool, short.needed, short.available, short.shortfall) == (
        PUPPETS,
        6_500 + 2 * 2_500,
        10_000,
        1_500,
    )
    (violation,) = report.violations()
    assert violation.code is ErrorCode.COLLECTION_BID_POOL_INSUFFICIENT_BALANCE
    assert violation.details == {
        "pool": "bitcoin-puppets",
        "needed": 11_500,
        "available": 10_000,
        "shortfall": 1_500,
    }
    assert "add 1,500 sats" in violation.message
    listed = ERROR_CODES[violation.code].extra_fields
    assert violation.field == "" and [f"details.{k}" for k in violation.details] == list(listed)


def test_each_pool_may_use_the_full_balance_independently() -> None:
    open_bids = [bid("1", PUPPETS, 10_000), bid("2", BLUE, 10_000)]
    other = make_request(collection_slug="nodemonkes", price=10_000)
    assert check_request_fits(10_000, open_bids, other, NO_FEE).fits
    laser = make_request(price=10_000, attribute=LASER.trait)
    assert check_request_fits(10_000, open_bids, laser, NO_FEE).fits


def test_a_trait_bid_adds_quantity_bids_to_each_trait_pool_and_only_full_ones_fail() -> None:
    open_bids = [bid("1", BLUE, 7_000)]
    req = make_request(price=2_000, quantity=2, attributes=(LASER.trait, BLUE.trait))
    report = check_request_fits(10_000, open_bids, req, NO_FEE)
    assert [(u.pool, u.committed, u.adding) for u in report.pools] == [
        (BLUE, 7_000, 4_000),
        (LASER, 0, 4_000),
    ]
    assert [(u.pool, u.shortfall) for u in report.short_pools] == [(BLUE, 1_000)]


def test_rune_bid_commits_its_total_price_once() -> None:
    rune = PoolKey("DOG")
    req = make_request(meta_type="runes", collection_slug="DOG", price=20_000, quantity=9_999)
    assert check_request_fits(20_000, [], req, NO_FEE).fits
    assert check_request_fits(19_999, [], req, NO_FEE).short_pools[0].pool == rune


def test_bids_to_cancel_keeps_highest_price_then_oldest() -> None:
    open_bids = [
        bid("a", PUPPETS, 3_000, created=2),
        bid("b", PUPPETS, 3_000, created=1),
        bid("c", PUPPETS, 2_000, created=0),
        bid("d", PUPPETS, 1_000, created=3),
    ]
    # Priority b(3000) a(3000) c(2000) d(1000): keep b; a does not fit next to it; c fits
    # (5,000 in all); d does not.
    cancelled = bids_to_cancel(5_000, open_bids, NO_FEE)
    assert [b.bid_id for b in cancelled] == ["a", "d"]


def test_bids_to_cancel_counts_the_fee_and_breaks_ties_by_id() -> None:
    fee = MakerFee(basis_points=0, flat_sats=100)
    open_bids = [bid("y", PUPPETS, 2_000), bid("x", PUPPETS, 2_000)]
    assert [b.bid_id for b in bids_to_cancel(4_200, open_bids, fee)] == []
    assert [b.bid_id for b in bids_to_cancel(4_199, open_bids, fee)] == ["y"]


def test_bids_to_cancel_judges_each_pool_alone_and_lists_pools_in_order() -> None:
    open_bids = [
        bid("l1", LASER, 4_000),
        bid("p1", PUPPETS, 4_000),
        bid("b1", BLUE, 3_000),
        bid("b2", BLUE, 3_000, created=1),
        bid("p2", PUPPETS, 4_000, created=1),
    ]
    cancelled = bids_to_cancel(6_000, open_bids, NO_FEE)
    assert [b.bid_id for b in cancelled] == ["p2"]
    assert [b.bid_id for b in bids_to_cancel(3_000, open_bids, NO_FEE)] == ["p1", "p2", "b2", "l1"]
    assert bids_to_cancel(0, open_bids, NO_FEE) == sorted(
        open_bids, key=lambda b: (b.pool.sort_key(), -b.price, b.created_at_ms, b.bid_id)
    )


def test_invalid_pool_inputs() -> None:
    with pytest.raises(InvalidPoolInput, match="appears twice"):
        bids_to_cancel(1_000, [bid("a", PUPPETS, 1), bid("a", BLUE, 1)], NO_FEE)
    with pytest.raises(InvalidPoolInput, match="negative"):
        bids_to_cancel(-1, [], NO_FEE)
    with pytest.raises(InvalidPoolInput, match="negative"):
        check_request_fits(-1, [], make_request(), NO_FEE)


POOLS = st.sampled_from([PUPPETS, BLUE, LASER, PoolKey("DOG")])
BIDS = st.lists(
    st.builds(
        lambda pool, price, created: (pool, price, created),
        POOLS,
        st.integers(1, 20).map(lambda k: k * 1_000),
        st.integers(0, 5),
    ),
    max_size=25,
).map(lambda rows: [bid(f"id{i}", *row) for i, row in enumerate(rows)])
FEES = st.builds(MakerFee, basis_points=st.integers(0, 500), flat_sats=st.integers(0, 1_000))


@given(BIDS, st.integers(0, 60_000), FEES, st.randoms(use_true_random=False))
def test_cancellation_is_deterministic_greedy_and_leaves_every_pool_covered(
    open_bids: list[OpenBid], balance: int, fee: MakerFee, rnd: random.Random
) -> None:
    cancelled = bids_to_cancel(balance, open_bids, fee)
    shuffled = list(open_bids)
    rnd.shuffle(shuffled)
    assert bids_to_cancel(balance, shuffled, fee) == cancelled
    kept = [b for b in open_bids if b not in cancelled]
    assert all(total <= balance for total in committed_by_pool(kept, fee).values())
    for gone in cancelled:  # nothing cancelled that would still fit beside what is kept
        ahead = [
            b
            for b in kept
            if b.pool == gone.pool
            and (-b.price, b.created_at_ms, b.bid_id)
            < (-gone.price, gone.created_at_ms, gone.bid_id)
        ]
        assert sum(bid_cost(b.price, fee) for b in ahead) + bid_cost(gone.price, fee) > balance
