"""Ending a secure listing, as an attacker sees it, against a real sandbox process.

A listing's ALL|ANYONECANPAY signature stays valid until the item's output is spent by a
transaction that stays spent. The move that ends it must therefore not hang on anything
someone else can undo: a fee coin whose own transaction is still unconfirmed can be replaced
by whoever funded it (the service itself, for a withdrawal from the 1-of-2 bidding wallet),
which drops the move from every mempool and revives the listing while the service and this
wallet say it ended.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.services.context import ServiceContext
from app.services.end_listing import execute_end_listing, prepare_end_listing
from app.services.errors import ServiceError
from app.services.listings import ListingItem, execute_listings, prepare_listings
from app.services.listings_inventory import held_items
from tests.services.conftest import ContextFactory, SandboxControl
from tests.services.test_listings import inscribe

pytestmark = pytest.mark.asyncio(loop_scope="session")

FEE_COIN = 50_000


async def _bare_with_item(
    make_context: ContextFactory, make_keys: object, sandbox: SandboxControl
) -> tuple[ServiceContext, str]:
    """A wallet holding one confirmed inscription and no payment coin yet."""
    ctx = make_context(make_keys())  # type: ignore[operator]
    inscription = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    return ctx, inscription


@pytest.fixture
async def ord_sees_the_mempool(sandbox: SandboxControl) -> AsyncIterator[None]:
    """The sandbox's ord describing mempool outputs (unlike real ord), for this test only."""
    await sandbox.set_ord_indexes_mempool(True)
    try:
        yield
    finally:
        await sandbox.set_ord_indexes_mempool(False)


async def test_an_unconfirmed_fee_coin_is_not_spent_to_end_a_listing(
    make_context: ContextFactory, make_keys: object, sandbox: SandboxControl
) -> None:
    """Real ord has not indexed it: it waits for the indexer."""
    ctx, inscription = await _bare_with_item(make_context, make_keys, sandbox)
    pending = await sandbox.faucet(ctx.payment_address, FEE_COIN, mine=False)
    item = next(i for i in await held_items(ctx) if i.inscription_id == inscription)

    with pytest.raises(ServiceError, match="waiting for the indexer") as refused:
        await prepare_end_listing(ctx, item, fee_rate=2)
    assert "1 coin (50,000 sats) is waiting" in str(refused.value)

    # Once it confirms, the same coin pays.
    await sandbox.mine()
    plan = await prepare_end_listing(ctx, item, fee_rate=2)
    assert plan.psbt.verdict.approved
    assert [c.outpoint for c in plan.selection.coins] == [pending]


async def test_an_unconfirmed_fee_coin_an_ord_has_indexed_is_not_spent_either(
    make_context: ContextFactory,
    make_keys: object,
    sandbox: SandboxControl,
    ord_sees_the_mempool: None,
) -> None:
    """An ord that describes mempool outputs: the coin is known empty, still unconfirmed."""
    ctx, inscription = await _bare_with_item(make_context, make_keys, sandbox)
    await sandbox.faucet(ctx.payment_address, FEE_COIN, mine=False)
    item = next(i for i in await held_items(ctx) if i.inscription_id == inscription)
    with pytest.raises(ServiceError, match="only with confirmed coins") as refused:
        await prepare_end_listing(ctx, item, fee_rate=2)
    assert "1 unconfirmed coin" in str(refused.value)


async def test_confirmed_coins_pay_even_beside_an_unconfirmed_larger_one(
    make_context: ContextFactory, make_keys: object, sandbox: SandboxControl
) -> None:
    ctx, inscription = await _bare_with_item(make_context, make_keys, sandbox)
    confirmed = await sandbox.faucet(ctx.payment_address, FEE_COIN)
    await sandbox.faucet(ctx.payment_address, 10 * FEE_COIN, mine=False)
    item = next(i for i in await held_items(ctx) if i.inscription_id == inscription)

    plan = await prepare_end_listing(ctx, item, fee_rate=2)
    assert [c.outpoint for c in plan.selection.coins] == [confirmed]


async def test_a_move_still_in_the_mempool_is_said_to_leave_the_listing_valid(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    """Until the move confirms, a holder of the listing's signature can still buy with it: a
    second attempt must say so, not that the item moved."""
    inscription = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    await execute_listings(ctx, await prepare_listings(ctx, [ListingItem(80_000, inscription)]))
    item = next(i for i in await held_items(ctx) if i.inscription_id == inscription)
    done = await execute_end_listing(ctx, await prepare_end_listing(ctx, item, fee_rate=2))

    with pytest.raises(ServiceError, match="has not confirmed yet") as pending:
        await prepare_end_listing(ctx, item, fee_rate=2)
    assert done.txid in str(pending.value) and "can still" in str(pending.value)

    await sandbox.mine()
    with pytest.raises(ServiceError, match="has moved already"):
        await prepare_end_listing(ctx, item, fee_rate=2)
