"""`SandboxClient`'s scenario calls without a sandbox: the bodies they send are the routes'
fields exactly, and answers the calls cannot act on are refused naming the field. (What the
calls do is tested against a real sandbox in test_sandbox_scenario_live.py.)"""

from __future__ import annotations

import json

import pytest
from net_router import Router

from app.net.errors import BadResponse
from app.net.sandbox import SandboxClient

ROOT = "http://sandbox.test"
BID_ID = "ab" * 12
TXID = "cd" * 32


def client(router: Router) -> SandboxClient:
    return SandboxClient(ROOT, transport=router.transport)


async def test_accepting_an_inscription_bid_reads_the_sale(router: Router) -> None:
    data = {
        "bidId": BID_ID,
        "txid": TXID,
        "status": "accepted",
        "inscriptionId": f"{TXID}i0",
        "price": 50_000,
        "serviceFee": 1_000,
        "sellerProceeds": 49_000,
    }
    router.json("POST", "/sandbox/inscription-bids/accept", {"success": True, "data": data})
    async with client(router) as c:
        accepted = await c.accept_inscription_bid(BID_ID)
    assert json.loads(router.last.content) == {"bidId": BID_ID}
    assert (accepted.txid, accepted.price, accepted.seller_proceeds) == (TXID, 50_000, 49_000)


async def test_a_competing_trait_bid_sends_the_routes_fields(router: Router) -> None:
    answer = {
        "bidIds": [BID_ID],
        "bidder": "bidder-2",
        "bidderAddress": "bcrt1qpay",
        "biddingWallet": "bcrt1qwallet",
        "walletBalance": 2_000_000,
    }
    router.json("POST", "/sandbox/market/bids", {"success": True, "data": answer})
    async with client(router) as c:
        bid = await c.market_bid(
            "trait", 30_000, slug="apes", trait=("hat", "red"), bidder="bidder-2", fund_sats=5
        )
    assert json.loads(router.last.content) == {
        "kind": "trait",
        "price": 30_000,
        "quantity": 1,
        "slug": "apes",
        "bidder": "bidder-2",
        "fundSats": 5,
        "trait": {"trait_type": "hat", "value": "red"},
    }
    assert (bid.bid_ids, bid.wallet_balance) == ((BID_ID,), 2_000_000)


async def test_an_inscription_sends_only_what_was_given(router: Router) -> None:
    answer = {"inscriptionId": f"{TXID}i0", "number": 7, "outpoint": f"{TXID}:0"}
    router.json("POST", "/sandbox/inscriptions", answer, status=201)
    async with client(router) as c:
        item = await c.inscribe("bcrt1pme", collection="apes", attributes={"hat": "red"})
    assert json.loads(router.last.content) == {
        "address": "bcrt1pme",
        "collectionSlug": "apes",
        "attributes": [{"trait_type": "hat", "value": "red"}],
    }
    assert (item.number, item.outpoint) == (7, f"{TXID}:0")


@pytest.mark.parametrize(
    ("answer", "field"),
    [({"txid": TXID}, "vout"), ({"txid": TXID, "vout": True}, "vout"), ({"vout": 0}, "txid")],
)
async def test_an_answer_without_a_needed_field_is_refused(
    router: Router, answer: dict[str, object], field: str
) -> None:
    router.json("POST", "/sandbox/faucet", answer)
    async with client(router) as c:
        with pytest.raises(BadResponse) as refused:
            await c.faucet("bcrt1qme", 1_000)
    assert field in str(refused.value) and "/sandbox/faucet" in str(refused.value)
