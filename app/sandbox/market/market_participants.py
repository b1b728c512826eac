"""The market's other participants (issue 16): sandbox-held sellers and bidders who trade
through the marketplace's own code paths, exactly as a user's wallet does.

A participant is a scenario label ("alice") whose keys the sandbox holds: a P2WPKH payment key
and a P2TR ordinals key (`Node.sandbox_private_key("market-alice", ...)`), wrapped at once as
app.wallet `RoleKey`s, which sign like a user's wallet and never show the secret.
- A seller's items are real inscriptions on the regtest chain at its ordinals address
  (`mint_item`); its listing is built by the secure sell intent, signed input 0 with
  SIGHASH_ALL|ANYONECANPAY, and activated by `POST /list/secure`'s code (`list_item`), so it is
  in the listings store the `/v1` listing routes read. Listing the same item again reprices it
  (the new listing replaces the active one); `unlist_item` moves the item to the seller's own
  address, which ends the listing as a seller's own spend does (`item_moved`). A rune seller
  lists a runes output sent to it from the sandbox's reserve (`give_runes`) the same way.
- A bidder has a bidding wallet of its own, tied and funded like a user's, and places signed
  collection, trait and rune bids through `POST /bid/place`'s code (`place_bid`): the same
  validation, expiry, rate limit, pools against its own wallet balance and maker fee, into the
  same bid store. `cancel_bid` signs a challenge and cancels through `POST /cancel`'s code.
Participants are recorded in `market_participants`, so a listing or bid can be told apart as
theirs and a fill can search their holdings (`seller_key_labels`).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, replace
from typing import Any

from app.core.bid_message import bid_message
from app.core.bid_request import META_TYPE_ORDINALS, META_TYPE_RUNES, CollectionBidRequest, Trait
from app.core.errors import ErrorCode
from app.sandbox.market import listing_targets
from app.sandbox.market.bid_store import bid_states
from app.sandbox.market.bids import place_collection_bid
from app.sandbox.market.cancel import cancel_bids
from app.sandbox.market.challenge import issue_challenge
from app.sandbox.market.errors import MarketError
from app.sandbox.market.listings_intent import SIGHASH_ALL_ANYONECANPAY, create_secure_sell_intent
from app.sandbox.market.listings_items import read_output
from app.sandbox.market.listings_store import SecureListing
from app.sandbox.market.listings_submit import list_secure
from app.sandbox.market.psbt_build import InputSpec, build_psbt, estimate_vsize, fee_for
from app.sandbox.market.psbt_build_verify import tx_with_witnesses
from app.sandbox.market.service import NETWORK, Json, Market
from app.sandbox.market.wallets import BiddingWallet, tie_wallet
from app.wallet.addresses import AddressType, KeyRole
from app.wallet.keys import RoleKey, role_key_from_private
from app.wallet.message import sign_message
from app.wallet.psbt_io import parse_psbt, psbt_to_base64
from app.wallet.psbt_signer import SigningKey, requests_for, sign_psbt

KEY_LABEL_PREFIX = "market-"
LABEL_PATTERN = r"^[a-z0-9][a-z0-9-]{0,31}$"
_LABEL = re.compile(LABEL_PATTERN)
# What the faucet puts in a bidder's new bidding wallet unless the request says otherwise.
DEFAULT_BIDDER_FUNDS = 2_000_000
MOVE_FEE_RATE = 2.0  # sat/vB of a seller moving its runes output back to itself

SCHEMA = """
CREATE TABLE IF NOT EXISTS market_participants (
    label TEXT PRIMARY KEY,
    ordinals_address TEXT NOT NULL UNIQUE,
    payment_address TEXT NOT NULL UNIQUE,
    sells INTEGER NOT NULL DEFAULT 0,
    bids INTEGER NOT NULL DEFAULT 0,
    created_ms INTEGER NOT NULL);
"""
_INSTALLED = "_market_participants_installed"


def install(market: Market) -> None:
    if getattr(market, _INSTALLED, False):
        return
    setattr(market, _INSTALLED, True)
    market.store.ensure_schema(SCHEMA)
    market.store.ensure_schema(listing_targets.SCHEMA)  # which listing sells what (scenario)


@dataclass(frozen=True, repr=False)
class Participant:
    label: str
    payment: RoleKey  # P2WPKH: receives a seller's proceeds, signs a bidder's bid messages
    ordinals: RoleKey  # P2TR: holds a seller's items, receives what a bidder buys

    @property
    def key_label(self) -> str:
        return KEY_LABEL_PREFIX + self.label

    def __repr__(self) -> str:
        return f"Participant({self.label}, {self.ordinals.address})"


def check_label(label: str, field: str) -> str:
    if not _LABEL.match(label):
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"{field} must be 1-32 lowercase letters, digits or '-', starting with a letter or "
            f"digit (like 'seller-1'), not {label!r}",
            field=field,
        )
    return label


def participant(
    market: Market, label: str, *, sells: bool = False, bids: bool = False
) -> Participant:
    """The participant `label` (its keys are made on first use), recorded with its role."""
    key_label = KEY_LABEL_PREFIX + label
    node = market.node
    payment = role_key_from_private(
        node.sandbox_private_key(key_label, "p2wpkh"), AddressType.P2WPKH, NETWORK, KeyRole.PAYMENT
    )
    ordinals = role_key_from_private(
        node.sandbox_private_key(key_label, "p2tr"), AddressType.P2TR, NETWORK, KeyRole.ORDINALS
    )
    with market.store.transaction() as conn:
        conn.execute(
            "INSERT INTO market_participants (label, ordinals_address, payment_address, "
            "created_ms) VALUES (?, ?, ?, ?) ON CONFLICT (label) DO NOTHING",
            (label, ordinals.address, payment.address, market.now_ms()),
        )
        if sells or bids:
            conn.execute(
                "UPDATE market_participants SET sells = MAX(sells, ?), bids = MAX(bids, ?) "
                "WHERE label = ?",
                (int(sells), int(bids), label),
            )
    return Participant(label, payment, ordinals)


def label_of(conn: sqlite3.Connection, address: str) -> str | None:
    """The participant whose ordinals or payment address `address` is, if any."""
    row = conn.execute(
        "SELECT label FROM market_participants WHERE ordinals_address = ? OR payment_address = ?",
        (address, address),
    ).fetchone()
    return None if row is None else str(row[0])


def seller_key_labels(market: Market) -> list[str]:
    """Sandbox key labels of every seller, oldest first (where a fill looks for items)."""
    with market.store.reading() as conn:
        rows = conn.execute(
            "SELECT label FROM market_participants WHERE sells = 1 ORDER BY created_ms, label"
        ).fetchall()
    return [KEY_LABEL_PREFIX + row[0] for row in rows]


# -- sellers ------------------------------------------------------------------------------


def mint_item(market: Market, seller: Participant, slug: str, traits: dict[str, str]) -> str:
    """A new inscription of collection `slug` with `traits` at the seller's ordinals address
    (commit and reveal with ord's envelope, in the mempool); returns its id."""
    created = market.node.create_inscription(seller.ordinals.address, slug, traits)
    return str(created["inscriptionId"])


def give_runes(market: Market, seller: Participant, rune: str, amount: int) -> str:
    """A new output of `amount` of the etched `rune` at the seller's ordinals address, sent
    from the sandbox's reserve by a runestone's edict (`Node.create_runes`; in the mempool);
    returns its outpoint."""
    return str(market.node.create_runes(seller.ordinals.address, rune, amount)["outpoint"])


def list_item(
    market: Market,
    seller: Participant,
    price: int,
    slug: str | None,
    *,
    inscription_id: str | None = None,
    runes_output: str | None = None,
) -> Json:
    """List (or reprice) the seller's inscription or runes output as a secure listing; the
    listing entry."""
    xonly = seller.ordinals.public.xonly_public_key
    assert xonly is not None  # a P2TR key
    body: dict[str, Any] = {
        "price": price,
        "sellerOrdAddress": seller.ordinals.address,
        "sellerReceiveAddress": seller.payment.address,
        "tapInternalKey": xonly.hex(),
    }
    if inscription_id is not None:
        body["inscriptionId"] = inscription_id
    if runes_output is not None:
        body["runesOutput"] = runes_output
    if slug is not None:
        body["collectionSlug"] = slug
    intent = create_secure_sell_intent(market, body)
    psbt = parse_psbt(intent["seller"]["secureListingPSBTs"][0]["base64"])
    key = SigningKey(seller.ordinals.private_key)
    sign_psbt(psbt, key, requests_for([0], SIGHASH_ALL_ANYONECANPAY))
    signed = {"listings": [body], "signedSecureListingPSBTs": [psbt_to_base64(psbt)]}
    listing: Json = list_secure(market, signed)["listings"][0]
    return listing


def unlist_item(market: Market, seller: Participant, listing: SecureListing) -> str:
    """End the seller's listing the way a seller does: move the item to the seller's own
    address (the listings watcher ends it as `item_moved`). Returns the txid."""
    if listing.inscription_id is not None:
        return market.node.transfer_inscription(listing.inscription_id, seller.ordinals.address)
    output = read_output(market.node, listing.item_outpoint)
    if output is None:
        raise MarketError(ErrorCode.LISTING_NOT_ACTIVE, f"listing {listing.id}'s item moved")
    coin, spk = output.coin, seller.ordinals.script_pubkey
    fee = fee_for(estimate_vsize([coin.script_pubkey], [spk]), MOVE_FEE_RATE)
    # No runestone: ord gives the runes to the first output, the seller's.
    raw = tx_with_witnesses(build_psbt([InputSpec(coin)], [(spk, coin.value - fee)]), {})
    return market.node.broadcast(market.node.sign_with_sandbox_keys(raw, [coin.spent_pair]))


# -- bidders ------------------------------------------------------------------------------


def bidding_wallet(market: Market, bidder: Participant, fund_sats: int | None) -> BiddingWallet:
    """The bidder's bidding wallet, tied like a user's; the faucet adds `fund_sats` to it
    (None: `DEFAULT_BIDDER_FUNDS` when the wallet holds nothing yet)."""
    pubkey = bidder.payment.public.public_key.hex()
    wallet = tie_wallet(market, bidder.ordinals.address, bidder.payment.address, pubkey)
    if fund_sats is None:
        fund_sats = DEFAULT_BIDDER_FUNDS if market.balance(wallet.multisig_address) == 0 else 0
    if fund_sats:
        market.node.faucet(wallet.multisig_address, fund_sats)
    return wallet


def place_bid(
    market: Market,
    bidder: Participant,
    *,
    slug: str,
    price: int,
    quantity: int,
    expiry_ms: int,
    rune: bool = False,
    trait: Trait | None = None,
) -> Json:
    """A collection, trait or rune bid signed by the bidder's payment key and placed by the
    marketplace's own placement (every rule of ours applies); its `data`."""
    req = CollectionBidRequest(
        price=price,
        collection_slug=slug,
        bidder_address=bidder.payment.address,
        bidder_address_public_key=bidder.payment.public.public_key.hex(),
        bidder_token_receive_address=bidder.ordinals.address,
        quantity=quantity,
        meta_type=META_TYPE_RUNES if rune else META_TYPE_ORDINALS,
        bid_expiry=expiry_ms,
        timestamp=market.now_ms(),
        signed_bidding_message="",
        attributes=() if trait is None else (trait,),
    )
    signature = sign_message(bidder.payment, bid_message(req)).signature
    return place_collection_bid(market, replace(req, signed_bidding_message=signature).to_json())


def cancel_bid(market: Market, bid_id: str) -> Json:
    """Cancel a participant's open bid through `POST /cancel`'s code, with a challenge signed by
    the address the bid is keyed by."""
    with market.store.reading() as conn:
        state = bid_states(conn, [bid_id]).get(bid_id)
        label = None if state is None else label_of(conn, state.maker)
    if state is None or label is None:
        raise MarketError(
            ErrorCode.BID_NOT_FOUND,
            f"{bid_id!r} is not a bid of a sandbox participant (only theirs can be removed here)",
            field="bidId",
        )
    bidder = participant(market, label)
    maker = market.keyed_address(state.maker, state.bidder_address)
    key = bidder.ordinals if maker == bidder.ordinals.address else bidder.payment
    challenge = issue_challenge(market, maker)["challenge"]
    body = {
        "makerAddress": maker,
        "orderType": "bid",
        "_ids": [bid_id],
        "signature": sign_message(key, challenge).signature,
    }
    return cancel_bids(market, body)
