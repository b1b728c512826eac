"""The listing object of the secure sell endpoints and `POST /list/secure`, read and checked
field by field (spec 2.6, notes on `/intent/secure-sell`).

Fields: `price` (sats), `inscriptionId` or `runesOutput` (`txid:vout`, the whole output with
every rune on it), `sellerOrdAddress` (holds the item; P2TR or P2WPKH), `sellerReceiveAddress`
(gets the price), optional `collectionSlug`, `tapInternalKey` (required for a taproot
`sellerOrdAddress`: the BIP-86 internal key whose output key is the address's). Accepted and
ignored: `sellerPaymentAddress`, `sellerPaymentPublicKey` (the spec says so), `externalOrderId`,
`newLocation` (the sandbox reads the item's location, mempool included), `runesData`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.core.errors import ErrorCode
from app.sandbox.chain.consensus import MAX_MONEY
from app.sandbox.market import inscription_bids_fields as fields
from app.sandbox.market.errors import MarketError
from app.sandbox.market.wallets import decode_regtest
from app.wallet.addresses import ScriptKind, taproot_output_key

MIN_LISTING_PRICE = 1_000
LISTING_FIELDS = frozenset(
    {
        "price",
        "inscriptionId",
        "runesOutput",
        "sellerOrdAddress",
        "sellerReceiveAddress",
        "collectionSlug",
        "tapInternalKey",
        "sellerPaymentAddress",
        "sellerPaymentPublicKey",
        "externalOrderId",
        "newLocation",
        "runesData",
    }
)
_OUTPOINT = re.compile(r"^[0-9a-f]{64}:\d{1,10}$")
_INSCRIPTION_ID = re.compile(r"^[0-9a-f]{64}i\d{1,10}$")
_HEX = re.compile(r"^[0-9a-fA-F]*$")


@dataclass(frozen=True)
class ListingRequest:
    """One checked listing object; `where` is its wire path (`listings[3]`, or "")."""

    where: str
    price: int
    inscription_id: str | None
    runes_output: str | None
    seller_ord_address: str
    seller_ord_script: bytes
    seller_receive_address: str
    seller_receive_script: bytes
    collection_slug: str | None
    tap_internal_key: bytes | None  # x-only; set for a taproot sellerOrdAddress

    @property
    def is_runes(self) -> bool:
        return self.runes_output is not None

    @property
    def item(self) -> str:
        if self.runes_output is None:
            return f"inscription {self.inscription_id}"
        return f"runes output {self.runes_output}"

    def field(self, name: str) -> str:
        return fields.path(self.where, name)

    def terms(self) -> dict[str, Any]:
        """What the listing PSBT commits to: compared between the intent and `/list/secure`."""
        return {
            "price": self.price,
            "inscriptionId": self.inscription_id,
            "runesOutput": self.runes_output,
            "sellerOrdAddress": self.seller_ord_address,
            "sellerReceiveAddress": self.seller_receive_address,
        }


def parse_listing(body: Any, where: str = "") -> ListingRequest:
    obj = fields.as_object(body, where)
    fields.reject_unknown(obj, LISTING_FIELDS, where)
    price = fields.integer(obj, "price", where)
    if not MIN_LISTING_PRICE <= price <= MAX_MONEY:
        raise MarketError(
            ErrorCode.SECURE_LISTING_PRICE_INVALID,
            f"{fields.path(where, 'price')} must be from {MIN_LISTING_PRICE:,} sats to "
            "21,000,000 BTC",
            field=fields.path(where, "price"),
        )
    inscription_id = fields.optional_text(obj, "inscriptionId", where)
    runes_output = fields.optional_text(obj, "runesOutput", where)
    if (inscription_id is None) == (runes_output is None):
        raise MarketError(
            ErrorCode.MISSING_FIELD if inscription_id is None else ErrorCode.INVALID_FIELD,
            f"{where or 'the listing'} must name exactly one item: inscriptionId or runesOutput",
            field=fields.path(where, "inscriptionId"),
        )
    if inscription_id is not None:
        inscription_id = _match(_INSCRIPTION_ID, inscription_id, where, "inscriptionId")
    if runes_output is not None:
        runes_output = _match(_OUTPOINT, runes_output, where, "runesOutput")
    ord_field = fields.path(where, "sellerOrdAddress")
    ord_address = fields.text(obj, "sellerOrdAddress", where)
    ord_decoded = decode_regtest(ord_address, ord_field)
    if ord_decoded.kind not in (ScriptKind.P2TR, ScriptKind.P2WPKH):
        raise MarketError(
            ErrorCode.UNSUPPORTED_ADDRESS_TYPE,
            f"{ord_field}: a {ord_decoded.kind.value} address cannot sign a secure listing "
            "here; list from a P2TR or P2WPKH ordinals address",
            field=ord_field,
        )
    receive_field = fields.path(where, "sellerReceiveAddress")
    receive_address = fields.text(obj, "sellerReceiveAddress", where)
    receive_script = decode_regtest(receive_address, receive_field).script_pubkey
    tap_key = None
    if ord_decoded.kind is ScriptKind.P2TR:
        tap_key = _tap_internal_key(obj.get("tapInternalKey"), ord_decoded.program, where)
    return ListingRequest(
        where=where,
        price=price,
        inscription_id=inscription_id,
        runes_output=runes_output,
        seller_ord_address=ord_address,
        seller_ord_script=ord_decoded.script_pubkey,
        seller_receive_address=receive_address,
        seller_receive_script=receive_script,
        collection_slug=fields.optional_text(obj, "collectionSlug", where),
        tap_internal_key=tap_key,
    )


def _match(pattern: re.Pattern[str], value: str, where: str, name: str) -> str:
    value = value.lower()
    if not pattern.match(value):
        shape = "<64 hex txid>i<index>" if name == "inscriptionId" else "<64 hex txid>:<vout>"
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"{fields.path(where, name)} must look like {shape}",
            field=fields.path(where, name),
        )
    return value


def _tap_internal_key(value: Any, output_key: bytes, where: str) -> bytes:
    field = fields.path(where, "tapInternalKey")
    if value is None:
        raise MarketError(
            ErrorCode.SECURE_LISTING_TAP_KEY_INVALID,
            f"{field} is required when sellerOrdAddress is taproot: send the address's "
            "internal (untweaked) public key",
            field=field,
        )
    text = value if isinstance(value, str) else ""
    raw = bytes.fromhex(text) if _HEX.match(text) and len(text) in (64, 66) else b""
    xonly = raw[-32:] if len(raw) == 32 or (len(raw) == 33 and raw[0] in (2, 3)) else b""
    try:
        matches = bool(xonly) and taproot_output_key(xonly) == output_key
    except Exception:  # not a point on the curve
        matches = False
    if not matches:
        raise MarketError(
            ErrorCode.SECURE_LISTING_TAP_KEY_INVALID,
            f"{field} is not the BIP-86 internal key of sellerOrdAddress (64 or 66 hex digits "
            "whose tweaked key is the address's output key)",
            field=field,
        )
    return xonly
