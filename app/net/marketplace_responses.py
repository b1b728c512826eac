"""Typed responses of the marketplace v1 API and their parsers.

Every parser reads ``data.X`` and falls back to a top-level ``X`` (satflow-mm does the same),
keeps the raw object, and raises ``BadResponse`` naming the field when something it needs is
missing. Fields the spec leaves open are read tolerantly (None when absent).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.net.fields import Reader, as_epoch_ms, as_int, as_str, object_id


@dataclass(frozen=True)
class BiddingWallet:
    address: str
    user_payment_address: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class BidPlaced:
    """A successful ``POST /bid/place``: the status says it; ``message`` is informative."""

    message: str | None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class UnsignedPsbt:
    """A PSBT the service built for us to review and sign (``/intent/bid``, withdraw)."""

    psbt_base64: str
    psbt_hex: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class WithdrawIntent(UnsignedPsbt):
    payment_utxo_count: int | None = None


@dataclass(frozen=True)
class WithdrawResult:
    txid: str
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Challenge:
    challenge: str
    expires_at_ms: int | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class ChallengeVerification:
    valid: bool
    public_key: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class CancelOutcome:
    bid_id: str | None
    success: bool | None


@dataclass(frozen=True)
class CancelResult:
    """The spec does not show this shape; every field is optional except the raw body."""

    success: bool | None
    success_count: int | None
    failed_count: int | None
    outcomes: tuple[CancelOutcome, ...] = ()
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class SecureListingPsbt:
    psbt_base64: str
    indices_to_sign: tuple[int, ...]


@dataclass(frozen=True)
class SecureListingIntent:
    psbts: tuple[SecureListingPsbt, ...]
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class CreatedListing:
    listing_id: str
    price: int | None = None
    inscription_id: str | None = None
    runes_output: str | None = None
    status: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class SecureListingResult:
    listings: tuple[CreatedListing, ...]
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class SecurePurchaseIntent:
    """Only two fields are documented; the rest of the exchange is in ``raw``."""

    referral_address: str | None = None
    creator_fee: bool | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


# --- parsers --------------------------------------------------------------------------------


def parse_bidding_wallet(r: Reader, body: Any) -> BiddingWallet:
    # The spec and satflow-mm say data.multiSig.address; Satflow's docs say data.address.
    address = r.need_str(body, "multiSig.address", "address")
    payment = as_str(r.pick(body, "userPaymentAddress"))
    return BiddingWallet(address=address, user_payment_address=payment, raw=r.data(body))


def parse_bid_placed(r: Reader, body: Any) -> BidPlaced:
    # Lenient on purpose: after a 2xx the bid IS placed; failing here would invite a retry.
    if isinstance(body, Mapping):
        return BidPlaced(message=as_str(r.pick(body, "message")), raw=r.data(body))
    return BidPlaced(message=None, raw={})


def _psbt_base64(r: Reader, body: Any, b64_path: str, hex_path: str) -> tuple[str, str | None]:
    b64 = as_str(r.pick(body, b64_path))
    hex_ = as_str(r.pick(body, hex_path))
    if b64:
        return b64, hex_
    if hex_:
        try:
            return base64.b64encode(bytes.fromhex(hex_)).decode("ascii"), hex_
        except ValueError:
            raise r.error(f"field data.{hex_path} is not hex", hex_path) from None
    raise r.error(f"missing field data.{b64_path}", b64_path)


def parse_inscription_bid_psbt(r: Reader, body: Any) -> UnsignedPsbt:
    b64, hex_ = _psbt_base64(
        r, body, "bidder.unsignedBiddingPSBTBase64", "bidder.unsignedBiddingPSBTHex"
    )
    return UnsignedPsbt(psbt_base64=b64, psbt_hex=hex_, raw=r.data(body))


def parse_withdraw_intent(r: Reader, body: Any) -> WithdrawIntent:
    b64, hex_ = _psbt_base64(r, body, "unsignedPSBTBase64", "unsignedPSBTHex")
    count = as_int(r.pick(body, "paymentUtxoCount"))
    return WithdrawIntent(
        psbt_base64=b64, psbt_hex=hex_, raw=r.data(body), payment_utxo_count=count
    )


def parse_withdraw_result(r: Reader, body: Any) -> WithdrawResult:
    txid = r.need_str(body, "txid")
    if len(txid) != 64 or not _is_hex(txid):
        raise r.error(f"field data.txid is not a transaction id: {txid[:80]!r}", "txid")
    return WithdrawResult(txid=txid.lower(), raw=r.data(body))


def parse_challenge(r: Reader, body: Any) -> Challenge:
    challenge = r.need_str(body, "challenge")
    expiry = as_epoch_ms(
        r.pick(body, "expiresAt", "expiry", "expiresAtMs", "expires_at", "expiration")
    )
    return Challenge(challenge=challenge, expires_at_ms=expiry, raw=r.data(body))


def parse_challenge_verification(r: Reader, body: Any) -> ChallengeVerification:
    valid = r.need_bool(body, "validity", "valid")
    return ChallengeVerification(
        valid=valid, public_key=as_str(r.pick(body, "publicKey")), raw=r.data(body)
    )


def parse_cancel_result(r: Reader, body: Any) -> CancelResult:
    if not isinstance(body, Mapping):
        return CancelResult(success=None, success_count=None, failed_count=None)
    success = r.pick(body, "success")
    summary = r.pick(body, "summary")
    items = summary if isinstance(summary, list) else [summary] if summary is not None else []
    outcomes = tuple(
        CancelOutcome(
            bid_id=object_id(item.get("id", item.get("_id"))),
            success=item.get("success") if isinstance(item.get("success"), bool) else None,
        )
        for item in items
        if isinstance(item, Mapping)
    )
    return CancelResult(
        success=success if isinstance(success, bool) else None,
        success_count=as_int(r.pick(body, "successCount")),
        failed_count=as_int(r.pick(body, "failedCount")),
        outcomes=outcomes,
        raw=r.data(body),
    )


def parse_secure_listing_intent(r: Reader, body: Any) -> SecureListingIntent:
    items = r.need_list(body, "seller.secureListingPSBTs", "secureListingPSBTs")
    psbts = []
    for i, item in enumerate(items):
        where = f"seller.secureListingPSBTs[{i}]"
        entry = r.obj(item, f"data.{where}")
        b64 = as_str(entry.get("base64"))
        indices = entry.get("indicesToSign")
        if not b64:
            raise r.error(f"missing field data.{where}.base64", f"{where}.base64")
        if not isinstance(indices, list) or not all(as_int(x) is not None for x in indices):
            raise r.error(
                f"field data.{where}.indicesToSign must be a list of input indices",
                f"{where}.indicesToSign",
            )
        psbts.append(SecureListingPsbt(b64, tuple(int(x) for x in indices)))
    if not psbts:
        raise r.error("data.seller.secureListingPSBTs is empty", "seller.secureListingPSBTs")
    return SecureListingIntent(psbts=tuple(psbts), raw=r.data(body))


def parse_secure_listing_result(r: Reader, body: Any) -> SecureListingResult:
    items = r.need_list(body, "listings")
    listings = []
    for i, item in enumerate(items):
        entry = r.obj(item, f"data.listings[{i}]")
        listing_id = object_id(entry.get("_id", entry.get("id", entry.get("listingId"))))
        if listing_id is None:
            raise r.error(f"missing field data.listings[{i}]._id", f"listings[{i}]._id")
        listings.append(
            CreatedListing(
                listing_id=listing_id,
                price=as_int(entry.get("price")),
                inscription_id=as_str(entry.get("inscriptionId")),
                runes_output=as_str(entry.get("runesOutput")),
                status=as_str(entry.get("status")),
                raw=entry,
            )
        )
    return SecureListingResult(listings=tuple(listings), raw=r.data(body))


def parse_secure_purchase_intent(r: Reader, body: Any) -> SecurePurchaseIntent:
    creator_fee = r.pick(body, "creatorFee")
    return SecurePurchaseIntent(
        referral_address=as_str(r.pick(body, "referralAddress")),
        creator_fee=creator_fee if isinstance(creator_fee, bool) else None,
        raw=r.data(body),
    )


def _is_hex(text: str) -> bool:
    try:
        binascii.unhexlify(text)
    except (binascii.Error, ValueError):
        return False
    return True
