"""The two ways to buy a secure listing in the sandbox:

- `POST /intent/secure-purchase` (spec 4.12: the only way to buy a secure listing), with
  Satflow's body names: `buyerAddress`, `buyerTokenReceiveAddress`, `inscriptionIds` and/or
  `runesOutputs`, optional `feeRate`. The sandbox completes it at once when it holds the key of
  `buyerAddress` (a `/sandbox` address); Satflow's further fields (`buyerPublicKey`,
  `buyerScripts`, `signedPaymentPrepPSBTs`, ...) are accepted and ignored. Items are bought in
  the order given; an error stops at that item (the ones before it stay bought).
- `POST /sandbox/listings/purchase {listingId, buyerTokenReceiveAddress?, feeRate?}`: the
  sandbox's own buyer (payment key "secure-buyer", P2WPKH) buys it, topped up from the faucet
  when short; the item goes to `buyerTokenReceiveAddress` or to the buyer's own P2TR address.
"""

from __future__ import annotations

from typing import Any

from app.core.errors import ErrorCode
from app.sandbox.market import inscription_bids_fields as fields
from app.sandbox.market.errors import MarketError
from app.sandbox.market.listings_store import active_listing_for
from app.sandbox.market.psbt_build import is_p2tr, is_p2wpkh
from app.sandbox.market.purchase import Buyer, purchase_listing
from app.sandbox.market.service import Json, Market
from app.sandbox.market.wallets import decode_regtest

MAX_ITEMS_PER_PURCHASE = 100
SANDBOX_BUYER_LABEL = "secure-buyer"
TOP_UP_MARGIN = 100_000  # sats the faucet adds above the shortfall
PURCHASE_FIELDS = frozenset(
    {
        "buyerAddress",
        "buyerTokenReceiveAddress",
        "inscriptionIds",
        "runesOutputs",
        "feeRate",
        "buyerPublicKey",
        "buyerScripts",
        "splitQuantity",
        "disableCompactPurchase",
        "signedPaymentPrepPSBTs",
        "signedPurchasePSBTs",
        "referralAddress",
        "creatorFee",
    }
)


def _buyer(payment: str, token: str, payment_field: str, token_field: str) -> Buyer:
    payment_spk = decode_regtest(payment, payment_field).script_pubkey
    if not (is_p2wpkh(payment_spk) or is_p2tr(payment_spk)):
        raise MarketError(
            ErrorCode.NOT_SANDBOX_HELD,
            f"{payment_field}: the sandbox holds only P2WPKH and P2TR keys; send the payment "
            "address of a sandbox-held buyer",
        )
    token_spk = decode_regtest(token, token_field).script_pubkey
    return Buyer(payment, payment_spk, token, token_spk)


def secure_purchase(market: Market, body: Any) -> Json:
    req = fields.as_object(body)
    fields.reject_unknown(req, PURCHASE_FIELDS)
    buyer = _buyer(
        fields.text(req, "buyerAddress"),
        fields.text(req, "buyerTokenReceiveAddress"),
        "buyerAddress",
        "buyerTokenReceiveAddress",
    )
    inscriptions = fields.string_list(req, "inscriptionIds", MAX_ITEMS_PER_PURCHASE) or []
    runes = fields.string_list(req, "runesOutputs", MAX_ITEMS_PER_PURCHASE) or []
    if not inscriptions and not runes:
        raise MarketError(
            ErrorCode.MISSING_FIELD,
            "name what to buy: inscriptionIds and/or runesOutputs",
            field="inscriptionIds",
        )
    rate = fields.fee_rate(market.node, req.get("feeRate"))
    wanted: list[tuple[str, str | None, str | None]]
    wanted = [(f"inscriptionIds[{i}]", x, None) for i, x in enumerate(inscriptions)]
    wanted += [(f"runesOutputs[{i}]", None, x) for i, x in enumerate(runes)]
    listing_ids = []
    with market.store.reading() as conn:
        for field, inscription_id, runes_output in wanted:
            listing = active_listing_for(conn, inscription_id, runes_output)
            if listing is None:
                raise MarketError(
                    ErrorCode.LISTING_NOT_FOUND,
                    f"{field}: {inscription_id or runes_output} has no active secure listing",
                    field=field,
                )
            listing_ids.append(listing.id)
    purchases = [purchase_listing(market, i, buyer, rate) for i in listing_ids]
    return {"purchases": purchases, "referralAddress": None, "creatorFee": False}


def sandbox_purchase(
    market: Market, listing_id: str, token_address: str | None, fee_rate: Any
) -> Json:
    node = market.node
    payment = node.sandbox_address(SANDBOX_BUYER_LABEL, "p2wpkh")
    token = token_address or node.sandbox_address(SANDBOX_BUYER_LABEL, "p2tr")
    buyer = _buyer(payment, token, "buyerAddress", "buyerTokenReceiveAddress")
    rate = fields.fee_rate(node, fee_rate)
    try:
        return purchase_listing(market, listing_id, buyer, rate)
    except MarketError as exc:
        if exc.code is not ErrorCode.INSUFFICIENT_FUNDS:
            raise
        node.faucet(payment, int(exc.details["shortfall"]) + TOP_UP_MARGIN)
    return purchase_listing(market, listing_id, buyer, rate)
