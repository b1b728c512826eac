"""How a secure listing is shown by the `/v1` listing endpoints (the public service's `_id`,
`price`, `inscriptionId`, `status`, plus the sandbox's state details)."""

from __future__ import annotations

from app.sandbox.market.listings_store import SecureListing
from app.sandbox.market.service import Json


def listing_entry(listing: SecureListing) -> Json:
    return {
        "_id": listing.id,
        "id": listing.id,
        "status": listing.status,
        "price": listing.price,
        "inscriptionId": listing.inscription_id,
        "runesOutput": listing.runes_output,
        "sellerOrdAddress": listing.seller_ord_address,
        "sellerReceiveAddress": listing.seller_receive_address,
        "collectionSlug": listing.collection_slug,
        "takerFee": listing.taker_fee,
        "itemOutpoint": listing.item_outpoint,
        "createdAt": listing.created_ms,
        "endedAt": listing.ended_ms,
        "endTxid": listing.end_txid,
        "buyerTokenReceiveAddress": listing.buyer_token_address,
        "purchaseTxid": listing.purchase_txid,
        "transferTxid": listing.transfer_txid,
    }
