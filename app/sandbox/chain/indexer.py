"""Derived indexes: transactions, outputs by script, inscription locations, runes (moved,
minted, etched and burned by runestones: rune_updater.py), and what each spent output held
(ord's views show an output spent in the mempool as it was).

`apply_tx` records a transaction's effects (mempool or confirmed), `connect_block` confirms a
block's transactions and hands fee-bound inscriptions to its coinbase; both run inside the
caller's SQLite transaction, together with the primary rows they derive from.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from app.core import sat_flow
from app.sandbox.chain import envelope_index, rune_updater
from app.sandbox.chain.consensus import block_subsidy
from app.sandbox.chain.rawtx import ParsedTx


@dataclass(frozen=True)
class Coin:
    """An output as the index knows it; `height` None means created by a mempool transaction."""

    txid: str
    vout: int
    value: int
    script_pubkey: bytes
    coinbase: bool
    height: int | None
    spent_txid: str | None
    spent_confirmed: bool = False


class IndexConflict(Exception):
    """A block transaction spends an output the index has as missing or spent by another, or
    its runes were decided in the mempool otherwise than ord decides them in this block."""

    def __init__(self, txid: str) -> None:
        super().__init__(f"block transaction {txid} conflicts with the index")
        self.txid = txid


class Indexer:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def coin(self, txid: str, vout: int) -> Coin | None:
        row = self.conn.execute(
            "SELECT o.value, o.script_pubkey, o.coinbase, t.height, o.spent_txid, s.height "
            "FROM outputs o JOIN txs t ON t.txid = o.txid "
            "LEFT JOIN txs s ON s.txid = o.spent_txid WHERE o.txid = ? AND o.vout = ?",
            (txid, vout),
        ).fetchone()
        if row is None:
            return None
        return Coin(txid, vout, row[0], row[1], bool(row[2]), row[3], row[4], row[5] is not None)

    def tx_height(self, txid: str) -> tuple[bool, int | None]:
        """(known, height): height None for a mempool transaction."""
        row = self.conn.execute("SELECT height FROM txs WHERE txid = ?", (txid,)).fetchone()
        return (False, None) if row is None else (True, row[0])

    def apply_tx(
        self,
        tx: ParsedTx,
        coins: Sequence[Coin],
        fee: int,
        height: int | None = None,
        block_pos: int | None = None,
    ) -> None:
        """Record `tx` spending `coins` (one per input; empty for a coinbase)."""
        conn = self.conn
        conn.execute(
            "INSERT INTO txs (txid, height, block_pos, fee, size, weight, coinbase) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tx.txid, height, block_pos, fee, tx.size, tx.weight, int(tx.is_coinbase)),
        )
        conn.executemany(
            "UPDATE outputs SET spent_txid = ?, spent_vin = ? WHERE txid = ? AND vout = ?",
            [(tx.txid, i, c.txid, c.vout) for i, c in enumerate(coins)],
        )
        conn.executemany(
            "INSERT INTO outputs (txid, vout, value, script_pubkey, coinbase) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                (tx.txid, vout, out.value, out.script_pubkey, int(tx.is_coinbase))
                for vout, out in enumerate(tx.outputs)
            ],
        )
        if coins:  # new inscriptions first: a parent must be found where the inputs held it
            envelope_index.index_envelopes(self.conn, tx, coins, self._place)
            self._move_inscriptions(tx, coins)
        rune_updater.index_runes(self.conn, tx, coins, height, block_pos)

    def _move_inscriptions(self, tx: ParsedTx, coins: Sequence[Coin]) -> None:
        moving: list[tuple[str, int, int]] = []
        for index, coin in enumerate(coins):
            for ins_id, offset in self.conn.execute(
                "SELECT id, offset FROM inscription_locations WHERE txid = ? AND vout = ?",
                (coin.txid, coin.vout),
            ):
                moving.append((ins_id, index, offset))
        self.conn.executemany(
            "INSERT INTO spent_inscriptions (txid, vout, id, offset) VALUES (?, ?, ?, ?)",
            [(coins[index].txid, coins[index].vout, i, offset) for i, index, offset in moving],
        )
        if not moving:
            return
        destinations = sat_flow.route(
            [c.value for c in coins],
            [o.value for o in tx.outputs],
            [(index, offset) for _, index, offset in moving],
        )
        for (ins_id, _, _), dest in zip(moving, destinations, strict=True):
            if dest.vout is None:
                self._place(ins_id, None, None, None, fee_txid=tx.txid, fee_offset=dest.offset)
            else:
                self._place(ins_id, tx.txid, dest.vout, dest.offset)

    def _place(
        self,
        ins_id: str,
        txid: str | None,
        vout: int | None,
        offset: int | None,
        fee_txid: str | None = None,
        fee_offset: int | None = None,
    ) -> None:
        self.conn.execute(
            "INSERT INTO inscription_locations (id, txid, vout, offset, fee_txid, fee_offset) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET txid = excluded.txid, "
            "vout = excluded.vout, offset = excluded.offset, fee_txid = excluded.fee_txid, "
            "fee_offset = excluded.fee_offset",
            (ins_id, txid, vout, offset, fee_txid, fee_offset),
        )

    def connect_block(self, txs: Sequence[ParsedTx], height: int) -> None:
        """Confirm a block's transactions (coinbase first in `txs`). Those not yet indexed are
        applied; raises IndexConflict when one cannot be (the caller rebuilds the index)."""
        coinbase, rest = txs[0], txs[1:]
        fees_before = 0
        subsidy = block_subsidy(height)
        to_coinbase: list[tuple[int, str]] = []
        for pos, tx in enumerate(rest, start=1):
            row = self.conn.execute(
                "SELECT height, fee FROM txs WHERE txid = ?", (tx.txid,)
            ).fetchone()
            if row is not None and row[0] is None:
                fee = int(row[1])
                self.conn.execute(
                    "UPDATE txs SET height = ?, block_pos = ? WHERE txid = ?",
                    (height, pos, tx.txid),
                )
                try:
                    rune_updater.confirm(self.conn, tx.txid, height, pos)
                except rune_updater.RunesDecidedOtherwise:
                    raise IndexConflict(tx.txid) from None
            else:
                fee = self._apply_unindexed(tx, height, pos, known=row is not None)
            for ins_id, fee_offset in self.conn.execute(
                "SELECT id, fee_offset FROM inscription_locations WHERE fee_txid = ?", (tx.txid,)
            ).fetchall():
                position = sat_flow.coinbase_position(subsidy, fees_before, fee_offset)
                to_coinbase.append((position, ins_id))
            fees_before += fee
        self.apply_tx(coinbase, [], 0, height, 0)
        values = [o.value for o in coinbase.outputs]
        for position, ins_id in to_coinbase:
            dest = sat_flow.locate(values, position)
            if dest.vout is None:  # the coinbase did not claim these fee sats: lost, as in ord
                self._place(ins_id, None, None, None)
            else:
                self._place(ins_id, coinbase.txid, dest.vout, dest.offset)

    def _apply_unindexed(self, tx: ParsedTx, height: int, pos: int, known: bool) -> int:
        if known:  # already confirmed in an earlier block: a duplicate txid (BIP-30)
            raise IndexConflict(tx.txid)
        coins = []
        for prev_txid, prev_vout in tx.outpoints():
            coin = self.coin(prev_txid, prev_vout)
            if coin is None or coin.spent_txid is not None:
                raise IndexConflict(tx.txid)
            coins.append(coin)
        fee = sum(c.value for c in coins) - sum(o.value for o in tx.outputs)
        self.apply_tx(tx, coins, fee, height, pos)
        return fee
