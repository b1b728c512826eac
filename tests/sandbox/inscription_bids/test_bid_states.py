"""How a single-inscription bid ends (spec section 3), each through real transactions on the
sandbox chain or the cancel endpoint, and the sandbox's acceptance by the inscription's owner."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.sandbox.chain.node import Node
from app.wallet.bip322 import sign_bip322
from app.wallet.psbt_io import parse_psbt
from tests.sandbox.inscription_bids.bidding import (
    bid_status,
    intent_body,
    new_bidder,
    open_bid,
    place_body,
    sandbox_inscription,
)
from tests.sandbox.listings.helpers import error_code, ok, sign, spend_outpoint, user
from tests.sandbox.scenario import mine_blocks


async def _listed(client: httpx.AsyncClient, address: str) -> list[str]:
    data = await ok(await client.get("/v1/address/bids", params={"address": address}))
    return [e["bid_id"]["$oid"] for e in data["results"] if e["type"] == "individual"]


async def test_bidder_cancels_with_a_signed_challenge(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder, other = new_bidder(sandbox_node), new_bidder(sandbox_node, fund=None)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    bid_id, _ = await open_bid(client, bidder, inscription_id)
    # Another maker cannot cancel it.
    challenge = await ok(
        await client.get("/v1/challenge", params={"address": other.ordinals.address})
    )
    foreign = {
        "makerAddress": other.ordinals.address,
        "orderType": "bid",
        "signature": sign_bip322(other.ordinals, challenge["challenge"]),
        "_id": bid_id,
    }
    assert error_code(await client.post("/v1/cancel", json=foreign), 403) == "CANCEL_NOT_MAKER"
    assert await bid_status(client, bid_id) == "open"

    address = bidder.ordinals.address
    challenge = await ok(await client.get("/v1/challenge", params={"address": address}))
    body = {
        "makerAddress": address,
        "orderType": "bid",
        "signature": sign_bip322(bidder.ordinals, challenge["challenge"]),
        "_id": bid_id,
    }
    result = await ok(await client.post("/v1/cancel", json=body))
    assert result["cancelledIds"] == [bid_id]
    assert await bid_status(client, bid_id) == "cancelled"
    assert bid_id not in await _listed(client, address)
    again = await ok(await client.post("/v1/cancel", json=body))
    assert again["failedIds"] == [bid_id]


async def test_spending_a_funding_coin_ends_the_bid(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder = new_bidder(sandbox_node)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    bid_id, data = await open_bid(client, bidder, inscription_id)
    [coin] = data["bidder"]["bidderPaymentUTXOs"]
    # The bidder spends the coin elsewhere: noticed at mempool acceptance, no block needed.
    txid = spend_outpoint(
        sandbox_node, bidder.payment, f"{coin['txid']}:{coin['vout']}", bidder.payment.address
    )
    entry = await ok(await client.get(f"/v1/inscription-bids/{bid_id}"))
    assert (entry["status"], entry["endTxid"]) == ("funding_spent", txid)
    assert bid_id not in await _listed(client, bidder.ordinals.address)
    sandbox_node.mine(1)
    assert await bid_status(client, bid_id) == "funding_spent"


async def test_moving_the_inscription_ends_the_bid(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder = new_bidder(sandbox_node)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    bid_id, _ = await open_bid(client, bidder, inscription_id)
    moved = sandbox_node.transfer_inscription(inscription_id, user(95).ordinals.address)
    entry = await ok(await client.get(f"/v1/inscription-bids/{bid_id}"))
    assert (entry["status"], entry["endTxid"]) == ("inscription_moved", moved)


async def test_the_sandbox_owner_accepts_the_seller_is_paid_and_rival_bids_end(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder, rival = new_bidder(sandbox_node), new_bidder(sandbox_node)
    inscription_id, owner = sandbox_inscription(sandbox_node, postage=12_345)
    price = 250_000
    bid_id, data = await open_bid(client, bidder, inscription_id, price)
    rival_id, _ = await open_bid(client, rival, inscription_id, 200_000)

    accepted = await ok(
        await client.post("/sandbox/inscription-bids/accept", json={"bidId": bid_id})
    )
    assert accepted["status"] == "accepted" and accepted["sellerProceeds"] == price - 5_000
    assert await bid_status(client, bid_id) == "accepted"
    assert await bid_status(client, rival_id) == "inscription_moved"

    await mine_blocks(client)  # ord shows where the last block left it
    where = await ok(await client.get(f"/ord/inscription/{inscription_id}"))
    assert where["address"] == bidder.ordinals.address
    assert where["output"] == f"{accepted['txid']}:0"
    tx = await ok(await client.get(f"/esplora/tx/{accepted['txid']}"))
    paid = [o["value"] for o in tx["vout"] if o.get("scriptpubkey_address") == owner]
    assert paid == [price - 5_000 + 12_345]  # price - fee, and the seller's postage back
    psbt = parse_psbt(data["bidder"]["unsignedBiddingPSBTBase64"])
    assert accepted["txid"] == psbt.tx.txid().hex()
    sandbox_node.mine(1)
    status = await ok(await client.get(f"/esplora/tx/{accepted['txid']}/status"))
    assert status["confirmed"] is True
    again = await client.post("/sandbox/inscription-bids/accept", json={"bidId": bid_id})
    assert error_code(again, 409) == "INSCRIPTION_BID_NOT_OPEN"


async def test_accept_needs_a_sandbox_held_owner_and_a_known_bid(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder, holder = new_bidder(sandbox_node), user(96)
    inscription_id = sandbox_node.create_inscription(holder.ordinals.address)["inscriptionId"]
    bid_id, _ = await open_bid(client, bidder, inscription_id)
    response = await client.post("/sandbox/inscription-bids/accept", json={"bidId": bid_id})
    assert error_code(response, 409) == "NOT_SANDBOX_HELD"
    assert await bid_status(client, bid_id) == "open"
    unknown = await client.post("/sandbox/inscription-bids/accept", json={"bidId": "f" * 24})
    assert error_code(unknown, 404) == "INSCRIPTION_BID_NOT_FOUND"


async def test_a_stale_intent_cannot_be_placed(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder = new_bidder(sandbox_node)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    body = intent_body(bidder, inscription_id)
    data = await ok(await client.post("/v1/intent/bid", json=body))
    signed = sign(data["bidder"]["unsignedBiddingPSBTBase64"], bidder.payment, [1], 0x01)
    sandbox_node.transfer_inscription(inscription_id, user(97).ordinals.address)
    response = await client.post("/v1/bid/place", json=place_body(body, signed))
    assert error_code(response, 409) == "INSCRIPTION_BID_STALE"


async def test_a_block_re_checks_every_open_bid(
    client: httpx.AsyncClient, sandbox_node: Node, sandbox_app: FastAPI
) -> None:
    """The block-time sweep catches a spend the mempool event did not end (e.g. one that
    happened while the service was down): here the bid is forced back open after it."""
    bidder = new_bidder(sandbox_node)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    bid_id, _ = await open_bid(client, bidder, inscription_id)
    sandbox_node.transfer_inscription(inscription_id, user(98).ordinals.address)
    assert await bid_status(client, bid_id) == "inscription_moved"
    with sandbox_app.state.market.store.transaction() as conn:
        conn.execute("UPDATE inscription_bids SET status = 'open' WHERE id = ?", (bid_id,))
    assert await bid_status(client, bid_id) == "open"
    await ok(await client.post("/sandbox/mine", json={"blocks": 1}))
    assert await bid_status(client, bid_id) == "inscription_moved"


async def test_over_http_only_a_sandbox_held_seller_accepts(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    """What a test against a real process does: learn a sandbox-held address, inscribe to it,
    bid, accept."""
    held = await ok(await client.get("/sandbox/addresses/http-seller", params={"kind": "p2tr"}))
    again = await ok(await client.get("/sandbox/addresses/http-seller"))
    assert held["address"] == again["address"] == sandbox_node.sandbox_address("http-seller")
    created = await ok(
        await client.post("/sandbox/inscriptions", json={"address": held["address"]}), 201
    )
    bidder = new_bidder(sandbox_node)
    bid_id, _ = await open_bid(client, bidder, created["inscriptionId"])
    accepted = await ok(
        await client.post("/sandbox/inscription-bids/accept", json={"bidId": bid_id})
    )
    assert accepted["status"] == "accepted"
    bad = await client.get("/sandbox/addresses/x", params={"kind": "p2pkh"})
    assert bad.status_code == 400
