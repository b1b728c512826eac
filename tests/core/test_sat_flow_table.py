"""ord's first-in-first-out sat flow: worked cases (the properties are in test_sat_flow.py)."""

from __future__ import annotations

import pytest

from app.core.sat_flow import (
    SatDestination,
    coinbase_position,
    locate,
    route,
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
        ([10_000], [0, 10_000], (0, 0), SatDestination(1, 0)),  # 0-sat output gets no sats
    ],
)
def test_route(
    inputs: list[int], outputs: list[int], sat: tuple[int, int], expected: SatDestination
) -> None:
    assert route(inputs, outputs, [sat]) == [expected]


def test_offset_outside_the_input_is_an_error() -> None:
    with pytest.raises(ValueError):
        route([100], [100], [(0, 100)])


def test_fee_sats_follow_the_subsidy_in_the_coinbase() -> None:
    assert coinbase_position(subsidy=50, fees_before=7, fee_offset=3) == 60
    assert locate([40, 30], 60) == SatDestination(1, 20)


def test_runes_go_to_the_first_non_op_return_output() -> None:
    assert rune_destination([b"\x6a\x00", b"\x00\x14" + b"\x01" * 20]) == 1
    assert rune_destination([b"\x51\x20" + b"\x02" * 32]) == 0
    assert rune_destination([b"\x6a"]) is None
