"""Block template: highest fee rate first, parents always before their children."""

from __future__ import annotations

from app.sandbox.chain.mempool import Mempool, MempoolEntry
from app.sandbox.chain.rawtx import parse_tx
from app.sandbox.chain.spend import Utxo
from tests.sandbox.chain.helpers import KeyPair

KEY = KeyPair.make("select")


def _entry(utxo: Utxo, fee: int, seq: int, parents: set[str] = frozenset()) -> MempoolEntry:  # type: ignore[assignment]
    tx = parse_tx(KEY.spend([utxo], [(KEY.script_pubkey, utxo.value - fee)]))
    return MempoolEntry(tx, fee, seq, set(parents))


def test_parents_precede_children_and_fee_rate_orders_the_rest() -> None:
    pool = Mempool()
    parent = _entry(Utxo("01" * 32, 0, 100_000, KEY.script_pubkey), 200, 1)
    child = _entry(Utxo(parent.tx.txid, 0, 99_800, KEY.script_pubkey), 50_000, 2, {parent.tx.txid})
    middle = _entry(Utxo("02" * 32, 0, 100_000, KEY.script_pubkey), 5_000, 3)
    low = _entry(Utxo("03" * 32, 0, 100_000, KEY.script_pubkey), 150, 4)
    for entry in (child, parent, middle, low):
        pool.add(entry)
    order = [tx.txid for tx in pool.select(4_000_000)]
    assert order == [middle.tx.txid, parent.tx.txid, child.tx.txid, low.tx.txid]


def test_weight_budget_leaves_the_rest_for_later() -> None:
    pool = Mempool()
    entries = [
        _entry(Utxo(f"{i:064x}", 0, 100_000, KEY.script_pubkey), 1_000 + i, i) for i in range(5)
    ]
    for entry in entries:
        pool.add(entry)
    weight = entries[0].tx.weight
    chosen = pool.select(weight * 2 + 1)
    assert [tx.txid for tx in chosen] == [entries[4].tx.txid, entries[3].tx.txid]


def test_fee_rates_at_depth() -> None:
    pool = Mempool()
    a = _entry(Utxo("0a" * 32, 0, 100_000, KEY.script_pubkey), 10_000, 1)
    b = _entry(Utxo("0b" * 32, 0, 100_000, KEY.script_pubkey), 1_000, 2)
    pool.add(a)
    pool.add(b)
    assert pool.fee_rates_at_depths([1, a.tx.vsize + 1, 10**9]) == [a.fee_rate, b.fee_rate, None]
