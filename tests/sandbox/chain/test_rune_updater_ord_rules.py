"""Rules of ord's rune indexer and views the sandbox must follow too, found by reviewing it
line by line against ordinals/ord at commit 5241ef311e015cff4759a379085c8cc8913e621a (each
test names the code it follows). Real transactions (test keys, checked by the kernel),
read back through the `/ord` views as real ord answers them.
"""

from __future__ import annotations

from app.sandbox.chain.node import Node
from tests.sandbox.chain.rune_txs import OWNER, coin, etch, etching, fresh_name, spend, stone


def _two_runes_on_one_output(node: Node) -> tuple[str, str, str]:
    """A rune named from Z etched first, one named from A second (divisibility 2), both moved
    to one output: (its txid, the Z rune, the A rune)."""
    late = fresh_name("ZORDER")
    early = fresh_name("AORDER")
    z_txid = etch(node, stone(etch=etching(late, 7)), late)
    a_txid = etch(node, stone(etch=etching(early, 12_345, divisibility=2)), early)
    merged = spend(node, [coin(node, z_txid, 1), coin(node, a_txid, 1)], None, outputs=1)
    node.mine(1)
    return merged, late, early


def test_an_outputs_runes_are_listed_by_rune_as_ord_sorts_them(sandbox_node: Node) -> None:
    """src/index.rs `get_rune_balances_for_output`: a `BTreeMap<SpacedRune, Pile>`, so the
    runes of `/output`'s JSON come in the order of the runes (their numbers: A before Z), not
    the order they were etched in."""
    merged, late, early = _two_runes_on_one_output(sandbox_node)
    out = sandbox_node.ord_served("output", f"{merged}:0")
    assert out is not None
    assert list(out["runes"]) == [early, late]
    assert out["runes"][early] == {"amount": 12_345, "divisibility": 2, "symbol": None}


def test_an_addresss_rune_balances_are_decimals_in_the_runes_order(sandbox_node: Node) -> None:
    """src/index.rs `get_aggregated_rune_balances_for_outputs`: each balance is a `Decimal`
    of the rune's divisibility (12345 of a rune of divisibility 2 is "123.45"), listed in a
    `BTreeMap<SpacedRune, _>`'s order; in ord's view (the confirmed chain) and the market's
    (the current state) alike."""
    _, late, early = _two_runes_on_one_output(sandbox_node)
    confirmed = sandbox_node.ord_served("address", OWNER.address)
    assert confirmed is not None
    for view in (confirmed, sandbox_node.ord_address(OWNER.address)):
        balances = view["runes_balances"]
        names = [name for name, _, _ in balances]
        assert names.index(early) < names.index(late)
        assert [early, "123.45", None] in balances and [late, "7", None] in balances
