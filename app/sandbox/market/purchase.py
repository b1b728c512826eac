"""Secure purchases: the marketplace completes a buyer's purchase of an active secure listing,
for a buyer whose payment key the sandbox holds. Three transactions, all built and checked
here, broadcast in order (docs/sandbox-listings.md, "How the item reaches the buyer"):

1. payment prep: the buyer's coins -> one output of exactly what the purchase needs (the
   seller's signature fixed every output, so the purchase itself cannot return change), plus
   the buyer's change;
2. purchase: [input 0 = the item with the seller's ALL|ANYONECANPAY signature, input 1 = that
   exact output] -> the listing's outputs: escrow (item + 1,000 sats), the seller's price, the
   taker fee. The item's sats come first, so ord's FIFO rule puts the item on the escrow output;
3. transfer: the escrow output -> `buyerTokenReceiveAddress`, signed with the item's escrow key
   (a sandbox key registered in the chain's store when the listing PSBT was built, so it is
   found after a restart too); the fee comes out of the 1,000 sats the buyer added, so the item
   lands on the buyer's output at the same offset.
The purchase txid is recorded before broadcasting, so the chain watcher marks the listing
`sold` (not `item_moved`) when it sees it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from embit.transaction import Transaction

from app.core.errors import ErrorCode
from app.sandbox.chain.errors import ChainError
from app.sandbox.market.errors import MarketError
from app.sandbox.market.inscription_bids_funding import select_funding, spendable_coins
from app.sandbox.market.listings_intent import TRANSFER_ALLOWANCE
from app.sandbox.market.listings_items import is_spent
from app.sandbox.market.listings_store import (
    ACTIVE,
    SOLD,
    ListingIntent,
    SecureListing,
    end_listing,
    intent_by_txid,
    listing_by_id,
    record_purchase,
    record_transfer,
)
from app.sandbox.market.psbt_build import (
    SEQUENCE_RBF,
    Coin,
    InputSpec,
    build_psbt,
    estimate_vsize,
    fee_for,
)
from app.sandbox.market.psbt_build_verify import InputWitness, final_witnesses, tx_with_witnesses
from app.sandbox.market.service import Json, Market
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import parse_psbt_bytes
from app.wallet.psbt_reader import unsigned_txid


@dataclass(frozen=True)
class Buyer:
    payment_address: str
    payment_script: bytes
    token_address: str
    token_script: bytes


def active_listing(market: Market, listing_id: str) -> tuple[SecureListing, ListingIntent]:
    with market.store.reading() as conn:
        listing = listing_by_id(conn, listing_id)
        intent = None if listing is None else intent_by_txid(conn, listing.intent_txid)
    if listing is None or intent is None:
        raise MarketError(
            ErrorCode.LISTING_NOT_FOUND, f"no secure listing {listing_id}", field="listingId"
        )
    if listing.status != ACTIVE or is_spent(market.node, intent.item.outpoint):
        raise MarketError(
            ErrorCode.LISTING_NOT_ACTIVE,
            f"listing {listing_id} is {listing.status if listing.status != ACTIVE else 'moved'}"
            ", not active: it cannot be bought",
        )
    return listing, intent


def purchase_listing(market: Market, listing_id: str, buyer: Buyer, fee_rate: float) -> Json:
    """Buy the listing for `buyer`; returns the three txids and what was paid."""
    with market.lock:
        listing, intent = active_listing(market, listing_id)
        listing_psbt = parse_psbt_bytes(listing.signed_psbt)
        seller = final_witnesses(listing_psbt, [0])
        item = intent.item
        outputs = [(bytes(o.script_pubkey.data), int(o.value)) for o in listing_psbt.outputs]
        output_scripts = [spk for spk, _ in outputs]
        purchase_fee = fee_for(
            estimate_vsize([item.script_pubkey, buyer.payment_script], output_scripts), fee_rate
        )
        exact = sum(value for _, value in outputs) - item.value + purchase_fee
        coins = spendable_coins(market.node, buyer.payment_address)
        funding = select_funding(
            coins, [], [buyer.payment_script], exact, buyer.payment_script, fee_rate
        )
        prep_outputs = [(buyer.payment_script, exact)]
        if funding.change:
            prep_outputs.append((buyer.payment_script, funding.change))
        prep = build_psbt([InputSpec(c) for c in funding.coins], prep_outputs)
        prep_raw = _sandbox_signed(market, prep, funding.coins, {}, range(len(funding.coins)))
        paying = Coin(unsigned_txid(prep), 0, exact, buyer.payment_script)
        sequence = listing_psbt.inputs[0].sequence
        purchase = build_psbt(
            [InputSpec(item, sequence=SEQUENCE_RBF if sequence is None else sequence),
             InputSpec(paying)],
            outputs,
        )  # fmt: skip
        purchase_raw = _sandbox_signed(market, purchase, [item, paying], seller, [1])
        purchase_txid = unsigned_txid(purchase)
        escrow = Coin(purchase_txid, 0, outputs[0][1], outputs[0][0])
        # The buyer funded the transfer with TRANSFER_ALLOWANCE sats: its fee never exceeds
        # that (about 9 sat/vB), so the item's output keeps at least the seller's postage.
        transfer_vsize = estimate_vsize([escrow.script_pubkey], [buyer.token_script])
        transfer_fee = min(fee_for(transfer_vsize, fee_rate), TRANSFER_ALLOWANCE)
        transfer = build_psbt(
            [InputSpec(escrow)], [(buyer.token_script, escrow.value - transfer_fee)]
        )
        transfer_raw = _sandbox_signed(market, transfer, [escrow], {}, [0])
        with market.store.transaction() as conn:
            record_purchase(conn, listing.id, buyer.token_address, purchase_txid)
        prep_txid = market.node.broadcast(prep_raw)
        try:
            market.node.broadcast(purchase_raw)
        except ChainError:
            with market.store.transaction() as conn:
                conn.execute(
                    "UPDATE secure_listings SET purchase_txid = NULL, buyer_token_address = NULL "
                    "WHERE id = ?",
                    (listing.id,),
                )
            raise
        transfer_txid = market.node.broadcast(transfer_raw)
        with market.store.transaction() as conn:
            end_listing(conn, listing.id, SOLD, market.now_ms(), purchase_txid)
            record_transfer(conn, listing.id, transfer_txid)
    return {
        "listingId": listing.id,
        "status": SOLD,
        "inscriptionId": listing.inscription_id,
        "runesOutput": listing.runes_output,
        "price": listing.price,
        "takerFee": listing.taker_fee,
        "sellerReceiveAddress": listing.seller_receive_address,
        "buyerAddress": buyer.payment_address,
        "buyerTokenReceiveAddress": buyer.token_address,
        "paymentPrepTxid": prep_txid,
        "purchaseTxid": purchase_txid,
        "transferTxid": transfer_txid,
        "networkFees": funding.network_fee + purchase_fee + transfer_fee,
    }


def _sandbox_signed(
    market: Market,
    psbt: FixedPSBT,
    coins: Sequence[Coin],
    witnesses: Mapping[int, InputWitness],
    required: Sequence[int] | range,
) -> bytes:
    """The transaction with `witnesses` filled in and the sandbox's keys' signatures added;
    every input in `required` must have been signed by the sandbox."""
    raw = tx_with_witnesses(psbt, witnesses)
    signed = market.node.sign_with_sandbox_keys(raw, [c.spent_pair for c in coins])
    tx = Transaction.read_from(io.BytesIO(signed))
    missing = [i for i in required if not tx.vin[i].witness.items]
    if missing:
        raise MarketError(
            ErrorCode.NOT_SANDBOX_HELD,
            f"the sandbox holds no key for {coins[missing[0]].outpoint}: a secure purchase is "
            "completed here only for a buyer whose payment address the sandbox holds (use "
            "POST /sandbox/listings/purchase, or a GET /sandbox/... address)",
        )
    return signed
