"""`POST /bid/place`, single-inscription form (spec 4.3): open a bid from a signed PSBT.

Accepted only when, in order:
1. the PSBT's unsigned transaction is one `POST /intent/bid` built (found by its txid) and the
   body's price, inscription and addresses are the intent's;
2. nothing but signatures changed: each input's witness UTXO (when present) is the coin the
   intent recorded, and input 0 (the seller's) carries no signature;
3. no coin it spends has been spent since (the inscription has not moved, the funding is there);
4. every input but 0 is signed by the payment key with SIGHASH_ALL (DEFAULT, the same commitment,
   on a taproot input), and Bitcoin Core's interpreter accepts each of those signatures.
Placing the same signed intent again answers the same open bid (a safe retry).
"""

from __future__ import annotations

from typing import Any

from app.core.errors import ErrorCode
from app.sandbox.market import inscription_bids_fields as fields
from app.sandbox.market.bid_store import new_bid_ids
from app.sandbox.market.errors import MarketError
from app.sandbox.market.inscription_bids_store import (
    OPEN,
    BidIntent,
    InscriptionBid,
    bid_by_intent,
    insert_bid,
    intent_by_txid,
)
from app.sandbox.market.listings_items import is_spent
from app.sandbox.market.psbt_build import is_p2tr
from app.sandbox.market.psbt_build_verify import SignatureCheckError, check_signed_inputs
from app.sandbox.market.service import Json, Market
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import PsbtDecodeError, parse_psbt, psbt_to_bytes
from app.wallet.psbt_reader import unsigned_txid

SUCCESS_MESSAGE = "Successfully bid!"
PLACE_FIELDS = frozenset(
    {
        "price",
        "inscriptionId",
        "bidderAddress",
        "bidderTokenReceiveAddress",
        "signedBiddingPSBT",
        "unsignedBiddingPSBT",
        "allowedPaymentOutpoints",
        "feeRate",
    }
)
SIGHASH_ALL_TYPES = frozenset({0x01})
TAPROOT_ALL_TYPES = frozenset({0x00, 0x01})  # DEFAULT commits to what ALL does


def read_psbt(value: Any, field: str) -> FixedPSBT:
    if not isinstance(value, str):
        raise MarketError(ErrorCode.INVALID_PSBT, f"{field} must be a string", field=field)
    try:
        return parse_psbt(value)
    except PsbtDecodeError as exc:
        raise MarketError(
            ErrorCode.INVALID_PSBT, f"{field}: {exc} (send base64 or hex)", field=field
        ) from None


def place_inscription_bid(market: Market, body: Any) -> Json:
    """Open the bid; returns the response `data` (`message`, `bidId`, `status`)."""
    req = fields.as_object(body)
    fields.reject_unknown(req, PLACE_FIELDS)
    price = fields.integer(req, "price")
    wanted = {
        "price": price,
        "inscriptionId": fields.text(req, "inscriptionId").lower(),
        "bidderAddress": fields.text(req, "bidderAddress"),
        "bidderTokenReceiveAddress": fields.text(req, "bidderTokenReceiveAddress"),
    }
    psbt = read_psbt(fields.require(req, "signedBiddingPSBT"), "signedBiddingPSBT")
    txid = unsigned_txid(psbt)
    if req.get("unsignedBiddingPSBT") is not None:
        unsigned = read_psbt(req["unsignedBiddingPSBT"], "unsignedBiddingPSBT")
        if unsigned_txid(unsigned) != txid:
            raise _not_from_intent("unsignedBiddingPSBT is not the transaction signed")
    with market.store.reading() as conn:
        intent = intent_by_txid(conn, txid)
    if intent is None:
        raise _not_from_intent(
            "signedBiddingPSBT is not a PSBT POST /intent/bid built, or something besides "
            "signatures was changed in it (inputs, outputs, amounts, sequence, lock time)"
        )
    _check_fields(intent, wanted)
    _check_unchanged(psbt, intent)
    _check_not_stale(market, intent)
    n_inputs = len(intent.coins)
    hash_types = {
        i: TAPROOT_ALL_TYPES if is_p2tr(c.script_pubkey) else SIGHASH_ALL_TYPES
        for i, c in enumerate(intent.coins)
    }
    try:
        check_signed_inputs(psbt, intent.coins, list(range(1, n_inputs)), hash_types)
    except SignatureCheckError as exc:
        raise MarketError(
            ErrorCode.PSBT_SIGNATURE_INVALID,
            f"signedBiddingPSBT input {exc.input_index}: {exc.reason}; sign every input but 0 "
            "with the payment key, SIGHASH_ALL",
            field="signedBiddingPSBT",
            details={"input": exc.input_index},
        ) from None
    now = market.now_ms()
    with market.lock, market.store.transaction() as conn:
        existing = bid_by_intent(conn, txid)
        if existing is not None:
            if existing.status != OPEN:
                raise MarketError(
                    ErrorCode.INSCRIPTION_BID_NOT_OPEN,
                    f"this PSBT already placed bid {existing.id}, now {existing.status}: "
                    "build a new one with POST /intent/bid",
                )
            return _placed(existing)
        bid = InscriptionBid(
            id=new_bid_ids(1, now)[0],
            intent_txid=txid,
            inscription_id=intent.inscription_id,
            price=intent.price,
            bidder_address=intent.bidder_address,
            token_address=intent.token_address,
            signed_psbt=psbt_to_bytes(psbt),
            status=OPEN,
            created_ms=now,
            ended_ms=None,
            end_txid=None,
        )
        insert_bid(conn, bid, intent.coins)
    return _placed(bid)


def _placed(bid: InscriptionBid) -> Json:
    return {
        "message": SUCCESS_MESSAGE,
        "bidId": bid.id,
        "status": bid.status,
        "inscriptionId": bid.inscription_id,
        "price": bid.price,
    }


def _not_from_intent(message: str) -> MarketError:
    return MarketError(ErrorCode.PSBT_NOT_FROM_INTENT, message, field="signedBiddingPSBT")


def _check_fields(intent: BidIntent, wanted: dict[str, Any]) -> None:
    built = {
        "price": intent.price,
        "inscriptionId": intent.inscription_id,
        "bidderAddress": intent.bidder_address,
        "bidderTokenReceiveAddress": intent.token_address,
    }
    for name, value in wanted.items():
        if built[name] != value:
            raise MarketError(
                ErrorCode.INSCRIPTION_BID_FIELDS_MISMATCH,
                f"{name} is {value!r} but the PSBT was built for {built[name]!r}: send the "
                "values given to POST /intent/bid",
                field=name,
            )


def _check_unchanged(psbt: FixedPSBT, intent: BidIntent) -> None:
    for i, (inp, coin) in enumerate(zip(psbt.inputs, intent.coins, strict=True)):
        utxo = inp.witness_utxo
        if utxo is not None and (utxo.value, bytes(utxo.script_pubkey.data)) != coin.spent_pair:
            raise _not_from_intent(
                f"input {i}'s witness UTXO was changed: it spends {coin.outpoint} of "
                f"{coin.value} sats"
            )
    seller = psbt.inputs[0]
    if (
        seller.partial_sigs
        or seller.tap_key_sig is not None
        or seller.taproot_sigs
        or seller.final_scriptwitness is not None
        or seller.final_scriptsig is not None
    ):
        raise _not_from_intent("input 0 is the seller's inscription: leave it unsigned")


def _check_not_stale(market: Market, intent: BidIntent) -> None:
    for index, coin in enumerate(intent.coins):
        if is_spent(market.node, coin.outpoint):
            what = "the inscription moved" if index == 0 else "a funding coin was spent"
            raise MarketError(
                ErrorCode.INSCRIPTION_BID_STALE,
                f"{what} ({coin.outpoint} is spent) since this PSBT was built: build a new one "
                "with POST /intent/bid",
            )
