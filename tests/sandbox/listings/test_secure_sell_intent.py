"""`POST /v1/intent/secure-sell` and `/intent/secure-bulk-sell`: the secure listing PSBT and
every rule of spec 4.9/4.10."""

from __future__ import annotations

from pathlib import Path

import httpx
from fastapi import FastAPI

from app.core.sat_flow import route
from app.core.signing_policy import SecureListingIntent
from app.sandbox.chain.node import Node
from app.sandbox.market.inscription_bids_intent import SERVICE_FEE_BPS
from app.sandbox.market.listings_intent import TRANSFER_ALLOWANCE, escrow_label
from app.wallet.acp_ledger import AcpLedger
from app.wallet.addresses import decode_address
from app.wallet.psbt_io import parse_psbt
from app.wallet.psbt_signer import SignRequest
from app.wallet.signing_gate import approved_sign_requests
from tests.sandbox.listings.client_policy import client_verdict
from tests.sandbox.listings.helpers import error_code, inscription_info, ok
from tests.sandbox.listings.selling import inscribe, listing_body, new_seller


def _intent_rows(app: FastAPI) -> int:
    with app.state.market.store.reading() as conn:
        return int(conn.execute("SELECT COUNT(*) FROM secure_listing_intents").fetchone()[0])


async def test_listing_psbt_pays_the_seller_and_sends_the_item_to_escrow(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    inscription_id = inscribe(sandbox_node, seller, postage=7_000)
    price = 120_000
    data = await ok(
        await client.post(
            "/v1/intent/secure-sell", json=listing_body(seller, inscription_id, price=price)
        )
    )
    [entry] = data["seller"]["secureListingPSBTs"]
    assert entry["indicesToSign"] == [0]
    psbt = parse_psbt(entry["base64"])
    [item] = psbt.inputs
    assert (
        f"{item.txid.hex()}:{item.vout}" == inscription_info(sandbox_node, inscription_id)["output"]
    )
    assert item.sighash_type == 0x81  # ALL|ANYONECANPAY, never SINGLE|ANYONECANPAY
    assert item.witness_utxo.value == 7_000
    assert item.taproot_internal_key.xonly() == seller.ordinals.public.xonly_public_key
    escrow_key = escrow_label(inscription_info(sandbox_node, inscription_id)["output"])
    escrow = decode_address(sandbox_node.sandbox_address(escrow_key, "p2tr")).script_pubkey
    outs = [(o.script_pubkey.data, o.value) for o in psbt.outputs]
    assert outs[0] == (escrow, 7_000 + TRANSFER_ALLOWANCE)
    assert outs[1] == (decode_address(seller.payment.address).script_pubkey, price)
    assert outs[2][1] == price * SERVICE_FEE_BPS // 10_000 == data["listings"][0]["takerFee"]
    # Whatever inputs a buyer appends, the item's sat lands on the escrow output.
    for buyer_inputs in ([200_000], [1_000, 500_000, 3]):
        values = [7_000, *buyer_inputs]
        [landing] = route(values, [v for _, v in outs], [(0, 0)])
        assert landing.vout == 0


async def test_the_apps_signing_policy_approves_the_listing_psbt(
    client: httpx.AsyncClient, sandbox_node: Node, tmp_path: Path
) -> None:
    seller = new_seller()
    inscription_id = inscribe(sandbox_node, seller)
    data = await ok(
        await client.post("/v1/intent/secure-sell", json=listing_body(seller, inscription_id))
    )
    psbt = parse_psbt(data["seller"]["secureListingPSBTs"][0]["base64"])
    intent = SecureListingIntent(50_000, seller.payment.address, inscription_id=inscription_id)
    verdict = client_verdict(sandbox_node, seller, psbt, intent)
    assert verdict.approved, verdict.refusals
    ledger = AcpLedger(tmp_path / "ledger.json")
    assert approved_sign_requests(psbt, verdict, ledger) == [SignRequest(0, 0x81)]
    item = psbt.inputs[0]
    assert [s.outpoint for s in ledger.live()] == [f"{item.txid.hex()}:{item.vout}"]


async def test_bulk_builds_one_psbt_per_listing_in_order(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    ids = [inscribe(sandbox_node, seller) for _ in range(3)]
    listings = [listing_body(seller, i, price=10_000 * (n + 1)) for n, i in enumerate(ids)]
    data = await ok(await client.post("/v1/intent/secure-bulk-sell", json={"listings": listings}))
    psbts = [parse_psbt(e["base64"]) for e in data["seller"]["secureListingPSBTs"]]
    assert [f"{p.inputs[0].txid.hex()}:{p.inputs[0].vout}" for p in psbts] == [
        inscription_info(sandbox_node, i)["output"] for i in ids
    ]
    assert [p.outputs[1].value for p in psbts] == [10_000, 20_000, 30_000]


async def test_tap_transfers_are_refused_and_nothing_is_built(
    client: httpx.AsyncClient, sandbox_node: Node, sandbox_app: FastAPI
) -> None:
    seller = new_seller()
    tap = inscribe(sandbox_node, seller, tap_transfer=True)
    plain = inscribe(sandbox_node, seller)
    single = await client.post("/v1/intent/secure-sell", json=listing_body(seller, tap))
    assert error_code(single, 400) == "SECURE_LISTING_UNSUPPORTED"
    before = _intent_rows(sandbox_app)
    bulk = {"listings": [listing_body(seller, plain), listing_body(seller, tap)]}
    response = await client.post("/v1/intent/secure-bulk-sell", json=bulk)
    assert error_code(response, 400) == "SECURE_LISTING_UNSUPPORTED"
    assert _intent_rows(sandbox_app) == before


async def test_at_most_100_listings_per_bulk_request(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    ids = [inscribe(sandbox_node, seller) for _ in range(100)]
    listings = [listing_body(seller, i) for i in ids]
    data = await ok(await client.post("/v1/intent/secure-bulk-sell", json={"listings": listings}))
    assert len(data["seller"]["secureListingPSBTs"]) == 100
    too_many = {"listings": [*listings, listings[0]]}
    response = await client.post("/v1/intent/secure-bulk-sell", json=too_many)
    assert error_code(response, 400) == "SECURE_BULK_SELL_TOO_MANY_LISTINGS"
    assert response.json()["details"] == {"limit": 100, "requested": 101}


async def test_bulk_listings_share_addresses_and_do_not_mix_items(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller, other = new_seller(), new_seller()
    a, b = inscribe(sandbox_node, seller), inscribe(sandbox_node, other)
    runes = sandbox_node.create_runes(seller.ordinals.address, "SECURE•MIX•OF•ITEMS", 10)[
        "outpoint"
    ]
    cases = [
        ([listing_body(seller, a), listing_body(other, b)], "SECURE_BULK_SELL_ADDRESSES_DIFFER",
         "listings[1].sellerOrdAddress"),
        ([listing_body(seller, a), listing_body(seller, a) | {"sellerReceiveAddress":
          other.payment.address}], "SECURE_BULK_SELL_ADDRESSES_DIFFER",
         "listings[1].sellerReceiveAddress"),
        ([listing_body(seller, a), listing_body(seller, runes_output=runes)],
         "SECURE_BULK_SELL_MIXED_ITEMS", "listings[1]"),
        ([listing_body(seller, a), listing_body(seller, a)], "SECURE_LISTING_ITEM_UNSUPPORTED",
         "listings[1]"),
    ]  # fmt: skip
    for listings, code, field in cases:
        response = await client.post("/v1/intent/secure-bulk-sell", json={"listings": listings})
        assert error_code(response, 400) == code
        assert response.json()["field"] == field


async def test_taproot_sellers_give_their_internal_key(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller, other = new_seller(), new_seller()
    inscription_id = inscribe(sandbox_node, seller)
    body = listing_body(seller, inscription_id)
    other_key = other.ordinals.public.public_key[1:].hex()
    for key in (None, other_key, "zz", "02" + "00" * 32):
        response = await client.post("/v1/intent/secure-sell", json=body | {"tapInternalKey": key})
        assert error_code(response, 400) == "SECURE_LISTING_TAP_KEY_INVALID"
    compressed = seller.ordinals.public.public_key.hex()
    await ok(
        await client.post("/v1/intent/secure-sell", json=body | {"tapInternalKey": compressed})
    )
    segwit = new_seller("unisat-p2wpkh")  # ordinals address P2WPKH: no internal key
    plain = listing_body(segwit, inscribe(sandbox_node, segwit))
    assert "tapInternalKey" not in plain
    data = await ok(await client.post("/v1/intent/secure-sell", json=plain))
    assert (
        parse_psbt(data["seller"]["secureListingPSBTs"][0]["base64"]).inputs[0].sighash_type == 0x81
    )


async def test_the_seller_must_hold_exactly_the_item(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller, other = new_seller(), new_seller()
    theirs = inscribe(sandbox_node, other)
    not_held = await client.post("/v1/intent/secure-sell", json=listing_body(seller, theirs))
    assert error_code(not_held, 400) == "SECURE_LISTING_ITEM_NOT_HELD"
    txid, vout = sandbox_node.faucet(seller.ordinals.address, 5_000)
    plain_coin = f"{txid}:{vout}"
    no_runes = await client.post(
        "/v1/intent/secure-sell", json=listing_body(seller, runes_output=plain_coin)
    )
    assert error_code(no_runes, 400) == "SECURE_LISTING_ITEM_UNSUPPORTED"
    unknown = await client.post(
        "/v1/intent/secure-sell", json=listing_body(seller, runes_output="ab" * 32 + ":7")
    )
    assert error_code(unknown, 400) == "SECURE_LISTING_ITEM_NOT_HELD"
    missing = await client.post(
        "/v1/intent/secure-sell", json=listing_body(seller, "cd" * 32 + "i0")
    )
    assert error_code(missing, 404) == "INSCRIPTION_NOT_FOUND"
    runes = sandbox_node.create_runes(seller.ordinals.address, "SECURE•OK•RUNE•ONLY", 77)[
        "outpoint"
    ]
    data = await ok(
        await client.post("/v1/intent/secure-sell", json=listing_body(seller, runes_output=runes))
    )
    assert data["listings"][0]["runesOutput"] == runes


async def test_listing_fields_are_checked(client: httpx.AsyncClient, sandbox_node: Node) -> None:
    seller = new_seller()
    body = listing_body(seller, inscribe(sandbox_node, seller))
    for change, code, field in (
        ({"price": 999}, "SECURE_LISTING_PRICE_INVALID", "price"),
        ({"price": 1.5}, "INVALID_FIELD", "price"),
        ({"runesOutput": "ab" * 32 + ":0"}, "INVALID_FIELD", "inscriptionId"),
        ({"inscriptionId": None}, "MISSING_FIELD", "inscriptionId"),
        ({"inscriptionID": "x"}, "UNKNOWN_FIELD", "inscriptionID"),
        ({"sellerOrdAddress": "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"}, "INVALID_ADDRESS",
         "sellerOrdAddress"),
    ):  # fmt: skip
        response = await client.post("/v1/intent/secure-sell", json=body | change)
        assert error_code(response, 400) == code, change
        assert response.json()["field"] == field
    await ok(await client.post("/v1/intent/secure-sell", json=body | {"price": 1_000}))
