"""The signed bid message of spec section 5.1, character for character.

Without traits: the eight body values joined by ":" (integers in decimal, as sent):
    bidderAddress:bidderAddressPublicKey:bidderTokenReceiveAddress:price:quantity:bidExpiry:
    collectionSlug:timestamp
With at least one trait, three lines joined by a single "\\n":
    <colon line>
    Type: <metaType>
    Attributes: <JSON array of the traits>

The JSON array is what JavaScript's `JSON.stringify` writes for the traits sorted by
`trait_type`, then `value`, each string compared by UTF-16 code unit: no spaces, keys
`trait_type` then `value`, quotes, backslashes and control characters escaped, every other
character (non-ASCII included) written as is. Python orders strings by code point, which
differs from UTF-16 order once a character lies outside the BMP (an emoji, U+1F600, is the
surrogate pair D83D DE00, so it sorts *before* U+E000..U+FFFF in UTF-16): the sort key is
therefore the string's UTF-16BE bytes, whose byte order is the code-unit order.

Duplicate traits are kept here (sorted next to each other): this module writes whatever is
sent; `bid_validation` rejects duplicates. Lone surrogates (which `JSON.stringify` writes as
`\\udXXX` and which cannot be encoded as UTF-8 for signing) are rejected by `bid_validation`
as invalid trait text; this module does not try to render them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from app.core.bid_request import CollectionBidRequest, Trait


def _utf16_key(text: str) -> bytes:
    # surrogatepass: stay total for lone surrogates too, though validation rejects them.
    return text.encode("utf-16-be", "surrogatepass")


def trait_sort_key(trait: Trait) -> tuple[bytes, bytes]:
    """Sort key: trait_type, then value, each by UTF-16 code unit (as JavaScript compares)."""
    return (_utf16_key(trait.trait_type), _utf16_key(trait.value))


def sorted_traits(traits: Iterable[Trait]) -> list[Trait]:
    return sorted(traits, key=trait_sort_key)


def attributes_json(traits: Iterable[Trait]) -> str:
    """The JSON array of the `Attributes:` line (sorted, compact, non-ASCII as is)."""
    return json.dumps(
        [t.to_json() for t in sorted_traits(traits)],
        separators=(",", ":"),
        ensure_ascii=False,
    )


def colon_line(req: CollectionBidRequest) -> str:
    """The colon-joined line: the whole message without traits, the first line with them.

    The sandbox compares a trait bid's signature against this line alone to recognise
    COLLECTION_BID_ATTRIBUTES_NOT_SIGNED.
    """
    values = (
        req.bidder_address,
        req.bidder_address_public_key,
        req.bidder_token_receive_address,
        str(req.price),
        str(req.quantity),
        str(req.bid_expiry),
        req.collection_slug,
        str(req.timestamp),
    )
    return ":".join(values)


def bid_message(req: CollectionBidRequest) -> str:
    """The exact text the payment key signs for this request."""
    traits = req.traits()
    if not traits:
        return colon_line(req)
    return "\n".join(
        (colon_line(req), f"Type: {req.meta_type}", f"Attributes: {attributes_json(traits)}")
    )
