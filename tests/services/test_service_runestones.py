"""Secure rune listings end to end whatever runestone the service adds (issue 18): whether the
public service adds one is unknown, so the sandbox builds each plausible kind
(`--service-runestones`: none, an edict of the rune's id to the escrow, a pointer at it). For
each: a listing (and a bulk of three) reviewed (the escrow receives the runes, approved),
signed and submitted, in this process or through an offline signer with no network; then
bought by the sandbox's buyer, and the runes are at the buyer's address by the sandbox's ord."""

from __future__ import annotations

import secrets
import string
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from app.core.psbt_review_context import Role
from app.services.context import ServiceContext
from app.services.listings import (
    ListingItem,
    ListingPlan,
    ListingsDone,
    execute_listings,
    prepare_listings,
)
from app.services.offline import (
    export_offline,
    import_signed,
    listing_export_items,
    sign_offline,
    submit_imported,
)
from tests.services.conftest import ContextFactory, SandboxControl
from tests.services.test_offline import no_network, offline_ledger

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 60_000
UNITS = 4_321
MODES = ("none", "edict", "pointer")


@pytest.fixture(params=MODES)
async def runestones(request: pytest.FixtureRequest, sandbox: SandboxControl) -> AsyncIterator[str]:
    """The sandbox's service adds this kind of runestone for the test; "none" again after."""
    await sandbox.set_runestones(request.param)
    yield request.param
    await sandbox.set_runestones("none")


async def etch(sandbox: SandboxControl, address: str) -> tuple[str, str]:
    """A fresh rune of UNITS at `address`, mined (so ord knows its id): (name, outpoint)."""
    rune = "STONE•" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(10))
    return rune, await sandbox.etch_runes(address, rune, UNITS)


def check_reviews(plan: ListingPlan, runes: list[str], mode: str) -> None:
    """Each review: the escrow (output 0, the service's) receives the whole listed rune, the
    runestone (if any) is described, and the listing is approved."""
    for item, rune in zip(plan.items, runes, strict=True):
        review = item.psbt.review
        assert item.psbt.verdict.approved, item.psbt.verdict.reasons()
        escrow = review.outputs[0]
        assert Role.ORDINALS not in escrow.roles and Role.PAYMENT not in escrow.roles
        assert [(r.rune, r.amount) for r in escrow.runes] == [(rune, UNITS)]
        assert all(not o.runes for o in review.outputs[1:])
        described = review.rune_moves.describe_runestone()
        if mode == "none":
            assert described is None and len(review.outputs) == 3
        else:
            assert described is not None and described.startswith("Output 3 is a runestone")
            assert review.rune_moves.runestone_output == 3


async def bought_and_delivered(
    sandbox: SandboxControl, done: ListingsDone, runes: list[str]
) -> None:
    """The sandbox's buyer buys each listing; once mined, ord shows its runes at the buyer's
    token address (the escrow's transfer)."""
    assert [x.status for x in done.listings] == ["active"] * len(runes)
    sales = []
    for listing in done.listings:
        sold = await sandbox.http.post(
            "/sandbox/listings/purchase", json={"listingId": listing.listing_id}
        )
        assert sold.status_code == 200, sold.text
        sales.append(sold.json()["data"])
    await sandbox.mine()
    for sale, rune in zip(sales, runes, strict=True):
        delivered = await ord_output(sandbox, f"{sale['transferTxid']}:0")
        assert delivered["address"] == sale["buyerTokenReceiveAddress"]
        assert delivered["runes"][rune]["amount"] == UNITS


async def ord_output(sandbox: SandboxControl, outpoint: str) -> dict[str, Any]:
    response = await sandbox.http.get(f"/ord/output/{outpoint}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.mark.parametrize("count", [1, 3], ids=["single", "bulk of 3"])
async def test_a_rune_listing_is_approved_signed_bought_and_delivered(
    ctx: ServiceContext, sandbox: SandboxControl, runestones: str, count: int
) -> None:
    etched = [await etch(sandbox, ctx.ordinals_address) for _ in range(count)]
    runes = [rune for rune, _ in etched]
    plan = await prepare_listings(ctx, [ListingItem(PRICE, runes_output=o) for _, o in etched])
    check_reviews(plan, runes, runestones)
    await bought_and_delivered(sandbox, await execute_listings(ctx, plan), runes)


async def test_rune_listings_signed_offline_are_bought_and_delivered(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    tmp_path: Path,
    runestones: str,
) -> None:
    """A watch-only profile prepares and exports two rune listings; a machine with no network
    reviews and signs them from the files (the rune ids recorded at export let it follow an
    edict); the online side imports, submits, and the buyer gets the runes."""
    watch_only = make_context(ctx.signing_keys().watch_only())
    etched = [await etch(sandbox, ctx.ordinals_address) for _ in range(2)]
    runes = [rune for rune, _ in etched]
    plan = await prepare_listings(
        watch_only, [ListingItem(PRICE, runes_output=o) for _, o in etched]
    )
    check_reviews(plan, runes, runestones)
    manifest = export_offline(tmp_path, listing_export_items(plan))
    with no_network():
        signed = await sign_offline(tmp_path, ctx.signing_keys(), offline_ledger(tmp_path))
    assert len(signed) == 2
    assert all(s.plan.verdict.approved for s in signed)
    assert [s.plan.review.outputs[0].runes[0].amount for s in signed] == [UNITS, UNITS]
    batch = await import_signed(watch_only, tmp_path, expected=manifest)
    done = await submit_imported(watch_only, batch)
    assert isinstance(done, ListingsDone)
    await bought_and_delivered(sandbox, done, runes)
