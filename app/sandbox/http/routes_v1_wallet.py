"""`GET /v1/address/bidding-wallet`: the 1-of-2 bidding wallet of a (ordinals, payment, key)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.sandbox.http.errors import error_responses
from app.sandbox.http.market_deps import MarketDep
from app.sandbox.http.params import MAX_ADDRESS_CHARS
from app.sandbox.market.wallets import tie_wallet

router = APIRouter(tags=["marketplace"], responses=error_responses(400, 401, 500))

Address = Annotated[str, Query(min_length=1, max_length=MAX_ADDRESS_CHARS)]
PubkeyHex = Annotated[str, Query(min_length=64, max_length=66, description="hex public key")]


@router.get("/address/bidding-wallet", summary="the bidding wallet (1-of-2 multisig) of a user")
def get_bidding_wallet(
    market: MarketDep, ordinalsAddress: Address, paymentAddress: Address, paymentPubkey: PubkeyHex
) -> Any:
    wallet = tie_wallet(market, ordinalsAddress, paymentAddress, paymentPubkey)
    multisig = {"address": wallet.multisig_address, "type": wallet.kind}
    return {
        "success": True,
        "data": {
            "multiSig": multisig,
            "address": wallet.multisig_address,
            "userPaymentAddress": wallet.payment_address,
            "ordinalsAddress": wallet.ordinals_address,
        },
    }
