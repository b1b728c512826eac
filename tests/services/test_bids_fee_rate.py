"""A bid's fee rate, end to end against a real sandbox: `BidSpec.fee_rate` goes out as
`feeRate` (the service's default not at all), the sandbox keeps it, and the transaction that
fills the bid pays that rate (its fee over its virtual size, read from Esplora)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.bid_fee_rate import BidFeeRate, FeeRateName
from app.services.bids import BidSpec, place_bid
from app.services.context import ServiceContext
from app.services.open_bids import fetch_open_bids
from tests.services.conftest import SandboxControl, hour_from_now

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 50_000


def _data(body: Any) -> Any:
    return body["data"] if isinstance(body, dict) and "data" in body else body


async def _fill(sandbox: SandboxControl, ctx: ServiceContext, collection: str) -> dict[str, Any]:
    """A sandbox collector sells a new inscription of `collection` to our open bid on it; the
    fill's answer with the transaction's measured `rate`."""
    [entry] = [e for e in await fetch_open_bids(ctx) if e.collection_slug == collection]
    collector = _data((await sandbox.http.get("/sandbox/addresses/collector-1")).json())["address"]
    await sandbox.inscribe(collector, collection)
    response = await sandbox.http.post("/sandbox/bids/fill", json={"bidId": entry.bid_id})
    assert response.status_code == 200, response.text
    fill: dict[str, Any] = _data(response.json())
    tx = _data((await sandbox.http.get(f"/esplora/tx/{fill['txid']}")).json())
    assert tx["fee"] == fill["networkFee"]
    fill["rate"] = tx["fee"] / -(-tx["weight"] // 4)
    return fill


async def test_a_bid_asking_a_rate_fills_at_that_rate(
    bidder: ServiceContext, collection: str, sandbox: SandboxControl
) -> None:
    spec = BidSpec.collection(collection, PRICE, 1, hour_from_now(bidder))
    outcome = await place_bid(bidder, replace(spec, fee_rate=BidFeeRate.custom(15)))
    assert outcome.placement.request.to_json()["feeRate"] == 15
    fill = await _fill(sandbox, bidder, collection)
    assert 15 <= fill["rate"] <= 15 * 1.05  # planned on an upper bound of the signed size


async def test_the_default_is_not_sent_and_fills_at_the_fastest_estimate(
    bidder: ServiceContext, collection: str, sandbox: SandboxControl
) -> None:
    spec = BidSpec.collection(collection, PRICE, 1, hour_from_now(bidder))
    assert spec.fee_rate == BidFeeRate.named(FeeRateName.FASTEST)
    outcome = await place_bid(bidder, spec)
    assert "feeRate" not in outcome.placement.request.to_json()
    estimates = _data((await sandbox.http.get("/esplora/fee-estimates")).json())
    fastest = max(2.0, estimates["1"])  # the sandbox never pays below 2 sat/vB
    fill = await _fill(sandbox, bidder, collection)
    assert fill["feeRate"] == fastest
    assert fastest <= fill["rate"] <= fastest * 1.05
