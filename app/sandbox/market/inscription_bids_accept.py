"""`POST /sandbox/inscription-bids/accept`: the sandbox-held owner of the inscription accepts an
open bid. Input 0 is signed with the sandbox's key (SIGHASH_DEFAULT: it commits to the whole
transaction the bidder already signed), the bidder's inputs keep their verified signatures, and
the transaction is broadcast; the chain watcher then sees the bid's own txid and ends it as
`accepted`. The inscription lands on `bidderTokenReceiveAddress`, the seller gets price - fee.
"""

from __future__ import annotations

import io

from embit.transaction import Transaction

from app.core.errors import ErrorCode
from app.sandbox.market.errors import MarketError
from app.sandbox.market.inscription_bids_store import (
    ACCEPTED,
    OPEN,
    bid_by_id,
    end_bid,
    intent_by_txid,
)
from app.sandbox.market.psbt_build_verify import final_witnesses, tx_with_witnesses
from app.sandbox.market.service import Json, Market
from app.wallet.psbt_io import parse_psbt_bytes


def accept_bid(market: Market, bid_id: str) -> Json:
    with market.lock:
        with market.store.reading() as conn:
            bid = bid_by_id(conn, bid_id)
            intent = None if bid is None else intent_by_txid(conn, bid.intent_txid)
        if bid is None or intent is None:
            raise MarketError(
                ErrorCode.INSCRIPTION_BID_NOT_FOUND,
                f"no single-inscription bid {bid_id}",
                field="bidId",
            )
        if bid.status != OPEN:
            raise MarketError(
                ErrorCode.INSCRIPTION_BID_NOT_OPEN,
                f"bid {bid_id} is {bid.status}, not open: only an open bid can be accepted",
            )
        psbt = parse_psbt_bytes(bid.signed_psbt)
        bidder_inputs = list(range(1, len(intent.coins)))
        raw = tx_with_witnesses(psbt, final_witnesses(psbt, bidder_inputs))
        signed = market.node.sign_with_sandbox_keys(raw, [c.spent_pair for c in intent.coins])
        tx = Transaction.read_from(io.BytesIO(signed))
        if not tx.vin[0].witness.items:
            raise MarketError(
                ErrorCode.NOT_SANDBOX_HELD,
                f"inscription {bid.inscription_id} is not held by a sandbox key: its owner must "
                "sign input 0 (the sandbox can only accept for its own collectors)",
            )
        txid = market.node.broadcast(signed)
        with market.store.transaction() as conn:
            end_bid(conn, bid.id, ACCEPTED, market.now_ms(), txid)  # if the watcher did not
    return {
        "bidId": bid.id,
        "txid": txid,
        "status": ACCEPTED,
        "inscriptionId": bid.inscription_id,
        "bidderTokenReceiveAddress": bid.token_address,
        "price": bid.price,
        "serviceFee": intent.service_fee,
        "sellerProceeds": bid.price - intent.service_fee,
    }
