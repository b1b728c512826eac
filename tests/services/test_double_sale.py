"""The double sale through ANYONECANPAY (issue 12, class 1), against a real sandbox process
that builds listings the careless way (`--listing-escrow shared`: every listing pays one
escrow address, so two items of equal postage at one price have identical outputs).

First the attack, reproduced: two listings signed ALL|ANYONECANPAY each on its own (as a
wallet that checks every PSBT alone would) let ONE purchase transaction spend both items and
pay the seller once; the sandbox's kernel accepts and mines it. Then the guard: the app refuses
the second signature (later, or in the same bulk), and allows it again once the first item is
sold (its signature is dead with its coin).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.core.signing_policy import RefusalCode
from app.services.acp_signatures import SPEND_DEPTH
from app.services.context import ServiceContext
from app.services.listings import (
    ListingItem,
    build_listings,
    execute_listings,
    prepare_listings,
    request_listing_psbts,
)
from app.services.psbt_flow import PsbtRefusedError
from app.wallet.addresses import decode_address
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.keys import WalletKeys
from app.wallet.psbt_fixes import FixedPSBT, new_transaction
from app.wallet.psbt_io import parse_psbt
from app.wallet.psbt_signer import SigningKey, SignRequest, sign_psbt
from tests.sandbox.sandbox_process import SandboxProcess
from tests.services.conftest import KeysFactory, SandboxControl
from tests.services.test_listings import inscribe_many, listings_of, move_item

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 100_000
SIGHASH_ALL_ANYONECANPAY = 0x81


@pytest.fixture(scope="module")
def sandbox_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own sandbox, building listings with one shared escrow output."""
    root = tmp_path_factory.mktemp("shared-escrow-sandbox")
    process = SandboxProcess(
        root / "logs", root / "data", extra_args=["--listing-escrow", "shared"]
    )
    try:
        yield process.url
    finally:
        if process.proc.poll() is None:
            process.kill()


async def test_two_signatures_with_one_output_list_sell_two_items_for_one_price(
    ctx: ServiceContext, sandbox: SandboxControl, make_keys: KeysFactory
) -> None:
    assert (await sandbox.info())["listingEscrow"] == "shared"
    a, b = await inscribe_many(sandbox, ctx.ordinals_address, 2)
    items = [ListingItem(PRICE, a), ListingItem(PRICE, b)]
    served = await request_listing_psbts(ctx, build_listings(ctx, items))
    listed = [parse_psbt(s.psbt_base64) for s in served]
    assert [o.serialize() for o in listed[0].outputs] == [o.serialize() for o in listed[1].outputs]

    # Without the guard: each PSBT signed on its own merits.
    ordinals = SigningKey(ctx.signing_keys().ordinals.private_key)
    for psbt in listed:
        sign_psbt(psbt, ordinals, [SignRequest(0, SIGHASH_ALL_ANYONECANPAY)])

    buyer = make_keys()
    outputs = [(int(o.value), bytes(o.script_pubkey.data)) for o in listed[0].outputs]
    items_value = sum(int(p.inputs[0].witness_utxo.value) for p in listed)
    pays = sum(v for v, _ in outputs) - items_value + 2_000  # 2,000 sats of network fee
    coin = await _exact_coin(sandbox, buyer, pays)
    purchase = FixedPSBT(
        new_transaction(
            2,
            0,
            [
                *(_spending(p) for p in listed),
                TransactionInput(bytes.fromhex(coin[0]), coin[1]),
            ],
            [TransactionOutput(v, Script(spk)) for v, spk in outputs],
        )
    )
    for mine, theirs in zip(purchase.inputs, (p.inputs[0] for p in listed), strict=False):
        mine.witness_utxo = theirs.witness_utxo
        mine.tap_key_sig = theirs.tap_key_sig
    buyer_script = decode_address(buyer.payment.address).script_pubkey
    purchase.inputs[2].witness_utxo = TransactionOutput(pays, Script(buyer_script))
    sign_psbt(purchase, SigningKey(buyer.payment.private_key), [SignRequest(2, 0x01)])
    finalize_psbt(purchase)
    raw = bytes(extract_transaction(purchase).serialize()).hex()

    txid = await ctx.clients.esplora.broadcast(raw)  # Bitcoin Core's interpreter accepts it
    await sandbox.mine()
    assert (await ctx.clients.esplora.tx_status(txid)).confirmed
    # Both inscriptions left, onto the one escrow output; the seller was paid once.
    for inscription_id in (a, b):
        assert (await ctx.clients.ord.inscription(inscription_id)).output == f"{txid}:0"
    receive = decode_address(ctx.payment_address).script_pubkey
    assert [v for v, spk in outputs if spk == receive] == [PRICE]


async def test_the_guard_refuses_a_second_listing_with_the_same_outputs(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    a, b = await inscribe_many(sandbox, ctx.ordinals_address, 2)
    first = await prepare_listings(ctx, [ListingItem(PRICE, a)])
    await execute_listings(ctx, first)
    with pytest.raises(PsbtRefusedError) as refused:
        await prepare_listings(ctx, [ListingItem(PRICE, b)])
    assert refused.value.verdict.codes == (RefusalCode.ACP_SIGNATURE_COLLISION,)
    message = refused.value.user_message
    assert a in message and "still valid" in message and "both items for one price" in message
    active = [
        x for x in await listings_of(sandbox, ctx.ordinals_address) if x["status"] == "active"
    ]
    assert [x["inscriptionId"] for x in active] == [a]


async def test_one_bulk_of_two_equal_listings_is_refused_before_anything_is_signed(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    a, b = await inscribe_many(sandbox, ctx.ordinals_address, 2)
    with pytest.raises(PsbtRefusedError) as refused:
        await prepare_listings(ctx, [ListingItem(PRICE, a), ListingItem(PRICE, b)])
    assert refused.value.verdict.codes == (RefusalCode.ACP_SIGNATURE_COLLISION,)
    assert "in this same batch" in refused.value.user_message
    assert ctx.acp_ledger is not None and ctx.acp_ledger.live() == ()


async def test_a_sold_items_signature_ends_with_its_coin(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    a, b = await inscribe_many(sandbox, ctx.ordinals_address, 2)
    done = await execute_listings(ctx, await prepare_listings(ctx, [ListingItem(PRICE, a)]))
    listing_id = done.listings[0].listing_id
    sold = await sandbox.call(lambda c: c.purchase_listing(listing_id))
    assert (sold.listing_id, sold.inscription_id) == (listing_id, a)
    await sandbox.mine(SPEND_DEPTH - 1)
    with pytest.raises(PsbtRefusedError):  # 5 blocks could still be reorganised away
        await prepare_listings(ctx, [ListingItem(PRICE, b)])
    await sandbox.mine()
    plan = await prepare_listings(ctx, [ListingItem(PRICE, b)])  # A's coin is spent: no clash
    assert plan.items[0].psbt.verdict.approved
    assert ctx.acp_ledger is not None and ctx.acp_ledger.live() == ()


def _spending(listing: FixedPSBT) -> TransactionInput:
    """The listed item's input as the seller signed it (ANYONECANPAY commits to nSequence)."""
    item = listing.inputs[0]
    sequence = 0xFFFFFFFF if item.sequence is None else item.sequence
    return TransactionInput(item.txid, item.vout, sequence=sequence)


async def test_an_unconfirmed_move_does_not_end_the_signature(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    """A spend in the mempool may be evicted or never confirm, and the signature would be
    valid again: only a spend buried under SPEND_DEPTH blocks ends it."""
    a, b = await inscribe_many(sandbox, ctx.ordinals_address, 2)
    first = await prepare_listings(ctx, [ListingItem(PRICE, a)])
    await execute_listings(ctx, first)
    item = first.items[0].psbt.review.inputs[0]
    assert item.value is not None
    await move_item(ctx, item.outpoint, item.value)  # in the mempool only
    with pytest.raises(PsbtRefusedError) as refused:
        await prepare_listings(ctx, [ListingItem(PRICE, b)])
    assert refused.value.verdict.codes == (RefusalCode.ACP_SIGNATURE_COLLISION,)
    await sandbox.mine(SPEND_DEPTH)
    plan = await prepare_listings(ctx, [ListingItem(PRICE, b)])
    assert plan.items[0].psbt.verdict.approved


async def _exact_coin(sandbox: SandboxControl, keys: WalletKeys, sats: int) -> tuple[str, int]:
    """A coin of exactly `sats` at `keys`' payment address (the purchase has no change)."""
    txid, vout = (await sandbox.faucet(keys.payment.address, sats)).split(":")
    return txid, int(vout)
