"""Which held items carry a live listing signature of ours, from our own ledger, against a real
sandbox whose list of our listings is hidden by its own fault answering 404: a listed item is
still found signed at its price (the signature sells it whatever the service says); ending the
listing (the item moved back to us, the move recorded in the ledger) takes the mark away."""

from __future__ import annotations

import pytest

from app.services.context import ServiceContext
from app.services.end_listing import execute_end_listing, prepare_end_listing
from app.services.errors import ServiceError
from app.services.listings import ListingItem, execute_listings, listing_price_of, prepare_listings
from app.services.listings_inventory import (
    SignedOutput,
    held_items,
    my_listings,
    signed_outputs,
)
from app.wallet.acp_ledger import LEDGER_FILE
from app.wallet.keys import WalletKeys
from tests.services.conftest import ContextFactory, SandboxControl, SandboxFaults
from tests.services.test_listings import inscribe

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 30_000


async def test_a_listing_the_service_does_not_list_is_still_marked_until_the_item_moves(
    make_context: ContextFactory,
    funded_keys: WalletKeys,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
) -> None:
    await sandbox_faults.arm(
        "reply", "/v1/listings", method="GET", status=404, body={"error": "Not Found"}, times=None
    )
    # Nor wallet contents, where our listings are read next: the service names none.
    contents = "/v1/address/wallet-contents"
    await sandbox_faults.arm(
        "reply", contents, method="GET", status=404, body={"detail": "Not Found"}, times=None
    )
    ctx: ServiceContext = make_context(funded_keys)
    assert await signed_outputs(ctx) == {}
    inscription = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    await execute_listings(ctx, await prepare_listings(ctx, [ListingItem(PRICE, inscription)]))

    assert await my_listings(ctx) is None  # neither list offered
    (item,) = [i for i in await held_items(ctx) if i.inscription_id == inscription]
    assert await signed_outputs(ctx) == {item.outpoint: SignedOutput(item.outpoint, (PRICE,))}

    done = await execute_end_listing(ctx, await prepare_end_listing(ctx, item, fee_rate=2))

    assert await signed_outputs(ctx) == {}  # the move is recorded: no longer counted
    await sandbox.mine()  # ord shows the item where the last block left it
    (moved,) = [i for i in await held_items(ctx) if i.inscription_id == inscription]
    assert moved.outpoint == f"{done.txid}:0"


async def test_an_unreadable_ledger_is_an_error_not_an_empty_answer(
    make_context: ContextFactory, funded_keys: WalletKeys
) -> None:
    ctx = make_context(funded_keys)
    assert ctx.acp_ledger is not None
    ctx.acp_ledger.path.parent.mkdir(parents=True, exist_ok=True)
    ctx.acp_ledger.path.write_text("not json")
    assert ctx.acp_ledger.path.name == LEDGER_FILE
    with pytest.raises(ServiceError, match="cannot be read"):
        await signed_outputs(ctx)
    ctx.acp_ledger = None  # a watch-only profile opens none
    assert await signed_outputs(ctx) is None


async def test_the_price_is_read_back_from_a_listing_label_only() -> None:
    item = ListingItem(1_234_567, inscription_id="ab" * 32 + "i0")
    assert listing_price_of(item.label) == 1_234_567
    assert listing_price_of(ListingItem(5, runes_output="cd" * 32 + ":1").label) == 5
    assert listing_price_of("Fund the bidding wallet for 5,000 sats") is None
    assert listing_price_of("") is None
