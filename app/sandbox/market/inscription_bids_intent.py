"""`POST /intent/bid`: the unsigned PSBT of a bid on one inscription, paid from the payment
address (spec 4.4), remembered by its unsigned txid for `POST /bid/place`.

Layout (docs/sandbox-listings.md):
- input 0: the inscription's current output, V sats, the inscribed sat at offset o (the seller
  signs it on acceptance); inputs 1..n: the bidder's coins without inscriptions or runes;
- output 0: postage P = min(V, o + 10,000) to `bidderTokenReceiveAddress`. The input 0 sats
  come first, so by ord's FIFO rule the inscribed sat (position o < P) lands here, at offset o;
- output 1: the seller's proceeds, price - service fee + V, to the address holding the
  inscription (the seller's postage comes back to them);
- output 2: the service fee (2% of the price; waived when below the fee address's dust);
- output 3: change to the bidder, when above dust;
- under `--service-runestones pointer` (or `edict`, when the item's output carries runes): last,
  a runestone sending the item's runes to output 0 with the inscription
  (`service_runestones.py`); none by default.
The bidder's inputs minus change are exactly price + P + the network fee (the spec's fee rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.core.bid_validation import validate_single_inscription_price
from app.core.errors import ErrorCode
from app.sandbox.chain.consensus import MAX_MONEY, dust_threshold
from app.sandbox.market import inscription_bids_fields as fields
from app.sandbox.market.errors import MarketError
from app.sandbox.market.inscription_bids_funding import (
    MAX_FUNDING_INPUTS,
    payment_key,
    select_funding,
    spendable_coins,
)
from app.sandbox.market.inscription_bids_store import BidIntent, insert_intent
from app.sandbox.market.listings_items import LocatedInscription, locate_inscription
from app.sandbox.market.psbt_build import InputSpec, PsbtBuildError, build_psbt, input_weight
from app.sandbox.market.service import Json, Market
from app.sandbox.market.service_runestones import runestone_output
from app.sandbox.market.wallets import decode_regtest
from app.wallet.addresses import decode_address
from app.wallet.psbt_io import psbt_to_base64, psbt_to_bytes, psbt_to_hex
from app.wallet.psbt_reader import unsigned_txid

SERVICE_FEE_BPS = 200  # 2% of the price, out of the seller's proceeds
POSTAGE_CAP = 10_000  # sats after the inscribed sat that travel with it
FEE_ADDRESS_LABEL = "marketplace-fees"
INTENT_FIELDS = frozenset(
    {
        "price",
        "inscriptionId",
        "bidderAddress",
        "bidderTokenReceiveAddress",
        "bidderPublicKey",
        "allowedPaymentOutpoints",
        "feeRate",
    }
)


def fee_script(market: Market) -> bytes:
    """scriptPubKey of the marketplace's fee address (a sandbox-held P2WPKH key)."""
    address = market.node.sandbox_address(FEE_ADDRESS_LABEL, "p2wpkh")
    return decode_address(address).script_pubkey


def service_fee(price: int, fee_spk: bytes) -> int:
    """2% of `price`, rounded down; 0 when that would be a dust output."""
    fee = price * SERVICE_FEE_BPS // 10_000
    return fee if fee >= dust_threshold(fee_spk) else 0


def postage_for(value: int, offset: int) -> int:
    """The sats of the inscription's output that go to the bidder: all up to the inscribed
    sat plus at most POSTAGE_CAP after it."""
    return min(value, offset + POSTAGE_CAP)


def create_bid_intent(market: Market, body: Any) -> Json:
    """Build, remember and return the unsigned bidding PSBT (the response `data`)."""
    req = fields.as_object(body)
    fields.reject_unknown(req, INTENT_FIELDS)
    price = fields.integer(req, "price")
    inscription_id = fields.text(req, "inscriptionId").lower()
    payer = payment_key(
        fields.text(req, "bidderAddress"),
        fields.text(req, "bidderPublicKey"),
        "bidderAddress",
        "bidderPublicKey",
    )
    token_address = fields.text(req, "bidderTokenReceiveAddress")
    token_spk = decode_regtest(token_address, "bidderTokenReceiveAddress").script_pubkey
    allowed = fields.string_list(req, "allowedPaymentOutpoints", MAX_FUNDING_INPUTS)
    rate = fields.fee_rate(market.node, req.get("feeRate"))
    violations = validate_single_inscription_price(price)
    if violations or price > MAX_MONEY:
        raise (
            MarketError.from_violations(violations)
            if violations
            else MarketError(
                ErrorCode.INVALID_FIELD, "price is above 21,000,000 BTC", field="price"
            )
        )
    item = locate_inscription(market.node, inscription_id, "inscriptionId")
    _check_item(item, payer.address, token_address)
    postage = postage_for(item.output.coin.value, item.offset)
    if postage < dust_threshold(token_spk):
        raise MarketError(
            ErrorCode.INSCRIPTION_BID_ITEM_UNSUPPORTED,
            f"the inscription's output holds {item.output.coin.value} sats, below the dust "
            "threshold of bidderTokenReceiveAddress: use an ordinals address of another type",
            field="inscriptionId",
        )
    seller_spk = item.output.coin.script_pubkey
    fee_spk = fee_script(market)
    fee = service_fee(price, fee_spk)
    outputs = [(token_spk, postage), (seller_spk, price - fee + item.output.coin.value)]
    if fee:
        outputs.append((fee_spk, fee))
    stone = runestone_output(market, item.output.runes, 0, "inscriptionId")
    sized = [spk for spk, _ in outputs] + ([stone[0]] if stone else [])
    coins = spendable_coins(market.node, payer.address, allowed)
    funding = select_funding(coins, [seller_spk], sized, price + postage, payer.script_pubkey, rate)
    if funding.change:
        outputs.append((payer.script_pubkey, funding.change))
    if stone is not None:
        outputs.append(stone)
    specs = [InputSpec(item.output.coin), *(payer.input_spec(c) for c in funding.coins)]
    psbt = build_psbt(specs, outputs)
    intent = BidIntent(
        txid=unsigned_txid(psbt),
        psbt=psbt_to_bytes(psbt),
        inscription_id=inscription_id,
        price=price,
        bidder_address=payer.address,
        token_address=token_address,
        coins=(item.output.coin, *funding.coins),
        postage=postage,
        service_fee=fee,
        network_fee=funding.network_fee,
        created_ms=market.now_ms(),
    )
    with market.store.transaction() as conn:
        insert_intent(conn, intent)
    return {
        "bidder": {
            "unsignedBiddingPSBTBase64": psbt_to_base64(psbt),
            "unsignedBiddingPSBTHex": psbt_to_hex(psbt),
            "bidderPaymentUTXOs": [_utxo(c.txid, c.vout, c.value) for c in funding.coins],
            "indicesToSign": list(range(1, len(specs))),
        },
        "inscriptionId": inscription_id,
        "price": price,
        "postage": postage,
        "serviceFee": fee,
        "sellerProceeds": price - fee,
        "networkFee": funding.network_fee,
        "feeRate": rate,
        "totalCost": price + postage + funding.network_fee,
    }


def _utxo(txid: str, vout: int, value: int) -> Mapping[str, Any]:
    return {"txid": txid, "vout": vout, "value": value}


def _check_item(item: LocatedInscription, payment: str, ordinals: str) -> None:
    if item.output.address in (payment, ordinals):
        raise MarketError(
            ErrorCode.INSCRIPTION_BID_ALREADY_OWNER,
            f"inscription {item.inscription_id} already sits at {item.output.address}, one of "
            "your addresses: there is nothing to bid on",
            field="inscriptionId",
        )
    others = item.output.others_than(item.inscription_id)
    if others:
        raise MarketError(
            ErrorCode.INSCRIPTION_BID_ITEM_UNSUPPORTED,
            f"the output of inscription {item.inscription_id} also carries "
            f"{', '.join(others)}, which would go with it: bidding on it is not supported",
            field="inscriptionId",
        )
    try:
        input_weight(item.output.coin.script_pubkey)
    except PsbtBuildError:
        raise MarketError(
            ErrorCode.UNSUPPORTED_ADDRESS_TYPE,
            f"inscription {item.inscription_id} sits at an address type the sandbox does not "
            "build bids for (P2TR, P2WPKH and P2SH-P2WPKH are supported)",
            field="inscriptionId",
        ) from None
