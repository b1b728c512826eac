"""Inscription bids whatever runestone the service adds (issue 18): with the sandbox's
`--service-runestones pointer` every bid PSBT carries a runestone (the pointer at output 0, the
inscription's new home), even though the item carries no runes: the review decodes it, shows
it, and approves; the bid is placed (signed here, or by an offline signer from the exported
files), accepted, and the inscription arrives. A hostile service
that spends our runic coin in the bid and points that runestone elsewhere is refused with where
our runes would go, and nothing is sent. That hostile case stays on the fault proxy and
`HostileServer`: it spends a runic coin the test etched, a mutation the test generates that the
sandbox's tamper catalogue (docs/sandbox-faults.md) has no tamper for."""

from __future__ import annotations

import secrets
import string
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.core.psbt_review_context import Role
from app.core.runestone import encode_runestone
from app.core.signing_policy import RefusalCode
from app.services.context import ServiceContext
from app.services.inscription_bid import (
    InscriptionBidPlaced,
    execute_inscription_bid,
    prepare_inscription_bid,
)
from app.services.offline import (
    export_offline,
    import_signed,
    inscription_bid_export_items,
    sign_offline,
    submit_imported,
)
from app.services.psbt_flow import PsbtRefusedError
from app.wallet.psbt_fixes import FixedInput
from tests.services.conftest import ContextFactory, SandboxControl
from tests.services.test_inscription_bid import sandbox_held_inscription
from tests.services.test_offline import no_network, offline_ledger
from tests.services.test_tamper import bid_world
from tests.support.hostile_server import HostileServer
from tests.support.policy_checks import assert_refused
from tests.support.proxy import FaultProxy
from tests.support.psbt_scenarios import RBF_SEQUENCE
from tests.support.tamper_ops import Tamper, Target

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 50_000


@pytest.fixture
async def pointer_mode(sandbox: SandboxControl) -> AsyncIterator[None]:
    await sandbox.set_runestones("pointer")
    yield
    await sandbox.set_runestones("none")


@pytest.mark.parametrize("mode", ["none", "edict", "pointer"])
async def test_a_bid_with_the_services_runestone_is_approved_placed_and_accepted(
    ctx: ServiceContext, sandbox: SandboxControl, mode: str
) -> None:
    await sandbox.set_runestones(mode)
    try:
        inscription_id = await sandbox_held_inscription(sandbox, f"seller-stone-{mode}")
        plan = await prepare_inscription_bid(ctx, inscription_id, PRICE)
    finally:
        await sandbox.set_runestones("none")
    review = plan.psbt.review
    assert plan.psbt.verdict.approved, plan.psbt.verdict.reasons()
    described = review.rune_moves.describe_runestone()
    if mode == "pointer":  # an edict needs runes on the item to name: none here
        last = len(review.outputs) - 1
        assert review.rune_moves.runestone_output == last and review.outputs[last].is_op_return
        assert described == f"Output {last} is a runestone: the runes left go to output 0."
    else:
        assert described is None and not any(o.is_op_return for o in review.outputs)
    placed = await execute_inscription_bid(ctx, plan)
    accepted = await sandbox.http.post(
        "/sandbox/inscription-bids/accept", json={"bidId": placed.bid_id}
    )
    assert accepted.status_code == 200, accepted.text
    await sandbox.mine()
    assert (await ctx.clients.ord.inscription(inscription_id)).address == ctx.ordinals_address


async def test_a_bid_with_a_runestone_signed_offline_is_placed_and_accepted(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    tmp_path: Path,
    pointer_mode: None,
) -> None:
    """A watch-only profile prepares and exports the bid; a machine with no network reviews the
    runestone from the files and signs; the online side imports and places it."""
    watch_only = make_context(ctx.signing_keys().watch_only())
    inscription_id = await sandbox_held_inscription(sandbox, "seller-stone-offline")
    plan = await prepare_inscription_bid(watch_only, inscription_id, PRICE)
    assert plan.psbt.review.rune_moves.runestone_output is not None
    manifest = export_offline(tmp_path, inscription_bid_export_items(plan))
    with no_network():
        [signed] = await sign_offline(tmp_path, ctx.signing_keys(), offline_ledger(tmp_path))
    review = signed.plan.review
    assert signed.plan.verdict.approved, signed.plan.verdict.reasons()
    assert (
        review.rune_moves.describe_runestone() == plan.psbt.review.rune_moves.describe_runestone()
    )
    batch = await import_signed(watch_only, tmp_path, expected=manifest)
    placed = await submit_imported(watch_only, batch)
    assert isinstance(placed, InscriptionBidPlaced) and placed.bid_id is not None
    accepted = await sandbox.http.post(
        "/sandbox/inscription-bids/accept", json={"bidId": placed.bid_id}
    )
    assert accepted.status_code == 200, accepted.text
    await sandbox.mine()
    assert (await ctx.clients.ord.inscription(inscription_id)).address == ctx.ordinals_address


def spend_our_runes(txid: str, vout: int, value: int, spk: bytes) -> Tamper:
    """Add our runic coin as an input (its sats to our change, so the fee stays) and point the
    service's runestone at output 1, the seller's proceeds."""

    def mutate(t: Target) -> str:
        inp = FixedInput(vin=TransactionInput(bytes.fromhex(txid), vout, sequence=RBF_SEQUENCE))
        inp.witness_utxo = TransactionOutput(value, Script(spk))
        t.psbt.inputs.append(inp)
        t.psbt.outputs[t.out_with(Role.PAYMENT)].value += value
        stone = t.psbt.outputs[-1]
        assert bytes(stone.script_pubkey.data) == encode_runestone(pointer=0)
        stone.script_pubkey = Script(encode_runestone(pointer=1))
        return f"Input {len(t.psbt.inputs) - 1}"

    return Tamper("bid: our runes to the seller", "inscription_bid", RefusalCode.RUNES_MISDIRECTED,
                  "psbt", mutate)  # fmt: skip


async def test_a_runestone_sending_our_runes_to_the_seller_is_refused(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    proxy: FaultProxy,
    pointer_mode: None,
) -> None:
    rune = "OURS•" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(10))
    txid, vout = (await sandbox.etch_runes(ctx.payment_address, rune, 900)).split(":")
    tx = (await sandbox.http.get(f"/esplora/tx/{txid}")).json()
    out = tx["vout"][int(vout)]
    world = await bid_world(ctx, sandbox)
    tamper = spend_our_runes(txid, int(vout), out["value"], bytes.fromhex(out["scriptpubkey"]))
    hostile = HostileServer(proxy, tamper, world.context, world.prev_txs)
    hostile.arm(world.good_psbt)
    with pytest.raises(PsbtRefusedError) as refused:
        await world.run(make_context(ctx.keys, url=proxy.url))
    assert hostile.tampered == 1 and hostile.blame is not None
    verdict = refused.value.verdict
    assert_refused(verdict, RefusalCode.RUNES_MISDIRECTED, hostile.blame)
    assert_refused(verdict, RefusalCode.RUNES_MISDIRECTED, f"900 {rune}")
    assert_refused(verdict, RefusalCode.RUNES_MISDIRECTED, "go to output 1")
    assert RefusalCode.OUTPUT_NOT_ALLOWED not in verdict.codes  # the runestone itself may be
    assert hostile.submits() == []
