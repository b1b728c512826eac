"""`POST /intent/withdraw` and `POST /withdraw` (spec 4.7, 4.8, 5.2).

Intent: an unsigned PSBT spending bidding-wallet coins (largest first) that pays `amount` to
the payment address tied to the wallet (never anywhere else) and the change back to the
wallet. Fee rule: the network fee is paid by the wallet on top of `amount`, at `feeRate` (not in
the public service's documented body: the sandbox reads it as `POST /intent/bid` documents it,
sat/vB or a named estimate; 2 sat/vB without it); when `amount` is the whole balance the
withdrawal is a sweep of every coin and the fee is taken from it (the payment address receives
balance - fee). Change below dust goes to the fee.
The intent is remembered by its unsigned txid.

Submission: the signed PSBT must carry the same unsigned transaction as an intent (same txid:
inputs, outputs, amounts, version, lock time). Only the user's signatures are taken from it,
each checked against the payment key over the service's own sighash (DEFAULT/ALL only); they
are put into the intent's own PSBT (the service trusts none of the submitted UTXO or script
fields), which is finalised and broadcast (the node's mempool runs Core's interpreter). Then
the bids the lower balance no longer covers are cancelled.
"""

from __future__ import annotations

from typing import Any

from app.core.errors import ErrorCode
from app.sandbox.chain.consensus import dust_threshold
from app.sandbox.chain.errors import ChainError
from app.sandbox.market.body_fields import require_int, require_object, require_str
from app.sandbox.market.errors import MarketError
from app.sandbox.market.inscription_bids_fields import fee_rate
from app.sandbox.market.service import Json, Market
from app.sandbox.market.sweep import cancel_uncovered
from app.sandbox.market.wallet_spend import (
    fee_for,
    tx_weight,
    unsigned_psbt,
    wallet_coins,
    wallet_scripts,
)
from app.sandbox.market.wallets import (
    BiddingWallet,
    decode_regtest,
    wallet_by_id,
    wallet_by_payment,
)
from app.sandbox.market.withdraw_signatures import attach_user_signatures
from app.wallet.finalize import FinalizeError, extract_transaction, finalize_psbt
from app.wallet.psbt_io import PsbtDecodeError, parse_psbt, psbt_to_base64, psbt_to_bytes


def create_intent(market: Market, body: Any) -> Json:
    body = require_object(body)
    user_address = require_str(body, "userAddress", 128)
    amount = require_int(body, "amount")
    payee = decode_regtest(user_address, "userAddress").script_pubkey
    sat_vb = fee_rate(market.node, body.get("feeRate"))
    if amount <= 0 or amount < dust_threshold(payee):
        raise MarketError(
            ErrorCode.WITHDRAW_AMOUNT_INVALID,
            f"amount must be at least {max(1, dust_threshold(payee))} sats (the payment "
            "address's dust threshold)",
            field="amount",
        )
    with market.lock:
        wallet = _wallet_of(market, user_address)
        scripts = wallet_scripts(market, wallet)
        coins = wallet_coins(market, scripts)
        balance = sum(c.value for c in coins)
        chosen, fee, change = _select(coins, amount, balance, scripts.input_weight, payee, sat_vb)
        paid = amount - fee if amount == balance else amount
        outputs = [(payee, paid)]
        if change:
            outputs.append((scripts.script_pubkey, change))
        psbt = unsigned_psbt(chosen, outputs, scripts)
        txid = psbt.tx.txid().hex()
        with market.store.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO withdraw_intents (txid, wallet_id, psbt, amount, fee, "
                "created_ms) VALUES (?, ?, ?, ?, ?, ?)",
                (txid, wallet.id, psbt_to_bytes(psbt), paid, fee, market.now_ms()),
            )
    return {
        "unsignedPSBTBase64": psbt_to_base64(psbt),
        "unsignedPSBTHex": psbt_to_bytes(psbt).hex(),
        "paymentUtxoCount": len(chosen),
        "txid": txid,
        "amount": paid,
        "fee": fee,
        "change": change,
    }


def _wallet_of(market: Market, payment_address: str) -> BiddingWallet:
    with market.store.reading() as conn:
        wallet = wallet_by_payment(conn, payment_address)
    if wallet is None:
        raise MarketError(
            ErrorCode.BIDDING_WALLET_NOT_FOUND,
            f"{payment_address} has no bidding wallet: userAddress must be the payment address "
            "the wallet is tied to",
        )
    return wallet


def _select(
    coins: list[Any], amount: int, balance: int, input_weight: int, payee: bytes, sat_vb: float
) -> tuple[list[Any], int, int]:
    """(coins, fee, change) for paying `amount` at `sat_vb`; a sweep when it is the whole
    balance."""
    change_spk = coins[0].script_pubkey if coins else b""
    if amount == balance and coins:
        fee = fee_for(tx_weight([input_weight] * len(coins), [payee]), sat_vb)
        if amount - fee >= dust_threshold(payee):
            return coins, fee, 0
    else:
        chosen = []
        for coin in coins:
            chosen.append(coin)
            total = sum(c.value for c in chosen)
            fee = fee_for(tx_weight([input_weight] * len(chosen), [payee, change_spk]), sat_vb)
            if total >= amount + fee:
                change = total - amount - fee
                if change < dust_threshold(change_spk):
                    return chosen, fee + change, 0  # dust change goes to the fee
                return chosen, fee, change
    fee = fee_for(tx_weight([input_weight] * max(1, len(coins)), [payee, change_spk]), sat_vb)
    raise MarketError(
        ErrorCode.WITHDRAW_INSUFFICIENT_BALANCE,
        f"the bidding wallet holds {balance} sats; {amount} sats plus about {fee} sats of network "
        f"fee do not fit: withdraw less, or exactly {balance} to sweep it (the fee then comes "
        "out of the amount)",
        details={"requested": amount, "available": balance, "fee": fee},
    )


def submit_withdrawal(market: Market, body: Any) -> Json:
    body = require_object(body)
    text = require_str(body, "signedWithdrawPSBT")
    try:
        signed = parse_psbt(text)
    except PsbtDecodeError as exc:
        raise MarketError(
            ErrorCode.INVALID_PSBT, f"signedWithdrawPSBT: {exc}", field="signedWithdrawPSBT"
        ) from None
    txid = signed.tx.txid().hex()
    with market.lock:
        with market.store.reading() as conn:
            row = conn.execute(
                "SELECT wallet_id, psbt FROM withdraw_intents WHERE txid = ?", (txid,)
            ).fetchone()
        if row is None:
            raise MarketError(
                ErrorCode.WITHDRAW_INTENT_NOT_FOUND,
                "this PSBT's transaction is not one POST /intent/withdraw built (inputs, "
                "outputs or amounts differ): sign the intent's PSBT unchanged",
            )
        wallet_id, intent_bytes = row
        ours = parse_psbt(bytes(intent_bytes))
        with market.store.reading() as conn:
            wallet = wallet_by_id(conn, wallet_id)
        assert wallet is not None
        attach_user_signatures(ours, signed, wallet)
        try:
            finalize_psbt(ours)
        except FinalizeError as exc:  # defensive: every input got a checked signature
            raise MarketError(ErrorCode.WITHDRAW_SIGNATURE_MISSING, str(exc)) from None
        raw = bytes(extract_transaction(ours).serialize())
        try:
            broadcast_txid = market.node.broadcast(raw)
        except ChainError as exc:
            raise MarketError(
                ErrorCode.WITHDRAW_REJECTED,
                f"the sandbox chain refused the withdrawal: {exc.message}; request a new intent",
            ) from None
        with market.store.transaction() as conn:
            conn.execute("UPDATE withdraw_intents SET broadcast = 1 WHERE txid = ?", (txid,))
        cancel_uncovered(market, wallet.id)
    return {"txid": broadcast_txid}
