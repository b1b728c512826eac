"""The escrow output of secure listings is unique per listed item (the double-sale defence,
docs/sandbox-listings.md), its key survives a restart, and `--listing-escrow shared` brings the
unsafe shared layout back for QA."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.core.signing_policy import SecureListingIntent
from app.sandbox.chain.node import Node
from app.sandbox.http.app import create_app
from app.sandbox.http.settings import SandboxSettings
from app.sandbox.market.listings_intent import (
    SHARED_ESCROW_LABEL,
    TRANSFER_ALLOWANCE,
    escrow_label,
)
from app.wallet.acp_ledger import AcpCollisionError, AcpLedger
from app.wallet.addresses import decode_address
from app.wallet.keys import WalletKeys
from app.wallet.psbt_io import parse_psbt
from app.wallet.psbt_signer import SignRequest
from app.wallet.signing_gate import approved_sign_requests
from tests.sandbox.conftest import ASGI_BASE_URL
from tests.sandbox.listings.client_policy import client_verdict
from tests.sandbox.listings.helpers import inscription_info, ok
from tests.sandbox.listings.selling import activate, inscribe, listing_body, new_seller
from tests.sandbox.scenario import mine_blocks

POSTAGE = 6_000
PRICE = 75_000

Outputs = list[tuple[bytes, int]]


def _outputs(entry: dict[str, Any]) -> tuple[str, Outputs]:
    """(item outpoint, output list) of one `secureListingPSBTs` entry."""
    psbt = parse_psbt(entry["base64"])
    item = psbt.inputs[0]
    outs = [(bytes(o.script_pubkey.data), int(o.value)) for o in psbt.outputs]
    return f"{item.txid.hex()}:{item.vout}", outs


def _escrow(node: Node, label: str) -> bytes:
    return decode_address(node.sandbox_address(label, "p2tr")).script_pubkey


@asynccontextmanager
async def _served(node: Node, settings: SandboxSettings) -> AsyncIterator[httpx.AsyncClient]:
    app: FastAPI = create_app(node, settings)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url=ASGI_BASE_URL) as client:
            yield client
    finally:
        app.state.market.close()


def _guarded_requests(
    node: Node, seller: WalletKeys, entry: dict[str, Any], inscription_id: str, ledger: AcpLedger
) -> list[SignRequest]:
    """What the app's guard lets the seller sign, recording it in the signature ledger."""
    psbt = parse_psbt(entry["base64"])
    intent = SecureListingIntent(PRICE, seller.payment.address, inscription_id=inscription_id)
    verdict = client_verdict(node, seller, psbt, intent)
    assert verdict.approved, verdict.refusals
    return approved_sign_requests(psbt, verdict, ledger)


async def _equal_listings(
    client: httpx.AsyncClient, node: Node
) -> tuple[WalletKeys, list[str], list[dict[str, Any]]]:
    """Two items with the same postage listed at the same price in one bulk intent."""
    seller = new_seller()
    ids = [inscribe(node, seller, postage=POSTAGE) for _ in range(2)]
    listings = [listing_body(seller, i, price=PRICE) for i in ids]
    data = await ok(await client.post("/v1/intent/secure-bulk-sell", json={"listings": listings}))
    entries: list[dict[str, Any]] = data["seller"]["secureListingPSBTs"]
    return seller, ids, entries


def test_escrow_labels_are_per_outpoint_and_fit_a_key_label() -> None:
    first, second = escrow_label("ab" * 32 + ":0"), escrow_label("ab" * 32 + ":1")
    assert first != second
    assert first.startswith("escrow-") and len(first) == 47 <= 64
    assert escrow_label("ab" * 32 + ":0") == first  # stable


async def test_equal_listings_of_two_items_have_different_outputs(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    """Two items with the same postage, listed at the same price by single intents: without a
    per-item escrow their output lists would be equal and both signatures would fit into one
    purchase that pays the seller once."""
    seller = new_seller()
    ids = [inscribe(sandbox_node, seller, postage=POSTAGE) for _ in range(2)]
    found = []
    for inscription_id in ids:
        data = await ok(
            await client.post(
                "/v1/intent/secure-sell", json=listing_body(seller, inscription_id, price=PRICE)
            )
        )
        [entry] = data["seller"]["secureListingPSBTs"]
        found.append(_outputs(entry))
    (_, first), (_, second) = found
    assert first != second
    assert first[1:] == second[1:]  # only the escrow differs: price and taker fee are equal
    for inscription_id, (item, outs) in zip(ids, found, strict=True):
        assert item == inscription_info(sandbox_node, inscription_id)["output"]
        assert outs[0] == (_escrow(sandbox_node, escrow_label(item)), POSTAGE + TRANSFER_ALLOWANCE)


async def test_one_bulk_intent_gives_every_item_its_own_escrow(
    client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    seller = new_seller()
    ids = [inscribe(sandbox_node, seller, postage=POSTAGE) for _ in range(3)]
    listings = [listing_body(seller, i, price=PRICE) for i in ids]
    data = await ok(await client.post("/v1/intent/secure-bulk-sell", json={"listings": listings}))
    found = [_outputs(e) for e in data["seller"]["secureListingPSBTs"]]
    escrows = {outs[0] for _, outs in found}
    assert len(escrows) == 3
    assert len({tuple(outs) for _, outs in found}) == 3
    for item, outs in found:
        assert outs[0][0] == _escrow(sandbox_node, escrow_label(item))


async def test_the_apps_guard_signs_both_per_item_listings(
    client: httpx.AsyncClient, sandbox_node: Node, tmp_path: Path
) -> None:
    seller, ids, entries = await _equal_listings(client, sandbox_node)
    ledger = AcpLedger(tmp_path / "ledger.json")
    for entry, inscription_id in zip(entries, ids, strict=True):
        requests = _guarded_requests(sandbox_node, seller, entry, inscription_id, ledger)
        assert requests == [SignRequest(0, 0x81)]
    assert len(ledger.live()) == 2


async def test_shared_escrow_setting_reproduces_the_colliding_layout(tmp_path: Path) -> None:
    """`--listing-escrow shared`: two equal listings get the same outputs, and the app's guard
    signs the first and refuses the second."""
    node = Node.open(tmp_path / "data")
    try:
        async with _served(node, SandboxSettings(listing_escrow="shared")) as client:
            info = await ok(await client.get("/sandbox/info"))
            assert info["listingEscrow"] == "shared"
            seller, ids, entries = await _equal_listings(client, node)
        first, second = [_outputs(e)[1] for e in entries]
        assert first == second
        assert first[0] == (_escrow(node, SHARED_ESCROW_LABEL), POSTAGE + TRANSFER_ALLOWANCE)
        ledger = AcpLedger(tmp_path / "ledger.json")
        assert _guarded_requests(node, seller, entries[0], ids[0], ledger) == [SignRequest(0, 0x81)]
        with pytest.raises(AcpCollisionError):
            _guarded_requests(node, seller, entries[1], ids[1], ledger)
        assert len(ledger.live()) == 1
    finally:
        node.close()


async def test_default_info_reports_per_item_escrow(client: httpx.AsyncClient) -> None:
    assert (await ok(await client.get("/sandbox/info")))["listingEscrow"] == "per-item"


async def test_a_listing_made_before_a_restart_is_bought_after_it(tmp_path: Path) -> None:
    """The escrow key is registered in the chain's store when the PSBT is built: a fresh node
    on the same data directory signs the purchase's transfer out of the escrow."""
    data_dir = tmp_path / "data"
    node = Node.open(data_dir)
    try:
        async with _served(node, SandboxSettings()) as client:
            seller = new_seller()
            inscription_id = inscribe(node, seller, postage=POSTAGE)
            [listing] = await activate(
                client, seller, [listing_body(seller, inscription_id, price=PRICE)]
            )
    finally:
        node.close()

    node = Node.open(data_dir)
    try:
        async with _served(node, SandboxSettings()) as client:
            buyer_token = node.sandbox_address("restart-buyer-ordinals")
            sold = await ok(
                await client.post(
                    "/sandbox/listings/purchase",
                    json={"listingId": listing["_id"], "buyerTokenReceiveAddress": buyer_token},
                )
            )
            await mine_blocks(client)  # ord shows where the last block left it
            where = await ok(await client.get(f"/ord/inscription/{inscription_id}"))
            purchase = await ok(await client.get(f"/esplora/tx/{sold['purchaseTxid']}"))
        assert sold["status"] == "sold"
        assert (where["address"], where["output"]) == (buyer_token, f"{sold['transferTxid']}:0")
        paid = [
            o["value"]
            for o in purchase["vout"]
            if o.get("scriptpubkey_address") == seller.payment.address
        ]
        assert paid == [PRICE]
        escrow = _escrow(node, escrow_label(listing["itemOutpoint"]))
        assert purchase["vout"][0]["scriptpubkey"] == escrow.hex()
    finally:
        node.close()
