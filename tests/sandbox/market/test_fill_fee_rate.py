"""A collection bid's `feeRate` is the rate of the transaction that fills it: a number as
placed, a name as the sandbox's estimate when the bid fills, `fastestFee` without one. The
rate is measured on the broadcast transaction (its fee over its virtual size, from Esplora)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.sandbox.chain.node import Node
from app.sandbox.demo import COLLECTORS
from app.sandbox.market.store import SCHEMA, MarketStore
from tests.sandbox.market.helpers import (
    User,
    advance,
    bid_body,
    error,
    funded_user,
    now_ms,
    ok,
    open_bids,
    place,
)

SLUG = "pixel-punks"
PRICE = 40_000
# A fee market the test chooses: each target's estimate is told apart from the others and
# from the sandbox's floor of 2 sat/vB.
BUSY_ESTIMATES = {"1": 9.0, "3": 6.0, "6": 4.0, "1008": 3.0}


async def place_bid(client: httpx.AsyncClient, user: User, **extra: Any) -> str:
    await advance(client, 5_000)  # past any rate wait of earlier requests
    body = bid_body(user, await now_ms(client), slug=SLUG, price=PRICE) | extra
    [bid_id] = ok(await place(client, body))["bidIds"]
    return str(bid_id)


async def fill_rate(client: httpx.AsyncClient, node: Node, bid_id: str) -> tuple[float, Any]:
    """Fill `bid_id` from a fresh matching inscription; the fill's rate (fee / vsize) and the
    fill's answer."""
    owner = node.sandbox_address(COLLECTORS[0])
    ok(
        await client.post("/sandbox/inscriptions", json={"address": owner, "collectionSlug": SLUG}),
        201,
    )
    result = ok(await client.post("/sandbox/bids/fill", json={"bidId": bid_id}))
    tx = ok(await client.get(f"/esplora/tx/{result['txid']}"))
    assert tx["fee"] == result["networkFee"]
    vsize = -(-tx["weight"] // 4)
    return tx["fee"] / vsize, result


def about(rate: float, wanted: float) -> bool:
    """The fill pays the wanted rate on the size it planned with, an upper bound of the
    signed size: the real rate is the wanted one or a little above."""
    return wanted <= rate <= wanted * 1.05


async def test_a_bid_placed_with_a_fee_rate_fills_at_that_rate(
    client: httpx.AsyncClient, frozen_node: Node
) -> None:
    user, _ = await funded_user(client, "fee-rate-number", 200_000)
    bid_id = await place_bid(client, user, feeRate=12)
    rate, result = await fill_rate(client, frozen_node, bid_id)
    assert about(rate, 12) and result["feeRate"] == 12
    decimal = await place_bid(client, user, feeRate=7.5)
    rate, _ = await fill_rate(client, frozen_node, decimal)
    assert about(rate, 7.5)


async def test_names_are_the_estimates_at_the_fill_and_the_default_is_fastest(
    client: httpx.AsyncClient, frozen_node: Node, monkeypatch: pytest.MonkeyPatch
) -> None:
    user, _ = await funded_user(client, "fee-rate-names", 300_000)
    hour = await place_bid(client, user, feeRate="hourFee")
    plain = await place_bid(client, user)
    minimum = await place_bid(client, user, feeRate="minimumFee")
    monkeypatch.setattr(frozen_node, "fee_estimates", lambda: dict(BUSY_ESTIMATES))
    assert about((await fill_rate(client, frozen_node, hour))[0], 4.0)
    assert about((await fill_rate(client, frozen_node, plain))[0], 9.0)  # fastestFee
    assert about((await fill_rate(client, frozen_node, minimum))[0], 3.0)


async def test_an_invalid_fee_rate_is_refused_and_places_nothing(
    client: httpx.AsyncClient,
) -> None:
    user, _ = await funded_user(client, "fee-rate-bad", 100_000)
    for bad in ("economy", "FASTESTFEE", 0.5, 10_001, True, [], {"sat_vb": 3}):
        await advance(client, 5_000)
        body = bid_body(user, await now_ms(client), slug=SLUG, price=PRICE) | {"feeRate": bad}
        refused = error(await place(client, body), 400, "INVALID_FIELD")
        assert refused["field"] == "feeRate"
        assert "fastestFee" in refused["message"] and "10,000" in refused["message"]
    assert await open_bids(client, user) == []
    # null counts as absent, like the other optional fields.
    await place_bid(client, user, feeRate=None)
    assert len(await open_bids(client, user)) == 1


def test_a_database_from_before_fee_rates_gets_the_column(tmp_path: Path) -> None:
    path = tmp_path / MarketStore.FILENAME
    old_schema = SCHEMA.replace(",\n    fee_rate TEXT)", ")")
    assert old_schema != SCHEMA
    with closing(sqlite3.connect(path)) as conn:
        conn.executescript(old_schema)
    store = MarketStore(path)
    try:
        with store.reading() as conn:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(bids)")}
    finally:
        store.close()
    assert "fee_rate" in columns
