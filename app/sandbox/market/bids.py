"""`POST /bid/place` for collection, trait and rune bids, and `GET /address/bids`.

Placement, in order (the first failing step answers):
1. parse and validate with `app.core` (every field rule and limit, against the service clock);
2. the collection, its traits, the rune or the range exists;
3. the public key belongs to `bidderAddress`, which has a bidding wallet tied to this
   (ordinals address, payment address, key);
4. the signature: BIP-322 or BIP-137 by `bidderAddress` over the bid message (`signature.py`);
then, under the market lock and in one SQLite transaction:
5. the message has not placed a bid before (keyed on sha256 of the message text, so a
   re-signed taproot signature of the same message is caught too);
6. the rate: one bid per 500 ms per `bidderTokenReceiveAddress`, k traits count k;
7. every pool the request joins still fits the wallet balance with the maker fee;
8. all the request's bids are inserted, the message is marked used and the rate moves on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from app.core.bid_message import bid_message
from app.core.bid_rate import check_bid_rate
from app.core.bid_request import (
    RANGE_SLUGS,
    BidKind,
    BidRequestParseError,
    CollectionBidRequest,
    Trait,
)
from app.core.bid_validation import validate_bid_request
from app.core.errors import ErrorCode, RuleViolation
from app.core.pools import check_request_fits
from app.sandbox.chain.errors import ChainError
from app.sandbox.market.bid_store import (
    BID_TYPE_COLLECTION,
    BID_TYPE_RUNE,
    BidRow,
    insert_bids,
    new_bid_ids,
    open_bid_entries_json,
    open_pool_bids,
)
from app.sandbox.market.errors import MarketError
from app.sandbox.market.service import Json, Market
from app.sandbox.market.signature import check_bid_signature
from app.sandbox.market.wallets import (
    BiddingWallet,
    decode_regtest,
    parse_pubkey,
    payment_type_of,
    wallet_by_payment,
)

SUCCESS_MESSAGE = "Successfully bid!"


def place_collection_bid(market: Market, body: Any) -> Json:
    """Place the bids of one request, all or none; returns the response `data`."""
    try:
        req = CollectionBidRequest.from_json(body)
    except BidRequestParseError as exc:
        raise MarketError.from_violations(exc.violations) from None
    now = market.now_ms()
    violations = validate_bid_request(req, now)
    if violations:
        raise MarketError.from_violations(violations)
    check_target_exists(market, req)
    wallet = _bidder_wallet(market, req)
    message = bid_message(req)
    check_bid_signature(req, message)
    message_hash = hashlib.sha256(message.encode("utf-8")).hexdigest()
    with market.lock, market.store.transaction() as conn:
        # Rate and pools are judged at the moment of the decision, under the lock: a request
        # that waited for the lock is measured by the time it got it, never by a stale one.
        now = market.now_ms()
        if conn.execute("SELECT 1 FROM used_messages WHERE hash = ?", (message_hash,)).fetchone():
            raise MarketError(
                ErrorCode.COLLECTION_BID_SIGNATURE_USED,
                "this signed bid message has already placed a bid: sign a new message with a "
                "new timestamp to place another",
            )
        receiver = req.bidder_token_receive_address
        row = conn.execute(
            "SELECT next_allowed_ms FROM bid_rate WHERE address = ?", (receiver,)
        ).fetchone()
        rate = check_bid_rate(None if row is None else row[0], now, req.rate_units())
        if not rate.allowed:
            raise MarketError(
                ErrorCode.SUBMIT_BID_RATE_LIMITED,
                f"bids for {receiver} are limited to one per 500 ms (a trait bid counts once "
                f"per trait): wait {rate.retry_after_ms} ms, then sign and send a new request",
                extra={"retryAfterMs": rate.retry_after_ms},
            )
        balance = market.balance(wallet.multisig_address)
        fit = check_request_fits(
            balance, open_pool_bids(conn, wallet.id, now), req, market.maker_fee
        )
        if not fit.fits:
            raise MarketError.from_violations(fit.violations())
        rows = _bid_rows(req, wallet, now, message_hash)
        insert_bids(conn, rows)
        conn.execute(
            "INSERT INTO used_messages (hash, created_ms) VALUES (?, ?)", (message_hash, now)
        )
        conn.execute(
            "INSERT INTO bid_rate (address, next_allowed_ms) VALUES (?, ?) "
            "ON CONFLICT (address) DO UPDATE SET next_allowed_ms = excluded.next_allowed_ms",
            (receiver, rate.next_allowed_at_ms),
        )
    return {"message": SUCCESS_MESSAGE, "bidCount": len(rows), "bidIds": [r.id for r in rows]}


def open_bids_json(market: Market, address: str) -> bytes:
    """The `GET /address/bids` body: open bids keyed by `address` (their ordinals address, or
    their payment address with `--bids-keyed-by payment`; an unknown address has none), with
    the entries of `Market.bid_listers` after ours."""
    now = market.now_ms()
    with market.store.reading() as conn:
        entries = open_bid_entries_json(
            conn,
            address,
            now,
            by_payment=market.bids_keyed_by_payment,
            divisibility_of=lambda rune: _rune_divisibility(market, rune),
        )
    for lister in market.bid_listers:
        entries.extend(json.dumps(e, ensure_ascii=False) for e in lister(address, now))
    return ('{"success":true,"data":{"results":[' + ",".join(entries) + "]}}").encode()


def _rune_divisibility(market: Market, name: str) -> int:
    try:
        rune = market.node.rune(name)
    except ChainError:
        rune = None
    return 0 if rune is None else int(rune["divisibility"])


def check_target_exists(market: Market, req: CollectionBidRequest) -> None:
    """UNKNOWN_COLLECTION / UNKNOWN_TRAIT for what the sandbox does not know."""
    slug = req.collection_slug
    if req.kind is BidKind.RANGE:
        return
    if req.kind is BidKind.RUNE:
        try:
            rune = market.node.rune(slug)
        except ChainError:
            rune = None
        if rune is None or rune["spaced"] != slug:
            hint = f": send it as {rune['spaced']!r}" if rune else ""
            raise MarketError(
                ErrorCode.UNKNOWN_COLLECTION,
                f"no rune named {slug!r} is etched on the sandbox chain{hint}",
                field="collectionSlug",
            )
        return
    try:
        collection = market.node.collection(slug)
    except ChainError:
        collection = None
    if collection is None:
        ranges = ", ".join(RANGE_SLUGS)
        raise MarketError(
            ErrorCode.UNKNOWN_COLLECTION,
            f"no collection {slug!r} (nor a rune bid with metaType 'runes', nor {ranges}): "
            "check the slug",
            field="collectionSlug",
        )
    allowed = {t["trait_type"]: set(t["values"]) for t in collection["traits"]}
    paths = [f"attributes[{i}]" for i in range(len(req.attributes))] or ["attribute"]
    unknown = [
        RuleViolation(
            ErrorCode.UNKNOWN_TRAIT,
            path,
            f"{path} ({trait.trait_type}: {trait.value}) is not a trait of {slug}: pick a "
            "trait the collection has (GET /sandbox/collections/{slug} lists them)",
        )
        for path, trait in zip(paths, req.traits(), strict=False)
        if trait.value not in allowed.get(trait.trait_type, ())
    ]
    if unknown:
        raise MarketError.from_violations(unknown)


def _bidder_wallet(market: Market, req: CollectionBidRequest) -> BiddingWallet:
    payment = decode_regtest(req.bidder_address, "bidderAddress")
    decode_regtest(req.bidder_token_receive_address, "bidderTokenReceiveAddress")
    pubkey = parse_pubkey(req.bidder_address_public_key, "bidderAddressPublicKey")
    payment_type_of(pubkey, payment, "bidderAddressPublicKey")
    with market.store.reading() as conn:
        wallet = wallet_by_payment(conn, req.bidder_address)
    if wallet is None:
        raise MarketError(
            ErrorCode.BIDDING_WALLET_NOT_FOUND,
            f"{req.bidder_address} has no bidding wallet: call GET /address/bidding-wallet "
            "with this payment address and fund the wallet first",
        )
    if wallet.ordinals_address != req.bidder_token_receive_address:
        raise MarketError(
            ErrorCode.BIDDING_WALLET_IDENTITY_MISMATCH,
            f"the bidding wallet of {req.bidder_address} is tied to the ordinals address "
            f"{wallet.ordinals_address}: send that address as bidderTokenReceiveAddress",
        )
    return wallet


def _bid_rows(
    req: CollectionBidRequest, wallet: BiddingWallet, now: int, message_hash: str
) -> list[BidRow]:
    is_rune = req.kind is BidKind.RUNE
    traits: list[Trait | None] = [*req.traits()] or [None]
    per_trait = 1 if is_rune else req.quantity
    ids = iter(new_bid_ids(per_trait * len(traits), now))
    return [
        BidRow(
            id=next(ids),
            wallet_id=wallet.id,
            maker=wallet.ordinals_address,
            bidder_address=wallet.payment_address,
            type=BID_TYPE_RUNE if is_rune else BID_TYPE_COLLECTION,
            meta_type=req.meta_type,
            slug=req.collection_slug,
            trait=trait,
            price=req.price,
            quantity=req.quantity if is_rune else 1,
            expiry_ms=req.bid_expiry,
            created_ms=now,
            message_hash=message_hash,
            fee_rate=req.fee_rate,
        )
        for trait in traits
        for _ in range(per_trait)
    ]


def is_inscription_bid_body(body: Any) -> bool:
    """The single-inscription form of POST /bid/place (spec 4.3) carries these fields."""
    return isinstance(body, Mapping) and ("signedBiddingPSBT" in body or "inscriptionId" in body)
