"""`POST /v1/bid/place`, single-inscription form: what opens a bid and what is refused."""

from __future__ import annotations

from typing import Any

import coincurve
import httpx
import pytest
from embit import ec

from app.core.signing_policy import FeeBounds, InscriptionBidIntent
from app.sandbox.chain.node import Node
from app.wallet.keys import WalletKeys
from app.wallet.psbt_io import parse_psbt, psbt_to_base64
from app.wallet.psbt_signer import SigningKey, SignRequest, sign_psbt
from app.wallet.sighash import segwit_v0_sighash
from app.wallet.signing_gate import approved_sign_requests
from tests.sandbox.inscription_bids.bidding import (
    bid_status,
    intent_body,
    new_bidder,
    open_bid,
    place_body,
    sandbox_inscription,
)
from tests.sandbox.listings.client_policy import client_verdict
from tests.sandbox.listings.helpers import SIGHASH_ALL, error_code, ok, sign


async def _intent(
    client: httpx.AsyncClient, node: Node, preset: str = "xverse-native"
) -> tuple[WalletKeys, dict[str, Any], dict[str, Any]]:
    bidder = new_bidder(node, preset=preset)
    inscription_id, _ = sandbox_inscription(node)
    body = intent_body(bidder, inscription_id)
    data = await ok(await client.post("/v1/intent/bid", json=body))
    return bidder, body, data["bidder"]


async def test_signed_bid_opens_is_listed_and_a_retry_gives_the_same_bid(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder, body, psbt = await _intent(client, sandbox_node)
    signed = sign(psbt["unsignedBiddingPSBTBase64"], bidder.payment, psbt["indicesToSign"], 1)
    placed = await ok(await client.post("/v1/bid/place", json=place_body(body, signed)))
    assert placed["status"] == "open" and placed["message"] == "Successfully bid!"
    again = await ok(await client.post("/v1/bid/place", json=place_body(body, signed)))
    assert again["bidId"] == placed["bidId"]

    listed = await ok(
        await client.get("/v1/address/bids", params={"address": bidder.ordinals.address})
    )
    [entry] = [e for e in listed["results"] if e["bid_id"]["$oid"] == placed["bidId"]]
    assert entry["type"] == "individual"
    assert entry["inscription_id"] == body["inscriptionId"]
    assert entry["price"] == body["price"] and entry["isNonCustodial"] is True
    mine = await ok(
        await client.get("/v1/address/inscription-bids", params={"address": bidder.payment.address})
    )
    assert [e["status"] for e in mine["results"]] == ["open"]


@pytest.mark.parametrize(("preset", "sighash"), [("unisat-p2tr", 0x00), ("unisat-p2tr", 0x01),
                                                 ("xverse", 0x01)])  # fmt: skip
async def test_taproot_and_nested_segwit_payment_addresses(
    client: httpx.AsyncClient, sandbox_node: Node, preset: str, sighash: int
) -> None:
    bidder, body, psbt = await _intent(client, sandbox_node, preset)
    signed = sign(psbt["unsignedBiddingPSBTBase64"], bidder.payment, psbt["indicesToSign"], sighash)
    placed = await ok(await client.post("/v1/bid/place", json=place_body(body, signed)))
    assert placed["status"] == "open"


async def test_a_signature_made_with_coincurve_is_accepted(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    """An independent signer (libsecp256k1 through coincurve, over the BIP-143 sighash)."""
    bidder, body, psbt_data = await _intent(client, sandbox_node)
    psbt = parse_psbt(psbt_data["unsignedBiddingPSBTBase64"])
    secret = coincurve.PrivateKey(bidder.payment.private_key.secret)
    pub = secret.public_key.format(compressed=True)
    script_code = b"\x76\xa9\x14" + bytes(psbt.inputs[1].witness_utxo.script_pubkey.data[2:])
    script_code += b"\x88\xac"
    tx = psbt.tx
    for i in psbt_data["indicesToSign"]:
        msg = segwit_v0_sighash(tx, i, script_code, psbt.inputs[i].witness_utxo.value, 1)
        psbt.inputs[i].partial_sigs[ec.PublicKey.parse(pub)] = secret.sign(msg, hasher=None) + b"\1"
    placed = await client.post("/v1/bid/place", json=place_body(body, psbt_to_base64(psbt)))
    assert (await ok(placed))["status"] == "open"


async def test_the_apps_signing_policy_approves_the_intent(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder, body, psbt_data = await _intent(client, sandbox_node)
    psbt = parse_psbt(psbt_data["unsignedBiddingPSBTBase64"])
    intent = InscriptionBidIntent(body["inscriptionId"], body["price"], FeeBounds.of(20_000, 50))
    verdict = client_verdict(sandbox_node, bidder, psbt, intent)
    assert verdict.approved, verdict.refusals
    requests = approved_sign_requests(psbt, verdict)
    assert requests == [SignRequest(i, 0x01) for i in psbt_data["indicesToSign"]]
    sign_psbt(psbt, SigningKey(bidder.payment.private_key), requests)
    placed = await client.post("/v1/bid/place", json=place_body(body, psbt_to_base64(psbt)))
    assert (await ok(placed))["status"] == "open"


async def test_anything_changed_besides_signatures_is_refused(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder, body, psbt_data = await _intent(client, sandbox_node)
    signed = parse_psbt(
        sign(psbt_data["unsignedBiddingPSBTBase64"], bidder.payment, [1], SIGHASH_ALL)
    )
    more = parse_psbt(psbt_to_base64(signed))
    more.outputs[-1].value += 1  # the change: still signed, but another transaction
    utxo = parse_psbt(psbt_to_base64(signed))
    utxo.inputs[1].witness_utxo.value += 1
    seller = parse_psbt(psbt_to_base64(signed))
    seller.inputs[0].partial_sigs[ec.PublicKey.parse(bidder.payment.public.public_key)] = b"\1"
    for tampered in (more, utxo, seller):
        response = await client.post(
            "/v1/bid/place", json=place_body(body, psbt_to_base64(tampered))
        )
        assert error_code(response, 400) == "PSBT_NOT_FROM_INTENT"
        assert response.json()["field"] == "signedBiddingPSBT"
    for name, value in (("price", body["price"] + 1), ("bidderTokenReceiveAddress",
                                                        bidder.payment.address)):  # fmt: skip
        wrong = place_body(body, psbt_to_base64(signed)) | {name: value}
        response = await client.post("/v1/bid/place", json=wrong)
        assert error_code(response, 400) == "INSCRIPTION_BID_FIELDS_MISMATCH"
        assert response.json()["field"] == name
    garbage = await client.post("/v1/bid/place", json=place_body(body, "cHNidP8BAAo="))
    assert error_code(garbage, 400) == "INVALID_PSBT"


async def test_missing_wrong_sighash_and_foreign_signatures_are_refused(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    bidder, body, psbt_data = await _intent(client, sandbox_node)
    unsigned = psbt_data["unsignedBiddingPSBTBase64"]
    acp = sign(unsigned, bidder.payment, [1], 0x81)
    forged = parse_psbt(unsigned)
    # A signature by another key, filed under the bidder's public key.
    other = SigningKey(ec.PrivateKey(b"\x07" * 32))
    utxo = forged.inputs[1].witness_utxo
    script_code = b"\x76\xa9\x14" + bytes(utxo.script_pubkey.data[2:]) + b"\x88\xac"
    msg = segwit_v0_sighash(forged.tx, 1, script_code, utxo.value, 1)
    forged.inputs[1].partial_sigs[ec.PublicKey.parse(bidder.payment.public.public_key)] = (
        other.ecdsa_sign(msg) + b"\1"
    )
    for psbt, reason in ((unsigned, "not signed"), (acp, "ALL|ANYONECANPAY"),
                         (psbt_to_base64(forged), "Bitcoin Core")):  # fmt: skip
        response = await client.post("/v1/bid/place", json=place_body(body, psbt))
        assert error_code(response, 400) == "PSBT_SIGNATURE_INVALID"
        assert response.json()["details"] == {"input": 1}
        assert reason in response.json()["message"]
    ok_signed = sign(unsigned, bidder.payment, [1], SIGHASH_ALL)
    placed = await ok(await client.post("/v1/bid/place", json=place_body(body, ok_signed)))
    assert await bid_status(client, placed["bidId"]) == "open"


async def test_open_bid_helper_round_trip(client: httpx.AsyncClient, sandbox_node: Node) -> None:
    bidder = new_bidder(sandbox_node)
    inscription_id, _ = sandbox_inscription(sandbox_node)
    bid_id, _ = await open_bid(client, bidder, inscription_id)
    assert await bid_status(client, bid_id) == "open"
    missing = await client.get("/v1/inscription-bids/" + "0" * 24)
    assert error_code(missing, 404) == "INSCRIPTION_BID_NOT_FOUND"
