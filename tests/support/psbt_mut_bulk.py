"""An honest batch of secure listings (one PSBT per item, as a bulk listing request returns
them) and the mutations that can make two of them share an output list.

Each item is a coin of our ordinals address (taproot, or P2WPKH as some wallets use: a
segwit v0 signature does not commit to the other inputs' amounts) carrying its own
inscription; its PSBT spends it
as input 0 (PSBT_IN_SIGHASH_TYPE ALL|ANYONECANPAY) and pays an escrow output of its own (a
per-item key, as the sandbox's `listings_intent.escrow_script` does) and the price to our
payment address. All items have the same value and price, so the only thing keeping two
listings' outputs apart is the per-item escrow: `EscrowOf` and `CopyOutputs` take it away.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from embit.script import Script
from hypothesis import strategies as st

from app.core.psbt_review_context import InscriptionAt, OutpointContents, ReviewContext
from app.core.signing_policy import SecureListingIntent
from app.wallet.psbt_fixes import FixedInput, FixedPSBT
from tests.support.psbt_mut_case import Case, Readable, Setup, edit, owners_of, serve_facts
from tests.support.psbt_mut_world import TrueCoin, World, spare_coins, taproot_key_fill, true_coin
from tests.support.psbt_mutations import Op, fact_ops, psbt_ops
from tests.support.psbt_scenarios import (
    FASTEST,
    NETWORK,
    TIP,
    Coin,
    Scenario,
    addr,
    build_psbt,
    key,
    p2tr_spk,
    p2wpkh_spk,
    parties,
)

PRICE = 100_000
ITEM_VALUE = 10_000
ESCROW_ALLOWANCE = 1_000  # the buyer pays it into the escrow output (listings_intent)
MAX_ITEMS = 5


def item_inscription(k: int) -> str:
    return f"{k + 0xB0:02x}" * 32 + "i0"


@dataclass(frozen=True)
class Batch:
    """The honest batch: one Setup per item (sharing the world and the served facts)."""

    items: tuple[Setup, ...]
    escrows: tuple[bytes, ...]

    @property
    def context(self) -> ReviewContext:
        return self.items[0].context


ORDINALS_KINDS = ("p2tr", "p2wpkh")


@cache
def bulk_batch(n: int, ordinals_kind: str = "p2tr") -> Batch:
    p = parties()
    fill: Callable[[FixedInput], None] | None = taproot_key_fill(p.ordinals)
    if ordinals_kind == "p2wpkh":
        p, fill = dataclasses.replace(p, ordinals_spk=p2wpkh_spk(p.ordinals)), None
    coins = [
        true_coin(
            f"bulk item {k} {ordinals_kind}",
            p.ordinals_spk,
            ITEM_VALUE,
            OutpointContents((InscriptionAt(item_inscription(k), 0),)),
            fill,
        )
        for k in range(n)
    ]
    escrows = tuple(p2tr_spk(key(3_000 + k)) for k in range(n))
    spares = spare_coins(p)
    world: World = {c.outpoint: c for c in (*coins, *spares.values())}
    base = ReviewContext.for_wallet(
        NETWORK,
        payment=addr(p.payment_spk),
        ordinals=addr(p.ordinals_spk),
        bidding_wallet=addr(p.bidding_spk),
        service=[(addr(p.service_fee_spk), "the service's fee address")]
        + [(addr(e), f"the escrow of item {k}") for k, e in enumerate(escrows)],
        tip=TIP,
        fastest_fee_rate=FASTEST,
    )
    context = serve_facts(base, {f"item {k}": c for k, c in enumerate(coins)} | spares)
    owners = owners_of(p, escrows)
    items = []
    for k, (coin, escrow) in enumerate(zip(coins, escrows, strict=True)):
        spent = Coin(coin.prev_tx, coin.vout, coin.fill)
        psbt = build_psbt(
            [spent],
            [(escrow, ITEM_VALUE + ESCROW_ALLOWANCE), (p.payment_spk, PRICE)],
            sighash={0: 0x81},
        )
        intent = SecureListingIntent(PRICE, addr(p.payment_spk), inscription_id=item_inscription(k))
        scenario = Scenario(f"bulk item {k}", psbt, context, intent, p, (spent,), p.ordinals)
        items.append(Setup(f"bulk item {k}", scenario, world, context, spares, owners))
    return Batch(tuple(items), escrows)


@dataclass
class BatchCase:
    """The served PSBTs of a batch (one Case per item) and the facts served for all."""

    batch: Batch
    cases: list[Case] = field(default_factory=list)

    @property
    def coins(self) -> list[TrueCoin]:
        """Each item's coin, as the honest batch spends it."""
        return [s.world[s.honest_outpoint(0)] for s in self.batch.items]

    def __post_init__(self) -> None:
        if not self.cases:
            shared: World = {}
            self.cases = [Case(s, s.honest_bytes, s.context, shared) for s in self.batch.items]

    def share_facts(self, source: Case) -> None:
        for case in self.cases:
            case.context = source.context


@dataclass(frozen=True)
class InItem(Readable):
    """`op` applied to the PSBT of item `k` (facts it changes are served for the batch)."""

    k: int
    op: Op

    def __repr__(self) -> str:
        return f"item {self.k}: {self.op!r}"

    def apply(self, batch: BatchCase) -> None:
        case = batch.cases[self.k % len(batch.cases)]
        self.op.apply(case)
        batch.share_facts(case)


@dataclass(frozen=True)
class EscrowOf(Readable):
    """Item `dst`'s escrow output pays item `src`'s escrow instead (a shared escrow)."""

    src: int
    dst: int

    def __repr__(self) -> str:
        return f"item {self.dst}: escrow output pays item {self.src}'s escrow"

    def apply(self, batch: BatchCase) -> None:
        n = len(batch.cases)
        spk = batch.batch.escrows[self.src % n]

        def change(psbt: FixedPSBT) -> None:
            if psbt.outputs:
                psbt.outputs[0].script_pubkey = Script(spk)

        edit(batch.cases[self.dst % n], change)


@dataclass(frozen=True)
class CopyOutputs(Readable):
    """Item `dst`'s outputs become item `src`'s (as served now)."""

    src: int
    dst: int

    def __repr__(self) -> str:
        return f"item {self.dst}: outputs copied from item {self.src}"

    def apply(self, batch: BatchCase) -> None:
        n = len(batch.cases)
        try:
            source = FixedPSBT.parse(batch.cases[self.src % n].data)
        except Exception:
            return

        def change(psbt: FixedPSBT) -> None:
            copy = FixedPSBT.parse(source.serialize())
            psbt.outputs = copy.outputs

        edit(batch.cases[self.dst % n], change)


@dataclass(frozen=True)
class AddItemInput(Readable):
    """Item `dst`'s PSBT also spends item `src`'s coin (with or without its UTXO data)."""

    src: int
    dst: int
    with_utxo: bool

    def __repr__(self) -> str:
        utxo = "" if self.with_utxo else " without UTXO data"
        return f"item {self.dst}: spends item {self.src}'s coin too{utxo}"

    def apply(self, batch: BatchCase) -> None:
        n = len(batch.cases)
        coin = batch.coins[self.src % n]

        def change(psbt: FixedPSBT) -> None:
            inp = coin.psbt_input()
            if not self.with_utxo:
                inp.witness_utxo = None
            psbt.inputs.append(inp)

        edit(batch.cases[self.dst % n], change)


@dataclass(frozen=True)
class ItemSighash(Readable):
    """Item `k`'s PSBT asks for another hash type on its item input (input 0)."""

    k: int
    sighash: int

    def __repr__(self) -> str:
        return f"item {self.k}: input[0].sighash_type=0x{self.sighash:02x}"

    def apply(self, batch: BatchCase) -> None:
        def change(psbt: FixedPSBT) -> None:
            psbt.inputs[0].sighash_type = self.sighash

        edit(batch.cases[self.k % len(batch.cases)], change)


def batch_ops() -> st.SearchStrategy[list[Op]]:
    """1 to 3 changes to a batch: item 1 takes item 0's escrow, outputs or coin, either asks
    for another hash type, or any mutation of item 0's or item 1's PSBT. Items are alike, so
    one pair stands for any two; the other items of the batch stay honest."""
    either = st.sampled_from((0, 1))
    one = st.one_of(
        st.builds(EscrowOf, st.just(0), st.just(1)),
        st.builds(CopyOutputs, st.just(0), st.just(1)),
        st.builds(AddItemInput, st.just(0), st.just(1), st.booleans()),
        st.builds(ItemSighash, either, st.sampled_from((0x01, 0x00, 0x83, 0x82))),
        st.builds(InItem, either, st.one_of(psbt_ops(), fact_ops())),
    )
    return st.lists(one, min_size=1, max_size=3)


def new_batch_case(n: int, ordinals_kind: str = "p2tr") -> BatchCase:
    return BatchCase(bulk_batch(n, ordinals_kind))


__all__ = ["Batch", "BatchCase", "TrueCoin", "batch_ops", "bulk_batch", "new_batch_case"]
