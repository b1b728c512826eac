"""What a seller lists from, against a real sandbox process: the items the ordinals address
holds (ord), and the seller's listings with their state (from wallet contents where the service
has no list of them; None where it has neither)."""

from __future__ import annotations

import secrets
import string

import pytest

from app.services.context import ServiceContext
from app.services.listings import ListingItem, execute_listings, prepare_listings
from app.services.listings_inventory import HeldItem, held_items, my_listings
from tests.services.conftest import SandboxControl, SandboxFaults
from tests.services.test_listings import inscribe
from tests.support.journal import lines, naming

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_held_items_are_each_inscription_and_each_runes_output(
    ctx: ServiceContext, sandbox: SandboxControl, collection: str
) -> None:
    assert await held_items(ctx) == []
    rune = "HELD•" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(9))
    collected = await sandbox.inscribe(ctx.ordinals_address, collection, mine=False)
    tap = await inscribe(sandbox, ctx.ordinals_address, tap_transfer=True, mine=False)
    runes_output = await sandbox.etch_runes(ctx.ordinals_address, rune, 1_000)

    items = await held_items(ctx)

    assert [i.outpoint for i in items] == sorted(i.outpoint for i in items)
    by_key = {i.key: i for i in items}
    assert by_key.keys() == {collected.inscription_id, tap["inscriptionId"], runes_output}
    assert by_key[collected.inscription_id] == HeldItem(
        collected.outpoint, collected.inscription_id, collection=collection
    )
    assert by_key[tap["inscriptionId"]] == HeldItem(
        tap["outpoint"], tap["inscriptionId"], tap_transfer=True
    )
    runes = by_key[runes_output]
    assert runes.is_runes and runes.runes == f"1,000 {rune}"
    assert runes.listing(5_000) == ListingItem(5_000, runes_output=runes_output)
    assert by_key[collected.inscription_id].listing(7_000) == ListingItem(
        7_000, inscription_id=collected.inscription_id, collection_slug=collection
    )


async def test_my_listings_show_each_listing_with_its_state(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    assert await my_listings(ctx) == []
    inscription_id = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    (item,) = await held_items(ctx)
    await execute_listings(ctx, await prepare_listings(ctx, [item.listing(150_000)]))

    found = await my_listings(ctx)

    assert found is not None
    assert [(x.item, x.inscription_id, x.price, x.state) for x in found] == [
        (inscription_id, inscription_id, 150_000, "active")
    ]


@pytest.mark.parametrize("status", [404, 405])
async def test_without_the_list_of_listings_wallet_contents_name_them(
    status: int,
    ctx: ServiceContext,
    sandbox_faults: SandboxFaults,
    sandbox: SandboxControl,
) -> None:
    """A service without `GET /listings` (the public service): the sandbox's own
    `/address/wallet-contents` names our listed item, at its price, without a listing id."""
    inscription_id = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    (item,) = await held_items(ctx)
    await execute_listings(ctx, await prepare_listings(ctx, [item.listing(120_000)]))
    await sandbox_faults.arm(
        "reply", "/v1/listings", method="GET", status=status, body={"detail": "Not Found"}
    )
    await sandbox_faults.forget_requests()

    found = await my_listings(ctx)

    assert found is not None
    assert [(x.listing_id, x.item, x.price, x.state) for x in found] == [
        ("", inscription_id, 120_000, "active")
    ]
    asked = naming(await sandbox_faults.requests(), ctx.ordinals_address, ctx.payment_address)
    assert lines(asked) == ["GET /v1/listings", "GET /v1/address/wallet-contents"]


async def test_a_service_with_neither_list_gives_none(
    ctx: ServiceContext, sandbox_faults: SandboxFaults
) -> None:
    await sandbox_faults.arm(
        "reply", "/v1/listings", method="GET", status=404, body={"detail": "Not Found"}
    )
    contents = "/v1/address/wallet-contents"
    await sandbox_faults.arm("reply", contents, method="GET", status=404, body={"detail": "x"})
    assert await my_listings(ctx) is None
