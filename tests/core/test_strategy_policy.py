"""The strategy's signing authority: every refusal of `authorize`, the policy's own checks, its
strict stored form, and a property: nothing outside the policy is ever authorized."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.bid_message import bid_message
from app.core.bid_request import CollectionBidRequest, Trait
from app.core.pools import MakerFee, PoolKey
from app.core.strategy_policy import (
    AllowedPool,
    BidderIdentity,
    OpenExposure,
    PoolKind,
    StrategyPolicy,
    StrategyPolicyError,
    StrategyRefusalCode,
    authorize,
    request_cost,
)
from app.core.strategy_policy_json import policy_from_json, policy_to_json

from .builders import BASE_REQUEST, MINUTE_MS, NOW_MS

C = StrategyRefusalCode
HOUR_MS = 60 * MINUTE_MS
FEE = MakerFee(basis_points=100, flat_sats=50)  # 1% + 50 sats per bid
ME = BidderIdentity(
    BASE_REQUEST.bidder_address,
    BASE_REQUEST.bidder_address_public_key,
    BASE_REQUEST.bidder_token_receive_address,
)
GOLD = Trait("Background", "Gold")
LASER = Trait("Eyes", "Laser")
POLICY = StrategyPolicy(
    policy_id="pol-1",
    bidder=ME,
    pools=(
        AllowedPool.collection("bitcoin-puppets", 50_000),
        AllowedPool.trait("pixel-pals", GOLD, 80_000),
        AllowedPool.trait("pixel-pals", LASER, 30_000),
        AllowedPool.collection("sub10k", 20_000),
        AllowedPool.rune("DOG•GO•TO•THE•MOON", Fraction(1, 2)),
    ),
    max_exposure=500_000,
    maker_fee=FEE,
    valid_from_ms=NOW_MS - HOUR_MS,
    valid_until_ms=NOW_MS + 24 * HOUR_MS,
    max_open_bids=20,
)
NOTHING_OPEN = OpenExposure()


def req(**changes: Any) -> CollectionBidRequest:
    return dataclasses.replace(BASE_REQUEST, **changes)


def rune_req(**changes: Any) -> CollectionBidRequest:
    base = dict(collection_slug="DOGGOTOTHEMOON", meta_type="runes", price=50_000, quantity=100_000)
    return req(**{**base, **changes})


def codes(request: CollectionBidRequest, **kw: Any) -> tuple[StrategyRefusalCode, ...]:
    policy = kw.pop("policy", POLICY)
    open_exposure = kw.pop("open_exposure", NOTHING_OPEN)
    now = kw.pop("now_ms", NOW_MS)
    return authorize(policy, request, open_exposure, now).codes


# --- what is authorized -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_",
    [
        req(price=50_000, quantity=3),
        req(collection_slug="pixel-pals", attributes=(GOLD, LASER), price=30_000),
        req(collection_slug="pixel-pals", attribute=GOLD, price=80_000),
        req(collection_slug="sub10k", price=20_000),
        rune_req(),  # 0.5 sats per unit exactly, typed without spacers
        rune_req(collection_slug="DOG•GO•TO•THE•MOON"),
        rune_req(collection_slug="DOG.GOTO.THEMOON"),
    ],
)
def test_inside_the_policy_is_authorized_with_the_exact_message(
    request_: CollectionBidRequest,
) -> None:
    verdict = authorize(POLICY, request_, NOTHING_OPEN, NOW_MS)
    assert verdict.approved, verdict.reasons()
    assert verdict.message == bid_message(request_)
    assert (verdict.cost, verdict.bids) == request_cost(request_, FEE)


def test_cost_counts_every_bid_with_its_maker_fee() -> None:
    # 2 traits x 3 items = 6 bids of 30,000 + (300 + 50) fee each.
    trait_bid = req(
        collection_slug="pixel-pals", attributes=(GOLD, LASER), price=30_000, quantity=3
    )
    assert request_cost(trait_bid, FEE) == (6 * 30_350, 6)
    # A rune bid is one bid of its total.
    assert request_cost(rune_req(), FEE) == (50_000 + 500 + 50, 1)


# --- every refusal ---------------------------------------------------------------------------


def test_policy_not_yet_valid_and_expired() -> None:
    early = POLICY.valid_from_ms - 1
    assert codes(req(timestamp=early), now_ms=early) == (C.POLICY_NOT_YET_VALID,)
    late = POLICY.valid_until_ms
    # At its end the policy is over (and the bid's 15-minute expiry outlives it too).
    assert C.POLICY_EXPIRED in codes(
        req(timestamp=late, bid_expiry=late + 20 * MINUTE_MS), now_ms=late
    )


def test_bid_outliving_the_policy_is_refused() -> None:
    assert codes(req(bid_expiry=POLICY.valid_until_ms + 1)) == (C.BID_OUTLIVES_POLICY,)
    assert codes(req(bid_expiry=POLICY.valid_until_ms)) == ()


@pytest.mark.parametrize(
    "change",
    [
        {"bidder_address": "bc1qsomeoneelse"},
        {"bidder_address_public_key": "03" + "cd" * 32},
        {"bidder_address_public_key": "ab" * 32},  # our key's x-only form is another text
    ],
)
def test_another_bidder_is_refused(change: dict[str, str]) -> None:
    assert codes(req(**change)) == (C.WRONG_BIDDER,)


def test_items_delivered_to_another_address_are_refused() -> None:
    verdict = authorize(POLICY, req(bidder_token_receive_address="bc1pthief"), NOTHING_OPEN, NOW_MS)
    assert verdict.codes == (C.WRONG_RECEIVE_ADDRESS,)
    assert "bc1pthief" in verdict.reasons()[0] and verdict.message == ""


@pytest.mark.parametrize(
    "change",
    [
        {"price": -1_000},
        {"price": 0},
        {"price": 50_500},  # off the 1,000-sat grid
        {"quantity": 0},
        {"quantity": -5},
        {"quantity": 1_001},
        {"meta_type": "brc20"},
        {"timestamp": NOW_MS - 2 * MINUTE_MS},  # too old: the service refuses it
        {"timestamp": NOW_MS + 31_000},  # ahead: would stay usable for longer
        {"bid_expiry": NOW_MS + 14 * MINUTE_MS},
        {"collection_slug": "bitcoin-puppets:1"},
        {"attributes": (GOLD, GOLD), "collection_slug": "pixel-pals"},
        {"attributes": (GOLD,), "attribute": LASER, "collection_slug": "pixel-pals"},
    ],
)
def test_requests_the_spec_refuses_are_refused(change: dict[str, Any]) -> None:
    verdict = authorize(POLICY, req(**change), NOTHING_OPEN, NOW_MS)
    assert C.INVALID_REQUEST in verdict.codes
    assert (verdict.cost, verdict.bids, verdict.message) == (0, 0, "")


def test_trait_bid_on_a_rune_is_refused() -> None:
    assert C.INVALID_REQUEST in codes(rune_req(attributes=(GOLD,)))


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        (req(collection_slug="nodemonkes"), C.POOL_NOT_ALLOWED),
        (req(collection_slug="Bitcoin-Puppets"), C.POOL_NOT_ALLOWED),  # slugs are exact
        (req(collection_slug="sub1k", price=20_000), C.POOL_NOT_ALLOWED),
        # A collection pool allows no trait bid in it, a trait pool no collection bid.
        (req(attributes=(GOLD,)), C.TRAIT_NOT_ALLOWED),
        (req(collection_slug="pixel-pals", price=20_000), C.POOL_NOT_ALLOWED),
        (req(collection_slug="pixel-pals", attributes=(Trait("Hat", "Red"),)), C.TRAIT_NOT_ALLOWED),
        (
            req(collection_slug="pixel-pals", attribute=Trait("Background", "gold")),
            C.TRAIT_NOT_ALLOWED,
        ),
        (rune_req(collection_slug="DOGGOTOTHEMOONS"), C.POOL_NOT_ALLOWED),
        (rune_req(collection_slug="bitcoin-puppets"), C.POOL_NOT_ALLOWED),  # kind matters
        (rune_req(collection_slug="doggotothemoon"), C.POOL_NOT_ALLOWED),  # not ord's spelling
        (rune_req(collection_slug="DOG GO TO THE MOON"), C.POOL_NOT_ALLOWED),
        (req(collection_slug="DOGGOTOTHEMOON"), C.POOL_NOT_ALLOWED),
    ],
)
def test_pools_outside_the_policy_are_refused(
    request_: CollectionBidRequest, code: StrategyRefusalCode
) -> None:
    assert codes(request_) == (code,)


def test_a_trait_bid_touching_one_disallowed_trait_is_refused_whole() -> None:
    bid = req(collection_slug="pixel-pals", attributes=(GOLD, Trait("Hat", "Red")), price=20_000)
    verdict = authorize(POLICY, bid, NOTHING_OPEN, NOW_MS)
    assert verdict.codes == (C.TRAIT_NOT_ALLOWED,)
    assert "Hat: Red" in verdict.reasons()[0]


def test_prices_above_the_cap_are_refused() -> None:
    assert codes(req(price=51_000)) == (C.PRICE_ABOVE_CAP,)
    # A trait bid is held to the lowest cap of the pools it touches (Laser: 30,000).
    assert codes(req(collection_slug="pixel-pals", attributes=(GOLD, LASER), price=31_000)) == (
        C.PRICE_ABOVE_CAP,
    )
    assert codes(req(collection_slug="pixel-pals", attributes=(GOLD,), price=80_000)) == ()


def test_rune_total_is_bounded_by_units_times_the_unit_cap() -> None:
    assert codes(rune_req(price=50_001)) == (C.PRICE_ABOVE_CAP,)
    # Fewer units for the same total: a higher price per unit.
    verdict = authorize(POLICY, rune_req(quantity=99_999), NOTHING_OPEN, NOW_MS)
    assert verdict.codes == (C.PRICE_ABOVE_CAP,)
    assert "per unit" in verdict.reasons()[0]


def test_exposure_past_the_cap_is_refused() -> None:
    cost, _ = request_cost(req(price=50_000, quantity=3), FEE)
    assert cost == 3 * 50_550
    exactly = OpenExposure(POLICY.max_exposure - cost, 0)
    assert codes(req(price=50_000, quantity=3), open_exposure=exactly) == ()
    over = OpenExposure(POLICY.max_exposure - cost + 1, 0)
    assert codes(req(price=50_000, quantity=3), open_exposure=over) == (C.EXPOSURE_ABOVE_CAP,)
    # The maker fee counts: 10 bids of 50,000 are 500,000 of price but 505,500 committed.
    assert codes(req(price=50_000, quantity=10)) == (C.EXPOSURE_ABOVE_CAP,)


def test_too_many_open_bids_is_refused() -> None:
    trait_bid = req(collection_slug="pixel-pals", attributes=(GOLD, LASER), price=1_000, quantity=3)
    assert codes(trait_bid, open_exposure=OpenExposure(0, 14)) == ()
    assert codes(trait_bid, open_exposure=OpenExposure(0, 15)) == (C.TOO_MANY_OPEN_BIDS,)


def test_every_broken_rule_is_listed() -> None:
    bid = req(
        collection_slug="nodemonkes",
        bidder_token_receive_address="bc1pthief",
        bid_expiry=POLICY.valid_until_ms + 1,
    )
    assert set(codes(bid)) == {C.POOL_NOT_ALLOWED, C.WRONG_RECEIVE_ADDRESS, C.BID_OUTLIVES_POLICY}


# --- the policy itself -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"policy_id": ""},
        {"policy_id": "../evil"},
        {"pools": ()},
        {"pools": (AllowedPool.rune("DOG•GO", 1), AllowedPool.rune("DOGGO", 2))},
        {"max_exposure": 0},
        {"valid_until_ms": POLICY.valid_from_ms},
        {"max_open_bids": 0},
    ],
)
def test_a_malformed_policy_is_refused(change: dict[str, Any]) -> None:
    with pytest.raises(StrategyPolicyError):
        dataclasses.replace(POLICY, **change)


@pytest.mark.parametrize(
    "make",
    [
        lambda: AllowedPool.collection("puppets", 0),
        lambda: AllowedPool.collection("", 1_000),
        lambda: AllowedPool.rune("dog-go", 1),
        lambda: AllowedPool(PoolKind.RUNES, PoolKey("DOGGO", GOLD), Fraction(1)),
    ],
)
def test_a_malformed_pool_is_refused(make: Any) -> None:
    with pytest.raises(StrategyPolicyError):
        make()


def test_negative_exposure_is_a_callers_bug() -> None:
    with pytest.raises(StrategyPolicyError):
        OpenExposure(-1, 0)


# --- the stored form -------------------------------------------------------------------------


def test_stored_form_round_trips() -> None:
    assert policy_from_json(policy_to_json(POLICY)) == POLICY
    unlimited = dataclasses.replace(POLICY, max_open_bids=None)
    assert policy_from_json(policy_to_json(unlimited)) == unlimited


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(version=2),
        lambda d: d.update(extra=1),
        lambda d: d.pop("maxExposure"),
        lambda d: d.update(maxExposure="500000"),
        lambda d: d.update(maxExposure=True),
        lambda d: d.update(maxOpenBids=1.5),
        lambda d: d.update(makerFee={"basisPoints": -1, "flatSats": 0}),
        lambda d: d["pools"][0].update(maxPrice="1e999"),
        lambda d: d["pools"][0].update(maxPrice="-5"),
        lambda d: d["pools"][0].update(maxPrice="0"),
        lambda d: d["pools"][0].update(kind="brc20"),
        lambda d: d["pools"][0].update(trait={"trait_type": "x"}),
        lambda d: d.update(pools="all"),
        lambda d: d.update(policyId=7),
    ],
)
def test_stored_form_is_read_strictly(mutate: Any) -> None:
    data = policy_to_json(POLICY)
    mutate(data)
    with pytest.raises(StrategyPolicyError):
        policy_from_json(data)


# --- property: nothing outside the policy is ever authorized ---------------------------------

_GOOD_SLUGS = ["bitcoin-puppets", "pixel-pals", "sub10k"]
_BAD_SLUGS = ["sub1k", "nodemonkes", "Pixel-Pals", "DOGGOTOTHEMOON"]
_GOOD_RUNES = ["DOGGOTOTHEMOON", "DOG•GO•TO•THE•MOON", "DOG.GO.TO.THE.MOON"]
_BAD_RUNES = ["DOGGO", "BITCOIN", "pixel-pals"]
_ALL_TRAITS = [GOLD, LASER, Trait("Hat", "Red"), Trait("Background", "gold")]


@st.composite
def requests(draw: st.DrawFn, now: int) -> CollectionBidRequest:
    """Mostly inside the policy, each field stepping outside now and then."""

    def pick(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any]) -> Any:
        return draw(bad if draw(st.integers(0, 9)) == 0 else good)

    rune = draw(st.booleans())
    if rune:
        slug = pick(st.sampled_from(_GOOD_RUNES), st.sampled_from(_BAD_RUNES))
        traits: tuple[Trait, ...] = pick(st.just(()), st.just((GOLD,)))
        quantity = draw(st.integers(20_000, 400_000))
        price = pick(st.integers(10, quantity // 2_000), st.integers(-1, 400)) * 1_000
    else:
        slug = pick(st.sampled_from(_GOOD_SLUGS), st.sampled_from(_BAD_SLUGS))
        allowed = [GOLD, LASER] if slug == "pixel-pals" else []
        traits = tuple(
            pick(
                st.lists(st.sampled_from(allowed), unique=True, min_size=len(allowed) > 0)
                if allowed
                else st.just([]),
                st.lists(st.sampled_from(_ALL_TRAITS), max_size=3),
            )
        )
        quantity = pick(st.integers(1, 4), st.integers(-1, 1_001))
        price = pick(st.integers(1, 80), st.integers(-1, 120)) * 1_000 + pick(
            st.just(0), st.integers(-999, 999)
        )
    return req(
        collection_slug=slug,
        meta_type="runes" if rune else pick(st.just("ordinals"), st.just("runes")),
        attributes=traits,
        price=price,
        quantity=quantity,
        bidder_address=pick(st.just(ME.payment_address), st.just("bc1qsomeoneelse")),
        bidder_token_receive_address=pick(st.just(ME.receive_address), st.just("bc1pthief")),
        timestamp=now + pick(st.integers(-110, 30), st.integers(-300, 300)) * 1_000,
        bid_expiry=now + pick(st.integers(15, 120), st.integers(-10, 30 * 60)) * MINUTE_MS,
    )


def _inside(request: CollectionBidRequest, open_exposure: OpenExposure, now: int) -> bool:
    """The policy in plain words, written apart from `authorize`."""
    if not POLICY.valid_from_ms <= now < POLICY.valid_until_ms:
        return False
    if request.bid_expiry > POLICY.valid_until_ms or request.bid_expiry < now + 15 * MINUTE_MS:
        return False
    if request.bidder_address != ME.payment_address:
        return False
    if request.bidder_token_receive_address != ME.receive_address:
        return False
    if not now - 2 * MINUTE_MS < request.timestamp <= now + 30_000:
        return False
    if request.price <= 0 or request.quantity < 1:
        return False
    caps = {(p.kind.value, p.pool): p.max_price for p in POLICY.pools}
    if request.meta_type == "runes":
        letters = request.collection_slug.replace("•", "").replace(".", "")
        cap = caps.get(("runes", PoolKey("DOG•GO•TO•THE•MOON")))
        if letters != "DOGGOTOTHEMOON" or cap is None or request.price > cap * request.quantity:
            return False
        if request.price < 10_000 or request.attributes:  # smallest rune bid; no traits
            return False
        bids = 1
    else:
        if request.price % 1_000 or len(set(request.attributes)) != len(request.attributes):
            return False
        pools = [PoolKey(request.collection_slug, t) for t in request.attributes] or [
            PoolKey(request.collection_slug)
        ]
        if any(caps.get(("ordinals", p), Fraction(-1)) < request.price for p in pools):
            return False
        bids = request.quantity * len(pools)
        if bids > 1_000:
            return False
    cost = bids * (request.price + -(-request.price * 100 // 10_000) + 50)
    if open_exposure.sats + cost > POLICY.max_exposure:
        return False
    assert POLICY.max_open_bids is not None
    return open_exposure.bids + bids <= POLICY.max_open_bids


APPROVED: list[bool] = []


@settings(max_examples=800, deadline=None)
@given(
    data=st.data(),
    open_sats=st.one_of(st.just(0), st.integers(0, 600_000)),
    open_bids=st.one_of(st.just(0), st.integers(0, 25)),
    now_offset=st.one_of(st.integers(0, 60), st.integers(-2 * 60, 26 * 60)),
)
def test_nothing_outside_the_policy_is_ever_authorized(
    data: st.DataObject, open_sats: int, open_bids: int, now_offset: int
) -> None:
    now = NOW_MS + now_offset * MINUTE_MS
    request_ = data.draw(requests(now))
    open_exposure = OpenExposure(open_sats, open_bids)
    verdict = authorize(POLICY, request_, open_exposure, now)
    assert verdict.approved == _inside(request_, open_exposure, now), verdict.reasons()
    APPROVED.append(verdict.approved)
    if verdict.approved:
        assert verdict.message == bid_message(request_)
    else:
        assert verdict.message == "" and verdict.refusals


def test_the_property_saw_both_answers() -> None:
    """The property above is worth something only if it met approvals and refusals."""
    if not APPROVED:  # run alone: run the property first
        test_nothing_outside_the_policy_is_ever_authorized()
    assert 0 < sum(APPROVED) < len(APPROVED)
