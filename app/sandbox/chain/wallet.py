"""The sandbox's own wallet: pays the faucet, inscription postage and rune outputs from the
miner's matured coinbase coins (and their change), and moves inscriptions the sandbox holds.

Coins that carry inscriptions or runes are never used as funding, as ord wallets do.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.sandbox.chain.consensus import COINBASE_MATURITY, dust_threshold
from app.sandbox.chain.engine import ChainEngine
from app.sandbox.chain.errors import Conflict, InsufficientFunds, InvalidRequest
from app.sandbox.chain.indexer import Coin
from app.sandbox.chain.keys import SandboxKeys
from app.sandbox.chain.rawtx import ParsedTx, from_embit

FUNDING_FEE_RATE = 2.0  # sat/vB: above the relay minimum, so sandbox txs always relay
MINER_LABEL = "miner"
# Rough vbytes per P2WPKH input / per output, to pick enough coins before the exact fee.
_INPUT_VBYTES, _OUTPUT_VBYTES, _OVERHEAD_VBYTES = 69, 43, 11
_MAX_FUNDING_INPUTS = 50
# Keep the change output above dust so the fee never silently swallows the change.
_CHANGE_FLOOR = 1_000

DeclareFor = Callable[[sqlite3.Connection, ParsedTx], None]


@dataclass(frozen=True)
class Payment:
    script_pubkey: bytes
    value: int


class SandboxWallet:
    def __init__(self, engine: ChainEngine, keys: SandboxKeys) -> None:
        self.engine = engine
        self.keys = keys
        self.change_script = keys.script(MINER_LABEL, "p2wpkh")

    def spendable(self, limit: int = _MAX_FUNDING_INPUTS) -> list[Coin]:
        """Unspent, matured, uninscribed coins of the miner key: confirmed ones first, large
        first (fewer inputs, short unconfirmed chains)."""
        max_coinbase_height = self.engine.tip.height + 1 - COINBASE_MATURITY
        rows = self.engine.store.conn.execute(
            "SELECT o.txid, o.vout, o.value, o.coinbase, t.height FROM outputs o "
            "JOIN txs t ON t.txid = o.txid "
            "WHERE o.script_pubkey = ? AND o.spent_txid IS NULL "
            "AND (o.coinbase = 0 OR t.height <= ?) "
            "AND NOT EXISTS (SELECT 1 FROM inscription_locations i "
            "                WHERE i.txid = o.txid AND i.vout = o.vout) "
            "AND NOT EXISTS (SELECT 1 FROM rune_balances r "
            "                WHERE r.txid = o.txid AND r.vout = o.vout) "
            "ORDER BY t.height IS NULL, o.value DESC LIMIT ?",
            (self.change_script, max_coinbase_height, limit),
        ).fetchall()
        return [
            Coin(txid, vout, value, self.change_script, bool(cb), height, None)
            for txid, vout, value, cb, height in rows
        ]

    def pay(
        self,
        payments: Sequence[Payment],
        declare: DeclareFor | None = None,
        fee_rate: float = FUNDING_FEE_RATE,
    ) -> ParsedTx:
        """Build, sign and accept a transaction paying `payments` (in order) from the miner
        key, change last, at `fee_rate` sat/vB. `declare` writes the sandbox's declarations
        about it (a rune issue) in the same SQLite transaction that acknowledges
        it."""
        for p in payments:
            check_not_dust(p)
        needed = sum(p.value for p in payments)
        extra = sum(max(0, len(p.script_pubkey) - 34) for p in payments)  # large outputs
        funding = self.select(
            needed + math.ceil(extra * fee_rate), 0, len(payments) + 1, fee_rate=fee_rate
        )
        tx = self.build(funding, payments, fee_rate=fee_rate)
        return self.accept(tx, declare)

    def accept(self, tx: ParsedTx, declare: DeclareFor | None = None) -> ParsedTx:
        self.engine.accept(tx, None if declare is None else (lambda conn: declare(conn, tx)))
        return tx

    def select(
        self,
        needed: int,
        fixed_inputs: int,
        outputs: int,
        exclude: Sequence[Coin] = (),
        fee_rate: float = FUNDING_FEE_RATE,
    ) -> list[Coin]:
        """Funding coins worth `needed` sats plus the fee of the whole transaction."""
        skip = {(c.txid, c.vout) for c in exclude}
        chosen: list[Coin] = []
        total = 0
        for coin in self.spendable():
            if (coin.txid, coin.vout) in skip:
                continue
            chosen.append(coin)
            total += coin.value
            inputs = fixed_inputs + len(chosen)
            vbytes = _OVERHEAD_VBYTES + inputs * _INPUT_VBYTES + outputs * _OUTPUT_VBYTES
            if total >= needed + math.ceil(vbytes * fee_rate) + _CHANGE_FLOOR:
                return chosen
        raise InsufficientFunds(
            f"the sandbox wallet cannot fund {needed} sats right now; mine blocks to mature "
            "more coinbase coins"
        )

    def fund(
        self, fixed: Sequence[Coin], outputs: Sequence[Payment]
    ) -> tuple[list[Coin], ParsedTx]:
        """Spend `fixed` (first, in order) to `outputs`, with funding coins for the rest and
        the fee: (the funding coins, the signed transaction)."""
        funding = self.select(
            sum(p.value for p in outputs) - sum(c.value for c in fixed),
            fixed_inputs=len(fixed),
            outputs=len(outputs) + 1,
            exclude=fixed,
        )
        return funding, self.build([*fixed, *funding], outputs)

    def build(
        self,
        coins: Sequence[Coin],
        outputs: Sequence[Payment],
        fee_rate: float = FUNDING_FEE_RATE,
    ) -> ParsedTx:
        """Sign `coins` -> `outputs` + a change output to the miner key that takes what is
        left after the fee (dropped into the fee when below dust)."""
        change = sum(c.value for c in coins) - sum(p.value for p in outputs)
        draft = self._sign(coins, [*outputs, Payment(self.change_script, max(change, 0))])
        # A signature may come out a byte or two longer than the draft's (DER's r and s):
        # a vbyte per input keeps the rate at or above the one asked.
        change -= math.ceil((draft.vsize + len(coins)) * fee_rate)
        if change < 0:
            raise InsufficientFunds("the selected coins do not cover the outputs and the fee")
        final = list(outputs)
        if change >= dust_threshold(self.change_script):
            final.append(Payment(self.change_script, change))
        return self._sign(coins, final)

    def _sign(self, coins: Sequence[Coin], outputs: Sequence[Payment]) -> ParsedTx:
        tx = Transaction(
            version=2,
            vin=[
                TransactionInput(bytes.fromhex(c.txid), c.vout, sequence=0xFFFFFFFD) for c in coins
            ],
            vout=[TransactionOutput(p.value, Script(p.script_pubkey)) for p in outputs],
            locktime=0,
        )
        signed = self.keys.sign(tx, [(c.value, c.script_pubkey) for c in coins])
        if len(signed) != len(coins):
            missing = sorted(set(range(len(coins))) - set(signed))
            inputs = "input" if len(missing) == 1 else "inputs"
            raise Conflict(
                f"the sandbox holds no key for {inputs} {', '.join(map(str, missing))}",
                "NOT_SANDBOX_HELD",
            )
        return from_embit(tx)


def check_not_dust(payment: Payment) -> None:
    threshold = dust_threshold(payment.script_pubkey)
    if payment.value < threshold:
        raise InvalidRequest(
            f"{payment.value} sats is below the dust threshold ({threshold} sats) of the "
            "address type",
            "AMOUNT_BELOW_DUST",
        )
