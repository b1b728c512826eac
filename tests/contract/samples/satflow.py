"""Response bodies of Satflow's marketplace API (https://api.satflow.com/v1), the public service
the spec matches, for every endpoint ``MarketplaceClient`` calls.

Satflow's reference pages document each response as an OpenAPI schema (field names and types,
``{"success": true, "data": {...}}``); the stored copies searched for this suite hold no filled-in
example bodies, so each sample below is that field list with illustrative values (addresses from
the docs' ``bc1p…``/``bc1q…`` forms, 24-hex Mongo ids). Where the market maker Satflow points
to as its reference client reads a field differently, the sample marked [MM] is the shape its
code reads (https://github.com/SwapLabsInc/satflow-mm at 413c785). Shapes of the spec
(/work/shared/spec) are marked [SPEC]. Field lists as recorded in notes/satflow-api.md.
"""

from __future__ import annotations

from typing import Any

ORD = "bc1ppth27qnr74qhusy9pmcyeaelgvsfky6qzquv9nf56gqmte59vfhqwkqguh"
PAY = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
BIDDING = "bc1pmzfrwwndsqmk5yh69yjr5lfgfg4ev8c0tsc06e"
PUBKEY = "02" + "c6" * 32
TXID = "2a1b8ec06d68096911da82b02806c3848c415b0044a0046850c4a97cbffac7b1"
INSCRIPTION = "6fb976ab49dcec017f1e201e84395983204ae1a7c2abf7ced0a85d692e442799i0"
PSBT_B64 = "cHNidP8BAFICAAAAAc7m"  # "psbt\xff\x01..." : only its text is compared
PSBT_HEX = "70736274ff01005202000000"
BID_IDS = ("6650c0ffee00000000000001", "6650c0ffee00000000000002", "6650c0ffee00000000000003")


def envelope(data: dict[str, Any]) -> dict[str, Any]:
    """The v1 success envelope of every reference page's response schema."""
    return {"success": True, "data": data}


# --- GET /address/bidding-wallet --------------------------------------------------------------

# https://docs.satflow.com/reference/get_address-bidding-wallet : data.address (nullable, "the
# multiSig wallet address"), data.userPaymentAddress.
WALLET_DOCS = envelope({"address": BIDDING, "userPaymentAddress": PAY})
# Same page: address is nullable; a body without one gives the client nothing to fund.
WALLET_DOCS_NULL = envelope({"address": None, "userPaymentAddress": PAY})
# [SPEC] 2.1 and 4.1, and [MM] satflow-mm src/services/protocols/ordinals/bidding.js:47
# (`response.data.data?.multiSig?.address || response.data.multiSig.address`).
WALLET_MULTISIG = envelope({"multiSig": {"address": BIDDING}})
# [MM] the same line's fallback: the legacy un-enveloped body (native.satflow.com,
# https://docs.satflow.com/reference/biddingwalletaddress).
WALLET_LEGACY = {"multiSig": {"address": BIDDING}}

# --- POST /bid/place ---------------------------------------------------------------------------

# https://docs.satflow.com/reference/post_bid-place : data.message (e.g. "Successfully bid!").
BID_PLACED = envelope({"message": "Successfully bid!"})

# --- GET /address/bids -------------------------------------------------------------------------


def bid_entry(bid_id: Any, **fields: Any) -> dict[str, Any]:
    """One ``data.results[]`` item with every field of
    https://docs.satflow.com/reference/get_address-bids (null where the kind has none)."""
    entry: dict[str, Any] = {
        "bid_id": bid_id,
        "inscription_id": None,
        "price": 0,
        "type": "collection",
        "isNonCustodial": True,
        "expiration": None,
        "attribute": None,
        "inscription_metadata": None,
        "runes_metadata": None,
    }
    entry.update(fields)
    return entry


# bid_id as the docs type it (a plain string) ...
COLLECTION_BID = bid_entry(
    BID_IDS[0],
    price=120_000,
    expiration=1_767_225_600_000,
    # [MM] ordinals/bidding.js:142 matches collection bids on inscription_metadata.collection.id
    inscription_metadata={"collection": {"id": "nodemonkes"}},
)
# ... and as the spec shows it (2.4: an object whose $oid is the id), which satflow-mm also
# reads ([MM] ordinals/collection-manager.js:333 `bid.bid_id?.$oid || bid.bid_id`).
TRAIT_BID = bid_entry(
    {"$oid": BID_IDS[1]},
    price=150_000,
    attribute={"trait_type": "Background", "value": "Orange"},
    inscription_metadata={"collection": {"id": "nodemonkes"}},
)
# [MM] runes/bidding.js:148 (runes_metadata.runes[].name, the spaced name) and
# runes/collection-manager.js:365-368 (units = amount / 10 ** divisibility; price is the total).
RUNE_BID = bid_entry(
    BID_IDS[2],
    type="rune",
    price=2_000_000,
    runes_metadata={
        "runes": [{"name": "DOG•GO•TO•THE•MOON", "amount": 100_000_000_000, "divisibility": 5}]
    },
)
# The docs' third type: a bid on one inscription (inscription_id set).
INDIVIDUAL_BID = bid_entry(
    "6650c0ffee00000000000004",
    type="individual",
    price=250_000,
    inscription_id=INSCRIPTION,
    isNonCustodial=False,
)
BIDS = envelope({"results": [COLLECTION_BID, TRAIT_BID, RUNE_BID, INDIVIDUAL_BID]})
# [MM] ordinals/bidding.js:91: `response.data.data?.results || response.data.results` (legacy
# /walletBids, un-enveloped).
BIDS_LEGACY = {"results": [COLLECTION_BID, TRAIT_BID, RUNE_BID, INDIVIDUAL_BID]}
# get_address-bids: "404 when the address is unknown or has no bids", body the shared
# ErrorResponse {"error": string} of every reference page.
NO_BIDS_404 = {"error": "No bids found for this address"}

# --- GET /challenge, GET /challenge/verify -------------------------------------------------------

# https://docs.satflow.com/reference/get_challenge ; field read as in [MM] src/services/bip322.js:27
# (`response.data.data?.challenge || response.data.challenge`).
CHALLENGE_TEXT = f"Satflow wants you to sign in with your Bitcoin account:\n{ORD}\n\nNonce: 8f2e"
CHALLENGE = envelope({"challenge": CHALLENGE_TEXT})
CHALLENGE_LEGACY = {"challenge": CHALLENGE_TEXT}
# https://docs.satflow.com/reference/get_challenge-verify : data.validity, data.publicKey.
VERIFIED = envelope({"validity": True, "publicKey": PUBKEY})
NOT_VERIFIED = envelope({"validity": False, "publicKey": None})

# --- POST /cancel --------------------------------------------------------------------------------

# https://docs.satflow.com/reference/post_cancel : data.success, data.summary {id, success},
# data.successCount, data.failedCount.
CANCELLED = envelope(
    {
        "success": True,
        "summary": {"id": BID_IDS[0], "success": True},
        "successCount": 1,
        "failedCount": 0,
    }
)

# --- POST /intent/withdraw, POST /withdraw -------------------------------------------------------

# https://docs.satflow.com/reference/post_intent-withdraw : data.unsignedPSBTBase64,
# data.unsignedPSBTHex, data.paymentUtxoCount.
WITHDRAW_INTENT = envelope(
    {"unsignedPSBTBase64": PSBT_B64, "unsignedPSBTHex": PSBT_HEX, "paymentUtxoCount": 3}
)
# Request bodies. The page's body: userAddress and amount, both required.
WITHDRAW_INTENT_BODY = {"userAddress": PAY, "amount": 50_000}
# Not on the page: feeRate as POST /intent/bid documents it (a number of sat/vB of at least 1),
# sent only when the user chose a rate; the service may ignore it (the review then says so).
WITHDRAW_INTENT_BODY_WITH_RATE = {"userAddress": PAY, "amount": 50_000, "feeRate": 12}
# https://docs.satflow.com/reference/post_withdraw : data.txid.
WITHDRAWN = envelope({"txid": TXID})

# --- POST /intent/bid, POST /bid/place (single inscription) --------------------------------------

# https://docs.satflow.com/reference/post_intent-bid : data.bidder {unsignedBiddingPSBTBase64,
# unsignedBiddingPSBTHex, bidderPaymentUTXOs[]}.
INSCRIPTION_BID_INTENT = envelope(
    {
        "bidder": {
            "unsignedBiddingPSBTBase64": PSBT_B64,
            "unsignedBiddingPSBTHex": PSBT_HEX,
            "bidderPaymentUTXOs": [{"txid": TXID, "vout": 1, "value": 300_000}],
        }
    }
)

# --- secure listings -----------------------------------------------------------------------------

# https://docs.satflow.com/reference/post_intent-secure-sell does not show its response; the shape
# is /intent/sell's as satflow-mm reads it ([MM] src/services/listings.js:43-49:
# data.seller.secureListingPSBTs[] = {base64, indicesToSign}).
SECURE_SELL_INTENT = envelope(
    {
        "seller": {
            "unsignedListingPSBTBase64": PSBT_B64,
            "secureListingPSBTs": [{"base64": PSBT_B64, "indicesToSign": [0]}],
        }
    }
)
# POST /list/secure has no page; https://docs.satflow.com/reference/post_list documents
# data.txid and data.listings[] {_id, price, inscriptionId, status}.
LISTED = envelope(
    {
        "txid": TXID,
        "listings": [
            {
                "_id": "6650c0ffee000000000000aa",
                "price": 90_000,
                "inscriptionId": INSCRIPTION,
                "status": "active",
            }
        ],
    }
)
# https://docs.satflow.com/reference/post_intent-secure-purchase : data.referralAddress,
# data.creatorFee (the only documented fields).
SECURE_PURCHASE_INTENT = envelope({"referralAddress": PAY, "creatorFee": False})

# --- errors --------------------------------------------------------------------------------------

# The shared ErrorResponse {"error": string} of every reference page (400, 403, 404, 500);
# get_challenge's 400 says "Invalid address", post_cancel's 403 is an invalid signature.
INVALID_ADDRESS = {"error": "Invalid address"}
BAD_SIGNATURE = {"error": "Invalid signature or unauthorized"}
# https://docs.satflow.com/reference/post_intent-secure-sell : 400 errorCode
# SECURE_LISTING_UNSUPPORTED (whether a message accompanies it is not shown).
SECURE_UNSUPPORTED = {"errorCode": "SECURE_LISTING_UNSUPPORTED"}
# [SPEC] 7: {errorCode, message, ...extra}.
TOO_MANY_ORDERS = {
    "errorCode": "COLLECTION_BID_TOO_MANY_ORDERS",
    "message": "This request would place 1,200 bids; the limit is 1,000.",
    "details": {"limit": 1000, "requested": 1200},
}
RATE_LIMITED = {
    "errorCode": "SUBMIT_BID_RATE_LIMITED",
    "message": "One bid per 500 ms per bidderTokenReceiveAddress.",
    "retryAfterMs": 350,
}
