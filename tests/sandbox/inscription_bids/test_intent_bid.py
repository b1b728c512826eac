"""`POST /v1/intent/bid`: the PSBT layout, the fee rule, and every refusal."""

from __future__ import annotations

import httpx

from app.core.sat_flow import route
from app.sandbox.chain.node import Node
from app.sandbox.market.inscription_bids_intent import SERVICE_FEE_BPS
from app.wallet.addresses import decode_address
from app.wallet.psbt_io import parse_psbt
from tests.sandbox.inscription_bids.bidding import (
    intent_body,
    new_bidder,
    sandbox_inscription,
)
from tests.sandbox.listings.helpers import (
    error_code,
    inscription_info,
    ok,
    output_info,
    spend_outpoint,
    txbuild_key,
    user,
)
from tests.sandbox.txbuild import Coin as TxCoin
from tests.sandbox.txbuild import spend


def _spk(address: str) -> bytes:
    return decode_address(address).script_pubkey


async def test_intent_layout_pays_price_postage_and_fee_and_lands_the_inscription(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder = new_bidder(sandbox_node, fund=300_000)
    # Coins carrying an inscription or runes at the payment address must never fund the bid.
    sandbox_node.create_inscription(bidder.payment.address)
    sandbox_node.create_runes(bidder.payment.address, "BIDWALLET•TEST", 5)
    inscription_id, owner = sandbox_inscription(sandbox_node)
    price = 100_000
    data = await ok(await client.post("/v1/intent/bid", json=intent_body(bidder, inscription_id)))

    psbt = parse_psbt(data["bidder"]["unsignedBiddingPSBTBase64"])
    assert parse_psbt(data["bidder"]["unsignedBiddingPSBTHex"]).serialize() == psbt.serialize()
    info = inscription_info(sandbox_node, inscription_id)
    assert f"{psbt.inputs[0].txid.hex()}:{psbt.inputs[0].vout}" == info["output"]
    assert all(inp.witness_utxo is not None for inp in psbt.inputs)
    values = [inp.witness_utxo.value for inp in psbt.inputs]
    spks = [inp.witness_utxo.script_pubkey.data for inp in psbt.inputs]
    assert spks[0] == _spk(owner)
    assert all(spk == _spk(bidder.payment.address) for spk in spks[1:])
    for inp in psbt.inputs[1:]:
        out = output_info(sandbox_node, f"{inp.txid.hex()}:{inp.vout}")
        assert out["inscriptions"] == [] and out["runes"] == {}
    assert data["bidder"]["indicesToSign"] == list(range(1, len(psbt.inputs)))

    outs = [(o.script_pubkey.data, o.value) for o in psbt.outputs]
    postage, fee = data["postage"], price * SERVICE_FEE_BPS // 10_000
    assert outs[0] == (_spk(bidder.ordinals.address), postage)
    assert outs[1] == (_spk(owner), price - fee + values[0])
    assert outs[2][1] == fee == data["serviceFee"]
    assert outs[3][0] == _spk(bidder.payment.address)  # change
    [landing] = route(values, [v for _, v in outs], [(0, info["offset"])])
    assert landing.vout == 0
    network_fee = sum(values) - sum(v for _, v in outs)
    assert network_fee == data["networkFee"] > 0
    bidder_pays = sum(values[1:]) - outs[3][1]
    assert bidder_pays == price + postage + network_fee == data["totalCost"]


async def test_price_floor_is_10000_sats(client: httpx.AsyncClient, sandbox_node: Node) -> None:
    bidder = new_bidder(sandbox_node)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    low = await client.post("/v1/intent/bid", json=intent_body(bidder, inscription_id, 9_999))
    assert error_code(low, 400) == "SINGLE_INSCRIPTION_BID_PRICE_TOO_LOW"
    assert low.json()["details"] == {"limit": 10_000, "requested": 9_999}
    floor = await client.post("/v1/intent/bid", json=intent_body(bidder, inscription_id, 10_000))
    assert (await ok(floor))["price"] == 10_000


async def test_unknown_and_unindexed_inscriptions(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder = new_bidder(sandbox_node)
    unknown = await client.post("/v1/intent/bid", json=intent_body(bidder, "ab" * 32 + "i0"))
    assert error_code(unknown, 404) == "INSCRIPTION_NOT_FOUND"
    bad = await client.post("/v1/intent/bid", json=intent_body(bidder, "not-an-id"))
    assert error_code(bad, 400) == "INVALID_FIELD"
    # A user spends the inscribed output after another coin, paying less than that coin:
    # by ord's FIFO rule the inscribed sat goes to the fee, so no output holds it.
    holder = user(90)
    created = sandbox_node.create_inscription(holder.payment.address)
    txid, vout = sandbox_node.faucet(holder.payment.address, 20_000)
    key = txbuild_key(holder.payment)
    first = TxCoin(txid, vout, 20_000, key)
    inscribed = TxCoin(created["outpoint"].split(":")[0], 0, 10_000, key)
    sandbox_node.broadcast(spend([first, inscribed], [(holder.payment.address, 19_000)]).raw)
    lost = await client.post("/v1/intent/bid", json=intent_body(bidder, created["inscriptionId"]))
    assert error_code(lost, 400) == "INSCRIPTION_NOT_INDEXED"


async def test_bidder_who_already_owns_it(client: httpx.AsyncClient, sandbox_node: Node) -> None:
    bidder = new_bidder(sandbox_node)
    mine = sandbox_node.create_inscription(bidder.ordinals.address)["inscriptionId"]
    response = await client.post("/v1/intent/bid", json=intent_body(bidder, mine))
    assert error_code(response, 400) == "INSCRIPTION_BID_ALREADY_OWNER"


async def test_insufficient_funds_says_how_much_is_missing(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder = new_bidder(sandbox_node, fund=50_000)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    response = await client.post(
        "/v1/intent/bid", json=intent_body(bidder, inscription_id, 100_000)
    )
    assert error_code(response, 400) == "INSUFFICIENT_FUNDS"
    details = response.json()["details"]
    assert details["available"] == 50_000
    assert details["needed"] > 110_000  # price + 10,000 postage + network fee
    assert details["shortfall"] == details["needed"] - 50_000
    assert f"{details['shortfall']:,} sats are missing" in response.json()["message"]
    nothing = new_bidder(sandbox_node, fund=None)
    empty = await client.post("/v1/intent/bid", json=intent_body(nothing, inscription_id))
    assert error_code(empty, 400) == "INSUFFICIENT_FUNDS"
    assert empty.json()["details"]["available"] == 0


async def test_public_key_must_be_the_payment_address_key(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder, other = new_bidder(sandbox_node), new_bidder(sandbox_node, fund=None)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    body = intent_body(bidder, inscription_id)
    body["bidderPublicKey"] = other.payment.public.public_key.hex()
    response = await client.post("/v1/intent/bid", json=body)
    assert error_code(response, 400) == "PUBKEY_ADDRESS_MISMATCH"
    assert response.json()["field"] == "bidderPublicKey"


async def test_allowed_payment_outpoints_limit_the_funding(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder = new_bidder(sandbox_node, fund=400_000)
    txid, vout = sandbox_node.faucet(bidder.payment.address, 300_000)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    body = intent_body(bidder, inscription_id) | {"allowedPaymentOutpoints": [f"{txid}:{vout}"]}
    data = await ok(await client.post("/v1/intent/bid", json=body | {"feeRate": "halfHourFee"}))
    assert data["bidder"]["bidderPaymentUTXOs"] == [{"txid": txid, "vout": vout, "value": 300_000}]
    assert data["feeRate"] >= 2.0


async def test_request_shape_errors_name_the_field(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder = new_bidder(sandbox_node, fund=None)
    body = intent_body(bidder, "ab" * 32 + "i0")
    for change, code, field in (
        ({"price": None}, "MISSING_FIELD", "price"),
        ({"price": "100000"}, "INVALID_FIELD", "price"),
        ({"pricee": 1}, "UNKNOWN_FIELD", "pricee"),
        ({"bidderTokenReceiveAddress": "bc1qnotregtest"}, "INVALID_ADDRESS", None),
        ({"feeRate": 0.5}, "INVALID_FIELD", "feeRate"),
    ):
        response = await client.post("/v1/intent/bid", json=body | change)
        assert error_code(response, 400) == code, change
        if field:
            assert response.json()["field"] == field


async def test_spent_inscription_output_is_never_offered(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    """Moving the inscription after an intent: a new intent spends its new output."""
    bidder = new_bidder(sandbox_node)
    holder = user(91)
    created = sandbox_node.create_inscription(holder.ordinals.address)
    first = await ok(
        await client.post("/v1/intent/bid", json=intent_body(bidder, created["inscriptionId"]))
    )
    spend_outpoint(sandbox_node, holder.ordinals, created["outpoint"], holder.payment.address)
    second = await ok(
        await client.post("/v1/intent/bid", json=intent_body(bidder, created["inscriptionId"]))
    )
    one = parse_psbt(first["bidder"]["unsignedBiddingPSBTBase64"]).inputs[0]
    two = parse_psbt(second["bidder"]["unsignedBiddingPSBTBase64"]).inputs[0]
    assert f"{one.txid.hex()}:{one.vout}" == created["outpoint"]
    assert (
        f"{two.txid.hex()}:{two.vout}"
        == inscription_info(sandbox_node, created["inscriptionId"])["output"]
    )
