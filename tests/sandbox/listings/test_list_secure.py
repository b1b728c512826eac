"""`POST /v1/list/secure`: what activates a listing and what is refused (spec 4.11)."""

from __future__ import annotations

from typing import Any

import coincurve
import httpx
from embit import ec

from app.sandbox.chain.node import Node
from app.wallet.keys import WalletKeys
from app.wallet.psbt_io import parse_psbt, psbt_to_base64, psbt_to_hex
from app.wallet.sighash import segwit_v0_sighash, taproot_sighash
from tests.sandbox.listings.helpers import (
    error_code,
    inscription_info,
    ok,
    sign,
    spend_outpoint,
)
from tests.sandbox.listings.selling import (
    activate,
    inscribe,
    listing_body,
    listing_status,
    new_seller,
    sign_listing,
)


async def _intent(
    client: httpx.AsyncClient, node: Node, seller: WalletKeys | None = None
) -> tuple[WalletKeys, dict[str, Any], dict[str, Any]]:
    seller = seller or new_seller()
    body = listing_body(seller, inscribe(node, seller))
    data = await ok(await client.post("/v1/intent/secure-sell", json=body))
    return seller, body, data["seller"]["secureListingPSBTs"][0]


async def test_signed_listings_become_active_and_are_shown_to_the_seller(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    listings = [listing_body(seller, inscribe(sandbox_node, seller), price=p)
                for p in (11_000, 22_000, 33_000)]  # fmt: skip
    created = await activate(client, seller, listings)
    assert [c["price"] for c in created] == [11_000, 22_000, 33_000]
    assert [c["inscriptionId"] for c in created] == [x["inscriptionId"] for x in listings]
    assert all(c["status"] == "active" and len(c["_id"]) == 24 for c in created)
    shown = await ok(
        await client.get("/v1/listings", params={"sellerOrdAddress": seller.ordinals.address})
    )
    assert {x["_id"] for x in shown["listings"]} == {c["_id"] for c in created}
    active = await ok(await client.get(
        "/v1/listings", params={"sellerOrdAddress": seller.ordinals.address, "status": "sold"}
    ))  # fmt: skip
    assert active["listings"] == []


async def test_hex_psbts_and_retries_give_the_same_listing(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller, body, entry = await _intent(client, sandbox_node)
    signed_hex = psbt_to_hex(parse_psbt(sign_listing(entry, seller)))
    submit = {"listings": [body], "signedSecureListingPSBTs": [signed_hex]}
    first = await ok(await client.post("/v1/list/secure", json=submit))
    again = await ok(await client.post("/v1/list/secure", json=submit))
    assert first["listings"][0]["_id"] == again["listings"][0]["_id"]


async def test_the_psbt_must_be_the_one_built_for_the_listing_beside_it(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    bodies = [listing_body(seller, inscribe(sandbox_node, seller)) for _ in range(2)]
    data = await ok(await client.post("/v1/intent/secure-bulk-sell", json={"listings": bodies}))
    signed = [sign_listing(e, seller) for e in data["seller"]["secureListingPSBTs"]]
    swapped = {"listings": bodies, "signedSecureListingPSBTs": signed[::-1]}
    response = await client.post("/v1/list/secure", json=swapped)
    assert error_code(response, 400) == "SECURE_LISTING_PSBT_MISMATCH"
    assert response.json()["field"] == "listings[0].inscriptionId"
    cheaper = {"listings": [bodies[0] | {"price": 49_000}], "signedSecureListingPSBTs": signed[:1]}
    response = await client.post("/v1/list/secure", json=cheaper)
    assert error_code(response, 400) == "SECURE_LISTING_PSBT_MISMATCH"
    assert response.json()["field"] == "listings[0].price"
    short = {"listings": bodies, "signedSecureListingPSBTs": signed[:1]}
    response = await client.post("/v1/list/secure", json=short)
    assert error_code(response, 400) == "SECURE_LISTING_PSBT_COUNT"
    assert response.json()["details"] == {"listings": 2, "psbts": 1}
    tampered = parse_psbt(signed[0])
    tampered.outputs[1].value -= 1_000  # the seller signed a higher price than this pays
    response = await client.post(
        "/v1/list/secure",
        json={"listings": bodies[:1], "signedSecureListingPSBTs": [psbt_to_base64(tampered)]},
    )
    assert error_code(response, 400) == "PSBT_NOT_FROM_INTENT"
    bad = {"listings": bodies[:1], "signedSecureListingPSBTs": ["not a psbt"]}
    response = await client.post("/v1/list/secure", json=bad)
    assert error_code(response, 400) == "INVALID_PSBT"
    assert response.json()["field"] == "signedSecureListingPSBTs[0]"


async def test_the_seller_signature_must_be_all_anyonecanpay_and_valid(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller, body, entry = await _intent(client, sandbox_node)
    without_type = parse_psbt(entry["base64"])
    without_type.inputs[0].sighash_type = None
    all_only = sign(psbt_to_base64(without_type), seller.ordinals, [0], 0x01)
    default = sign(psbt_to_base64(without_type), seller.ordinals, [0], 0x00)
    forged = parse_psbt(entry["base64"])
    forged.inputs[0].tap_key_sig = (
        parse_psbt(sign(entry["base64"], seller.ordinals, [0], 0x81)).inputs[0].tap_key_sig[:-2]
        + b"\0\x81"
    )  # one byte of the signature changed
    cases = [
        (entry["base64"], "not signed"),
        (all_only, "SIGHASH_ALL,"),
        (default, "SIGHASH_DEFAULT"),
        (psbt_to_base64(forged), "Bitcoin Core"),
    ]
    for psbt, reason in cases:
        submit = {"listings": [body], "signedSecureListingPSBTs": [psbt]}
        response = await client.post("/v1/list/secure", json=submit)
        assert error_code(response, 400) == "PSBT_SIGNATURE_INVALID"
        assert reason in response.json()["message"], response.json()["message"]


async def test_coincurve_signatures_of_taproot_and_segwit_sellers_are_accepted(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    """Independent signers: coincurve's Schnorr (BIP-86 tweaked key) and ECDSA, 0x81."""
    seller, body, entry = await _intent(client, sandbox_node)
    psbt = parse_psbt(entry["base64"])
    msg = taproot_sighash(psbt.tx, 0, [psbt.inputs[0].witness_utxo], 0x81)
    tweaked = seller.ordinals.private_key.taproot_tweak(b"").secret
    psbt.inputs[0].tap_key_sig = coincurve.PrivateKey(tweaked).sign_schnorr(msg) + b"\x81"
    submit = {"listings": [body], "signedSecureListingPSBTs": [psbt_to_base64(psbt)]}
    assert (await ok(await client.post("/v1/list/secure", json=submit)))["listings"]

    segwit = new_seller("unisat-p2wpkh")
    _, body, entry = await _intent(client, sandbox_node, segwit)
    psbt = parse_psbt(entry["base64"])
    utxo = psbt.inputs[0].witness_utxo
    code = b"\x76\xa9\x14" + bytes(utxo.script_pubkey.data[2:]) + b"\x88\xac"
    key = coincurve.PrivateKey(segwit.ordinals.private_key.secret)
    sig = key.sign(segwit_v0_sighash(psbt.tx, 0, code, utxo.value, 0x81), hasher=None)
    psbt.inputs[0].partial_sigs[ec.PublicKey.parse(key.public_key.format())] = sig + b"\x81"
    submit = {"listings": [body], "signedSecureListingPSBTs": [psbt_to_base64(psbt)]}
    assert (await ok(await client.post("/v1/list/secure", json=submit)))["listings"]


async def test_an_item_moved_since_the_intent_cannot_be_listed(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller, body, entry = await _intent(client, sandbox_node)
    signed = sign_listing(entry, seller)
    outpoint = inscription_info(sandbox_node, body["inscriptionId"])["output"]
    spend_outpoint(sandbox_node, seller.ordinals, outpoint, seller.ordinals.address)
    submit = {"listings": [body], "signedSecureListingPSBTs": [signed]}
    response = await client.post("/v1/list/secure", json=submit)
    assert error_code(response, 400) == "SECURE_LISTING_ITEM_MOVED"


async def test_tap_transfers_and_bad_requests(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller, body, entry = await _intent(client, sandbox_node)
    tap = listing_body(seller, inscribe(sandbox_node, seller, tap_transfer=True))
    submit = {"listings": [body, tap], "signedSecureListingPSBTs": [entry["base64"]] * 2}
    response = await client.post("/v1/list/secure", json=submit)
    assert error_code(response, 400) == "SECURE_LISTING_UNSUPPORTED"
    response = await client.post("/v1/list/secure", json={"listings": [body]})
    assert error_code(response, 400) == "MISSING_FIELD"
    response = await client.post(
        "/v1/list/secure", json={"listings": [], "signedSecureListingPSBTs": []}
    )
    assert error_code(response, 400) == "INVALID_FIELD"


async def test_listing_an_item_again_replaces_the_active_listing(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    body = listing_body(seller, inscribe(sandbox_node, seller))
    [first] = await activate(client, seller, [body])
    [second] = await activate(client, seller, [body | {"price": 70_000}])
    assert await listing_status(client, first["_id"]) == "replaced"
    assert await listing_status(client, second["_id"]) == "active"
    missing = await client.get("/v1/listings/" + "e" * 24)
    assert error_code(missing, 404) == "LISTING_NOT_FOUND"
