"""POST /sandbox/bids/fill: a real sale from a sandbox collector to a collection or trait bid,
signed by the service key, and the balance rule afterwards."""

from __future__ import annotations

from typing import Any

import httpx

from app.core.bid_request import Trait
from app.sandbox.chain.node import Node
from app.sandbox.demo import COLLECTORS
from tests.sandbox.market.conftest import ClientFactory
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
from tests.sandbox.scenario import mine_blocks
from tests.wallet.kernel import assert_accepted


async def bids(client: httpx.AsyncClient, user: User, **kwargs: Any) -> list[str]:
    await advance(client, 5_000)  # past any rate wait of earlier requests
    ids: list[str] = ok(await place(client, bid_body(user, await now_ms(client), **kwargs)))[
        "bidIds"
    ]
    return ids


async def inscribe(client: httpx.AsyncClient, node: Node, **body: Any) -> str:
    owner = node.sandbox_address(COLLECTORS[0])
    created = ok(await client.post("/sandbox/inscriptions", json={"address": owner, **body}), 201)
    inscription_id: str = created["inscriptionId"]
    return inscription_id


async def balance(client: httpx.AsyncClient, address: str) -> int:
    stats = ok(await client.get(f"/esplora/address/{address}"))
    chain, pool = stats["chain_stats"], stats["mempool_stats"]
    return int(
        chain["funded_txo_sum"]
        - chain["spent_txo_sum"]
        + pool["funded_txo_sum"]
        - pool["spent_txo_sum"]
    )


async def check_with_core(client: httpx.AsyncClient, txid: str) -> dict[str, Any]:
    """Bitcoin Core's interpreter accepts every input of the broadcast transaction."""
    tx = ok(await client.get(f"/esplora/tx/{txid}"))
    raw = (await client.get(f"/esplora/tx/{txid}/hex")).text
    spent = [
        (bytes.fromhex(v["prevout"]["scriptpubkey"]), v["prevout"]["value"]) for v in tx["vin"]
    ]
    assert_accepted(raw, spent)
    return dict(tx)


async def test_fill_moves_the_inscription_and_pays_seller_and_fee(
    client: httpx.AsyncClient, frozen_node: Node
) -> None:
    user, wallet = await funded_user(client, "fill-basic", 100_000)
    inscription = await inscribe(
        client,
        frozen_node,
        collectionSlug="satoshi-glyphs",
        attributes=[{"trait_type": "Glyph", "value": "☯"}],
    )
    [bid_id] = await bids(
        client, user, slug="satoshi-glyphs", price=20_000, traits=(Trait("Glyph", "☯"),)
    )
    seller = User.make("fill-seller").payment.address
    result = ok(
        await client.post("/sandbox/bids/fill", json={"bidId": bid_id, "sellerAddress": seller})
    )
    assert result["inscriptionId"] == inscription and result["makerFee"] == 1_000
    assert result["paidToSeller"] == 20_000 - result["networkFee"]
    tx = await check_with_core(client, result["txid"])
    outputs = [(o["scriptpubkey_address"], o["value"]) for o in tx["vout"]]
    assert outputs[1] == (seller, result["paidToSeller"])
    assert outputs[2][1] == 1_000  # the maker fee to the service's fee address
    await mine_blocks(client)  # ord shows where the last block left it
    where = ok(await client.get(f"/ord/inscription/{inscription}"))
    assert where["address"] == user.ordinals.address
    assert await balance(client, wallet) == 100_000 - 21_000
    assert await open_bids(client, user) == []
    error(await client.post("/sandbox/bids/fill", json={"bidId": bid_id}), 404, "BID_NOT_FOUND")


async def test_fill_cancels_the_bids_the_remaining_balance_no_longer_covers(
    client: httpx.AsyncClient, frozen_node: Node
) -> None:
    user, _ = await funded_user(client, "fill-sweep", 40_000)
    await inscribe(
        client,
        frozen_node,
        collectionSlug="ordinal-cats",
        attributes=[{"trait_type": "Fur", "value": "白"}],
    )
    filled, kept_same_pool = await bids(client, user, slug="ordinal-cats", price=19_000, quantity=2)
    [dear] = await bids(client, user, slug="pixel-punks", price=29_000)
    [cheap] = await bids(client, user, slug="pixel-punks", price=9_000)
    [trait] = await bids(
        client, user, slug="pixel-punks", price=19_000, traits=(Trait("Hat", "Cap"),)
    )
    result = ok(await client.post("/sandbox/bids/fill", json={"bidId": filled}))
    # 20,000 left: the pixel-punks pool keeps what fits, highest price first (30,000 does not,
    # 10,000 does); the other bid of the filled pool and the trait pool fit.
    assert result["cancelledBidIds"] == [dear]
    left = {e["bid_id"]["$oid"] for e in await open_bids(client, user)}
    assert left == {kept_same_pool, cheap, trait}


async def test_fill_refusals(client: httpx.AsyncClient) -> None:
    user, _ = await funded_user(client, "fill-refused", 100_000)
    [glyph] = await bids(client, user, slug="satoshi-glyphs", traits=(Trait("Glyph", "Ω"),))
    response = await client.post("/sandbox/bids/fill", json={"bidId": glyph})
    error(response, 409, "FILL_NO_MATCHING_INSCRIPTION")
    [rune] = await bids(client, user, slug="SANDBOX•DEMO•RUNE", meta_type="runes", quantity=10)
    error(await client.post("/sandbox/bids/fill", json={"bidId": rune}), 400, "FILL_UNSUPPORTED")
    error(await client.post("/sandbox/bids/fill", json={"bidId": "0" * 24}), 404, "BID_NOT_FOUND")
    assert len(await open_bids(client, user)) == 2


async def test_fill_from_a_p2wsh_wallet(make_client: ClientFactory) -> None:
    client = await make_client(bidding_wallet="p2wsh")
    user, wallet = await funded_user(client, "fill-p2wsh", 50_000)
    [bid_id] = await bids(client, user, slug="pixel-punks", price=12_000)
    result = ok(await client.post("/sandbox/bids/fill", json={"bidId": bid_id}))
    await check_with_core(client, result["txid"])
    assert await balance(client, wallet) == 50_000 - 13_000
