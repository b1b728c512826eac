"""Every rule of a collection bid request (spec 2.3 and 8), checked against a given clock.

`validate_bid_request(req, now_ms)` returns *every* violated rule, in field order, each with a
code (`app.core.errors`), the wire field and a sentence saying how to fix it. The app runs it
before sending (with the local clock), the sandbox on arrival (with the service clock).

Boundaries, as the spec words them:
- bidExpiry "at least 15 minutes after the time of the request": `bidExpiry - now >= 15 min`
  (exactly 15 minutes passes). The time of the request is `now_ms`, the clock of whoever checks,
  not the request's own `timestamp`, which the client chooses.
- timestamp "less than 2 minutes old": `now - timestamp < 2 min` (exactly 2 minutes fails);
  "no more than 30 seconds ahead": `timestamp - now <= 30 s` (exactly 30 s passes).
- Ordinals prices (plain, trait and range bids): a multiple of 1,000 and at least 1,000. A rune
  bid's price is the total for `quantity` units: at least 10,000, any step.
- Bids per request: `bid_count()` at most 1,000 (a rune bid is one bid). Traits at most 50.

Our rules where the spec is silent: an exact duplicate trait is rejected (each trait is its own
pool, so a duplicate would silently double the bids placed); `attributes` and `attribute`
together are rejected unless `attributes` is empty; the strings of the colon line must be
non-empty and hold no ':' or control character (either would make the signed line ambiguous),
and the public key is hex of a compressed (66 digits, 02/03) or x-only (64) key;
trait text must be non-empty and hold no lone surrogate; integers must be exact integers
within 2^53-1 so a JavaScript client writes the same digits.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from app.core import limits
from app.core.bid_request import META_TYPES, BidKind, CollectionBidRequest, Trait
from app.core.errors import ErrorCode, RuleViolation

_E = ErrorCode
# Wire names of the strings that appear in the colon line, with their model attributes.
_COLON_LINE_STRINGS = (
    ("bidderAddress", "bidder_address"),
    ("bidderAddressPublicKey", "bidder_address_public_key"),
    ("bidderTokenReceiveAddress", "bidder_token_receive_address"),
    ("collectionSlug", "collection_slug"),
)
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_INTEGERS = (
    ("price", "price"),
    ("quantity", "quantity"),
    ("bidExpiry", "bid_expiry"),
    ("timestamp", "timestamp"),
)


def _sats(n: int) -> str:
    return f"{n:,} sats"


def _seconds(ms: int) -> str:
    return f"{ms / 1000:,.3f}".rstrip("0").rstrip(".") + " s"


def _has_lone_surrogate(text: str) -> bool:
    return any("\ud800" <= ch <= "\udfff" for ch in text)


def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def _is_public_key_hex(text: str) -> bool:
    # Format only: whether the key belongs to bidderAddress needs the wallet layer (sandbox).
    if len(text) == 66 and text[:2] not in ("02", "03"):
        return False
    return len(text) in (64, 66) and all(ch in _HEX_DIGITS for ch in text)


def _is_exact_int(value: object) -> bool:
    return type(value) is int and abs(value) <= limits.MAX_SAFE_INTEGER


def _check_strings(req: CollectionBidRequest) -> Iterator[RuleViolation]:
    for wire, attr in _COLON_LINE_STRINGS:
        text: str = getattr(req, attr)
        problem = None
        if not text:
            problem = "must not be empty"
        elif ":" in text:
            problem = "must not contain ':' (the bid message joins its values with colons)"
        elif _has_control(text) or _has_lone_surrogate(text):
            problem = "must not contain control characters or lone surrogates"
        elif attr == "bidder_address_public_key" and not _is_public_key_hex(text):
            problem = (
                "must be a public key in hex, 66 digits starting 02 or 03 (compressed) or 64 "
                "(x-only, Taproot payment addresses only)"
            )
        if problem:
            yield RuleViolation(_E.INVALID_FIELD, wire, f"{wire} {problem}: send the exact value.")
    if not req.signed_bidding_message:
        yield RuleViolation(
            _E.INVALID_FIELD,
            "signedBiddingMessage",
            "signedBiddingMessage must not be empty: sign the bid message and send the base64 "
            "signature.",
        )


def _check_integers(req: CollectionBidRequest) -> Iterator[RuleViolation]:
    for wire, attr in _INTEGERS:
        if not _is_exact_int(getattr(req, attr)):
            yield RuleViolation(
                _E.INVALID_FIELD,
                wire,
                f"{wire} must be an integer between -(2^53-1) and 2^53-1: send a whole number.",
            )


def _check_meta_type(req: CollectionBidRequest) -> Iterator[RuleViolation]:
    if req.meta_type not in META_TYPES:
        yield RuleViolation(
            _E.COLLECTION_BID_META_TYPE_INVALID,
            "metaType",
            f'metaType "{req.meta_type}" is not allowed: send "ordinals" or "runes".',
        )
    elif req.kind is BidKind.RANGE and req.meta_type != "ordinals":
        yield RuleViolation(
            _E.COLLECTION_BID_META_TYPE_INVALID,
            "metaType",
            f'{req.collection_slug} is an inscription-number range: send metaType "ordinals".',
        )


def _check_price(req: CollectionBidRequest) -> Iterator[RuleViolation]:
    price = req.price
    if not _is_exact_int(price) or req.meta_type not in META_TYPES:
        return  # reported already; which price rule applies is unknown without a metaType
    if req.kind is BidKind.RUNE:
        if price < limits.MIN_RUNE_PRICE_SATS:
            yield RuleViolation(
                _E.RUNE_BID_PRICE_TOO_LOW,
                "price",
                f"A rune bid's price is the total for all its units and must be at least "
                f"{_sats(limits.MIN_RUNE_PRICE_SATS)}; {_sats(price)} was sent: raise it.",
                {"limit": limits.MIN_RUNE_PRICE_SATS, "requested": price},
            )
        return
    if price < limits.MIN_ORDINALS_PRICE_SATS:
        yield RuleViolation(
            _E.COLLECTION_BID_PRICE_TOO_LOW,
            "price",
            f"The price per item must be at least {_sats(limits.MIN_ORDINALS_PRICE_SATS)}; "
            f"{_sats(price)} was sent: raise it.",
            {"limit": limits.MIN_ORDINALS_PRICE_SATS, "requested": price},
        )
    step = limits.ORDINALS_PRICE_STEP_SATS
    if price % step:
        lower = limits.price_step_at_or_below(price)
        options = f"{_sats(lower)} or {_sats(lower + step)}" if lower > 0 else _sats(step)
        yield RuleViolation(
            _E.COLLECTION_BID_PRICE_STEP,
            "price",
            f"The price per item must be a multiple of {_sats(step)}; {_sats(price)} was sent: "
            f"use {options}.",
            {"step": step, "requested": price},
        )


def _check_quantity(req: CollectionBidRequest) -> Iterator[RuleViolation]:
    if _is_exact_int(req.quantity) and req.quantity < limits.MIN_QUANTITY:
        yield RuleViolation(
            _E.COLLECTION_BID_QUANTITY_INVALID,
            "quantity",
            f"quantity must be at least {limits.MIN_QUANTITY}; {req.quantity} was sent: send "
            f"{limits.MIN_QUANTITY} or more.",
            {"limit": limits.MIN_QUANTITY, "requested": req.quantity},
        )


def _check_clock(req: CollectionBidRequest, now_ms: int) -> Iterator[RuleViolation]:
    if _is_exact_int(req.bid_expiry):
        earliest = now_ms + limits.MIN_BID_EXPIRY_MS
        if req.bid_expiry < earliest:
            yield RuleViolation(
                _E.COLLECTION_BID_EXPIRY_TOO_SOON,
                "bidExpiry",
                f"bidExpiry must be at least 15 minutes after the request; it is "
                f"{_seconds(req.bid_expiry - now_ms)} after it: send {earliest} or later.",
                {"earliest": earliest, "requested": req.bid_expiry},
            )
    if not _is_exact_int(req.timestamp):
        return
    clock = {"serverTime": now_ms, "requested": req.timestamp}
    age = now_ms - req.timestamp
    if age >= limits.TIMESTAMP_MAX_AGE_MS:
        yield RuleViolation(
            _E.COLLECTION_BID_TIMESTAMP_TOO_OLD,
            "timestamp",
            f"timestamp is {_seconds(age)} old and must be less than 2 minutes old: sign the "
            f"bid again with the current time (and check this computer's clock).",
            clock,
        )
    elif -age > limits.TIMESTAMP_MAX_AHEAD_MS:
        yield RuleViolation(
            _E.COLLECTION_BID_TIMESTAMP_IN_FUTURE,
            "timestamp",
            f"timestamp is {_seconds(-age)} ahead of the service clock, more than the 30 s "
            f"allowed: correct this computer's clock and sign the bid again.",
            clock,
        )


def _trait_text_problem(trait: Trait) -> str | None:
    for name, text in (("trait_type", trait.trait_type), ("value", trait.value)):
        if not text:
            return f"{name} must not be empty"
        if _has_lone_surrogate(text):
            return f"{name} holds a lone surrogate, which is not valid text"
    return None


def _check_traits(req: CollectionBidRequest) -> Iterator[RuleViolation]:
    traits = req.traits()
    field = "attributes" if req.attributes else "attribute"
    if req.attributes and req.attribute is not None:
        yield RuleViolation(
            _E.COLLECTION_BID_ATTRIBUTE_CONFLICT,
            "attribute",
            "Send the traits either in attributes or in the single attribute, not both: move "
            "attribute into attributes.",
        )
    if traits and req.kind in (BidKind.RUNE, BidKind.RANGE):
        what = "rune bids" if req.kind is BidKind.RUNE else f"the {req.collection_slug} range"
        yield RuleViolation(
            _E.COLLECTION_BID_TRAITS_NOT_ALLOWED,
            field,
            f"Trait bids are not available on {what}: remove {field}.",
        )
    if len(traits) > limits.MAX_TRAITS_PER_REQUEST:
        yield RuleViolation(
            _E.COLLECTION_BID_TOO_MANY_ATTRIBUTES,
            "attributes",
            f"A request may name at most {limits.MAX_TRAITS_PER_REQUEST} traits; "
            f"{len(traits)} were sent: split the traits over several requests.",
            {"limit": limits.MAX_TRAITS_PER_REQUEST, "requested": len(traits)},
        )
    paths = [f"attributes[{i}]" for i in range(len(req.attributes))] or ["attribute"]
    seen: dict[Trait, str] = {}
    for path, trait in zip(paths, traits, strict=False):
        problem = _trait_text_problem(trait)
        if problem:
            yield RuleViolation(
                _E.COLLECTION_BID_TRAIT_INVALID, path, f"{path}.{problem}: send the trait's text."
            )
        if trait in seen:
            yield RuleViolation(
                _E.COLLECTION_BID_DUPLICATE_TRAIT,
                path,
                f"{path} repeats {seen[trait]} ({trait.trait_type}: {trait.value}): remove it.",
            )
        seen.setdefault(trait, path)


def _check_bid_count(req: CollectionBidRequest) -> Iterator[RuleViolation]:
    if not _is_exact_int(req.quantity):
        return
    count = req.bid_count()
    if count > limits.MAX_BIDS_PER_REQUEST:
        per = f" ({req.quantity} x {len(req.traits())} traits)" if req.traits() else ""
        yield RuleViolation(
            _E.COLLECTION_BID_TOO_MANY_ORDERS,
            "quantity",
            f"This request would place {count:,} bids{per}; at most "
            f"{limits.MAX_BIDS_PER_REQUEST:,} are allowed: lower quantity or name fewer traits.",
            {"limit": limits.MAX_BIDS_PER_REQUEST, "requested": count},
        )


def validate_bid_request(req: CollectionBidRequest, now_ms: int) -> list[RuleViolation]:
    """Every rule `req` breaks when checked at `now_ms` (ms since the Unix epoch); [] if none."""
    checks = (
        _check_integers(req),
        _check_strings(req),
        _check_meta_type(req),
        _check_price(req),
        _check_quantity(req),
        _check_bid_count(req),
        _check_clock(req, now_ms),
        _check_traits(req),
    )
    return [violation for check in checks for violation in check]


def validate_single_inscription_price(price: int) -> list[RuleViolation]:
    """Spec 4.3/4.4: a bid on one inscription offers at least 10,000 sats."""
    if _is_exact_int(price) and price >= limits.MIN_SINGLE_INSCRIPTION_PRICE_SATS:
        return []
    return [
        RuleViolation(
            _E.SINGLE_INSCRIPTION_BID_PRICE_TOO_LOW,
            "price",
            f"A bid on one inscription must offer at least "
            f"{_sats(limits.MIN_SINGLE_INSCRIPTION_PRICE_SATS)}: raise the price.",
            {"limit": limits.MIN_SINGLE_INSCRIPTION_PRICE_SATS, "requested": price},
        )
    ]
