"""The payment address's coins as the Fund flow's coin control shows them: each coin's amount,
confirmations and what ord says it carries, or that ord has not indexed it yet.

    coins = await payment_coins(ctx)              # in the order coin selection prefers them
    chosen = [c.outpoint for c in coins if c.spendable][:2]
    plan = await prepare_funding(ctx, 100_000, coins=chosen)
    balance = await payment_balance(ctx)          # the same coins, summed by what they may do

Only a coin ord has indexed and that carries nothing may fund the bidding wallet (`spendable`);
`refusal` says why another may not, in the words `prepare_funding` refuses it with. A coin ord
has not indexed yet (real ord: any output of a mempool transaction) is "waiting for the
indexer": unknown, so never taken as empty.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from app.core.psbt_review_context import OutpointContents, RuneAmount
from app.net.errors import NetError
from app.net.esplora import Utxo
from app.services.context import ServiceContext

__all__ = [
    "CoinUse",
    "PaymentBalance",
    "PaymentCoin",
    "payment_balance",
    "payment_coins",
    "preferred_order",
    "refusal",
]


class CoinUse(StrEnum):
    """Whether a coin may fund the bidding wallet, and if not, why."""

    SPENDABLE = "spendable"  # ord indexed it and it carries nothing
    CARRIES = "carries"  # an inscription or runes: never spent to fund
    WAITING = "waiting"  # ord has not indexed it yet: what it carries is unknown


@dataclass(frozen=True)
class PaymentCoin:
    """One unspent coin of the payment address. `contents` is None while ord has not indexed
    it; `confirmations` is 0 for a coin whose transaction is still in the mempool."""

    outpoint: str
    value: int
    confirmations: int
    contents: OutpointContents | None

    @property
    def confirmed(self) -> bool:
        return self.confirmations > 0

    @property
    def indexed(self) -> bool:
        return self.contents is not None

    @property
    def use(self) -> CoinUse:
        return use_of(self.contents)

    @property
    def spendable(self) -> bool:
        return self.use is CoinUse.SPENDABLE

    @property
    def inscriptions(self) -> tuple[str, ...]:
        return (
            ()
            if self.contents is None
            else tuple(i.inscription_id for i in self.contents.inscriptions)
        )

    @property
    def runes(self) -> tuple[RuneAmount, ...]:
        return () if self.contents is None else self.contents.runes

    @property
    def refusal(self) -> str | None:
        """Why this coin may not fund (None: it may)."""
        return refusal(self.contents)


@dataclass(frozen=True)
class PaymentBalance:
    """The payment address's coins summed by what funding may do with them (the rule of
    `PaymentCoin.use`): `spendable` is what the next funding may spend, the rest is held."""

    spendable: int  # indexed, carries nothing
    carrying: int  # holds inscriptions or runes: funding never spends it
    waiting: int  # ord has not indexed it yet
    coins: int

    @property
    def total(self) -> int:
        return self.spendable + self.carrying + self.waiting

    @classmethod
    def of(cls, coins: Iterable[PaymentCoin]) -> PaymentBalance:
        sums = dict.fromkeys(CoinUse, 0)
        count = 0
        for coin in coins:
            sums[coin.use] += coin.value
            count += 1
        return cls(sums[CoinUse.SPENDABLE], sums[CoinUse.CARRIES], sums[CoinUse.WAITING], count)


def use_of(contents: OutpointContents | None) -> CoinUse:
    if contents is None:
        return CoinUse.WAITING
    return CoinUse.SPENDABLE if contents.is_cardinal else CoinUse.CARRIES


def refusal(contents: OutpointContents | None) -> str | None:
    """Why a coin with ord's answer `contents` (None: not indexed yet) may not fund."""
    if contents is None:
        return (
            "is waiting for the indexer (ord has not indexed it yet, so what it carries is unknown)"
        )
    if not contents.is_cardinal:
        return f"carries {contents.describe()}, which funding never spends"
    return None


def preferred_order(utxos: Iterable[Utxo]) -> list[Utxo]:
    """Coins in the order coin selection prefers them: confirmed first, largest first."""
    return sorted(utxos, key=lambda u: (not u.confirmed, -u.value, u.outpoint))


async def payment_coins(ctx: ServiceContext) -> list[PaymentCoin]:
    """Every unspent coin of the payment address, in the order coin selection prefers them,
    with what ord says each carries. Raises `OrdUnavailableError` when ord cannot be asked,
    `NetError` when the chain source cannot."""
    utxos, tip = await asyncio.gather(
        ctx.clients.esplora.address_utxos(ctx.payment_address), _tip_height(ctx)
    )
    ordered = preferred_order(utxos)
    contents = await ctx.contents_if_indexed(u.outpoint for u in ordered)
    return [
        PaymentCoin(u.outpoint, u.value, _confirmations(u, tip), contents[u.outpoint])
        for u in ordered
    ]


async def payment_balance(ctx: ServiceContext) -> PaymentBalance:
    """What the payment address holds, and how much of it funding may spend (`payment_coins`'
    errors)."""
    return PaymentBalance.of(await payment_coins(ctx))


async def _tip_height(ctx: ServiceContext) -> int | None:
    try:
        return await ctx.clients.esplora.tip_height()
    except NetError:
        return None  # confirmations then count 1 for every confirmed coin


def _confirmations(utxo: Utxo, tip: int | None) -> int:
    if not utxo.confirmed:
        return 0
    if tip is None or utxo.height is None:
        return 1
    return max(1, tip - utxo.height + 1)
