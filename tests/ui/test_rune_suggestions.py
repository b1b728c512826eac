"""The rune field's suggestions: ord's etched names first, then the runes the market and our
wallet name that ord's list did not reach (on the public service ord's list is a few pages of
a long one), one per rune whatever its spacers, in ord's spelling where it has one."""

from __future__ import annotations

from app.ui.tabs.bid_catalog import rune_suggestions


def test_seen_runes_join_ords_names_once_each() -> None:
    etched = ["UNCOMMON•GOODS", "DOG•GO•TO•THE•MOON"]
    seen = ["DOGGOTOTHEMOON", "RSIC•GENESIS•RUNE", "rsic.genesis.rune", ""]
    assert rune_suggestions(etched, seen) == [
        "UNCOMMON•GOODS",
        "DOG•GO•TO•THE•MOON",
        "RSIC•GENESIS•RUNE",
    ]


def test_without_ord_the_seen_runes_are_suggested() -> None:
    assert rune_suggestions([], ["Z•Z"]) == ["Z•Z"]
