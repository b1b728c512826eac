"""The in-memory view of unconfirmed transactions (their effects live in the SQLite index) and
block template selection."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.sandbox.chain.rawtx import ParsedTx


@dataclass
class MempoolEntry:
    tx: ParsedTx
    fee: int
    seq: int
    parents: set[str] = field(default_factory=set)  # unconfirmed parents' txids

    @property
    def fee_rate(self) -> float:
        return self.fee / self.tx.vsize


class Mempool:
    def __init__(self) -> None:
        self._entries: dict[str, MempoolEntry] = {}

    def __contains__(self, txid: object) -> bool:
        return txid in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, txid: str) -> MempoolEntry | None:
        return self._entries.get(txid)

    def add(self, entry: MempoolEntry) -> None:
        self._entries[entry.tx.txid] = entry

    def remove(self, txids: Iterable[str]) -> None:
        txids = set(txids)
        for txid in txids:
            self._entries.pop(txid, None)
        for entry in self._entries.values():
            entry.parents.difference_update(txids)

    def clear(self) -> None:
        self._entries.clear()

    def vsize(self) -> int:
        """The virtual size of every transaction waiting."""
        return sum(e.tx.vsize for e in self._entries.values())

    def entries(self) -> list[MempoolEntry]:
        return list(self._entries.values())

    def select(self, max_weight: int) -> list[ParsedTx]:
        """Transactions for the next block: highest fee rate first among those whose
        unconfirmed parents are already in (so parents always precede children), until the
        weight budget is used. A child never pulls a low-fee parent in (no CPFP packaging)."""
        children: dict[str, list[str]] = {}
        waiting: dict[str, int] = {}
        ready: list[tuple[float, int, str]] = []
        for txid, entry in self._entries.items():
            waiting[txid] = len(entry.parents)
            for parent in entry.parents:
                children.setdefault(parent, []).append(txid)
            if not entry.parents:
                heapq.heappush(ready, (-entry.fee_rate, entry.seq, txid))
        chosen: list[ParsedTx] = []
        weight = 0
        while ready:
            _, _, txid = heapq.heappop(ready)
            entry = self._entries[txid]
            if weight + entry.tx.weight > max_weight:
                continue  # its descendants stay out too: they never become ready
            chosen.append(entry.tx)
            weight += entry.tx.weight
            for child in children.get(txid, ()):
                waiting[child] -= 1
                if waiting[child] == 0:
                    child_entry = self._entries[child]
                    heapq.heappush(ready, (-child_entry.fee_rate, child_entry.seq, child))
        return chosen

    def fee_rates_at_depths(self, depths: list[int]) -> list[float | None]:
        """For each depth in vbytes: the fee rate of the transaction sitting that deep in the
        mempool (highest fee rates first), or None if the mempool is shallower."""
        ranked = sorted(self._entries.values(), key=lambda e: e.fee_rate, reverse=True)
        results: list[float | None] = []
        for wanted in depths:
            depth, rate = 0, None
            for entry in ranked:
                depth += entry.tx.vsize
                if depth >= wanted:
                    rate = entry.fee_rate
                    break
            results.append(rate)
        return results
