"""`POST /intent/secure-sell` and `POST /intent/secure-bulk-sell`: one secure listing PSBT per
listing, in order, for the seller to sign with SIGHASH_ALL|ANYONECANPAY (0x81).

Secure listing PSBT (docs/sandbox-listings.md):
- input 0: the item's output (V sats), PSBT_IN_SIGHASH_TYPE = 0x81, witness UTXO, and the
  taproot internal key for a taproot `sellerOrdAddress`; `indicesToSign` = [0];
- output 0: V + 1,000 sats to an escrow key of this item: a sandbox-held P2TR key whose label
  is derived from the item's outpoint (`escrow_label`). Input 0 comes first in any purchase the
  marketplace builds, so by ord's FIFO rule the item (and runes, first output) lands here; the
  1,000 sats, paid by the buyer, fund the escrow's transfer to the buyer;
- output 1: `price` to `sellerReceiveAddress`;
- output 2: the marketplace's taker fee, 2% of the price, paid by the buyer (omitted below dust);
- a runes listing under `--service-runestones edict` or `pointer`: last, a runestone sending the
  runes to output 0, the escrow (`service_runestones.py`); none by default.
ALL|ANYONECANPAY commits the seller to every output and to its own input only: whatever inputs
a buyer adds, the seller is paid `price` and the item goes to the escrow, which only the
marketplace releases (`purchase.py`). No SINGLE|ANYONECANPAY PSBT is ever built.

Why one escrow key per item: ALL|ANYONECANPAY signatures of two listings whose output lists are
equal (same postage, same price, one shared escrow address) fit into ONE transaction together,
which hands the buyer both items and pays the seller once (the "double sale"). An escrow output
that is unique per item makes every listing's outputs unique. `--listing-escrow shared` brings
the careless shared layout back, only so QA can check that the app refuses the second colliding
signature.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from app.core.errors import ErrorCode
from app.core.limits import MAX_LISTINGS_PER_BULK_REQUEST
from app.sandbox.market import inscription_bids_fields as fields
from app.sandbox.market.errors import MarketError
from app.sandbox.market.inscription_bids_intent import fee_script, service_fee
from app.sandbox.market.listings_fields import ListingRequest, parse_listing
from app.sandbox.market.listings_items import (
    ItemOutput,
    is_tap_transfer,
    locate_inscription,
    read_output,
)
from app.sandbox.market.listings_store import ListingIntent, insert_intents
from app.sandbox.market.psbt_build import Coin, InputSpec, build_psbt
from app.sandbox.market.service import Json, Market
from app.sandbox.market.service_runestones import runestone_output
from app.wallet.addresses import decode_address
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import psbt_to_base64, psbt_to_bytes, psbt_to_hex
from app.wallet.psbt_reader import unsigned_txid

SIGHASH_ALL_ANYONECANPAY = 0x81
TRANSFER_ALLOWANCE = 1_000  # sats the buyer adds to the escrow output for its transfer fee
# The one escrow key of `--listing-escrow shared` (the unsafe layout, for QA only).
SHARED_ESCROW_LABEL = "secure-listing-escrow"
ESCROW_LABEL_PREFIX = "escrow-"


def escrow_label(outpoint: str) -> str:
    """Label of the sandbox key escrowing the item at `outpoint` (`txid:vout`): 47 characters,
    within the 64 a sandbox key label may have."""
    digest = hashlib.sha256(f"{SHARED_ESCROW_LABEL}:{outpoint}".encode()).hexdigest()
    return ESCROW_LABEL_PREFIX + digest[:40]


def escrow_script(market: Market, outpoint: str) -> bytes:
    """scriptPubKey of the escrow key for the item at `outpoint` (a sandbox-held P2TR key).
    Registering it stores its label in the chain's store at once, so the purchase's transfer is
    signed for it after a restart too (`SandboxKeys.key_for_script`)."""
    shared = market.settings.listing_escrow == "shared"
    label = SHARED_ESCROW_LABEL if shared else escrow_label(outpoint)
    return decode_address(market.node.sandbox_address(label, "p2tr")).script_pubkey


def create_secure_sell_intent(market: Market, body: Any) -> Json:
    return _build_all(market, [parse_listing(body)])


def create_secure_bulk_sell_intent(market: Market, body: Any) -> Json:
    return _build_all(market, parse_listing_array(fields.as_object(body), "listings"))


def parse_listing_array(
    body: Any, name: str, known: frozenset[str] = frozenset(), *, shared: bool = True
) -> list[ListingRequest]:
    """`listings` of a bulk request: 1-100 listing objects (more: 400 with our code); with
    `shared`, the bulk rules on addresses and item kinds are checked too."""
    fields.reject_unknown(body, known | {name})
    raw = fields.require(body, name)
    if not isinstance(raw, list) or not raw:
        raise MarketError(
            ErrorCode.INVALID_FIELD, f"{name} must be a non-empty list of listings", field=name
        )
    if len(raw) > MAX_LISTINGS_PER_BULK_REQUEST:
        raise MarketError(
            ErrorCode.SECURE_BULK_SELL_TOO_MANY_LISTINGS,
            f"{len(raw)} listings in one request; at most {MAX_LISTINGS_PER_BULK_REQUEST}: "
            "split them",
            details={"limit": MAX_LISTINGS_PER_BULK_REQUEST, "requested": len(raw)},
        )
    listings = [parse_listing(item, f"{name}[{i}]") for i, item in enumerate(raw)]
    if shared:
        check_shared(listings)
    return listings


def check_shared(listings: Sequence[ListingRequest]) -> None:
    """Bulk rules 1 and 2: one sellerOrdAddress and sellerReceiveAddress; no mixed kinds."""
    first = listings[0]
    for listing in listings[1:]:
        for name, mine, theirs in (
            ("sellerOrdAddress", listing.seller_ord_address, first.seller_ord_address),
            ("sellerReceiveAddress", listing.seller_receive_address, first.seller_receive_address),
        ):
            if mine != theirs:
                raise MarketError(
                    ErrorCode.SECURE_BULK_SELL_ADDRESSES_DIFFER,
                    f"{listing.field(name)} differs from listings[0]'s: all listings of one "
                    "request share it",
                    field=listing.field(name),
                )
        if listing.is_runes != first.is_runes:
            raise MarketError(
                ErrorCode.SECURE_BULK_SELL_MIXED_ITEMS,
                f"{listing.where} is {'a runes output' if listing.is_runes else 'an inscription'}"
                " unlike listings[0]: list inscriptions and runes in separate requests",
                field=listing.where,
            )


def check_no_tap(market: Market, listings: Sequence[ListingRequest]) -> None:
    """Any TAP token transfer refuses the whole request (spec 4.9-4.11), before anything
    else about the chain: an unknown item is reported later, by `check_item`."""
    for listing in listings:
        ids = [listing.inscription_id] if listing.inscription_id else []
        if listing.runes_output is not None:
            output = read_output(market.node, listing.runes_output)
            ids = list(output.inscriptions) if output else []
        for inscription_id in ids:
            try:
                tap = is_tap_transfer(market.node, inscription_id, listing.field("inscriptionId"))
            except MarketError:
                continue
            if tap:
                raise MarketError(
                    ErrorCode.SECURE_LISTING_UNSUPPORTED,
                    f"{listing.where or 'the listing'}: inscription {inscription_id} is a TAP "
                    "token transfer, which cannot be a secure listing: list it with "
                    "POST /intent/sell (bulk: POST /intent/bulk-sell) and the rest here",
                )


def check_item(market: Market, listing: ListingRequest) -> ItemOutput:
    """The item's output, after checking that sellerOrdAddress holds it and that it carries
    nothing but the listed item."""
    if listing.inscription_id is not None:
        field = listing.field("inscriptionId")
        located = locate_inscription(market.node, listing.inscription_id, field)
        output = located.output
        others = output.others_than(listing.inscription_id)
    else:
        field = listing.field("runesOutput")
        found = read_output(market.node, listing.runes_output or "")
        if found is None:
            raise MarketError(
                ErrorCode.SECURE_LISTING_ITEM_NOT_HELD,
                f"{field}: {listing.runes_output} does not exist or is already spent",
                field=field,
            )
        output = found
        others = [f"inscription {i}" for i in output.inscriptions]
        if not output.runes:
            others = ["no runes at all"]
    if output.address != listing.seller_ord_address:
        raise MarketError(
            ErrorCode.SECURE_LISTING_ITEM_NOT_HELD,
            f"{field}: {listing.item} sits at {output.address}, not at sellerOrdAddress "
            f"{listing.seller_ord_address}",
            field=field,
        )
    if others:
        raise MarketError(
            ErrorCode.SECURE_LISTING_ITEM_UNSUPPORTED,
            f"{field}: the output of {listing.item} carries {', '.join(others)}; a secure "
            "listing sells exactly one item",
            field=field,
        )
    return output


def listing_psbt(
    listing: ListingRequest,
    item: Coin,
    escrow_spk: bytes,
    fee_spk: bytes,
    runestone: tuple[bytes, int] | None = None,
) -> tuple[FixedPSBT, int]:
    """The unsigned secure listing PSBT and its taker fee; `runestone` the last output."""
    fee = service_fee(listing.price, fee_spk)
    outputs = [
        (escrow_spk, item.value + TRANSFER_ALLOWANCE),
        (listing.seller_receive_script, listing.price),
    ]
    if fee:
        outputs.append((fee_spk, fee))
    if runestone is not None:
        outputs.append(runestone)
    spec = InputSpec(
        item, sighash_type=SIGHASH_ALL_ANYONECANPAY, tap_internal_key=listing.tap_internal_key
    )
    return build_psbt([spec], outputs), fee


def _build_all(market: Market, listings: Sequence[ListingRequest]) -> Json:
    check_no_tap(market, listings)
    outputs = [check_item(market, listing) for listing in listings]
    items = [output.coin for output in outputs]
    seen: dict[str, str] = {}
    for listing, item in zip(listings, items, strict=True):
        if item.outpoint in seen:
            raise MarketError(
                ErrorCode.SECURE_LISTING_ITEM_UNSUPPORTED,
                f"{listing.where}: {listing.item} is already listed by {seen[item.outpoint]}",
                field=listing.where,
            )
        seen[item.outpoint] = listing.where
    fee_spk, now = fee_script(market), market.now_ms()
    intents, psbts, summaries = [], [], []
    for listing, output in zip(listings, outputs, strict=True):
        item = output.coin
        stone = (
            runestone_output(market, output.runes, 0, listing.field("runesOutput"))
            if listing.is_runes
            else None
        )
        escrow = escrow_script(market, item.outpoint)
        psbt, fee = listing_psbt(listing, item, escrow, fee_spk, stone)
        txid = unsigned_txid(psbt)
        intents.append(ListingIntent(txid, psbt_to_bytes(psbt), listing.terms(), item, fee, now))
        psbts.append(
            {
                "base64": psbt_to_base64(psbt),
                "hex": psbt_to_hex(psbt),
                "indicesToSign": [0],
                "sighashType": SIGHASH_ALL_ANYONECANPAY,
            }
        )
        summaries.append(
            {
                **{k: v for k, v in listing.terms().items() if v is not None},
                "itemOutpoint": item.outpoint,
                "takerFee": fee,
                "unsignedTxid": txid,
            }
        )
    with market.store.transaction() as conn:
        insert_intents(conn, intents)
    return {"seller": {"secureListingPSBTs": psbts}, "listings": summaries}
