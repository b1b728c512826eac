"""Bids and listings are kept across a restart of the service, and what happened on the chain
while it was down ends them when it starts again (the start-up sweep)."""

from __future__ import annotations

from pathlib import Path

import httpx

from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app
from tests.sandbox.conftest import ASGI_BASE_URL
from tests.sandbox.inscription_bids.bidding import new_bidder, open_bid, sandbox_inscription
from tests.sandbox.listings.helpers import ok, spend_outpoint
from tests.sandbox.listings.selling import activate, inscribe, listing_body, new_seller


async def test_state_survives_a_restart_and_chain_moves_while_down_are_caught(
    tmp_path: Path,
) -> None:
    node = Node.open(tmp_path / "data")
    try:
        app = create_app(node)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=ASGI_BASE_URL) as client:
            bidder = new_bidder(node)
            bid_id, data = await open_bid(client, bidder, sandbox_inscription(node)[0])
            kept_id, _ = await open_bid(client, new_bidder(node), sandbox_inscription(node)[0])
            seller = new_seller()
            [listing] = await activate(
                client, seller, [listing_body(seller, inscribe(node, seller))]
            )
        app.state.market.close()  # the service stops; the chain moves on without it
        [coin] = data["bidder"]["bidderPaymentUTXOs"]
        spend_outpoint(
            node, bidder.payment, f"{coin['txid']}:{coin['vout']}", bidder.payment.address
        )
        spend_outpoint(node, seller.ordinals, listing["itemOutpoint"], seller.payment.address)

        restarted = create_app(node)
        transport = httpx.ASGITransport(app=restarted)
        async with httpx.AsyncClient(transport=transport, base_url=ASGI_BASE_URL) as client:
            ended = await ok(await client.get(f"/v1/inscription-bids/{bid_id}"))
            kept = await ok(await client.get(f"/v1/inscription-bids/{kept_id}"))
            moved = await ok(await client.get(f"/v1/listings/{listing['_id']}"))
        assert ended["status"] == "funding_spent"
        assert kept["status"] == "open"
        assert moved["status"] == "item_moved"
        restarted.state.market.close()
    finally:
        node.close()
