"""Realistic PSBTs of the five guarded flows, built with embit on regtest (test-only keys).

Each `Scenario` is a good case: the PSBT a correct service (or our own builder, for funding)
would produce, the `ReviewContext` the app would assemble (our addresses, the service's, ord's
answers, the chain's amounts) and the user's intent. `tests.support.psbt_tamper` mutates them.

Every spent output is a real output of a made-up previous transaction, so non_witness_utxo
data is consistent and can be attached (or forged) by a mutation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from embit import ec
from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.core.psbt_review import Review, review
from app.core.psbt_review_context import (
    NOTHING,
    InscriptionAt,
    KnownUtxo,
    OutpointContents,
    ReviewContext,
    RuneAmount,
)
from app.core.psbt_review_time import ChainTip
from app.core.signing_policy import (
    EndListingIntent,
    FeeBounds,
    FundingIntent,
    InscriptionBidIntent,
    Intent,
    SecureListingIntent,
    Verdict,
    WithdrawIntent,
    evaluate,
)
from app.wallet.psbt_fixes import FixedInput, FixedPSBT, new_transaction
from app.wallet.psbt_reader import view_of
from app.wallet.scripts import address_of, bidding_taproot_1of2, taproot_output

NETWORK = "regtest"
RBF_SEQUENCE = 0xFFFFFFFD
FEES = FeeBounds.of(max_fee=10_000, max_rate=50)
# The chain the scenarios live on: its tip, and the fee estimate for the next block (sat/vB).
TIP = ChainTip(height=850_000, median_time=1_760_000_000)
FASTEST = Fraction(10)
INSCRIPTION = "6fb976ab49dcec017f1e201e84395983204ae1a7c2abf7ced0a85d692e442799i0"
OTHER_INSCRIPTION = "0f2c9b4a8d3e1f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f90i0"


def key(n: int) -> ec.PrivateKey:
    """Deterministic test key number `n` (never a real wallet's key)."""
    return ec.PrivateKey(hashlib.sha256(b"bidwallet guard test key %d" % n).digest())


def hash160(data: bytes) -> bytes:
    return hashlib.new("ripemd160", hashlib.sha256(data).digest()).digest()


def p2wpkh_spk(k: ec.PrivateKey) -> bytes:
    return b"\x00\x14" + hash160(k.sec())


def p2tr_spk(k: ec.PrivateKey) -> bytes:
    return taproot_output(k.xonly()).script_pubkey


def addr(spk: bytes) -> str:
    return address_of(spk, NETWORK)


@dataclass(frozen=True)
class Coin:
    """An output of a previous transaction, and how to fill a PSBT input that spends it."""

    prev_tx: Transaction
    vout: int
    fill: Callable[[FixedInput], None] = field(default=lambda inp: None)

    @property
    def txout(self) -> TransactionOutput:
        out: TransactionOutput = self.prev_tx.vout[self.vout]
        return out

    @property
    def outpoint(self) -> str:
        return f"{self.prev_tx.txid().hex()}:{self.vout}"

    def known(self) -> KnownUtxo:
        return KnownUtxo(self.txout.value, bytes(self.txout.script_pubkey.data))


_counter = iter(range(1, 1_000_000))


def coin(spk: bytes, value: int, fill: Callable[[FixedInput], None] | None = None) -> Coin:
    """A fresh previous transaction paying `value` to `spk` at a deterministic-looking vout."""
    n = next(_counter)
    src = TransactionInput(hashlib.sha256(b"guard funding %d" % n).digest(), n % 4)
    filler = TransactionOutput(1_000 + n, Script(p2wpkh_spk(key(900 + n % 7))))
    vout = n % 2
    outs = (
        [filler, TransactionOutput(value, Script(spk))]
        if vout
        else [
            TransactionOutput(value, Script(spk)),
            filler,
        ]
    )
    prev = new_transaction(2, 0, [src], outs)
    return Coin(prev, vout, fill or (lambda inp: None))


def _fill_taproot_key(k: ec.PrivateKey) -> Callable[[FixedInput], None]:
    def fill(inp: FixedInput) -> None:
        inp.taproot_internal_key = ec.PublicKey.from_xonly(k.xonly())

    return fill


@dataclass(frozen=True)
class Parties:
    """Our wallet (payment, ordinals, bidding wallet), the service, a seller and a stranger."""

    payment: ec.PrivateKey
    payment_spk: bytes
    ordinals: ec.PrivateKey
    ordinals_spk: bytes
    service: ec.PrivateKey
    bidding_spk: bytes
    bidding_fill: Callable[[FixedInput], None]
    service_fee_spk: bytes
    service_escrow_spk: bytes
    seller_ordinals: ec.PrivateKey
    seller_payment_spk: bytes
    stranger_spk: bytes

    def context(self, coins: Sequence[Coin], **kw: object) -> ReviewContext:
        """Our addresses and the service's, the chain's view of `coins`, its tip and fee
        estimate; `kw` adds or replaces facts (contents, chain_utxos, tip, ...)."""
        facts: dict[str, object] = {
            "chain_utxos": {c.outpoint: c.known() for c in coins},
            "tip": TIP,
            "fastest_fee_rate": FASTEST,
        }
        facts.update(kw)
        return ReviewContext.for_wallet(
            NETWORK,
            payment=addr(self.payment_spk),
            ordinals=addr(self.ordinals_spk),
            bidding_wallet=addr(self.bidding_spk),
            service=[
                (addr(self.service_fee_spk), "the service's fee address"),
                (addr(self.service_escrow_spk), "the service's escrow address"),
            ],
            **facts,  # type: ignore[arg-type]
        )


def parties(taproot_payment: bool = False) -> Parties:
    payment = key(1)
    service = key(3)
    bidding = bidding_taproot_1of2(payment.xonly(), service.xonly())

    def bidding_fill(inp: FixedInput) -> None:
        inp.taproot_internal_key = ec.PublicKey.from_xonly(bidding.internal_key)
        leaf = bidding.leaves[0]
        inp.taproot_scripts = {leaf.control_block: leaf.script + bytes([leaf.leaf_version])}

    return Parties(
        payment=payment,
        payment_spk=p2tr_spk(payment) if taproot_payment else p2wpkh_spk(payment),
        ordinals=key(2),
        ordinals_spk=p2tr_spk(key(2)),
        service=service,
        bidding_spk=bidding.script_pubkey,
        bidding_fill=bidding_fill,
        service_fee_spk=p2wpkh_spk(key(4)),
        service_escrow_spk=p2tr_spk(key(5)),
        seller_ordinals=key(10),
        seller_payment_spk=p2wpkh_spk(key(11)),
        stranger_spk=p2wpkh_spk(key(66)),
    )


def build_psbt(
    coins: Sequence[Coin],
    outputs: Sequence[tuple[bytes, int]],
    with_full_tx: Sequence[int] = (),
    sighash: dict[int, int] | None = None,
) -> FixedPSBT:
    vin = [TransactionInput(c.prev_tx.txid(), c.vout, sequence=RBF_SEQUENCE) for c in coins]
    vout = [TransactionOutput(value, Script(spk)) for spk, value in outputs]
    psbt = FixedPSBT(new_transaction(2, 0, vin, vout))
    for i, (inp, c) in enumerate(zip(psbt.inputs, coins, strict=True)):
        inp.witness_utxo = c.txout
        if i in with_full_tx:
            inp.non_witness_utxo = c.prev_tx
        c.fill(inp)
    for i, value in (sighash or {}).items():
        psbt.inputs[i].sighash_type = value
    return psbt


@dataclass(frozen=True)
class Scenario:
    """A good case of one flow. `signer` signs what a verdict approves (our payment key, or the
    ordinals key for a listing); `coins` are the spent coins in input order."""

    name: str
    psbt: FixedPSBT
    context: ReviewContext
    intent: Intent
    parties: Parties
    coins: tuple[Coin, ...]
    signer: ec.PrivateKey

    @property
    def prev_txs(self) -> dict[str, Transaction]:
        return {c.outpoint: c.prev_tx for c in self.coins}

    def review(self) -> Review:
        return review(view_of(self.psbt, NETWORK), self.context)

    def verdict(self) -> Verdict:
        return evaluate(self.review(), self.intent)

    def with_(self, **changes: object) -> Scenario:
        return replace(self, **changes)


def withdraw() -> Scenario:
    """100,000 sats from two bidding-wallet coins to the payment address, change back."""
    p = parties()
    coins = (
        coin(p.bidding_spk, 80_000, p.bidding_fill),
        coin(p.bidding_spk, 50_000, p.bidding_fill),
    )
    psbt = build_psbt(coins, [(p.payment_spk, 100_000), (p.bidding_spk, 28_000)])
    contents = {c.outpoint: NOTHING for c in coins}
    ctx = p.context(coins, contents=contents)
    return Scenario("withdraw", psbt, ctx, WithdrawIntent(100_000, FEES), p, coins, p.payment)


def inscription_bid(taproot_payment: bool = False) -> Scenario:
    """Bid 50,000 sats on the seller's inscription (input 0, 546 sats of postage)."""
    p = parties(taproot_payment)
    pay_fill = _fill_taproot_key(p.payment) if taproot_payment else None
    item = coin(p2tr_spk(p.seller_ordinals), 546, _fill_taproot_key(p.seller_ordinals))
    pay1, pay2 = coin(p.payment_spk, 60_000, pay_fill), coin(p.payment_spk, 30_000, pay_fill)
    coins = (item, pay1, pay2)
    outputs = [
        (p.ordinals_spk, 546),  # the inscription's new home
        (p.seller_payment_spk, 49_546),  # price - service fee + the seller's postage
        (p.service_fee_spk, 1_000),
        (p.payment_spk, 37_454),  # change: fee 2,000
    ]
    psbt = build_psbt(coins, outputs, with_full_tx=[0])
    contents = {
        item.outpoint: OutpointContents((InscriptionAt(INSCRIPTION, 0),)),
        pay1.outpoint: NOTHING,
        pay2.outpoint: NOTHING,
    }
    ctx = p.context(coins, contents=contents)
    intent = InscriptionBidIntent(INSCRIPTION, 50_000, FEES)
    name = "inscription_bid_taproot" if taproot_payment else "inscription_bid"
    return Scenario(name, psbt, ctx, intent, p, coins, p.payment)


def secure_listing(runes: bool = False) -> Scenario:
    """List our inscription (or runes) for 100,000 sats: the item goes to the service's escrow,
    the price to our payment address; signed ALL|ANYONECANPAY, the buyer funds it later."""
    p = parties()
    item = coin(p.ordinals_spk, 10_000, _fill_taproot_key(p.ordinals))
    psbt = build_psbt(
        [item],
        [(p.service_escrow_spk, 10_000), (p.payment_spk, 100_000)],
        sighash={0: 0x81},
    )
    carries = (
        OutpointContents(runes=(RuneAmount("UNCOMMON•GOODS", 2_500),))
        if runes
        else OutpointContents((InscriptionAt(INSCRIPTION, 0),))
    )
    ctx = p.context((item,), contents={item.outpoint: carries})
    receive = addr(p.payment_spk)
    intent = (
        SecureListingIntent(100_000, receive, runes_outpoint=item.outpoint)
        if runes
        else SecureListingIntent(100_000, receive, inscription_id=INSCRIPTION)
    )
    name = "secure_listing_runes" if runes else "secure_listing"
    return Scenario(name, psbt, ctx, intent, p, (item,), p.ordinals)


def funding() -> Scenario:
    """Fund the bidding wallet with 100,000 sats from two cardinal payment coins."""
    p = parties()
    coins = (coin(p.payment_spk, 70_000), coin(p.payment_spk, 60_000))
    psbt = build_psbt(coins, [(p.bidding_spk, 100_000), (p.payment_spk, 28_500)])
    ctx = p.context(coins, contents={c.outpoint: NOTHING for c in coins})
    return Scenario("funding", psbt, ctx, FundingIntent(100_000, FEES), p, coins, p.payment)


def end_listing(runes: bool = False) -> Scenario:
    """End our listing by moving the listed inscription (or runes, 10,000 sats) back to our
    ordinals address; a plain 20,000-sat payment coin pays the 2,100-sat fee (~210 vB),
    change to the payment address. Two keys sign: `signer` (ordinals) input 0, payment 1."""
    p = parties()
    item = coin(p.ordinals_spk, 10_000, _fill_taproot_key(p.ordinals))
    pay = coin(p.payment_spk, 20_000)
    psbt = build_psbt((item, pay), [(p.ordinals_spk, 10_000), (p.payment_spk, 17_900)])
    carries = (
        OutpointContents(runes=(RuneAmount("UNCOMMON•GOODS", 2_500),))
        if runes
        else OutpointContents((InscriptionAt(INSCRIPTION, 0),))
    )
    ctx = p.context((item, pay), contents={item.outpoint: carries, pay.outpoint: NOTHING})
    intent = (
        EndListingIntent(FEES, runes_outpoint=item.outpoint)
        if runes
        else EndListingIntent(FEES, inscription_id=INSCRIPTION)
    )
    name = "end_listing_runes" if runes else "end_listing"
    return Scenario(name, psbt, ctx, intent, p, (item, pay), p.ordinals)


SCENARIOS: dict[str, Callable[[], Scenario]] = {
    "withdraw": withdraw,
    "inscription_bid": inscription_bid,
    "inscription_bid_taproot": lambda: inscription_bid(taproot_payment=True),
    "secure_listing": secure_listing,
    "secure_listing_runes": lambda: secure_listing(runes=True),
    "funding": funding,
    "end_listing": end_listing,
    "end_listing_runes": lambda: end_listing(runes=True),
}
