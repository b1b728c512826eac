"""Ending a listing and the ledger of live ANYONECANPAY signatures, on a sandbox that builds
listings the careless way (`--listing-escrow shared`: equal prices give equal outputs).

The old listing's signature stays in the ledger until the move that ended it is 6 blocks deep
(a shallower move could be evicted or reorganised away, reviving it). But the item's new
output is created BY that move, which spends the old coin: the two coins can never be spent
together, so relisting the item at the same price right away must not be refused as a double
sale. Another item at that price still is, until the old signature is dead.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.core.signing_policy import RefusalCode
from app.services.end_listing import execute_end_listing, prepare_end_listing
from app.services.listings import ListingItem, execute_listings, prepare_listings
from app.services.listings_inventory import held_items
from app.services.psbt_flow import PsbtRefusedError
from tests.sandbox.sandbox_process import SandboxProcess
from tests.services.conftest import COIN_SATS, ContextFactory, SandboxControl
from tests.services.test_listings import inscribe_many

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 77_000


@pytest.fixture(scope="module")
def sandbox_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own sandbox, building listings with one shared escrow output."""
    root = tmp_path_factory.mktemp("shared-escrow-end-listing")
    process = SandboxProcess(
        root / "logs", root / "data", extra_args=["--listing-escrow", "shared"]
    )
    try:
        yield process.url
    finally:
        if process.proc.poll() is None:
            process.kill()


@pytest.mark.parametrize("preset", ["leather", "xverse"])
async def test_the_ended_item_is_relisted_at_once_but_no_other_item_at_its_price(
    make_context: ContextFactory, make_keys: object, sandbox: SandboxControl, preset: str
) -> None:
    """Xverse's payment coins are P2SH-P2WPKH: their scriptSig makes the move's txid differ
    from its unsigned one, and the mark must name the real one."""
    ctx = make_context(make_keys(preset))  # type: ignore[operator]
    await sandbox.faucet(ctx.payment_address, COIN_SATS)
    ended, other = await inscribe_many(sandbox, ctx.ordinals_address, 2)
    await execute_listings(ctx, await prepare_listings(ctx, [ListingItem(PRICE, ended)]))
    item = next(i for i in await held_items(ctx) if i.inscription_id == ended)
    done = await execute_end_listing(ctx, await prepare_end_listing(ctx, item, fee_rate=2))
    await sandbox.mine()
    assert ctx.acp_ledger is not None
    assert [s.spent_by for s in ctx.acp_ledger.live()] == [done.txid]

    # Another item with the old listing's outputs: still a double sale if the move is undone.
    with pytest.raises(PsbtRefusedError) as refused:
        await prepare_listings(ctx, [ListingItem(PRICE, other)])
    assert refused.value.verdict.codes == (RefusalCode.ACP_SIGNATURE_COLLISION,)

    # The item itself, on the output the move created: never spendable with the old coin.
    relist = await prepare_listings(ctx, [ListingItem(PRICE, ended)])
    assert relist.items[0].psbt.verdict.approved
    await execute_listings(ctx, relist)  # the ledger records it too
    assert {s.outpoint for s in ctx.acp_ledger.live()} == {
        item.outpoint,
        relist.items[0].psbt.review.inputs[0].outpoint,
    }
