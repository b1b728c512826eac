"""A bulk listing records every ANYONECANPAY signature in the ledger before making any (a crash
mid-batch over-reports, never under-reports). A cancel or a failure part-way knows which PSBTs
were never signed: exactly their entries are withdrawn, so the tab does not say "Signed" of
items nobody can buy. What was signed stays recorded (sent or not), as does an older live
signature of the same coin and a signature the batch made for another of its PSBTs; an
asyncio cancel keeps the item being signed when it landed (its signing may still finish).
Against a real sandbox."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from app.core.acp_composition import acp_signatures
from app.services.context import ServiceContext
from app.services.listings import ListingError, ListingItem, execute_listings, prepare_listings
from app.services.psbt_flow import (
    CancelToken,
    OperationCancelledError,
    PsbtPlan,
    SignedPsbtMismatchError,
    sign_plans,
)
from app.wallet.addresses import KeyRole
from tests.services.conftest import SandboxControl
from tests.services.test_listings import inscribe_many, move_item

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 40_000


def keys_of(*plans: PsbtPlan) -> set[tuple[str, str]]:
    """The (outpoint, commitment) of each ANYONECANPAY signature the plans make."""
    return {
        (s.outpoint, s.commitment)
        for p in plans
        for s in acp_signatures(p.review, p.verdict, p.label)
    }


def ledger_keys(ctx: ServiceContext) -> set[tuple[str, str]]:
    assert ctx.acp_ledger is not None
    return {(s.outpoint, s.commitment) for s in ctx.acp_ledger.live()}


def cancel_after(token: CancelToken, count: int) -> Any:
    def on_progress(done: int, total: int) -> None:
        if done == count:
            token.cancel()

    return on_progress


async def plans_for(ctx: ServiceContext, sandbox: SandboxControl, count: int) -> list[PsbtPlan]:
    ids = await inscribe_many(sandbox, ctx.ordinals_address, count)
    plan = await prepare_listings(ctx, [ListingItem(PRICE, i) for i in ids])
    return [item.psbt for item in plan.items]


async def test_a_cancel_after_one_of_three_leaves_only_that_signature(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    plans = await plans_for(ctx, sandbox, 3)
    token = CancelToken()
    with pytest.raises(OperationCancelledError) as caught:
        await sign_plans(ctx, plans, cancel_after(token, 1), token)
    assert caught.value.done == 1
    assert ledger_keys(ctx) == keys_of(plans[0]) and len(keys_of(plans[0])) == 1


async def test_a_failure_on_the_second_leaves_only_the_first(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    plans = await plans_for(ctx, sandbox, 3)
    # The second is signed with a key that does not own its input: refused before any signature.
    wrong_key = replace(plans[1], signer=KeyRole.PAYMENT)
    with pytest.raises(SignedPsbtMismatchError):
        await sign_plans(ctx, [plans[0], wrong_key, plans[2]])
    assert ledger_keys(ctx) == keys_of(plans[0])


async def test_an_older_signature_of_the_same_coin_is_untouched(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 4)
    # Listed before, each signature live: one relisted at its price, one at another.
    same, other = ids[0], ids[1]
    earlier = await prepare_listings(ctx, [ListingItem(PRICE, same), ListingItem(PRICE, other)])
    await execute_listings(ctx, earlier)
    before = keys_of(*(item.psbt for item in earlier.items))
    assert ledger_keys(ctx) == before

    again = [ListingItem(PRICE, ids[2]), ListingItem(PRICE, same)]
    again += [ListingItem(PRICE + 1_000, other), ListingItem(PRICE, ids[3])]
    plans = [item.psbt for item in (await prepare_listings(ctx, again)).items]
    assert keys_of(plans[1]) <= before  # the same signature again: recorded before the batch
    assert {o for o, _ in keys_of(plans[2])} <= {o for o, _ in before}  # the same coin
    assert not keys_of(plans[2]) & before  # ... signed at another price
    token = CancelToken()
    with pytest.raises(OperationCancelledError):
        await sign_plans(ctx, plans, cancel_after(token, 1), token)
    assert ledger_keys(ctx) == before | keys_of(plans[0])


async def test_a_signature_one_signed_plan_shares_with_an_unsigned_one_stays(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    # A batch carrying one signature twice (a service serving one PSBT for two items): the
    # second copy is never signed, but the first was, and that signature exists.
    first, second = await plans_for(ctx, sandbox, 2)
    token = CancelToken()
    with pytest.raises(OperationCancelledError):
        await sign_plans(ctx, [first, second, first], cancel_after(token, 1), token)
    assert ledger_keys(ctx) == keys_of(first)


async def test_an_asyncio_cancel_keeps_the_item_being_signed_and_withdraws_the_rest(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    plans = await plans_for(ctx, sandbox, 4)
    task: asyncio.Task[Any] | None = None

    def on_progress(done: int, total: int) -> None:
        if done == 1 and task is not None:
            task.cancel()  # lands while the second is handed to the executor

    task = asyncio.ensure_future(sign_plans(ctx, plans, on_progress))
    with pytest.raises(asyncio.CancelledError):
        await task
    assert ledger_keys(ctx) == keys_of(plans[0], plans[1])


async def test_signatures_made_but_refused_at_submission_stay_recorded(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 2)
    plan = await prepare_listings(ctx, [ListingItem(PRICE, i) for i in ids])
    moved = plan.items[1].psbt.review.inputs[0]
    await move_item(ctx, moved.outpoint, moved.value or 0)
    with pytest.raises(ListingError):
        await execute_listings(ctx, plan)
    assert ledger_keys(ctx) == keys_of(*(item.psbt for item in plan.items))


async def test_a_ledger_that_cannot_be_read_at_the_cancel_keeps_everything(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    plans = await plans_for(ctx, sandbox, 2)
    ledger = ctx.acp_ledger
    assert ledger is not None
    token = CancelToken()

    def on_progress(done: int, total: int) -> None:
        ledger.path.write_text("not json")  # damaged after the first signature
        token.cancel()

    with pytest.raises(OperationCancelledError):  # the batch's own outcome, not the ledger's
        await sign_plans(ctx, plans, on_progress, token)
    assert ledger.path.read_text() == "not json"  # nothing overwritten: nothing forgotten
