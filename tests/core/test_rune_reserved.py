"""The names ord gives etchings without one: crates/ordinals/src/rune.rs `reserved` test,
ordinals/ord at commit 5241ef311e015cff4759a379085c8cc8913e621a."""

from __future__ import annotations

from app.core.rune_names import RESERVED_RUNE_VALUE, reserved_rune, rune_name


def test_ord_rune_rs_reserved() -> None:
    assert reserved_rune(0, 0) == RESERVED_RUNE_VALUE
    assert reserved_rune(0, 1) == RESERVED_RUNE_VALUE + 1
    assert reserved_rune(1, 0) == RESERVED_RUNE_VALUE + (1 << 32)
    assert reserved_rune(1, 1) == RESERVED_RUNE_VALUE + (1 << 32) + 1
    assert reserved_rune(2**64 - 1, 2**32 - 1) == RESERVED_RUNE_VALUE + (
        ((2**64 - 1) << 32) | (2**32 - 1)
    )
    assert rune_name(reserved_rune(0, 0)) == "A" * 27
