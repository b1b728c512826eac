"""Whatever the HTTP layer passes on, the node answers with a ChainError, never a crash."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.sandbox.chain.errors import ChainError, InvalidRequest
from app.sandbox.chain.node import Node

# JSON can carry lone surrogates ("\ud800"), which SQLite and UTF-8 encoders refuse.
TEXT = st.text(max_size=20) | st.sampled_from(["\ud800", "a\udfffb", "pixel-punks"])
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | TEXT,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=10,
)
FUZZ = settings(max_examples=60, deadline=None)


def _refused_cleanly(call: Any, *args: Any) -> None:
    with contextlib.suppress(ChainError):
        call(*args)


@FUZZ
@given(st.binary(max_size=300) | st.text(max_size=300) | TEXT)
def test_broadcast_of_junk(sandbox_node: Node, raw: bytes | str) -> None:
    _refused_cleanly(sandbox_node.broadcast, raw)


@FUZZ
@given(TEXT, ANY_JSON)
def test_faucet_with_junk(sandbox_node: Node, address: str, sats: Any) -> None:
    _refused_cleanly(sandbox_node.faucet, address, sats)


@FUZZ
@given(ANY_JSON)
def test_reads_with_junk(sandbox_node: Node, value: Any) -> None:
    for call in (
        sandbox_node.address_stats, sandbox_node.address_utxos, sandbox_node.ord_address,
        sandbox_node.tx_json, sandbox_node.tx_hex, sandbox_node.tx_status,
        sandbox_node.ord_output, sandbox_node.ord_inscription, sandbox_node.collection,
    ):  # fmt: skip
        _refused_cleanly(call, value)


@FUZZ
@given(ANY_JSON, ANY_JSON, ANY_JSON)
def test_create_collection_with_junk(sandbox_node: Node, slug: Any, name: Any, traits: Any) -> None:
    _refused_cleanly(sandbox_node.create_collection, slug, name, traits)


@FUZZ
@given(ANY_JSON, ANY_JSON, ANY_JSON, ANY_JSON)
def test_create_inscription_with_junk(
    sandbox_node: Node, slug: Any, attributes: Any, postage: Any, tap: Any
) -> None:
    address = sandbox_node.sandbox_address("fuzz")
    _refused_cleanly(sandbox_node.create_inscription, address, slug, attributes, postage, tap)


@FUZZ
@given(ANY_JSON, ANY_JSON)
def test_runes_mine_and_transfer_with_junk(sandbox_node: Node, a: Any, b: Any) -> None:
    address = sandbox_node.sandbox_address("fuzz")
    _refused_cleanly(sandbox_node.create_runes, address, a, b)
    _refused_cleanly(sandbox_node.transfer_inscription, a, address)
    if isinstance(a, bool) or not isinstance(a, int) or not 1 <= a <= 1000:
        with pytest.raises(InvalidRequest):
            sandbox_node.mine(a)


@FUZZ
@given(TEXT, TEXT)
def test_sandbox_address_labels_with_junk(sandbox_node: Node, label: str, kind: str) -> None:
    _refused_cleanly(sandbox_node.sandbox_address, label, kind)
    _refused_cleanly(sandbox_node.sandbox_address, label)
