"""End a secure listing by moving its item back to ourselves, in two steps:

    plan = await prepare_end_listing(ctx, held_item)   # build, review, verdict (the dialog)
    done = await execute_end_listing(ctx, plan)        # sign, check, broadcast -> txid

A secure listing is our ALL|ANYONECANPAY signature over the item's output: it stays valid
while that output is unspent, whatever the service says. So ending it spends the output: input
0 is the item (our ordinals address), the other inputs plain, confirmed coins of the payment
address that pay the fee (an unconfirmed coin's transaction could be replaced by its sender,
dropping the move and reviving the listing); output 0 gives the item's whole value back to
our ordinals address (ord's first-in-first-out rule puts the inscribed sat, or the runes,
there), output 1 the change. The ordinals address is the wallet's only one (the wallet
watches that address, so the item stays in view); a new output there is what ends the
listing, on the service (the spec's check: the item has not moved) and, once it confirms, for
anyone holding the old signature: until then a holder of it can still race the move with a
purchase (which pays the price).

We build it, and the end-listing policy (`app.core.policy_end_listing`) still reviews it like a
PSBT from anyone: a bug here cannot send the item or the coins elsewhere. Two keys sign it
(ordinals for the item, payment for the fee coins), each only the inputs the verdict approved.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from fractions import Fraction

from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.core.coin_select import (
    Coin,
    CoinSelectionError,
    NotEnoughFunds,
    Selection,
    input_weight,
    output_weight,
    select_fee_coins,
)
from app.core.psbt_review_context import Role
from app.core.signing_policy import EndListingIntent
from app.net.errors import BroadcastRejected, NetError
from app.services.coin_control import PaymentCoin, payment_coins
from app.services.context import ReviewFacts, ServiceContext
from app.services.errors import BroadcastError, InsufficientFundsError, ServiceError
from app.services.funding import RBF_SEQUENCE, choose_fee_rate
from app.services.listings_inventory import HeldItem
from app.services.psbt_flow import PsbtPlan, PsbtRefusedError, decide, gather_facts
from app.services.psbt_signed import check_signed
from app.wallet.acp_ledger import AcpLedgerError
from app.wallet.addresses import AddressType, KeyRole, PublicRoleKey
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.keys import WalletKeys
from app.wallet.psbt_fixes import FixedPSBT, new_transaction
from app.wallet.psbt_io import psbt_to_base64
from app.wallet.psbt_signer import SigningKey, sign_psbt
from app.wallet.signing_gate import approved_sign_requests

log = logging.getLogger(__name__)

ITEM_INPUT = 0


@dataclass(frozen=True)
class EndListingPlan:
    """The reviewed move of `item` back to the ordinals address (`psbt`: what the dialog shows,
    approved or refused only for its fee), paid by `selection`'s coins at `fee_rate`."""

    item: HeldItem
    psbt: PsbtPlan
    selection: Selection
    fee_rate: Fraction


@dataclass(frozen=True)
class EndListingDone:
    txid: str
    fee: int


def end_label(item: HeldItem) -> str:
    what = f"inscription {item.inscription_id}" if item.inscription_id else f"runes {item.runes}"
    return f"End the listing of {what}: move it back to your ordinals address"


async def prepare_end_listing(
    ctx: ServiceContext, item: HeldItem, fee_rate: float | Fraction | None = None
) -> EndListingPlan:
    """Build and review the move of `item` (held at our ordinals address) back to it.

    Raises `InsufficientFundsError` when the payment address's plain coins cannot pay the fee,
    `ServiceError` when the item is not on the chain as an output of ours, and
    `PsbtRefusedError` when the policy refuses (nothing to sign)."""
    ordinals = ctx.ordinals_public
    if ordinals.address_type not in (AddressType.P2TR, AddressType.P2WPKH):
        raise ServiceError("Only a taproot or native segwit ordinals address can end a listing.")
    rate = Fraction(str(fee_rate)) if fee_rate is not None else await choose_fee_rate(ctx)
    if rate <= 0:
        raise ServiceError("The fee rate must be positive.")
    txid, _, vout = item.outpoint.partition(":")
    item_facts, coins, spend = await asyncio.gather(
        gather_facts(ctx, [item.outpoint]),
        payment_coins(ctx),
        ctx.clients.esplora.outspend(txid, int(vout)),
    )
    held = item_facts.chain_utxos.get(item.outpoint)
    if spend.spent and spend.confirmed is not True:
        raise ServiceError(
            f"The item has moved already, from {item.outpoint}, by "
            f"{spend.txid or 'a transaction'}, which has not confirmed yet: until it does, the "
            "listing's signature can still be used (a purchase paying the listed price may "
            "replace that transaction). Refresh the list once it confirms."
        )
    if held is None or held.script_pubkey != ordinals.script_pubkey or spend.spent:
        raise ServiceError(
            f"{item.outpoint} is not an output of your ordinals address on the chain: the item "
            "has moved already (refresh the list)."
        )
    payment = ctx.payment_public
    # Confirmed coins only: the move must not hang on a transaction someone else can replace.
    spendable = [Coin(c.outpoint, c.value, True) for c in coins if c.spendable and c.confirmed]
    fixed = input_weight(ordinals.script_pubkey) + output_weight(ordinals.script_pubkey)
    try:
        selection = select_fee_coins(
            spendable, rate, payment.script_pubkey, fixed, payment.script_pubkey
        )
    except NotEnoughFunds as exc:
        pending = [c for c in coins if c.spendable and not c.confirmed]
        if pending:
            raise _unconfirmed_only(pending) from None
        skipped = sum(1 for c in coins if c.inscriptions or c.runes)
        waiting = [c for c in coins if not c.indexed]
        raise InsufficientFundsError(
            exc.needed,
            exc.available,
            skipped,
            waiting=len(waiting),
            waiting_sats=sum(c.value for c in waiting),
        ) from None
    except CoinSelectionError as exc:
        raise ServiceError(f"No transaction can be built to end the listing: {exc}.") from None
    psbt = _build_psbt(item.outpoint, held.value, ordinals, selection, payment)
    paying = await gather_facts(ctx, [c.outpoint for c in selection.coins])
    facts = ReviewFacts(
        {**item_facts.contents, **paying.contents},
        {**item_facts.chain_utxos, **paying.chain_utxos},
        paying.tip,
        paying.fastest_fee_rate,
    )
    intent = (
        EndListingIntent(ctx.fee_bounds, inscription_id=item.inscription_id)
        if item.inscription_id is not None
        else EndListingIntent(ctx.fee_bounds, runes_outpoint=item.outpoint)
    )
    plan = await ctx.run_cpu(
        decide,
        psbt_to_base64(psbt),
        ctx.review_context(facts),
        intent,
        KeyRole.ORDINALS,
        end_label(item),
    )
    return EndListingPlan(item, plan, selection, rate)


def _unconfirmed_only(pending: list[PaymentCoin]) -> ServiceError:
    one = len(pending) == 1
    count = "1 unconfirmed coin" if one else f"{len(pending)} unconfirmed coins"
    them, they = ("it", "it confirms") if one else ("them", "they confirm")
    return ServiceError(
        "Ending a listing pays its fee only with confirmed coins, and the payment address's "
        f"confirmed coins cannot pay it; its {count} ({sum(c.value for c in pending):,} sats) "
        f"could be replaced by whoever sent {them}, which would undo the move and keep the "
        f"listing valid. Try again once {they}."
    )


def _build_psbt(
    outpoint: str,
    value: int,
    ordinals: PublicRoleKey,
    selection: Selection,
    payment: PublicRoleKey,
) -> FixedPSBT:
    spent = [(outpoint, value, ordinals)] + [
        (c.outpoint, c.value, payment) for c in selection.coins
    ]
    vin = [
        TransactionInput(bytes.fromhex(o[:64]), int(o[65:]), sequence=RBF_SEQUENCE)
        for o, _, _ in spent
    ]
    vout = [TransactionOutput(value, Script(ordinals.script_pubkey))]
    if selection.change:
        vout.append(TransactionOutput(selection.change, Script(payment.script_pubkey)))
    psbt = FixedPSBT(new_transaction(2, 0, vin, vout))
    for inp, (_, amount, owner) in zip(psbt.inputs, spent, strict=True):
        inp.witness_utxo = TransactionOutput(amount, Script(owner.script_pubkey))
        if owner.redeem_script is not None:  # P2SH-P2WPKH: the signer needs it
            inp.redeem_script = Script(owner.redeem_script)
    return psbt


async def execute_end_listing(ctx: ServiceContext, plan: EndListingPlan) -> EndListingDone:
    """Sign exactly what the verdict approved, check it, broadcast through Esplora."""
    if not plan.psbt.verdict.approved:
        raise PsbtRefusedError(plan.psbt.review, plan.psbt.verdict, plan.psbt.label)
    raw_hex = await ctx.run_cpu(_sign_and_extract, plan.psbt, ctx.signing_keys())
    await _mark_listing_spent(ctx, plan.item.outpoint, raw_hex)
    try:
        txid = await ctx.clients.esplora.broadcast(raw_hex)
    except BroadcastRejected as exc:
        raise BroadcastError(
            f"The network refused the transaction ending the listing: {exc.reason}"
        ) from exc
    except NetError as exc:
        raise BroadcastError(
            f"The transaction ending the listing could not be sent ({type(exc).__name__}); "
            "refresh the list before trying again, it may have gone through."
        ) from exc
    return EndListingDone(txid, plan.psbt.review.fee or 0)


async def _mark_listing_spent(ctx: ServiceContext, item_outpoint: str, raw_hex: str) -> None:
    """The ledger notes that this move (the signed transaction `raw_hex`: its txid, which a
    P2SH-P2WPKH input's scriptSig changes from the unsigned one) spends the item's coin, so
    relisting the item on the move's output does not collide with the old signature (true
    even if the move never confirms: that output then never exists). A ledger that cannot be
    written keeps the collision: a refusal, never a missed double sale."""
    ledger = ctx.acp_ledger
    if ledger is None:
        return
    txid = Transaction.parse(bytes.fromhex(raw_hex)).txid().hex()
    try:
        await ctx.run_cpu(ledger.mark_spent, item_outpoint, txid)
    except AcpLedgerError as exc:
        log.info("the signature ledger was not told of the move: %s", exc)


def _sign_and_extract(plan: PsbtPlan, keys: WalletKeys) -> str:
    """The item's input with the ordinals key, the fee coins with the payment key; each only
    where the verdict approved it; then the signed PSBT must be the reviewed one signed there."""
    psbt = plan.psbt()
    requests = approved_sign_requests(psbt, plan.verdict)
    roles = {i.index: i.roles for i in plan.review.inputs}
    item = [r for r in requests if r.input_index == ITEM_INPUT]
    fee_coins = [r for r in requests if r.input_index != ITEM_INPUT]
    if any(Role.PAYMENT not in roles[r.input_index] for r in fee_coins):  # the policy's rule
        raise ServiceError("An input other than the item is not a payment coin; nothing signed.")
    if item:
        sign_psbt(psbt, SigningKey(keys.ordinals.private_key), item)
    if fee_coins:
        sign_psbt(psbt, SigningKey(keys.payment.private_key), fee_coins)
    check_signed(plan.psbt(), psbt, plan.verdict)
    finalize_psbt(psbt)
    return str(extract_transaction(psbt).serialize().hex())
