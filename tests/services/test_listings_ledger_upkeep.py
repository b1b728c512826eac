"""Keeping the ledger of live ANYONECANPAY signatures short without a round trip per entry at
every review: a review asks the chain about the live signatures its new ones collide with (a
spent one is forgotten and no longer refuses, an unspent one still does) and about a bounded
sample of the others; every collision check still runs on every item. On test_double_sale's
sandbox, whose listings share one escrow output, so that two listings at one price collide."""

from __future__ import annotations

import pytest

from app.core.signing_policy import RefusalCode
from app.services import listings
from app.services.acp_signatures import SPEND_DEPTH
from app.services.context import ServiceContext
from app.services.listings import ListingItem, execute_listings, prepare_listings
from app.services.psbt_flow import PsbtRefusedError
from tests.services.conftest import SandboxControl, SandboxFaults
from tests.services.test_double_sale import sandbox_url as sandbox_url  # listings collide there
from tests.services.test_listings import inscribe_many
from tests.support.journal import naming

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 100_000


async def outspends_asked(faults: SandboxFaults, inscription_ids: list[str]) -> list[str]:
    """The chain's outspend lookups of the outputs our items sat on (since the journal was
    last forgotten)."""
    txids = [i.partition("i")[0] for i in inscription_ids]
    asked = naming(await faults.requests("GET", "/esplora/tx/*"), *txids)
    return [r.path for r in asked if "/outspend/" in r.path]


async def test_a_review_asks_only_about_a_sample_of_the_live_signatures(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 6)
    earlier = [ListingItem(PRICE + 1_000 * n, i) for n, i in enumerate(ids[:5])]
    await execute_listings(ctx, await prepare_listings(ctx, earlier))
    assert ctx.acp_ledger is not None and len(ctx.acp_ledger.live()) == 5

    monkeypatch.setattr(listings, "LEDGER_SWEEP_SAMPLE", 2)
    await sandbox_faults.forget_requests()
    plan = await prepare_listings(ctx, [ListingItem(PRICE + 50_000, ids[5])])
    assert plan.items[0].psbt.verdict.approved  # no collision: nothing more to ask
    assert len(await outspends_asked(sandbox_faults, ids)) == 2


async def test_a_colliding_signature_is_asked_about_whatever_the_sample(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    a, b = await inscribe_many(sandbox, ctx.ordinals_address, 2)
    done = await execute_listings(ctx, await prepare_listings(ctx, [ListingItem(PRICE, a)]))
    monkeypatch.setattr(listings, "LEDGER_SWEEP_SAMPLE", 0)
    await sandbox_faults.forget_requests()

    with pytest.raises(PsbtRefusedError) as refused:  # A's coin unspent: B would combine
        await prepare_listings(ctx, [ListingItem(PRICE, b)])
    assert refused.value.verdict.codes == (RefusalCode.ACP_SIGNATURE_COLLISION,)
    assert len(await outspends_asked(sandbox_faults, [a, b])) == 1  # A's input, B collides with

    listing_id = done.listings[0].listing_id
    sold = await sandbox.call(lambda c: c.purchase_listing(listing_id))
    assert sold.listing_id == listing_id and sold.purchase_txid
    await sandbox.mine(SPEND_DEPTH)
    plan = await prepare_listings(ctx, [ListingItem(PRICE, b)])  # A spent: forgotten
    assert plan.items[0].psbt.verdict.approved
    assert ctx.acp_ledger is not None and ctx.acp_ledger.live() == ()
