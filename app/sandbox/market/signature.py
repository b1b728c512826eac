"""Which key signed a bid message, and what was signed (spec 5.1).

A valid signature is BIP-322 or BIP-137 by `bidderAddress` over the full bid message. When it
is not, the error says why, so the client can fix it:
- a trait bid whose signature verifies over the colon-joined line only:
  COLLECTION_BID_ATTRIBUTES_NOT_SIGNED;
- a signature that verifies for `bidderTokenReceiveAddress` (the ordinals address) instead:
  SIGNED_BY_ORDINALS_ADDRESS;
- anything else: INVALID_SIGNATURE.
"""

from __future__ import annotations

from app.core.bid_message import colon_line
from app.core.bid_request import CollectionBidRequest
from app.core.errors import ErrorCode
from app.sandbox.market.errors import MarketError
from app.sandbox.market.service import NETWORK
from app.wallet.addresses import InvalidAddressError
from app.wallet.message import SignatureError, verify_message


def verifies(address: str, message: str, signature: str) -> bool:
    """True when `signature` is a valid BIP-322/BIP-137 signature of `message` by `address`."""
    try:
        verify_message(address, message, signature, network=NETWORK)
    except (SignatureError, InvalidAddressError, ValueError):
        return False
    return True


def check_bid_signature(req: CollectionBidRequest, message: str) -> None:
    signature = req.signed_bidding_message
    payer = req.bidder_address
    if verifies(payer, message, signature):
        return
    traits = bool(req.traits())
    line = colon_line(req)
    if traits and verifies(payer, line, signature):
        raise MarketError(
            ErrorCode.COLLECTION_BID_ATTRIBUTES_NOT_SIGNED,
            "the signature covers only the first (colon-joined) line of a trait bid's message: "
            "sign all three lines, with the Type: and Attributes: lines",
        )
    receiver = req.bidder_token_receive_address
    if receiver != payer and (
        verifies(receiver, message, signature) or (traits and verifies(receiver, line, signature))
    ):
        raise MarketError(
            ErrorCode.SIGNED_BY_ORDINALS_ADDRESS,
            "the bid message is signed by the ordinals address (bidderTokenReceiveAddress); "
            "sign it with the payment address (bidderAddress) key",
        )
    raise MarketError(
        ErrorCode.INVALID_SIGNATURE,
        "signedBiddingMessage is not a valid BIP-322 or BIP-137 signature of the bid message by "
        "bidderAddress: sign the exact message (spec 5.1) with the payment address key",
    )
