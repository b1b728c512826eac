"""`POST /list/secure {listings, signedSecureListingPSBTs}`: activate secure listings.

Refused as a whole (nothing activated) unless, for every listing, in the intent's order:
1. no TAP token transfer is among them (400 SECURE_LISTING_UNSUPPORTED, before anything else);
2. its PSBT (base64 or hex) has the unsigned transaction an intent built, with the witness UTXO
   it recorded, and the listing beside it has the terms it was built for (item, price, both
   addresses): so the PSBT pays what the listing says;
3. the item has not moved: its output is unspent, so sellerOrdAddress still holds it;
4. input 0 is signed with SIGHASH_ALL|ANYONECANPAY and Bitcoin Core's interpreter accepts it.
An activated listing replaces an active listing of the same item. Sending the same signed PSBT
again answers the same listing (a safe retry).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from app.core.errors import ErrorCode
from app.sandbox.market import inscription_bids_fields as fields
from app.sandbox.market.bid_store import new_bid_ids
from app.sandbox.market.errors import MarketError
from app.sandbox.market.inscription_bids_place import read_psbt
from app.sandbox.market.listings_fields import ListingRequest
from app.sandbox.market.listings_intent import (
    SIGHASH_ALL_ANYONECANPAY,
    check_no_tap,
    parse_listing_array,
)
from app.sandbox.market.listings_items import is_spent
from app.sandbox.market.listings_store import (
    ACTIVE,
    ListingIntent,
    SecureListing,
    insert_listing,
    intent_by_txid,
    listing_by_intent,
    replace_active,
)
from app.sandbox.market.listings_view import listing_entry
from app.sandbox.market.psbt_build_verify import SignatureCheckError, check_signed_inputs
from app.sandbox.market.service import Json, Market
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import psbt_to_bytes
from app.wallet.psbt_reader import unsigned_txid

PSBTS = "signedSecureListingPSBTs"


@dataclass(frozen=True)
class _Checked:
    listing: ListingRequest
    intent: ListingIntent
    psbt: FixedPSBT


def list_secure(market: Market, body: Any) -> Json:
    obj = fields.as_object(body)
    listings = parse_listing_array(obj, "listings", frozenset({PSBTS}), shared=False)
    raw = fields.require(obj, PSBTS)
    if not isinstance(raw, list) or len(raw) != len(listings):
        count = len(raw) if isinstance(raw, list) else 0
        raise MarketError(
            ErrorCode.SECURE_LISTING_PSBT_COUNT,
            f"{len(listings)} listings but {count} signed PSBTs: send one signed PSBT per "
            "listing, in the order of the intent",
            details={"listings": len(listings), "psbts": count},
        )
    check_no_tap(market, listings)
    checked = [_check(market, listing, raw[i], i) for i, listing in enumerate(listings)]
    now = market.now_ms()
    results = []
    with market.lock, market.store.transaction() as conn:
        for item in checked:
            existing = listing_by_intent(conn, item.intent.txid)
            if existing is not None and existing.status == ACTIVE:
                results.append(existing)
                continue
            replace_active(conn, item.intent.item.outpoint, now)
            listing = _new_listing(item, now, existing)
            if existing is not None:  # a replaced listing listed again: active once more
                conn.execute("DELETE FROM secure_listings WHERE id = ?", (existing.id,))
            insert_listing(conn, listing)
            results.append(listing)
    return {"listings": [listing_entry(listing) for listing in results]}


def _new_listing(item: _Checked, now: int, previous: SecureListing | None) -> SecureListing:
    req = item.listing
    listing = SecureListing(
        id=new_bid_ids(1, now)[0],
        intent_txid=item.intent.txid,
        item_outpoint=item.intent.item.outpoint,
        inscription_id=req.inscription_id,
        runes_output=req.runes_output,
        seller_ord_address=req.seller_ord_address,
        seller_receive_address=req.seller_receive_address,
        collection_slug=req.collection_slug,
        price=req.price,
        taker_fee=item.intent.taker_fee,
        signed_psbt=psbt_to_bytes(item.psbt),
        status=ACTIVE,
        created_ms=now,
    )
    return listing if previous is None else replace(listing, id=previous.id)


def _check(market: Market, listing: ListingRequest, raw: Any, index: int) -> _Checked:
    field = f"{PSBTS}[{index}]"
    psbt = read_psbt(raw, field)
    with market.store.reading() as conn:
        intent = intent_by_txid(conn, unsigned_txid(psbt))
    if intent is None:
        raise MarketError(
            ErrorCode.PSBT_NOT_FROM_INTENT,
            f"{field} is not a secure listing PSBT the intent endpoints built, or something "
            "besides the signature was changed in it",
            field=field,
        )
    terms = listing.terms()
    for name, built in intent.terms.items():
        if terms.get(name) != built:
            raise MarketError(
                ErrorCode.SECURE_LISTING_PSBT_MISMATCH,
                f"{listing.field(name)} is {terms.get(name)!r} but {field} was built for "
                f"{built!r}: send each listing with its own PSBT, in the intent's order",
                field=listing.field(name),
            )
    utxo = psbt.inputs[0].witness_utxo
    if utxo is not None and (utxo.value, bytes(utxo.script_pubkey.data)) != (
        intent.item.spent_pair
    ):
        raise MarketError(
            ErrorCode.PSBT_NOT_FROM_INTENT,
            f"{field}: the witness UTXO of input 0 was changed",
            field=field,
        )
    if is_spent(market.node, intent.item.outpoint):
        raise MarketError(
            ErrorCode.SECURE_LISTING_ITEM_MOVED,
            f"{listing.item} moved since the intent ({intent.item.outpoint} is spent): "
            "build a new secure listing PSBT",
            field=listing.field("inscriptionId" if listing.inscription_id else "runesOutput"),
        )
    try:
        check_signed_inputs(psbt, [intent.item], [0], {0: {SIGHASH_ALL_ANYONECANPAY}})
    except SignatureCheckError as exc:
        raise MarketError(
            ErrorCode.PSBT_SIGNATURE_INVALID,
            f"{field} input 0: {exc.reason}; sign the item's input with SIGHASH_ALL|ANYONECANPAY",
            field=field,
            details={"input": exc.input_index},
        ) from None
    return _Checked(listing, intent, psbt)
