"""ord's first-in-first-out sat flow (app.core.sat_flow), and its agreement with the sandbox's."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.sat_flow import (
    SatDestination,
    SatFlowError,
    coinbase_position,
    input_position,
    locate,
    route,
    route_partial,
    rune_destination,
)


@pytest.mark.parametrize(
    ("inputs", "outputs", "sat", "expected"),
    [
        ([10_000], [10_000], (0, 0), SatDestination(0, 0)),
        ([10_000], [4_000, 6_000], (0, 5_000), SatDestination(1, 1_000)),
        ([5_000, 10_000], [5_000, 9_000], (1, 0), SatDestination(1, 0)),
        ([5_000, 10_000], [7_000, 7_000], (1, 0), SatDestination(0, 5_000)),
        ([5_000, 10_000], [3_000, 1_000], (1, 0), SatDestination(None, 1_000)),
        ([10_000], [0, 10_000], (0, 0), SatDestination(1, 0)),  # a 0-sat output gets no sat
        ([546, 60_000], [546, 49_546], (0, 0), SatDestination(0, 0)),  # postage first
        ([546, 60_000], [49_546, 546], (0, 0), SatDestination(0, 0)),  # postage moved: lost
        ([546, 60_000], [49_546, 546], (0, 545), SatDestination(0, 545)),
    ],
)
def test_route(
    inputs: list[int], outputs: list[int], sat: tuple[int, int], expected: SatDestination
) -> None:
    assert route(inputs, outputs, [sat]) == [expected]


def test_fee_landing_is_marked() -> None:
    [dest] = route([1_000], [400], [(0, 700)])
    assert dest.to_fee and dest.offset == 300
    assert not route([1_000], [400], [(0, 0)])[0].to_fee


@pytest.mark.parametrize(("index", "offset"), [(0, 100), (0, -1), (1, 0), (-1, 0)])
def test_a_sat_the_input_does_not_hold_is_an_error(index: int, offset: int) -> None:
    with pytest.raises(SatFlowError):
        input_position([100], index, offset)
    with pytest.raises(ValueError):  # SatFlowError is a ValueError, like the sandbox's
        route([100], [100], [(index, offset)])


def test_partial_route_needs_only_the_inputs_before_the_sat() -> None:
    # The amount of a later input (the buyer's, in a listing) does not move input 0's sats.
    assert route_partial([10_000, None], [10_000, 5_000], 0, 0) == SatDestination(0, 0)
    assert route_partial([None, 10_000], [10_000, 5_000], 1, 0) is None
    assert route_partial([10_000, None], [10_000], 1, 0) is None
    assert route_partial([1_000, 2_000], [500, 2_500], 1, 1_999) == SatDestination(1, 2_499)


def test_fee_sats_follow_the_subsidy_in_the_coinbase() -> None:
    assert coinbase_position(subsidy=50, fees_before=7, fee_offset=3) == 60
    assert locate([40, 30], 60) == SatDestination(1, 20)


def test_runes_go_to_the_first_non_op_return_output() -> None:
    assert rune_destination([b"\x6a\x00", b"\x00\x14" + b"\x01" * 20]) == 1
    assert rune_destination([b"\x51\x20" + b"\x02" * 32]) == 0
    assert rune_destination([b"\x6a"]) is None
    assert rune_destination([]) is None


@given(
    st.lists(st.integers(1, 10_000), min_size=1, max_size=5),
    st.lists(st.integers(0, 10_000), min_size=0, max_size=5),
    st.data(),
)
def test_every_sat_lands_once_and_partial_routing_agrees(
    inputs: list[int], outputs: list[int], data: st.DataObject
) -> None:
    index = data.draw(st.integers(0, len(inputs) - 1))
    offset = data.draw(st.integers(0, inputs[index] - 1))
    position = sum(inputs[:index]) + offset
    [dest] = route(inputs, outputs, [(index, offset)])
    if position < sum(outputs):
        assert dest.vout is not None
        assert sum(outputs[: dest.vout]) + dest.offset == position
        assert 0 <= dest.offset < outputs[dest.vout]
    else:
        assert dest == SatDestination(None, position - sum(outputs))
    assert route_partial(inputs, outputs, index, offset) == dest
