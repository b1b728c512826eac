"""The collection bid request of spec section 2.3 (body of `POST /bid/place`), typed.

One model covers ordinals bids without traits, trait bids (`attributes`, or the older single
`attribute`), rune bids (`metaType` "runes", `collectionSlug` the rune name) and the
inscription-number ranges `sub1k` / `sub10k` / `sub100k`.

`from_json` is strict: a JSON value of the wrong type (a boolean or a decimal where an integer
belongs, a number where a string belongs), a missing required field or a field the spec does
not define (other than the public service's optional extras in `IGNORED_FIELDS`) becomes a
`RuleViolation`, all of them gathered in one `BidRequestParseError`.
`null` counts as absent for the optional fields. `feeRate` (the public service's optional fee
rate for the fill, `app.core.bid_fee_rate`) is read into `fee_rate`; it is not signed.
Value rules (limits, clocks, empty strings)
are `app.core.bid_validation`'s job, so a request built in Python is checked the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from app.core.bid_fee_rate import BidFeeRate, InvalidBidFeeRate
from app.core.errors import CoreError, ErrorCode, RuleViolation

META_TYPE_ORDINALS: Final = "ordinals"
META_TYPE_RUNES: Final = "runes"
META_TYPES: Final = (META_TYPE_ORDINALS, META_TYPE_RUNES)
# Spec: "Default when omitted: not shown". Ours: an omitted metaType means an ordinals bid (the
# older API had no rune bids). We always send metaType ourselves.
DEFAULT_META_TYPE: Final = META_TYPE_ORDINALS
RANGE_SLUGS: Final = ("sub1k", "sub10k", "sub100k")


class BidKind(StrEnum):
    ORDINALS = "ordinals"
    TRAIT = "trait"
    RUNE = "rune"
    RANGE = "range"


@dataclass(frozen=True)
class Trait:
    trait_type: str
    value: str

    def to_json(self) -> dict[str, str]:
        return {"trait_type": self.trait_type, "value": self.value}


@dataclass(frozen=True)
class CollectionBidRequest:
    price: int
    collection_slug: str
    bidder_address: str
    bidder_address_public_key: str
    bidder_token_receive_address: str
    quantity: int
    meta_type: str
    bid_expiry: int
    timestamp: int
    signed_bidding_message: str
    attributes: tuple[Trait, ...] = ()
    attribute: Trait | None = None
    fee_rate: BidFeeRate | None = None  # None: not sent, the service's default applies

    def traits(self) -> list[Trait]:
        """The traits the bid is on: `attributes`, or else the single `attribute` as one."""
        if self.attributes:
            return list(self.attributes)
        return [self.attribute] if self.attribute is not None else []

    @property
    def kind(self) -> BidKind:
        if self.collection_slug in RANGE_SLUGS:
            return BidKind.RANGE
        if self.meta_type == META_TYPE_RUNES:
            return BidKind.RUNE
        return BidKind.TRAIT if self.traits() else BidKind.ORDINALS

    def bid_count(self) -> int:
        """Bids this request places (spec 2.3): `quantity`, times the traits for a trait bid.

        A rune bid is one bid whatever its `quantity`: there `quantity` counts rune units and
        `price` is the total for all of them.
        """
        if self.kind is BidKind.RUNE:
            return 1
        return self.quantity * max(1, len(self.traits()))

    def rate_units(self) -> int:
        """How many bids this request counts as for the 500 ms rate: once per trait (spec 8)."""
        return max(1, len(self.traits()))

    def to_json(self) -> dict[str, object]:
        """The wire body (camelCase); metaType is always sent, traits and feeRate only when
        present."""
        body: dict[str, object] = {
            "price": self.price,
            "collectionSlug": self.collection_slug,
            "bidderAddress": self.bidder_address,
            "bidderAddressPublicKey": self.bidder_address_public_key,
            "bidderTokenReceiveAddress": self.bidder_token_receive_address,
            "quantity": self.quantity,
            "metaType": self.meta_type,
            "bidExpiry": self.bid_expiry,
            "timestamp": self.timestamp,
            "signedBiddingMessage": self.signed_bidding_message,
        }
        if self.attributes:
            body["attributes"] = [t.to_json() for t in self.attributes]
        if self.attribute is not None:
            body["attribute"] = self.attribute.to_json()
        if self.fee_rate is not None:
            body["feeRate"] = self.fee_rate.to_wire()
        return body

    @classmethod
    def from_json(cls, data: object) -> CollectionBidRequest:
        """Parse a decoded JSON body; raise `BidRequestParseError` listing every problem."""
        return _parse(data)


class BidRequestParseError(CoreError):
    """The body is not a collection bid request; `violations` says every reason."""

    def __init__(self, violations: list[RuleViolation]) -> None:
        self.violations: tuple[RuleViolation, ...] = tuple(violations)
        codes = ", ".join(f"{v.code.value}({v.field})" for v in self.violations)
        super().__init__(f"invalid collection bid request: {codes}")


_INT_FIELDS: Final = ("price", "quantity", "bidExpiry", "timestamp")
_STR_FIELDS: Final = (
    "collectionSlug",
    "bidderAddress",
    "bidderAddressPublicKey",
    "bidderTokenReceiveAddress",
    "signedBiddingMessage",
)
_OPTIONAL_FIELDS: Final = ("metaType", "attributes", "attribute", "feeRate")
# Optional fields the public service documents for POST /bid/place (notes/satflow-api.md) and
# that clients such as Satflow's market maker send: accepted and ignored, not refused.
IGNORED_FIELDS: Final = frozenset(
    {
        "buyerScripts",
        "allowedPaymentOutpoints",
        "skipBroadcast",
        "bidChallengeId",
        "address",
        "signature",
    }
)
_KNOWN_FIELDS: Final = frozenset(_INT_FIELDS + _STR_FIELDS + _OPTIONAL_FIELDS) | IGNORED_FIELDS
_TRAIT_KEYS: Final = frozenset({"trait_type", "value"})


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object" if isinstance(value, Mapping) else type(value).__name__


def _wrong_type(name: str, expected: str, value: object) -> RuleViolation:
    label = name or "The request body"
    return RuleViolation(
        ErrorCode.INVALID_FIELD,
        name,
        f"{label} must be {expected}, but {_json_type(value)} was sent: send {expected}.",
    )


def _parse_trait(raw: object, path: str, errors: list[RuleViolation]) -> Trait | None:
    if not isinstance(raw, Mapping):
        errors.append(
            RuleViolation(
                ErrorCode.COLLECTION_BID_TRAIT_INVALID,
                path,
                f"{path} must be an object, but {_json_type(raw)} was sent: send "
                f'{{"trait_type": "...", "value": "..."}}.',
            )
        )
        return None
    keys = set(map(str, raw))
    if keys != _TRAIT_KEYS:
        errors.append(
            RuleViolation(
                ErrorCode.COLLECTION_BID_TRAIT_INVALID,
                path,
                f"{path} must have exactly the fields trait_type and value, but has "
                f"{', '.join(sorted(keys)) or 'none'}: send exactly those two.",
            )
        )
        return None
    trait_type, value = raw["trait_type"], raw["value"]
    if not isinstance(trait_type, str) or not isinstance(value, str):
        errors.append(
            RuleViolation(
                ErrorCode.COLLECTION_BID_TRAIT_INVALID,
                path,
                f"{path}.trait_type and {path}.value must be strings, but "
                f"{_json_type(trait_type)} and {_json_type(value)} were sent: send both as "
                f'strings (a numeric value as its text, e.g. "5").',
            )
        )
        return None
    return Trait(trait_type=trait_type, value=value)


def _parse_attributes(raw: object, errors: list[RuleViolation]) -> tuple[Trait, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        errors.append(_wrong_type("attributes", "an array of traits", raw))
        return ()
    parsed = [_parse_trait(item, f"attributes[{i}]", errors) for i, item in enumerate(raw)]
    return tuple(t for t in parsed if t is not None)


def _parse_fee_rate(raw: object, errors: list[RuleViolation]) -> BidFeeRate | None:
    if raw is None:
        return None
    try:
        return BidFeeRate.from_wire(raw)
    except InvalidBidFeeRate as exc:
        errors.append(RuleViolation(ErrorCode.INVALID_FIELD, "feeRate", f"{exc}."))
        return None


def _parse(data: object) -> CollectionBidRequest:
    if not isinstance(data, Mapping):
        raise BidRequestParseError([_wrong_type("", "a JSON object", data)])
    errors: list[RuleViolation] = []
    for name in sorted(set(map(str, data)) - _KNOWN_FIELDS):
        errors.append(
            RuleViolation(
                ErrorCode.UNKNOWN_FIELD,
                name,
                f"{name} is not a field of a collection bid request: remove it or check its "
                f"spelling.",
            )
        )
    ints: dict[str, int] = {}
    strs: dict[str, str] = {}
    for name in _INT_FIELDS + _STR_FIELDS:
        if name not in data:
            errors.append(
                RuleViolation(ErrorCode.MISSING_FIELD, name, f"{name} is required: send it.")
            )
            continue
        value = data[name]
        if name in _INT_FIELDS:
            if isinstance(value, int) and not isinstance(value, bool):
                ints[name] = value
            else:
                errors.append(_wrong_type(name, "an integer", value))
        elif isinstance(value, str):
            strs[name] = value
        else:
            errors.append(_wrong_type(name, "a string", value))
    raw_meta_type = data.get("metaType")
    meta_type = DEFAULT_META_TYPE
    if isinstance(raw_meta_type, str):
        meta_type = raw_meta_type
    elif raw_meta_type is not None:
        errors.append(_wrong_type("metaType", '"ordinals" or "runes"', raw_meta_type))
    attributes = _parse_attributes(data.get("attributes"), errors)
    raw_attribute = data.get("attribute")
    attribute = None
    if raw_attribute is not None:
        attribute = _parse_trait(raw_attribute, "attribute", errors)
    fee_rate = _parse_fee_rate(data.get("feeRate"), errors)
    if errors:
        raise BidRequestParseError(errors)
    return CollectionBidRequest(
        price=ints["price"],
        collection_slug=strs["collectionSlug"],
        bidder_address=strs["bidderAddress"],
        bidder_address_public_key=strs["bidderAddressPublicKey"],
        bidder_token_receive_address=strs["bidderTokenReceiveAddress"],
        quantity=ints["quantity"],
        meta_type=meta_type,
        bid_expiry=ints["bidExpiry"],
        timestamp=ints["timestamp"],
        signed_bidding_message=strs["signedBiddingMessage"],
        attributes=attributes,
        attribute=attribute,
        fee_rate=fee_rate,
    )
