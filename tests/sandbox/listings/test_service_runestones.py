"""`--service-runestones` (`POST /sandbox/market/runestones`): the runestone the sandbox adds
to its secure rune listing PSBTs (none; an edict of the rune's ord id, amount 0, to the escrow
output 0; the pointer at it), read back by ord's own code; the listing signed, bought, and the
runes at the buyer's address by the sandbox's ord; an edict for a rune without an id yet
refused with that reason."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from app.core.runestone import Edict, RuneId, Runestone, decipher
from app.sandbox.chain.node import Node
from app.wallet.psbt_io import parse_psbt
from tests.sandbox.listings.helpers import ok
from tests.sandbox.listings.selling import activate, listing_body, new_seller
from tests.sandbox.scenario import mine_blocks

MODES = ("none", "edict", "pointer")


@pytest.fixture
async def mode_reset(client: httpx.AsyncClient) -> AsyncIterator[None]:
    yield
    await ok(await client.post("/sandbox/market/runestones", json={"mode": "none"}))


async def set_mode(client: httpx.AsyncClient, mode: str) -> None:
    assert await ok(await client.post("/sandbox/market/runestones", json={"mode": mode})) == {
        "mode": mode
    }
    assert (await ok(await client.get("/sandbox/info")))["serviceRunestones"] == mode


async def test_an_unknown_mode_is_refused(client: httpx.AsyncClient) -> None:
    response = await client.post("/sandbox/market/runestones", json={"mode": "mint"})
    assert response.status_code in (400, 422), response.text
    assert (await ok(await client.get("/sandbox/info")))["serviceRunestones"] == "none"


def expected(mode: str, rune_id: str) -> Runestone | None:
    if mode == "none":
        return None
    edicts = (Edict(RuneId.parse(rune_id), 0, 0),) if mode == "edict" else ()
    return Runestone(edicts, None, None, 0 if mode == "pointer" else None)


@pytest.mark.parametrize("mode", MODES)
async def test_a_rune_listing_carries_the_modes_runestone_and_the_buyer_gets_the_runes(
    client: httpx.AsyncClient, sandbox_node: Node, mode_reset: None, mode: str
) -> None:
    await set_mode(client, mode)
    seller = new_seller()
    rune = f"STONE•{mode.upper()}•SALE"
    outpoint = sandbox_node.create_runes(seller.ordinals.address, rune, 7_777)["outpoint"]
    await mine_blocks(client)  # the rune's id: its etching in a block
    rune_id = (await ok(await client.get(f"/ord/rune/{rune}")))["id"]
    body = listing_body(seller, runes_output=outpoint)
    data = await ok(await client.post("/v1/intent/secure-sell", json=body))
    psbt = parse_psbt(data["seller"]["secureListingPSBTs"][0]["base64"])
    scripts = [bytes(o.script_pubkey.data) for o in psbt.outputs]
    assert decipher(scripts) == expected(mode, rune_id)
    assert len(scripts) == (3 if mode == "none" else 4)  # escrow, price, fee; the runestone

    [listing] = await activate(client, seller, [body])
    token = sandbox_node.sandbox_address(f"qa-runestone-buyer-{mode}")
    sold = await ok(
        await client.post(
            "/sandbox/listings/purchase",
            json={"listingId": listing["_id"], "buyerTokenReceiveAddress": token},
        )
    )
    await mine_blocks(client)
    out = await ok(await client.get(f"/ord/output/{sold['transferTxid']}:0"))
    assert out["address"] == token and out["runes"][rune]["amount"] == 7_777


async def test_an_edict_cannot_name_a_rune_no_block_holds_yet(
    client: httpx.AsyncClient, sandbox_node: Node, mode_reset: None
) -> None:
    await set_mode(client, "edict")
    seller = new_seller()
    outpoint = sandbox_node.create_runes(seller.ordinals.address, "STONE•NOT•MINED", 5)["outpoint"]
    body = listing_body(seller, runes_output=outpoint)
    response = await client.post("/v1/intent/secure-sell", json=body)
    assert response.status_code == 400, response.text
    assert "has no id yet" in response.json()["message"]
    await set_mode(client, "pointer")  # a pointer names no rune: listed at once
    data = await ok(await client.post("/v1/intent/secure-sell", json=body))
    assert len(data["seller"]["secureListingPSBTs"]) == 1
