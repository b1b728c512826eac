"""Ending a secure listing end to end against a real sandbox process: list an inscription,
move it back to our ordinals address (reviewed, signed by two keys, every signature checked by
Bitcoin Core's interpreter through py-bitcoinkernel), the sandbox ends the listing at once and
mines the transaction; the item is held again, on a new output, listed nowhere."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from embit.transaction import Transaction

from app.core.psbt_review_context import Role
from app.core.signing_policy import Flow, RefusalCode
from app.services.context import ServiceContext
from app.services.end_listing import execute_end_listing, prepare_end_listing
from app.services.errors import InsufficientFundsError, ServiceError
from app.services.listings import ListingItem, execute_listings, prepare_listings
from app.services.listings_inventory import HeldItem, held_items, my_listings
from app.services.psbt_flow import PsbtRefusedError, accept_fee
from tests.services.conftest import SandboxControl
from tests.services.test_listings import inscribe, listings_of, move_item
from tests.wallet.kernel import assert_accepted

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def listed_item(ctx: ServiceContext, sandbox: SandboxControl, price: int) -> HeldItem:
    """A fresh inscription of ours, listed for `price`; the item as the inventory shows it."""
    inscription = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    plan = await prepare_listings(ctx, [ListingItem(price, inscription)])
    await execute_listings(ctx, plan)
    return next(i for i in await held_items(ctx) if i.inscription_id == inscription)


async def test_ending_a_listing_moves_the_item_back_and_the_sandbox_ends_it(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    item = await listed_item(ctx, sandbox, 120_000)
    assert [(m.item, m.state) for m in await my_listings(ctx) or []] == [
        (item.inscription_id, "active")
    ]

    plan = await prepare_end_listing(ctx, item, fee_rate=2)
    review, verdict = plan.psbt.review, plan.psbt.verdict
    assert verdict.approved and verdict.flow is Flow.END_LISTING
    assert review.inputs[0].outpoint == item.outpoint and Role.ORDINALS in review.inputs[0].roles
    assert all(Role.PAYMENT in i.roles for i in review.inputs[1:])
    assert [o.roles & {Role.ORDINALS, Role.PAYMENT} for o in review.outputs] == [
        {Role.ORDINALS},
        {Role.PAYMENT},
    ]
    assert review.outputs[0].inscriptions == (item.inscription_id,)
    assert review.fee == plan.selection.fee and review.fee is not None
    assert review.fee_rate is not None and review.fee_rate >= 2

    done = await execute_end_listing(ctx, plan)

    # Every input (ours, two keys) verified by Bitcoin Core's script interpreter.
    raw = await ctx.clients.esplora.tx_hex(done.txid)
    tx = Transaction.read_from(io.BytesIO(bytes.fromhex(raw)))
    chain = review.context.chain_utxos  # each spent output as the chain confirms it
    spent = [(chain[i.outpoint].script_pubkey, chain[i.outpoint].value) for i in review.inputs]
    assert_accepted(tx, spent)
    # The sandbox saw the item's output spent in its mempool: the listing ended.
    (ended,) = await listings_of(sandbox, ctx.ordinals_address)
    assert (ended["status"], ended["endTxid"]) == ("item_moved", done.txid)
    await sandbox.mine()
    assert (await ctx.clients.esplora.tx_status(done.txid)).confirmed
    again = next(i for i in await held_items(ctx) if i.inscription_id == item.inscription_id)
    assert again.outpoint == f"{done.txid}:0"
    assert [m.state for m in await my_listings(ctx) or []] == ["item_moved"]


async def test_an_item_that_moved_already_is_refused_before_anything_is_built(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    item = await listed_item(ctx, sandbox, 90_000)
    await move_item(ctx, item.outpoint, 10_000)
    with pytest.raises(ServiceError, match="has moved already"):
        await prepare_end_listing(ctx, item, fee_rate=2)


async def test_without_plain_payment_coins_the_fee_cannot_be_paid(
    make_context: object, make_keys: object, sandbox: SandboxControl
) -> None:
    keys = make_keys()  # type: ignore[operator]
    bare: ServiceContext = make_context(keys)  # type: ignore[operator]
    inscription = (await inscribe(sandbox, bare.ordinals_address))["inscriptionId"]
    item = next(i for i in await held_items(bare) if i.inscription_id == inscription)
    with pytest.raises(InsufficientFundsError):
        await prepare_end_listing(bare, item, fee_rate=2)


async def test_relisting_a_listed_item_replaces_its_listing_as_the_relist_warning_says(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    item = await listed_item(ctx, sandbox, 100_000)
    plan = await prepare_listings(ctx, [item.listing(150_000)])
    await execute_listings(ctx, plan)
    states = sorted((m.price, m.state) for m in await my_listings(ctx) or [])
    assert states == [(100_000, "replaced"), (150_000, "active")]


async def test_a_fee_above_the_bounds_is_signed_only_once_accepted_for_that_psbt(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    """60 sat/vB against the sandbox's estimates: above the market cap, so the plan comes back
    for the user's consent (never approved by itself); accepted, it is the same PSBT, signed."""
    item = await listed_item(ctx, sandbox, 70_000)
    plan = await prepare_end_listing(ctx, item, fee_rate=60)
    verdict = plan.psbt.verdict
    assert not verdict.approved and verdict.needs_fee_consent
    assert RefusalCode.FEE_RATE_ABOVE_MARKET in verdict.codes
    with pytest.raises(PsbtRefusedError):
        await execute_end_listing(ctx, plan)
    accepted = replace(plan, psbt=accept_fee(plan.psbt))
    assert accepted.psbt.verdict.approved and accepted.psbt.txid == plan.psbt.txid
    done = await execute_end_listing(ctx, accepted)
    assert done.fee == plan.selection.fee
    (ended,) = [x for x in await listings_of(sandbox, ctx.ordinals_address) if x["price"] == 70_000]
    assert (ended["status"], ended["endTxid"]) == ("item_moved", done.txid)
