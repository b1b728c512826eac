"""Secure listings end to end against a real sandbox process: one, a bulk of 10, a TAP
transfer the service refuses, and an item that moves before `/list/secure`."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.core.psbt_review import SIGHASH_ALL_ANYONECANPAY
from app.core.psbt_review_context import Role
from app.services.context import ServiceContext
from app.services.listings import (
    ListingError,
    ListingItem,
    TapTransferNotListableError,
    execute_listings,
    facts_of_inputs,
    foreseen_facts,
    prepare_listings,
)
from app.services.psbt_flow import CancelToken, OperationCancelledError, input_outpoints
from app.wallet.addresses import decode_address
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_fixes import FixedPSBT, new_transaction
from app.wallet.psbt_signer import SigningKey, SignRequest, sign_psbt
from tests.services.conftest import SandboxControl, SandboxFaults
from tests.support.journal import lines, naming

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def inscribe(
    sandbox: SandboxControl, address: str, *, tap_transfer: bool = False, mine: bool = True
) -> dict[str, Any]:
    body = {"address": address, "tapTransfer": tap_transfer}
    response = await sandbox.http.post("/sandbox/inscriptions", json=body)
    assert response.status_code == 201, response.text
    if mine:
        await sandbox.mine()
    created: dict[str, Any] = response.json()
    return created


async def inscribe_many(sandbox: SandboxControl, address: str, count: int) -> list[str]:
    ids = [(await inscribe(sandbox, address, mine=False))["inscriptionId"] for _ in range(count)]
    await sandbox.mine()
    return ids


async def listings_of(sandbox: SandboxControl, address: str) -> list[dict[str, Any]]:
    response = await sandbox.http.get("/v1/listings", params={"sellerOrdAddress": address})
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["data"]["listings"]
    return found


async def listings_sent(faults: SandboxFaults, ctx: ServiceContext) -> list[Any]:
    """The secure listing submissions (`POST /v1/list/secure`) of ctx's items so far."""
    return naming(await faults.requests("POST", "/v1/list/secure"), ctx.ordinals_address)


async def move_item(ctx: ServiceContext, outpoint: str, value: int) -> str:
    """Spend our ordinals output `outpoint` to a fresh address (the item moves away)."""
    keys = ctx.signing_keys()
    txid, vout = outpoint.split(":")
    away = decode_address(keys.payment.address).script_pubkey
    vin = [TransactionInput(bytes.fromhex(txid), int(vout), sequence=0xFFFFFFFD)]
    vout_list = [TransactionOutput(value - 1_000, Script(away))]
    psbt = FixedPSBT(new_transaction(2, 0, vin, vout_list))
    psbt.inputs[0].witness_utxo = TransactionOutput(value, Script(keys.ordinals.script_pubkey))
    sign_psbt(psbt, SigningKey(keys.ordinals.private_key), [SignRequest(0, 0x00)])
    finalize_psbt(psbt)
    raw = bytes(extract_transaction(psbt).serialize())
    return await ctx.clients.esplora.broadcast(raw.hex())


async def test_one_listing_is_reviewed_signed_and_active(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    inscription = await inscribe(sandbox, ctx.ordinals_address)
    plan = await prepare_listings(ctx, [ListingItem(150_000, inscription["inscriptionId"])])

    (item,) = plan.items
    assert item.psbt.verdict.approved and item.indices_to_sign == (0,)
    assert [(p.input_index, p.sighash) for p in item.psbt.verdict.to_sign] == [
        (0, SIGHASH_ALL_ANYONECANPAY)
    ]
    review = item.psbt.review
    assert Role.ORDINALS in review.inputs[0].roles
    assert any(o.value >= 150_000 and Role.PAYMENT in o.roles for o in review.outputs)
    assert review.inputs[0].contents is not None
    done = await execute_listings(ctx, plan)

    assert [x.status for x in done.listings] == ["active"]
    active = await listings_of(sandbox, ctx.ordinals_address)
    assert [(x["inscriptionId"], x["status"]) for x in active] == [
        (inscription["inscriptionId"], "active")
    ]


async def test_a_bulk_of_ten_is_signed_with_progress_and_all_active(
    ctx: ServiceContext, sandbox: SandboxControl, sandbox_faults: SandboxFaults
) -> None:
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 10)
    await sandbox_faults.forget_requests()  # from here on the sandbox hears this listing only
    reviewed: list[tuple[int, int]] = []
    signed: list[tuple[int, int]] = []
    items = [ListingItem(100_000 + 1_000 * n, i) for n, i in enumerate(ids)]

    plan = await prepare_listings(ctx, items, progress=lambda d, t: reviewed.append((d, t)))
    done = await execute_listings(ctx, plan, progress=lambda d, t: signed.append((d, t)))

    seen = lines(await sandbox_faults.requests())
    assert reviewed == signed == [(n, 10) for n in range(1, 11)]
    ours = lines(naming(await sandbox_faults.requests("POST", "/v1/*"), ctx.ordinals_address))
    assert ours.count("POST /v1/intent/secure-bulk-sell") == 1
    assert ours.count("POST /v1/list/secure") == 1
    # The review's facts in batches, asked while the service builds the PSBTs: ord once for
    # where the items sit, once for those outputs and once for the inscriptions on them; the
    # chain once per transaction spent.
    assert (seen.count("POST /ord/outputs"), seen.count("POST /ord/inscriptions")) == (1, 2)
    assert not [p for p in seen if p.startswith(("GET /ord/output/", "GET /ord/inscription/"))]
    spent_txids = {o.partition(":")[0] for x in plan.items for o in input_outpoints(x.psbt.psbt())}
    tx_lookups = [p for p in seen if p.startswith("GET /esplora/tx/") and p.endswith("/hex")]
    assert sorted(tx_lookups) == sorted(f"GET /esplora/tx/{t}/hex" for t in spent_txids)
    assert sorted(x.inscription_id or "" for x in done.listings) == sorted(ids)
    active = await listings_of(sandbox, ctx.ordinals_address)
    assert sorted(x["inscriptionId"] for x in active if x["status"] == "active") == sorted(ids)


async def test_a_cancelled_bulk_signs_no_further_and_sends_nothing(
    ctx: ServiceContext, sandbox: SandboxControl, sandbox_faults: SandboxFaults
) -> None:
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 4)
    plan = await prepare_listings(ctx, [ListingItem(50_000, i) for i in ids])
    token = CancelToken()
    signed: list[int] = []

    def on_progress(done: int, total: int) -> None:
        signed.append(done)
        if done == 2:
            token.cancel()

    with pytest.raises(OperationCancelledError) as caught:
        await execute_listings(ctx, plan, progress=on_progress, cancel=token)
    assert caught.value.done == 2 and signed == [1, 2]
    assert await listings_sent(sandbox_faults, ctx) == []
    assert await listings_of(sandbox, ctx.ordinals_address) == []


async def test_an_asyncio_cancel_stops_between_items_and_sends_nothing(
    ctx: ServiceContext, sandbox: SandboxControl, sandbox_faults: SandboxFaults
) -> None:
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 4)
    plan = await prepare_listings(ctx, [ListingItem(50_000, i) for i in ids])
    signed: list[int] = []
    task: asyncio.Task[Any] | None = None

    def on_progress(done: int, total: int) -> None:
        signed.append(done)
        if done == 1 and task is not None:
            task.cancel()  # the GUI closed the dialog

    task = asyncio.ensure_future(execute_listings(ctx, plan, progress=on_progress))
    with pytest.raises(asyncio.CancelledError):
        await task
    assert signed == [1]
    assert await listings_sent(sandbox_faults, ctx) == []
    assert await listings_of(sandbox, ctx.ordinals_address) == []


async def test_a_tap_transfer_is_refused_with_a_plain_explanation(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    tap = await inscribe(sandbox, ctx.ordinals_address, tap_transfer=True)
    plain = await inscribe(sandbox, ctx.ordinals_address)
    items = [ListingItem(80_000, plain["inscriptionId"]), ListingItem(80_000, tap["inscriptionId"])]
    with pytest.raises(TapTransferNotListableError) as caught:
        await prepare_listings(ctx, items)
    assert caught.value.error_code == "SECURE_LISTING_UNSUPPORTED"
    assert "TAP token transfer" in caught.value.user_message
    assert "regular listing" in caught.value.user_message
    assert await listings_of(sandbox, ctx.ordinals_address) == []


async def test_an_item_moved_before_submission_is_refused_with_the_services_reason(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    inscription = await inscribe(sandbox, ctx.ordinals_address)
    plan = await prepare_listings(ctx, [ListingItem(120_000, inscription["inscriptionId"])])
    await move_item(ctx, inscription["outpoint"], plan.items[0].psbt.review.inputs[0].value or 0)

    with pytest.raises(ListingError) as caught:
        await execute_listings(ctx, plan)
    assert caught.value.error_code == "SECURE_LISTING_ITEM_MOVED"
    assert "moved" in caught.value.user_message
    assert await listings_of(sandbox, ctx.ordinals_address) == []


async def test_foreseen_facts_serve_only_when_they_cover_every_input(
    ctx: ServiceContext, sandbox: SandboxControl, sandbox_faults: SandboxFaults
) -> None:
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 3)
    items = [ListingItem(100_000, i) for i in ids]
    foreseen = await foreseen_facts(ctx, items[:2])
    assert foreseen is not None
    sits_on, facts = foreseen
    assert sits_on == {f"{i.partition('i')[0]}:0" for i in ids[:2]}
    assert set(facts.contents) == set(facts.chain_utxos) == sits_on

    await sandbox_faults.forget_requests()
    first = sorted(sits_on)[0]
    only = await facts_of_inputs(ctx, [first], foreseen)
    assert (set(only.contents), set(only.chain_utxos)) == ({first}, {first})  # just the inputs
    assert lines(await sandbox_faults.requests()) == []  # nothing asked again

    unforeseen = f"{ids[2].partition('i')[0]}:0"
    asked = await facts_of_inputs(ctx, [first, unforeseen], foreseen)
    assert set(asked.contents) == set(asked.chain_utxos) == {first, unforeseen}
    # asked now, for every input
    assert naming(await sandbox_faults.requests("POST", "/ord/outputs"), first, unforeseen)
