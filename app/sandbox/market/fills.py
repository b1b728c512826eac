"""`POST /sandbox/bids/fill`: a seller accepts a collection or trait bid (scenario API).

A sandbox "other collector" (demo.COLLECTORS) holding an inscription the bid matches sells
it, with one real transaction:
    inputs:  [the inscription's output (collector key), bidding-wallet coins (service key)]
    outputs: [bidderTokenReceiveAddress: the inscription output's value (its postage),
              seller: price - network fee, service fee address: the maker fee,
              change back to the bidding wallet]
The bidding wallet pays exactly price + maker fee (what the pools commit); the network fee
comes out of the seller's proceeds, as the service fee does for single-inscription bids
(spec 1). Its rate is the bid's `feeRate` (`fill_fee_rate`): a number of sat/vB as placed,
or a name read as the sandbox's estimate at the time of the fill; without one, `fastestFee`,
the public service's default. Change below dust goes to the seller. The bidding-wallet
inputs are signed by the service key alone (taproot script path / P2WSH 1-of-2), the
inscription input by the collector's sandbox key.

The bid is marked filled in the same market transaction that broadcasts; the chain watcher
then cancels the bids the remaining balance no longer covers (sweep.py), and the response
lists them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from embit.script import Witness
from embit.transaction import Transaction

from app.core.bid_fee_rate import DEFAULT_BID_FEE_RATE
from app.core.errors import ErrorCode
from app.sandbox.chain.consensus import dust_threshold
from app.sandbox.demo import COLLECTORS
from app.sandbox.market.bid_store import (
    BID_TYPE_RUNE,
    OPEN_AT_SQL,
    BidState,
    bid_states,
    end_bids,
    record_fill_item,
)
from app.sandbox.market.errors import MarketError
from app.sandbox.market.inscription_bids_fields import fee_rate
from app.sandbox.market.service import Json, Market
from app.sandbox.market.sweep import cancel_uncovered
from app.sandbox.market.wallet_spend import (
    Coin,
    WalletScripts,
    fee_for,
    tx_weight,
    unsigned_psbt,
    wallet_coins,
    wallet_scripts,
)
from app.sandbox.market.wallets import decode_regtest, wallet_by_id
from app.wallet.finalize import finalize_psbt
from app.wallet.psbt_signer import requests_for, sign_psbt
from app.wallet.sighash import SIGHASH_ALL, SIGHASH_DEFAULT

FEE_ADDRESS_LABEL = "market-fees"
RANGE_LIMITS = {"sub1k": 1_000, "sub10k": 10_000, "sub100k": 100_000}
# Upper bound of a sandbox-key input (P2WPKH, 72-byte signature); P2TR key path is smaller.
_SANDBOX_INPUT_WU = (32 + 4 + 1 + 4) * 4 + 1 + (1 + 72) + (1 + 33)


def fill_bid(
    market: Market,
    bid_id: str,
    seller_address: str | None = None,
    holders: Sequence[str] = COLLECTORS,
) -> Json:
    """Fill the bid with an inscription one of the sandbox keys `holders` (labels) holds: the
    demo's other collectors, or the market participants' sellers (market_participants.py)."""
    with market.lock:
        now = market.now_ms()
        with market.store.reading() as conn:
            state = bid_states(conn, [bid_id]).get(bid_id)
        if state is None or not state.is_open(now):
            raise MarketError(
                ErrorCode.BID_NOT_FOUND, f"{bid_id!r} is not an open bid", field="bidId"
            )
        if state.type == BID_TYPE_RUNE:
            raise MarketError(ErrorCode.FILL_UNSUPPORTED, "rune bids cannot be filled here")
        with market.store.reading() as conn:
            wallet = wallet_by_id(conn, state.wallet_id)
        assert wallet is not None
        found = _matching_inscription(market, state, holders)
        if found is None:
            raise MarketError(
                ErrorCode.FILL_NO_MATCHING_INSCRIPTION,
                f"no sandbox collector holds an inscription matching this bid on "
                f"{state.slug}: create one with POST /sandbox/inscriptions to "
                f"{market.node.sandbox_address(holders[0])}",
            )
        inscription, collector = found
        seller = seller_address or collector
        seller_spk = decode_regtest(seller, "sellerAddress").script_pubkey
        scripts = wallet_scripts(market, wallet)
        rate = fill_fee_rate(market, state)
        raw, txid, paid, network_fee = _build_fill(
            market, state, scripts, inscription, collector, seller_spk, rate
        )
        with market.store.reading() as conn:
            before = _open_ids(conn, wallet.id, now)
        with market.store.transaction() as conn:
            end_bids(conn, [bid_id], "filled", "fill", now, fill_txid=txid)
            record_fill_item(conn, bid_id, inscription["id"], seller)
            market.node.broadcast(raw)  # the chain watcher sweeps within this transaction
        cancel_uncovered(market, wallet.id)
        with market.store.reading() as conn:
            after = _open_ids(conn, wallet.id, now)
    return {
        "txid": txid,
        "bidId": bid_id,
        "inscriptionId": inscription["id"],
        "sellerAddress": seller,
        "paidToSeller": paid,
        "makerFee": market.maker_fee.on(state.price),
        "networkFee": network_fee,
        "feeRate": rate,
        "cancelledBidIds": sorted(before - after - {bid_id}),
    }


def fill_fee_rate(market: Market, state: BidState) -> float:
    """sat/vB of the fill: the bid's feeRate (the service's default, fastestFee, if none),
    read by the same rule as every feeRate the sandbox takes."""
    choice = state.fee_rate or DEFAULT_BID_FEE_RATE
    return fee_rate(market.node, choice.to_wire())


def _open_ids(conn: Any, wallet_id: int, now: int) -> set[str]:
    rows = conn.execute(
        f"SELECT id FROM bids WHERE wallet_id = ? AND {OPEN_AT_SQL}",
        (wallet_id, now),
    )
    return {row[0] for row in rows}


def _matches(info: Json, state: BidState) -> bool:
    if info.get("output") is None or info.get("offset") != 0:
        return False
    if state.slug in RANGE_LIMITS:
        return bool(info["number"] < RANGE_LIMITS[state.slug])
    if info.get("collection") != state.slug:
        return False
    if state.trait is None:
        return True
    wanted = {"trait_type": state.trait.trait_type, "value": state.trait.value}
    return wanted in info.get("traits", [])


def _matching_inscription(
    market: Market, state: BidState, holders: Sequence[str]
) -> tuple[Json, str] | None:
    node = market.node
    for label in holders:
        address = node.sandbox_address(label)
        for inscription_id in node.ord_address(address)["inscriptions"]:
            info = node.ord_inscription(inscription_id)
            if info is not None and _matches(info, state):
                return info, address
    return None


def _build_fill(
    market: Market,
    state: BidState,
    scripts: WalletScripts,
    inscription: Json,
    collector: str,
    seller_spk: bytes,
    sat_vb: float,
) -> tuple[bytes, str, int, int]:
    """(raw signed tx, txid, paid to seller, network fee)."""
    maker_fee = market.maker_fee.on(state.price)
    needed = state.price + maker_fee
    receiver_spk = decode_regtest(scripts.wallet.ordinals_address, "ordinals").script_pubkey
    fee_address = market.node.sandbox_address(FEE_ADDRESS_LABEL, "p2wpkh")
    fee_spk = decode_regtest(fee_address, "fee address").script_pubkey
    collector_spk = decode_regtest(collector, "collector").script_pubkey
    txid, vout = inscription["output"].split(":")
    insc_coin = Coin(txid, int(vout), inscription["value"], collector_spk)
    chosen: list[Coin] = []
    for coin in wallet_coins(market, scripts):
        if sum(c.value for c in chosen) >= needed:
            break
        chosen.append(coin)
    total = sum(c.value for c in chosen)
    if total < needed:
        raise MarketError(
            ErrorCode.FILL_INSUFFICIENT_BALANCE,
            f"the bidding wallet holds {total} sats; the bid needs {needed} (price and maker fee)",
            details={"needed": needed, "available": total},
        )
    change = total - needed
    keep_change = change >= dust_threshold(scripts.script_pubkey)
    scripts_out = [receiver_spk, seller_spk]
    if maker_fee:
        scripts_out.append(fee_spk)
    if keep_change:
        scripts_out.append(scripts.script_pubkey)
    weights = [_SANDBOX_INPUT_WU] + [scripts.input_weight] * len(chosen)
    network_fee = fee_for(tx_weight(weights, scripts_out), sat_vb)
    paid = state.price - network_fee + (0 if keep_change else change)
    if paid < dust_threshold(seller_spk):
        raise MarketError(
            ErrorCode.FILL_UNSUPPORTED,
            f"a {state.price}-sat bid cannot pay the seller above dust after {network_fee} sats "
            f"of network fee ({sat_vb:g} sat/vB)",
        )
    outputs = [(receiver_spk, insc_coin.value), (seller_spk, paid)]
    if maker_fee:
        outputs.append((fee_spk, maker_fee))
    if keep_change:
        outputs.append((scripts.script_pubkey, change))
    return (*_sign(market, scripts, [insc_coin, *chosen], outputs), paid, network_fee)


def _sign(
    market: Market, scripts: WalletScripts, inputs: list[Coin], outputs: list[tuple[bytes, int]]
) -> tuple[bytes, str]:
    psbt = unsigned_psbt(inputs, outputs, scripts)
    wallet_inputs = list(range(1, len(inputs)))
    sighash = SIGHASH_DEFAULT if scripts.leaf is not None else SIGHASH_ALL
    sign_psbt(psbt, market.service_signing_key(), requests_for(wallet_inputs, sighash))
    finalize_psbt(psbt, wallet_inputs)
    unsigned = bytes(psbt.tx.serialize())
    spent = [(c.value, c.script_pubkey) for c in inputs]
    signed = market.node.sign_with_sandbox_keys(unsigned, spent)
    tx = Transaction.read_from(io.BytesIO(signed))
    for i in wallet_inputs:
        tx.vin[i].witness = Witness(list(psbt.inputs[i].final_scriptwitness.items))
    return bytes(tx.serialize()), tx.txid().hex()
