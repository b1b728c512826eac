"""Typed request bodies of the marketplace v1 API, with their exact wire field names.

``to_wire()`` returns the JSON object to send; optional fields left as None are omitted.
Collection/trait/rune bids are not modelled here: their body is the wire JSON of the core
bid request (``app.core.bid_request``), passed to ``MarketplaceClient.place_collection_bid``
as is; it carries ``feeRate`` (a name string or a number, ``app.core.bid_fee_rate``) when the
bid asks for a rate other than the service's default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class InvalidRequest(ValueError):
    """A request object that cannot be sent as built (caught before any network I/O)."""


class SupportsToJson(Protocol):
    """A request model that serialises itself (a JSON object, or its JSON text)."""

    def to_json(self) -> Mapping[str, Any] | str | bytes: ...


def _drop_none(pairs: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in pairs.items() if value is not None}


@dataclass(frozen=True)
class InscriptionBidIntentRequest:
    """Body of ``POST /intent/bid`` (spec 4.4)."""

    price: int
    inscription_id: str
    bidder_address: str
    bidder_token_receive_address: str
    bidder_public_key: str
    allowed_payment_outpoints: tuple[str, ...] | None = None
    fee_rate: float | str | None = None

    def to_wire(self) -> dict[str, Any]:
        return _drop_none(
            {
                "price": self.price,
                "inscriptionId": self.inscription_id,
                "bidderAddress": self.bidder_address,
                "bidderTokenReceiveAddress": self.bidder_token_receive_address,
                "bidderPublicKey": self.bidder_public_key,
                "allowedPaymentOutpoints": (
                    list(self.allowed_payment_outpoints)
                    if self.allowed_payment_outpoints is not None
                    else None
                ),
                "feeRate": self.fee_rate,
            }
        )


@dataclass(frozen=True)
class InscriptionBidPlacement:
    """Body of ``POST /bid/place``, single-inscription form (spec 4.3)."""

    price: int
    inscription_id: str
    bidder_address: str
    bidder_token_receive_address: str
    signed_bidding_psbt: str
    unsigned_bidding_psbt: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return _drop_none(
            {
                "price": self.price,
                "inscriptionId": self.inscription_id,
                "bidderAddress": self.bidder_address,
                "bidderTokenReceiveAddress": self.bidder_token_receive_address,
                "signedBiddingPSBT": self.signed_bidding_psbt,
                "unsignedBiddingPSBT": self.unsigned_bidding_psbt,
            }
        )


@dataclass(frozen=True)
class CancelRequest:
    """Body of ``POST /cancel`` (spec 4.6): one id goes as ``_id``, several as ``_ids``."""

    maker_address: str
    signature: str
    bid_ids: tuple[str, ...]
    order_type: str = "bid"

    def __post_init__(self) -> None:
        if not self.bid_ids:
            raise InvalidRequest("a cancel request needs at least one bid id")
        if any(not isinstance(i, str) or not i for i in self.bid_ids):
            raise InvalidRequest("bid ids must be non-empty strings")

    def to_wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "makerAddress": self.maker_address,
            "orderType": self.order_type,
            "signature": self.signature,
        }
        if len(self.bid_ids) == 1:
            body["_id"] = self.bid_ids[0]
        else:
            body["_ids"] = list(self.bid_ids)
            body["multiple"] = True  # what satflow-mm sends with several ids
        return body


@dataclass(frozen=True)
class WithdrawIntentRequest:
    """Body of ``POST /intent/withdraw`` (spec 4.7). ``feeRate`` (sat/vB) is ours: the public
    service documents only ``userAddress`` and ``amount`` and may ignore it, so the review
    compares the rate the PSBT pays with it (``app.core.asked_fee_rate``)."""

    user_address: str
    amount: int
    fee_rate: int | float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.amount, bool) or not isinstance(self.amount, int) or self.amount <= 0:
            raise InvalidRequest(
                f"withdraw amount must be a positive number of sats: {self.amount!r}"
            )

    def to_wire(self) -> dict[str, Any]:
        return _drop_none(
            {"userAddress": self.user_address, "amount": self.amount, "feeRate": self.fee_rate}
        )


@dataclass(frozen=True)
class WithdrawSubmission:
    """Body of ``POST /withdraw`` (spec 4.8)."""

    signed_withdraw_psbt: str
    unsigned_withdraw_psbt: str | None = None
    bidder_payment_address: str | None = None

    def to_wire(self) -> dict[str, Any]:
        return _drop_none(
            {
                "signedWithdrawPSBT": self.signed_withdraw_psbt,
                "unsignedWithdrawPSBT": self.unsigned_withdraw_psbt,
                "bidderPaymentAddress": self.bidder_payment_address,
            }
        )


@dataclass(frozen=True)
class Listing:
    """One listing object of the secure sell endpoints (an inscription or a runes output)."""

    price: int
    seller_ord_address: str
    seller_receive_address: str
    inscription_id: str | None = None
    runes_output: str | None = None
    collection_slug: str | None = None
    tap_internal_key: str | None = None
    seller_payment_address: str | None = None
    seller_payment_public_key: str | None = None
    new_location: str | None = None
    external_order_id: str | None = None

    def __post_init__(self) -> None:
        if (self.inscription_id is None) == (self.runes_output is None):
            raise InvalidRequest("a listing needs exactly one of inscription_id or runes_output")

    def to_wire(self) -> dict[str, Any]:
        return _drop_none(
            {
                "price": self.price,
                "inscriptionId": self.inscription_id,
                "runesOutput": self.runes_output,
                "sellerOrdAddress": self.seller_ord_address,
                "sellerReceiveAddress": self.seller_receive_address,
                "collectionSlug": self.collection_slug,
                "tapInternalKey": self.tap_internal_key,
                "sellerPaymentAddress": self.seller_payment_address,
                "sellerPaymentPublicKey": self.seller_payment_public_key,
                "newLocation": self.new_location,
                "externalOrderId": self.external_order_id,
            }
        )


@dataclass(frozen=True)
class SecureListingSubmission:
    """Body of ``POST /list/secure``: the listings and their signed secure listing PSBTs."""

    listings: tuple[Listing, ...]
    signed_secure_listing_psbts: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.listings or not self.signed_secure_listing_psbts:
            raise InvalidRequest("a secure listing submission needs listings and signed PSBTs")

    def to_wire(self) -> dict[str, Any]:
        return {
            "listings": [listing.to_wire() for listing in self.listings],
            "signedSecureListingPSBTs": list(self.signed_secure_listing_psbts),
        }


@dataclass(frozen=True)
class SecurePurchaseIntentRequest:
    """Body of ``POST /intent/secure-purchase`` (payload not in the spec; Satflow's names).

    ``extra`` carries further documented fields (``buyerScripts``, ``splitQuantity``, ...).
    """

    buyer_address: str
    buyer_token_receive_address: str
    inscription_ids: tuple[str, ...] = ()
    runes_outputs: tuple[str, ...] = ()
    buyer_public_key: str | None = None
    fee_rate: float | str | None = None
    signed_payment_prep_psbts: tuple[str, ...] = ()
    signed_purchase_psbts: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.inscription_ids and not self.runes_outputs:
            raise InvalidRequest("a secure purchase needs inscription ids or runes outputs")

    def to_wire(self) -> dict[str, Any]:
        body = dict(self.extra)
        body.update(
            _drop_none(
                {
                    "buyerAddress": self.buyer_address,
                    "buyerTokenReceiveAddress": self.buyer_token_receive_address,
                    "inscriptionIds": list(self.inscription_ids) or None,
                    "runesOutputs": list(self.runes_outputs) or None,
                    "buyerPublicKey": self.buyer_public_key,
                    "feeRate": self.fee_rate,
                    "signedPaymentPrepPSBTs": list(self.signed_payment_prep_psbts) or None,
                    "signedPurchasePSBTs": list(self.signed_purchase_psbts) or None,
                }
            )
        )
        return body


def listings_wire(listings: Sequence[Listing]) -> list[dict[str, Any]]:
    return [listing.to_wire() for listing in listings]
