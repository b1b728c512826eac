"""Error codes of the marketplace API and the structured rule violation the core reports.

`ERROR_CODES` is the single source of every code: its HTTP status, the condition, the extra
fields, whether the code is the spec's own (section 7) or ours, and who enforces it: `core`
(a pure check in this package, applied by the app before sending and by the sandbox on arrival)
or `sandbox` (needs state or I/O). `docs/error-codes.md` renders the same table; a test keeps
the two in step.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal


class CoreError(Exception):
    """Base class of the errors raised by `app.core`."""


class ErrorCode(StrEnum):
    # The spec's codes, verbatim (section 7).
    BIDDING_WALLET_IDENTITY_MISMATCH = "BIDDING_WALLET_IDENTITY_MISMATCH"
    COLLECTION_BID_TOO_MANY_ORDERS = "COLLECTION_BID_TOO_MANY_ORDERS"
    COLLECTION_BID_TOO_MANY_ATTRIBUTES = "COLLECTION_BID_TOO_MANY_ATTRIBUTES"
    COLLECTION_BID_SIGNATURE_USED = "COLLECTION_BID_SIGNATURE_USED"
    COLLECTION_BID_ATTRIBUTES_NOT_SIGNED = "COLLECTION_BID_ATTRIBUTES_NOT_SIGNED"
    SUBMIT_BID_RATE_LIMITED = "SUBMIT_BID_RATE_LIMITED"
    SECURE_LISTING_UNSUPPORTED = "SECURE_LISTING_UNSUPPORTED"
    # Ours: request shape.
    MISSING_FIELD = "MISSING_FIELD"
    UNKNOWN_FIELD = "UNKNOWN_FIELD"
    INVALID_FIELD = "INVALID_FIELD"
    # Ours: collection, trait and rune bid rules the spec states without naming a code.
    COLLECTION_BID_META_TYPE_INVALID = "COLLECTION_BID_META_TYPE_INVALID"
    COLLECTION_BID_PRICE_TOO_LOW = "COLLECTION_BID_PRICE_TOO_LOW"
    COLLECTION_BID_PRICE_STEP = "COLLECTION_BID_PRICE_STEP"
    RUNE_BID_PRICE_TOO_LOW = "RUNE_BID_PRICE_TOO_LOW"
    COLLECTION_BID_QUANTITY_INVALID = "COLLECTION_BID_QUANTITY_INVALID"
    COLLECTION_BID_EXPIRY_TOO_SOON = "COLLECTION_BID_EXPIRY_TOO_SOON"
    COLLECTION_BID_TIMESTAMP_TOO_OLD = "COLLECTION_BID_TIMESTAMP_TOO_OLD"
    COLLECTION_BID_TIMESTAMP_IN_FUTURE = "COLLECTION_BID_TIMESTAMP_IN_FUTURE"
    COLLECTION_BID_TRAITS_NOT_ALLOWED = "COLLECTION_BID_TRAITS_NOT_ALLOWED"
    COLLECTION_BID_TRAIT_INVALID = "COLLECTION_BID_TRAIT_INVALID"
    COLLECTION_BID_DUPLICATE_TRAIT = "COLLECTION_BID_DUPLICATE_TRAIT"
    COLLECTION_BID_ATTRIBUTE_CONFLICT = "COLLECTION_BID_ATTRIBUTE_CONFLICT"
    COLLECTION_BID_POOL_INSUFFICIENT_BALANCE = "COLLECTION_BID_POOL_INSUFFICIENT_BALANCE"
    SINGLE_INSCRIPTION_BID_PRICE_TOO_LOW = "SINGLE_INSCRIPTION_BID_PRICE_TOO_LOW"
    # Ours: conditions the sandbox checks with state or I/O.
    UNKNOWN_COLLECTION = "UNKNOWN_COLLECTION"
    UNKNOWN_TRAIT = "UNKNOWN_TRAIT"
    INVALID_SIGNATURE = "INVALID_SIGNATURE"
    PUBKEY_ADDRESS_MISMATCH = "PUBKEY_ADDRESS_MISMATCH"
    SIGNED_BY_ORDINALS_ADDRESS = "SIGNED_BY_ORDINALS_ADDRESS"
    BIDDING_WALLET_NOT_FOUND = "BIDDING_WALLET_NOT_FOUND"
    UNAUTHORIZED = "UNAUTHORIZED"
    INVALID_ADDRESS = "INVALID_ADDRESS"
    CANCEL_CREDENTIAL_INVALID = "CANCEL_CREDENTIAL_INVALID"
    CANCEL_NOT_MAKER = "CANCEL_NOT_MAKER"
    BID_NOT_FOUND = "BID_NOT_FOUND"
    FILL_UNSUPPORTED = "FILL_UNSUPPORTED"
    FILL_NO_MATCHING_INSCRIPTION = "FILL_NO_MATCHING_INSCRIPTION"
    FILL_INSUFFICIENT_BALANCE = "FILL_INSUFFICIENT_BALANCE"
    WITHDRAW_AMOUNT_INVALID = "WITHDRAW_AMOUNT_INVALID"
    WITHDRAW_INSUFFICIENT_BALANCE = "WITHDRAW_INSUFFICIENT_BALANCE"
    INVALID_PSBT = "INVALID_PSBT"
    WITHDRAW_INTENT_NOT_FOUND = "WITHDRAW_INTENT_NOT_FOUND"
    WITHDRAW_SIGNATURE_MISSING = "WITHDRAW_SIGNATURE_MISSING"
    WITHDRAW_SIGNATURE_INVALID = "WITHDRAW_SIGNATURE_INVALID"
    WITHDRAW_REJECTED = "WITHDRAW_REJECTED"
    SECURE_BULK_SELL_TOO_MANY_LISTINGS = "SECURE_BULK_SELL_TOO_MANY_LISTINGS"
    # Ours: single-inscription bids and secure listings (the sandbox, issue 6).
    INSCRIPTION_NOT_FOUND = "INSCRIPTION_NOT_FOUND"
    INSCRIPTION_NOT_INDEXED = "INSCRIPTION_NOT_INDEXED"
    INSCRIPTION_BID_ALREADY_OWNER = "INSCRIPTION_BID_ALREADY_OWNER"
    INSCRIPTION_BID_ITEM_UNSUPPORTED = "INSCRIPTION_BID_ITEM_UNSUPPORTED"
    INSUFFICIENT_FUNDS = "INSUFFICIENT_FUNDS"
    UNSUPPORTED_ADDRESS_TYPE = "UNSUPPORTED_ADDRESS_TYPE"
    PSBT_NOT_FROM_INTENT = "PSBT_NOT_FROM_INTENT"
    PSBT_SIGNATURE_INVALID = "PSBT_SIGNATURE_INVALID"
    INSCRIPTION_BID_FIELDS_MISMATCH = "INSCRIPTION_BID_FIELDS_MISMATCH"
    INSCRIPTION_BID_STALE = "INSCRIPTION_BID_STALE"
    INSCRIPTION_BID_NOT_FOUND = "INSCRIPTION_BID_NOT_FOUND"
    INSCRIPTION_BID_NOT_OPEN = "INSCRIPTION_BID_NOT_OPEN"
    NOT_SANDBOX_HELD = "NOT_SANDBOX_HELD"
    RUNE_NAME_LOCKED = "RUNE_NAME_LOCKED"
    SECURE_BULK_SELL_ADDRESSES_DIFFER = "SECURE_BULK_SELL_ADDRESSES_DIFFER"
    SECURE_BULK_SELL_MIXED_ITEMS = "SECURE_BULK_SELL_MIXED_ITEMS"
    SECURE_LISTING_PRICE_INVALID = "SECURE_LISTING_PRICE_INVALID"
    SECURE_LISTING_ITEM_NOT_HELD = "SECURE_LISTING_ITEM_NOT_HELD"
    SECURE_LISTING_ITEM_MOVED = "SECURE_LISTING_ITEM_MOVED"
    SECURE_LISTING_ITEM_UNSUPPORTED = "SECURE_LISTING_ITEM_UNSUPPORTED"
    SECURE_LISTING_TAP_KEY_INVALID = "SECURE_LISTING_TAP_KEY_INVALID"
    SECURE_LISTING_PSBT_COUNT = "SECURE_LISTING_PSBT_COUNT"
    SECURE_LISTING_PSBT_MISMATCH = "SECURE_LISTING_PSBT_MISMATCH"
    LISTING_NOT_FOUND = "LISTING_NOT_FOUND"
    LISTING_NOT_ACTIVE = "LISTING_NOT_ACTIVE"


Source = Literal["spec", "ours"]
Enforcer = Literal["core", "sandbox"]


@dataclass(frozen=True)
class ErrorCodeInfo:
    status: int
    source: Source
    enforced_by: Enforcer
    condition: str
    extra_fields: tuple[str, ...] = ()


def _info(status: int, source: Source, by: Enforcer, condition: str, *extra: str) -> ErrorCodeInfo:
    return ErrorCodeInfo(status, source, by, condition, extra)


_E = ErrorCode
_LIMITS = ("details.limit", "details.requested")
_CLOCK = ("details.serverTime", "details.requested")

ERROR_CODES: Mapping[ErrorCode, ErrorCodeInfo] = {
    _E.BIDDING_WALLET_IDENTITY_MISMATCH: _info(
        400, "spec", "sandbox",
        "Wallet request whose (ordinalsAddress, paymentAddress, paymentPubkey) differs from the "
        "combination the wallet was first tied to.",
    ),
    _E.COLLECTION_BID_TOO_MANY_ORDERS: _info(
        400, "spec", "core",
        "Request would place more than 1,000 bids (quantity, times the traits for a trait bid).",
        "field", *_LIMITS,
    ),
    _E.COLLECTION_BID_TOO_MANY_ATTRIBUTES: _info(
        400, "spec", "core", "More than 50 traits in one request.", "field", *_LIMITS
    ),
    _E.COLLECTION_BID_SIGNATURE_USED: _info(
        400, "spec", "sandbox", "The signed message has already placed a bid."
    ),
    _E.COLLECTION_BID_ATTRIBUTES_NOT_SIGNED: _info(
        400, "spec", "sandbox", "Trait bid whose signature covers only the colon-joined line."
    ),
    _E.SUBMIT_BID_RATE_LIMITED: _info(
        429, "spec", "sandbox",
        "Bid placed faster than one per 500 ms per bidderTokenReceiveAddress (a trait bid counts "
        "once per trait).",
        "retryAfterMs",
    ),
    _E.SECURE_LISTING_UNSUPPORTED: _info(
        400, "spec", "sandbox",
        "A TAP token transfer in a secure sell, secure bulk sell or secure listing request.",
    ),
    _E.MISSING_FIELD: _info(400, "ours", "core", "A required field is absent.", "field"),
    _E.UNKNOWN_FIELD: _info(
        400, "ours", "core", "A field the spec does not define (e.g. a misspelt `attributes`).",
        "field",
    ),
    _E.INVALID_FIELD: _info(
        400, "ours", "core",
        "Wrong JSON type (a boolean or a decimal where an integer belongs, ...), an integer "
        "beyond 2^53-1, a message string that is empty or holds ':', a control character or "
        "a lone surrogate, or a public key that is not 66 hex digits (02/03...) or 64 (x-only).",
        "field",
    ),
    _E.COLLECTION_BID_META_TYPE_INVALID: _info(
        400, "ours", "core",
        "metaType is neither `ordinals` nor `runes`, or is `runes` on a sub1k/sub10k/sub100k "
        "range.",
        "field",
    ),
    _E.COLLECTION_BID_PRICE_TOO_LOW: _info(
        400, "ours", "core", "Ordinals price below 1,000 sats.", "field", *_LIMITS
    ),
    _E.COLLECTION_BID_PRICE_STEP: _info(
        400, "ours", "core", "Ordinals price not a multiple of 1,000 sats.",
        "field", "details.step", "details.requested",
    ),
    _E.RUNE_BID_PRICE_TOO_LOW: _info(
        400, "ours", "core", "Rune bid total price below 10,000 sats.", "field", *_LIMITS
    ),
    _E.COLLECTION_BID_QUANTITY_INVALID: _info(
        400, "ours", "core", "Quantity below 1.", "field", *_LIMITS
    ),
    _E.COLLECTION_BID_EXPIRY_TOO_SOON: _info(
        400, "ours", "core",
        "bidExpiry less than 15 minutes after the time the request is checked.",
        "field", "details.earliest", "details.requested",
    ),
    _E.COLLECTION_BID_TIMESTAMP_TOO_OLD: _info(
        400, "ours", "core", "timestamp 2 minutes old or older.", "field", *_CLOCK
    ),
    _E.COLLECTION_BID_TIMESTAMP_IN_FUTURE: _info(
        400, "ours", "core", "timestamp more than 30 seconds ahead of the service clock.",
        "field", *_CLOCK,
    ),
    _E.COLLECTION_BID_TRAITS_NOT_ALLOWED: _info(
        400, "ours", "core", "Traits on a rune bid or on a sub1k/sub10k/sub100k range.", "field"
    ),
    _E.COLLECTION_BID_TRAIT_INVALID: _info(
        400, "ours", "core",
        "A trait is not an object of exactly `trait_type` and `value`, both non-empty strings "
        "without lone surrogates.",
        "field",
    ),
    _E.COLLECTION_BID_DUPLICATE_TRAIT: _info(
        400, "ours", "core", "The same (trait_type, value) appears twice in `attributes`.", "field"
    ),
    _E.COLLECTION_BID_ATTRIBUTE_CONFLICT: _info(
        400, "ours", "core", "Both a non-empty `attributes` and a single `attribute` are sent.",
        "field",
    ),
    _E.COLLECTION_BID_POOL_INSUFFICIENT_BALANCE: _info(
        400, "ours", "sandbox",
        "A pool's open bids plus the new ones, maker fee included, exceed the wallet balance "
        "(checked by app.core.pools with the balance the sandbox reads).",
        "details.pool", "details.needed", "details.available", "details.shortfall",
    ),
    _E.SINGLE_INSCRIPTION_BID_PRICE_TOO_LOW: _info(
        400, "ours", "core", "Single-inscription bid price below 10,000 sats.", "field", *_LIMITS
    ),
    _E.UNKNOWN_COLLECTION: _info(
        400, "ours", "sandbox", "collectionSlug names no known collection, rune or range.", "field"
    ),
    _E.UNKNOWN_TRAIT: _info(
        400, "ours", "sandbox", "A trait that does not exist in the collection.", "field"
    ),
    _E.INVALID_SIGNATURE: _info(
        400, "ours", "sandbox",
        "signedBiddingMessage is not a valid BIP-322 or BIP-137 signature of the bid message by "
        "bidderAddress (or a PSBT signature does not verify).",
    ),
    _E.PUBKEY_ADDRESS_MISMATCH: _info(
        400, "ours", "sandbox",
        "bidderAddressPublicKey (or paymentPubkey) is not the key of the payment address.",
        "field",
    ),
    _E.SIGNED_BY_ORDINALS_ADDRESS: _info(
        400, "ours", "sandbox",
        "The bid message is signed by the ordinals address instead of the payment address.",
    ),
    _E.BIDDING_WALLET_NOT_FOUND: _info(
        400, "ours", "sandbox",
        "A bid or withdrawal for a payment address with no bidding wallet (call GET "
        "/address/bidding-wallet first).",
    ),
    _E.UNAUTHORIZED: _info(
        401, "ours", "sandbox",
        "The sandbox was started with --api-key and a /v1 request has no or another x-api-key.",
    ),
    _E.INVALID_ADDRESS: _info(
        400, "ours", "sandbox", "An address that is not a valid regtest address.", "field"
    ),
    _E.CANCEL_CREDENTIAL_INVALID: _info(
        403, "ours", "sandbox",
        "POST /cancel whose signature is not a BIP-322 signature by makerAddress over a live "
        "challenge (bad, expired or never issued).",
    ),
    _E.CANCEL_NOT_MAKER: _info(
        403, "ours", "sandbox",
        "POST /cancel names a bid of another maker; nothing is cancelled.", "details.ids",
    ),
    _E.BID_NOT_FOUND: _info(
        404, "ours", "sandbox",
        "POST /sandbox/bids/fill names a bid id that is not an open bid (POST /cancel reports "
        "such ids as failed instead).",
        "field",
    ),
    _E.FILL_UNSUPPORTED: _info(
        400, "ours", "sandbox",
        "POST /sandbox/bids/fill on a rune bid (only collection and trait bids can be filled by "
        "the scenario API), or a price too low to pay the seller above dust after the network "
        "fee.",
    ),
    _E.FILL_NO_MATCHING_INSCRIPTION: _info(
        409, "ours", "sandbox",
        "POST /sandbox/bids/fill: no sandbox collector holds an inscription the bid matches.",
    ),
    _E.FILL_INSUFFICIENT_BALANCE: _info(
        409, "ours", "sandbox",
        "POST /sandbox/bids/fill: the bidding wallet cannot pay the price and the maker fee.",
        "details.needed", "details.available",
    ),
    _E.WITHDRAW_AMOUNT_INVALID: _info(
        400, "ours", "sandbox",
        "Withdrawal amount that is not a positive whole number of sats, or below the payment "
        "address's dust threshold.",
        "field",
    ),
    _E.WITHDRAW_INSUFFICIENT_BALANCE: _info(
        400, "ours", "sandbox",
        "Withdrawal amount plus the network fee exceeds the bidding wallet balance (a full "
        "sweep takes the fee from the amount).",
        "details.requested", "details.available", "details.fee",
    ),
    _E.INVALID_PSBT: _info(
        400, "ours", "sandbox", "signedWithdrawPSBT is not a PSBT in base64 or hex.", "field"
    ),
    _E.WITHDRAW_INTENT_NOT_FOUND: _info(
        400, "ours", "sandbox",
        "The signed PSBT's transaction is not one POST /intent/withdraw built (changed inputs, "
        "outputs, amounts, version or lock time).",
    ),
    _E.WITHDRAW_SIGNATURE_MISSING: _info(
        400, "ours", "sandbox", "An input of the withdrawal carries no signature by the "
        "payment key.", "details.input",
    ),
    _E.WITHDRAW_SIGNATURE_INVALID: _info(
        400, "ours", "sandbox",
        "An input's signature does not verify for the payment key (another key, another "
        "transaction, or a sighash type other than DEFAULT/ALL).",
        "details.input",
    ),
    _E.WITHDRAW_REJECTED: _info(
        400, "ours", "sandbox",
        "The finalised withdrawal was refused by the sandbox chain (e.g. its coins were spent "
        "since the intent was built).",
    ),
    _E.SECURE_BULK_SELL_TOO_MANY_LISTINGS: _info(
        400, "ours", "sandbox",
        "More than 100 entries in `listings` of POST /intent/secure-bulk-sell (the spec shows "
        "this 400 without a code).",
        *_LIMITS,
    ),
    _E.INSCRIPTION_NOT_FOUND: _info(
        404, "ours", "sandbox",
        "inscriptionId names no inscription the sandbox's ord index knows.",
        "field",
    ),
    _E.INSCRIPTION_NOT_INDEXED: _info(
        400, "ours", "sandbox",
        "The inscription is known but sits on no output (it went to a fee or was lost), "
        "so no PSBT can spend it.",
        "field",
    ),
    _E.INSCRIPTION_BID_ALREADY_OWNER: _info(
        400, "ours", "sandbox",
        "POST /intent/bid for an inscription that already sits at "
        "bidderTokenReceiveAddress or bidderAddress.",
        "field",
    ),
    _E.INSCRIPTION_BID_ITEM_UNSUPPORTED: _info(
        400, "ours", "sandbox",
        "The inscription's output also carries other inscriptions or runes (they would "
        "go with it), or is too small to pay bidderTokenReceiveAddress an output above "
        "dust.",
        "field",
    ),
    _E.INSUFFICIENT_FUNDS: _info(
        400, "ours", "sandbox",
        "The payment address's spendable coins (those without inscriptions or runes) "
        "cannot pay a single-inscription bid or a secure purchase: price, postage, fees "
        "and network fee.",
        "details.needed", "details.available", "details.shortfall",
    ),
    _E.UNSUPPORTED_ADDRESS_TYPE: _info(
        400, "ours", "sandbox",
        "An address of a type the flow cannot build for (payment address: P2WPKH, "
        "P2SH-P2WPKH or P2TR; sellerOrdAddress: P2TR or P2WPKH).",
        "field",
    ),
    _E.PSBT_NOT_FROM_INTENT: _info(
        400, "ours", "sandbox",
        "The signed PSBT's transaction is not one POST /intent/bid, /intent/secure-sell "
        "or /intent/secure-bulk-sell built (something besides signatures changed), or a "
        "UTXO or input 0 of a bid PSBT was altered.",
        "field",
    ),
    _E.PSBT_SIGNATURE_INVALID: _info(
        400, "ours", "sandbox",
        "An input the user must sign has no signature, another sighash type than the "
        "flow's (ALL for a bid, 0x81, ALL with ANYONECANPAY, for a secure listing), or one Bitcoin "
        "Core's interpreter rejects.",
        "field", "details.input",
    ),
    _E.INSCRIPTION_BID_FIELDS_MISMATCH: _info(
        400, "ours", "sandbox",
        "A field of the single-inscription POST /bid/place differs from the intent that "
        "built its PSBT.",
        "field",
    ),
    _E.INSCRIPTION_BID_STALE: _info(
        409, "ours", "sandbox",
        "A coin the single-inscription bid spends was spent since its intent (the "
        "inscription moved or a funding coin was spent).",
    ),
    _E.INSCRIPTION_BID_NOT_FOUND: _info(
        404, "ours", "sandbox",
        "bidId names no single-inscription bid.",
        "field",
    ),
    _E.INSCRIPTION_BID_NOT_OPEN: _info(
        409, "ours", "sandbox",
        "The single-inscription bid is no longer open (cancelled, accepted, or its "
        "coins moved).",
    ),
    _E.NOT_SANDBOX_HELD: _info(
        409, "ours", "sandbox",
        "A sandbox helper needs a key the sandbox holds: the inscription's owner "
        "(accepting a bid), the buyer's payment address (a secure purchase) or a parent "
        "inscription's output (`POST /sandbox/inscribe`).",
    ),
    _E.RUNE_NAME_LOCKED: _info(
        400, "ours", "sandbox",
        "`POST /sandbox/runes` names a rune not yet etched whose name is below ord's minimum "
        "for the block its etching would be mined in, the tip + 6 as ord's wallet counts "
        "(`Rune::minimum_at_height`: about 13 letters on regtest at low heights); the message "
        "names that minimum.",
    ),
    _E.SECURE_BULK_SELL_ADDRESSES_DIFFER: _info(
        400, "ours", "sandbox",
        "The listings of one secure bulk sell do not all share sellerOrdAddress and "
        "sellerReceiveAddress.",
        "field",
    ),
    _E.SECURE_BULK_SELL_MIXED_ITEMS: _info(
        400, "ours", "sandbox",
        "One secure bulk sell mixes inscriptions and runes.",
        "field",
    ),
    _E.SECURE_LISTING_PRICE_INVALID: _info(
        400, "ours", "sandbox",
        "A listing price that is not a whole number of sats from 1,000 to 21,000,000 "
        "BTC.",
        "field",
    ),
    _E.SECURE_LISTING_ITEM_NOT_HELD: _info(
        400, "ours", "sandbox",
        "sellerOrdAddress does not hold the listed item (it sits elsewhere, or is "
        "unknown).",
        "field",
    ),
    _E.SECURE_LISTING_ITEM_MOVED: _info(
        400, "ours", "sandbox",
        "POST /list/secure: the output the secure listing PSBT spends was spent since "
        "the intent (the item moved).",
        "field",
    ),
    _E.SECURE_LISTING_ITEM_UNSUPPORTED: _info(
        400, "ours", "sandbox",
        "The listed output carries more than the listed item (another inscription, or "
        "runes beside an inscription), or a runesOutput carries no runes or an "
        "inscription.",
        "field",
    ),
    _E.SECURE_LISTING_TAP_KEY_INVALID: _info(
        400, "ours", "sandbox",
        "tapInternalKey is missing for a taproot sellerOrdAddress, or its BIP-86 output "
        "key is not that address's.",
        "field",
    ),
    _E.SECURE_LISTING_PSBT_COUNT: _info(
        400, "ours", "sandbox",
        "POST /list/secure with a different number of signedSecureListingPSBTs than "
        "listings.",
        "details.listings", "details.psbts",
    ),
    _E.SECURE_LISTING_PSBT_MISMATCH: _info(
        400, "ours", "sandbox",
        "The secure listing PSBT was built for another listing: the listing beside it "
        "names another item, price or address.",
        "field",
    ),
    _E.LISTING_NOT_FOUND: _info(
        404, "ours", "sandbox",
        "listingId names no secure listing.",
        "field",
    ),
    _E.LISTING_NOT_ACTIVE: _info(
        409, "ours", "sandbox",
        "A purchase of a secure listing that is not active (sold, replaced, or its item "
        "moved).",
    ),
}  # fmt: skip


@dataclass(frozen=True)
class RuleViolation:
    """One broken rule: `message` is a sentence telling the user how to fix it.

    `field` is the wire name of the offending field (`attributes[2].value`), or "" for the
    request as a whole. `details` holds the numbers the code's table row lists.
    """

    code: ErrorCode
    field: str
    message: str
    details: Mapping[str, int | str] = dataclasses.field(default_factory=dict)

    @property
    def status(self) -> int:
        return ERROR_CODES[self.code].status

    def to_json(self) -> dict[str, object]:
        """The error body: `errorCode` and `message` (spec section 7), then ours."""
        body: dict[str, object] = {"errorCode": self.code.value, "message": self.message}
        if self.field:
            body["field"] = self.field
        if self.details:
            body["details"] = dict(self.details)
        return body
