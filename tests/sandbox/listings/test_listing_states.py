"""A secure listing's life on the chain: the item moving ends it; a purchase by a sandbox-held
buyer sells it, pays the seller and delivers the item, all with real transactions."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from app.sandbox.chain.node import Node
from tests.sandbox.listings.helpers import (
    error_code,
    inscription_info,
    ok,
    output_info,
    spend_outpoint,
)
from tests.sandbox.listings.selling import (
    activate,
    inscribe,
    listing_body,
    listing_status,
    new_seller,
)
from tests.sandbox.scenario import mine_blocks


async def _paid_to(client: httpx.AsyncClient, txid: str, address: str) -> list[int]:
    tx = await ok(await client.get(f"/esplora/tx/{txid}"))
    return [o["value"] for o in tx["vout"] if o.get("scriptpubkey_address") == address]


async def test_moving_the_item_after_listing_ends_the_listing(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    inscription_id = inscribe(sandbox_node, seller)
    [listing] = await activate(client, seller, [listing_body(seller, inscription_id)])
    txid = spend_outpoint(
        sandbox_node, seller.ordinals, listing["itemOutpoint"], seller.payment.address
    )
    shown = await ok(await client.get(f"/v1/listings/{listing['_id']}"))
    assert (shown["status"], shown["endTxid"]) == ("item_moved", txid)
    response = await client.post("/sandbox/listings/purchase", json={"listingId": listing["_id"]})
    assert error_code(response, 409) == "LISTING_NOT_ACTIVE"


async def test_sandbox_purchase_pays_the_seller_and_delivers_the_inscription(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    inscription_id = inscribe(sandbox_node, seller, postage=9_000)
    price = 80_000
    [listing] = await activate(client, seller, [listing_body(seller, inscription_id, price=price)])
    buyer_token = sandbox_node.sandbox_address("qa-buyer-ordinals")
    sold = await ok(
        await client.post(
            "/sandbox/listings/purchase",
            json={"listingId": listing["_id"], "buyerTokenReceiveAddress": buyer_token},
        )
    )
    assert sold["status"] == "sold"
    assert await _paid_to(client, sold["purchaseTxid"], seller.payment.address) == [price]
    await mine_blocks(client)  # ord shows where the last block left it
    where = await ok(await client.get(f"/ord/inscription/{inscription_id}"))
    assert where["address"] == buyer_token
    assert where["output"] == f"{sold['transferTxid']}:0" and where["offset"] == 0
    transfer = await ok(await client.get(f"/esplora/tx/{sold['transferTxid']}"))
    assert transfer["vin"][0]["txid"] == sold["purchaseTxid"]
    shown = await ok(await client.get(f"/v1/listings/{listing['_id']}"))
    assert shown["status"] == "sold"
    assert (shown["purchaseTxid"], shown["transferTxid"]) == (
        sold["purchaseTxid"],
        sold["transferTxid"],
    )
    sandbox_node.mine(1)
    for txid in (sold["paymentPrepTxid"], sold["purchaseTxid"], sold["transferTxid"]):
        status = await ok(await client.get(f"/esplora/tx/{txid}/status"))
        assert status["confirmed"] is True
    assert await listing_status(client, listing["_id"]) == "sold"
    again = await client.post("/sandbox/listings/purchase", json={"listingId": listing["_id"]})
    assert error_code(again, 409) == "LISTING_NOT_ACTIVE"


async def test_secure_purchase_endpoint_for_a_sandbox_held_buyer(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    ids = [inscribe(sandbox_node, seller) for _ in range(2)]
    await activate(client, seller, [listing_body(seller, i, price=30_000) for i in ids])
    buyer = sandbox_node.sandbox_address("qa-buyer-payment", "p2wpkh")
    token = sandbox_node.sandbox_address("qa-buyer-ordinals")
    body = {"buyerAddress": buyer, "buyerTokenReceiveAddress": token, "inscriptionIds": ids}
    short = await client.post("/v1/intent/secure-purchase", json=body)
    assert error_code(short, 400) == "INSUFFICIENT_FUNDS"
    sandbox_node.faucet(buyer, 200_000)
    data = await ok(await client.post("/v1/intent/secure-purchase", json=body))
    assert [p["inscriptionId"] for p in data["purchases"]] == ids
    for inscription_id in ids:
        assert inscription_info(sandbox_node, inscription_id)["address"] == token
    gone = await client.post("/v1/intent/secure-purchase", json=body)
    assert error_code(gone, 404) == "LISTING_NOT_FOUND"
    assert gone.json()["field"] == "inscriptionIds[0]"


async def test_a_buyer_the_sandbox_does_not_hold_is_refused_before_any_broadcast(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller, stranger = new_seller(), new_seller()
    inscription_id = inscribe(sandbox_node, seller)
    [listing] = await activate(client, seller, [listing_body(seller, inscription_id)])
    sandbox_node.faucet(stranger.payment.address, 200_000)
    body = {
        "buyerAddress": stranger.payment.address,
        "buyerTokenReceiveAddress": stranger.ordinals.address,
        "inscriptionIds": [inscription_id],
    }
    response = await client.post("/v1/intent/secure-purchase", json=body)
    assert error_code(response, 409) == "NOT_SANDBOX_HELD"
    assert await listing_status(client, listing["_id"]) == "active"
    assert inscription_info(sandbox_node, inscription_id)["output"] == listing["itemOutpoint"]


async def test_runes_listing_is_sold_with_every_rune_on_it(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    outpoint = sandbox_node.create_runes(seller.ordinals.address, "SECURE•SALE•STATE", 4_242)[
        "outpoint"
    ]
    [listing] = await activate(client, seller, [listing_body(seller, runes_output=outpoint)])
    token = sandbox_node.sandbox_address("qa-runes-buyer")
    sold = await ok(
        await client.post(
            "/sandbox/listings/purchase",
            json={"listingId": listing["_id"], "buyerTokenReceiveAddress": token},
        )
    )
    await mine_blocks(client)  # ord indexes the transfer's outputs once a block holds it
    out = await ok(await client.get(f"/ord/output/{sold['transferTxid']}:0"))
    assert out["address"] == token
    assert out["runes"]["SECURE•SALE•STATE"]["amount"] == 4_242
    assert await _paid_to(client, sold["purchaseTxid"], seller.payment.address) == [50_000]


async def test_a_block_re_checks_every_active_listing(
    client: httpx.AsyncClient, sandbox_node: Node, sandbox_app: FastAPI
) -> None:
    """The block-time sweep catches an item that moved unnoticed (forced back to active)."""
    seller = new_seller()
    [listing] = await activate(
        client, seller, [listing_body(seller, inscribe(sandbox_node, seller))]
    )
    spend_outpoint(sandbox_node, seller.ordinals, listing["itemOutpoint"], seller.payment.address)
    assert await listing_status(client, listing["_id"]) == "item_moved"
    with sandbox_app.state.market.store.transaction() as conn:
        conn.execute("UPDATE secure_listings SET status = 'active' WHERE id = ?", (listing["_id"],))
    await ok(await client.post("/sandbox/mine", json={"blocks": 1}))
    assert await listing_status(client, listing["_id"]) == "item_moved"


async def test_a_high_fee_rate_never_eats_into_the_items_postage(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    inscription_id = inscribe(sandbox_node, seller, postage=600)
    [listing] = await activate(client, seller, [listing_body(seller, inscription_id)])
    sold = await ok(
        await client.post(
            "/sandbox/listings/purchase", json={"listingId": listing["_id"], "feeRate": 50}
        )
    )
    out = output_info(sandbox_node, f"{sold['transferTxid']}:0")
    assert out["inscriptions"] == [inscription_id]
    assert out["value"] == 600  # escrow 600 + 1,000; the transfer fee is capped at the 1,000
