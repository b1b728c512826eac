"""The sandbox's regtest node: the public API the HTTP layer calls.

Every public method takes `lock` (the HTTP layer calls from a thread pool) and publishes its
ChainEvents once the change is committed.
"""

from __future__ import annotations

import io
import logging
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, TypeVar

from embit.ec import PrivateKey
from embit.transaction import Transaction

from app.sandbox.chain import catalog, esplora_views, ord_confirmed, ord_views, rune_entries
from app.sandbox.chain.addresses import script_for_address
from app.sandbox.chain.consensus import MAX_MONEY, MIN_RELAY_FEE_RATE
from app.sandbox.chain.engine import ChainEngine
from app.sandbox.chain.errors import InvalidRequest, StorageError
from app.sandbox.chain.events import ChainEvent, ChainLock, EventBus, SpentOutput
from app.sandbox.chain.inscribe_items import MAX_POSTAGE, NewItem, create_items
from app.sandbox.chain.kernel import Kernel
from app.sandbox.chain.keys import SandboxKeys
from app.sandbox.chain.rawtx import ParsedTx, parse_hex_tx, parse_tx
from app.sandbox.chain.recovery import reconcile
from app.sandbox.chain.rune_etch import create_runes as etch_or_send_runes
from app.sandbox.chain.store import Store
from app.sandbox.chain.traffic import add_traffic
from app.sandbox.chain.transfer import transfer_inscription
from app.sandbox.chain.wallet import Payment, SandboxWallet
from app.sandbox.clock import ServiceClock

log = logging.getLogger(__name__)
_T = TypeVar("_T")
Json = dict[str, Any]
OrdView = Literal["output", "inscription", "address"]

INITIAL_BLOCKS = 150  # 50 matured 50-BTC coinbase coins for the faucet from the start
MAX_BLOCKS_PER_CALL = 1000


def _int(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidRequest(f"{field} must be an integer from {low} to {high}", "INVALID_AMOUNT")
    return value


class Node:
    """A regtest chain validated by libbitcoinkernel, with a mempool and SQLite indexes.

    Errors: `InvalidRequest` (bad input), `NotFound`, `TxRejected`, `Conflict`,
    `InsufficientFunds`, `BlockRejected`, `StorageError` (all `ChainError`, see errors.py).
    """

    def __init__(self, data_dir: Path, kernel: Kernel, store: Store) -> None:
        self.data_dir = data_dir
        self._events = EventBus()
        self.lock = ChainLock(self._events)
        self._kernel = kernel
        self._store = store
        offset = int(store.get_meta("clock_offset_ms") or 0)
        self.clock = ServiceClock(offset, on_change=self._persist_clock)
        self._keys = SandboxKeys(store)
        payout = self._keys.script("miner", "p2wpkh")
        self._engine = ChainEngine(store, kernel, self.clock, payout)
        self._wallet = SandboxWallet(self._engine, self._keys)
        self._closed = False
        # The scenario switch of the `/ord` views (not persisted): False (the default) answers
        # like real ord, from the confirmed chain; True shows the mempool too.
        self._ord_indexes_mempool = False

    @classmethod
    def open(cls, data_dir: Path, *, network: str = "regtest") -> Node:
        """Create or resume the node in `data_dir` (SQLite in WAL mode + the kernel's `blocks/`
        and `chainstate/` in `kernel/`). A fresh directory gets 150 mined blocks and the demo
        data; a directory left by a crash is reconciled first (see recovery.py)."""
        if network != "regtest":
            raise InvalidRequest(
                f"only regtest is supported, not {network!r}", "UNSUPPORTED_NETWORK"
            )
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        kernel = Kernel(data_dir / "kernel")  # first: it holds the directory's lock
        try:
            store = Store.open(data_dir)
        except StorageError:
            kernel.close()
            raise
        try:
            node = cls(data_dir, kernel, store)
            reconcile(node._engine)
            node._first_start()
        except BaseException:
            kernel.close()
            store.close()
            raise
        return node

    def _first_start(self) -> None:
        if self._store.get_meta("initialized") == "1":
            return
        from app.sandbox.demo import seed_demo  # demo data uses this public API

        missing = INITIAL_BLOCKS - self._engine.tip.height
        if missing > 0:
            self.mine(missing)
        seed_demo(self)
        with self.lock:
            self._engine.checkpoint()
        with self._store.transaction():
            self._store.set_meta("initialized", "1")

    def close(self) -> None:
        """Flush and release the data directory. Idempotent."""
        with self.lock:
            if self._closed:
                return
            self._closed = True
            self._kernel.close()
            self._store.close()

    @contextmanager
    def _locked(self) -> Iterator[list[ChainEvent]]:
        events: list[ChainEvent] = []
        try:
            with self.lock:
                if self._closed:
                    raise StorageError("the node is closed", "NODE_CLOSED")
                yield events
        finally:
            # Also after a failure part-way (mine(5) failing at the 3rd block): what was
            # committed is announced, once the lock is free (ChainLock).
            if events:
                self.lock.publish(events)

    def _persist_clock(self, offset_ms: int) -> None:
        with self.lock, self._store.transaction():
            self._store.set_meta("clock_offset_ms", str(offset_ms))

    # -- chain ----------------------------------------------------------------------------

    @property
    def tip_height(self) -> int:
        with self.lock:
            return self._engine.tip.height

    @property
    def tip_hash(self) -> str:
        with self.lock:
            return self._engine.tip.tip_hash

    def mine(self, blocks: int = 1) -> int:
        """Mine `blocks` (1-1000) blocks, the first ones taking the mempool in fee-rate order
        (parents before children); returns the new tip height."""
        _int(blocks, "blocks", 1, MAX_BLOCKS_PER_CALL)
        with self._locked() as events:
            for _ in range(blocks):
                block = self._engine.mine_block()
                events.append(
                    ChainEvent(
                        "block",
                        self._engine.tip.height,
                        block_hash=block.hash,
                        txids=(block.coinbase.txid, *(tx.txid for tx in block.txs)),
                    )
                )
            return self._engine.tip.height

    def broadcast(self, raw_tx: bytes | str) -> str:
        """Accept a transaction (bytes or hex) into the mempool; returns its txid. Committed to
        disk before returning. Raises InvalidRequest (undecodable) or TxRejected."""
        if isinstance(raw_tx, str):
            tx = parse_hex_tx(raw_tx)
        elif isinstance(raw_tx, bytes | bytearray):
            tx = parse_tx(bytes(raw_tx))
        else:
            raise InvalidRequest("raw transaction must be bytes or hex text", "INVALID_HEX")
        with self._locked() as events:
            if tx.txid in self._engine.mempool:  # a re-broadcast: acknowledged, not announced
                return self._engine.accept(tx)
            return self._accepted(tx, self._engine.accept(tx), events)

    def _accepted(self, tx: ParsedTx, result: str, events: list[ChainEvent]) -> str:
        spent = []
        for txid, vout in tx.outpoints():
            coin = self._engine.indexer.coin(txid, vout)
            if coin is not None:  # it is: the transaction was just accepted spending it
                spent.append(SpentOutput(f"{txid}:{vout}", coin.script_pubkey))
        events.append(ChainEvent("tx", self._engine.tip.height, txid=tx.txid, spent=tuple(spent)))
        return result

    def faucet(self, address: str, sats: int) -> tuple[str, int]:
        """Pay `sats` to `address` from matured coinbase coins; returns (txid, vout). In mempool."""
        spk = script_for_address(address)
        _int(sats, "sats", 1, MAX_MONEY)
        with self._locked() as events:
            tx = self._wallet.pay([Payment(spk, sats)])
            self._accepted(tx, tx.txid, events)
            return tx.txid, 0

    def add_traffic(self, fee_rate: float, vbytes: int) -> list[str]:
        """Fill the mempool with about `vbytes` of the sandbox wallet's transactions paying
        `fee_rate` sat/vB (`traffic.add_traffic`); their txids, in the mempool."""
        with self._locked() as events:
            txs = add_traffic(self._wallet, self._engine.mempool, fee_rate, vbytes)
            for tx in txs:
                self._accepted(tx, tx.txid, events)
            return [tx.txid for tx in txs]

    def fee_estimates(self) -> dict[str, float]:
        """Esplora `GET /fee-estimates`: {"1": 1.0, ..., "25", "144", "504", "1008"} sat/vB."""
        with self._locked():
            return esplora_views.fee_estimates(self._engine.mempool, MIN_RELAY_FEE_RATE)

    def info(self) -> Json:
        with self._locked():
            return {
                "network": "regtest",
                "tipHeight": self._engine.tip.height,
                "tipHash": self._engine.tip.tip_hash,
                "mempoolSize": len(self._engine.mempool),
                "minRelayFeeRate": MIN_RELAY_FEE_RATE,
                "feeEstimates": esplora_views.fee_estimates(
                    self._engine.mempool, MIN_RELAY_FEE_RATE
                ),
                "clockMs": self.clock.now_ms(),
                "clockOffsetMs": self.clock.offset_ms,
                "ordIndexesMempool": self._ord_indexes_mempool,
            }

    def subscribe(self, callback: Callable[[ChainEvent], None]) -> None:
        """`callback` runs after each mempool acceptance and each connected block (outside
        the lock; exceptions are logged, never raised)."""
        self._events.subscribe(callback)

    def unsubscribe(self, callback: Callable[[ChainEvent], None]) -> None:
        self._events.unsubscribe(callback)

    # -- Esplora views --------------------------------------------------------------------

    def address_stats(self, address: str) -> Json:
        """Esplora `GET /address/{a}`: address, chain_stats, mempool_stats."""
        spk = script_for_address(address)
        with self._locked():
            return esplora_views.address_stats(self._store.conn, address, spk)

    def address_utxos(self, address: str) -> list[Json]:
        """Esplora `GET /address/{a}/utxo`: [{txid, vout, status, value}], mempool included,
        outputs spent in the mempool excluded."""
        spk = script_for_address(address)
        with self._locked():
            return esplora_views.address_utxos(self._store.conn, spk)

    def tx_json(self, txid: str) -> Json | None:
        """Esplora `GET /tx/{txid}`, or None when unknown."""
        with self._locked():
            return esplora_views.tx_json(self._store.conn, txid)

    def tx_hex(self, txid: str) -> str | None:
        with self._locked():
            return esplora_views.tx_hex(self._store.conn, txid)

    def tx_status(self, txid: str) -> Json | None:
        """{confirmed, block_height, block_hash, block_time} or {confirmed: False};
        None if unknown."""
        with self._locked():
            return esplora_views.tx_status(self._store.conn, txid)

    def outspend(self, txid: str, vout: int) -> Json:
        """Esplora `GET /tx/{txid}/outspend/{vout}`: {spent: False} or {spent, txid, vin,
        status}, mempool spends included; an unknown output is unspent, as in Esplora."""
        with self._locked():
            return esplora_views.outspend(self._store.conn, txid, vout)

    def block_json(self, block_hash: str) -> Json | None:
        """Esplora `GET /block/{hash}` of a block of the active chain, or None when unknown."""
        esplora_views.check_block_hash(block_hash)
        with self._locked():
            tip = self._engine.tip
            row = self._store.conn.execute(
                "SELECT height, raw FROM blocks WHERE hash = ?", (block_hash,)
            ).fetchone()
            if row is not None:
                height, raw = int(row[0]), bytes(row[1])
            elif block_hash == tip.hashes[0]:
                height, raw = 0, self._engine.kernel.read_block(0)
            else:
                return None
            if height > tip.height or tip.hashes[height] != block_hash:
                return None
            return esplora_views.block_json(raw, height, tip.median_time_past(height))

    # -- ord views ------------------------------------------------------------------------

    def ord_output(self, outpoint: str) -> Json | None:
        """ord `GET /output/{txid:vout}`; None when the output does not exist."""
        with self._locked():
            return ord_views.output(self._store.conn, outpoint)

    def ord_served(self, view: OrdView, key: str) -> Json | None:
        """What `/ord/<view>/<key>` answers: the confirmed state, as real ord (`ord_confirmed`),
        or the current one (`ord_views`, which the market reads through `ord_output`,
        `ord_inscription`, `ord_address`) while `set_ord_indexes_mempool(True)` is in force."""
        with self._locked():
            views = ord_views if self._ord_indexes_mempool else ord_confirmed
            conn = self._store.conn
            if view == "address":
                found: Json | None = views.address(conn, key, script_for_address(key))
            else:
                found = (views.output if view == "output" else views.inscription)(conn, key)
            return found

    @property
    def ord_indexes_mempool(self) -> bool:
        with self.lock:
            return self._ord_indexes_mempool

    def set_ord_indexes_mempool(self, indexed: bool) -> bool:
        """Whether the `/ord` views show the mempool (unlike real ord) or only the confirmed
        chain (the default). Lasts until changed or the node restarts."""
        with self._locked():
            self._ord_indexes_mempool = bool(indexed)
            return self._ord_indexes_mempool

    def ord_inscription(self, inscription_id: str) -> Json | None:
        """ord `GET /inscription/{id}` plus collection, traits and tap_transfer; None if unknown."""
        with self._locked():
            return ord_views.inscription(self._store.conn, inscription_id)

    def ord_address(self, address: str) -> Json:
        """ord `GET /address/{a}`: outputs, inscriptions, sat_balance, runes_balances."""
        spk = script_for_address(address)
        with self._locked():
            return ord_views.address(self._store.conn, address, spk)

    def ord_rune(self, query: str) -> tuple[str, Json] | None:
        """ord's `/rune/<query>` by name, id `<block>:<tx>` or number: (id, entry) once a
        block holds its etching, else None (InvalidRequest for a malformed name)."""
        with self._locked():
            letters = rune_entries.queried(self._store.conn, query)
            return None if letters is None else rune_entries.entry(self._store.conn, letters)

    def ord_rune_api(self, query: str) -> Json | None:
        """ord's `/rune/<query>` JSON (`api::Rune`: entry, id, mintable, parent), or None."""
        with self._locked():
            letters = rune_entries.queried(self._store.conn, query)
            return None if letters is None else rune_entries.api_rune(self._store.conn, letters)

    def ord_rune_mintable(self, rune_id: str) -> bool:
        """ord's `mintable` for `/rune`: whether a mint of the rune etched at `<block>:<tx>`
        would count in the next block (its terms, cap and windows)."""
        with self._locked():
            letters = rune_entries.rune_with_id(self._store.conn, rune_id)
            return letters is not None and rune_entries.is_mintable(self._store.conn, letters)

    def ord_runes_page(self, offset: int, limit: int) -> tuple[list[tuple[str, Json]], bool]:
        """ord's `/runes`: (id, entry) of etched runes, the newest first; whether more follow."""
        with self._locked():
            return rune_entries.page(self._store.conn, offset, limit)

    def read_index(self, read: Callable[[sqlite3.Connection], _T]) -> _T:
        """`read(conn)` under the node's lock: a read-only view of the index (holdings.py's,
        for the market's stats and wallet contents). Never write through it."""
        with self._locked():
            return read(self._store.conn)

    # -- scenario API ---------------------------------------------------------------------

    def create_collection(
        self, slug: str, name: str, traits: Sequence[Mapping[str, Any]] = ()
    ) -> Json:
        with self._locked(), self._store.transaction() as conn:
            return catalog.create_collection(conn, slug, name, traits, self.clock.now_ms())

    def collections(self) -> list[Json]:
        with self._locked():
            return catalog.list_collections(self._store.conn)

    def collection(self, slug: str) -> Json | None:
        with self._locked():
            return catalog.collection_json(self._store.conn, slug)

    def collection_trait_counts(self, slug: str) -> dict[tuple[str, str], int]:
        """(trait_type, value) -> how many of the collection's inscriptions carry it."""
        with self._locked():
            return catalog.trait_value_counts(self._store.conn, slug)

    def rune(self, name: str) -> Json | None:
        """The etched rune `name` (with or without spacers): {rune, spaced, symbol,
        divisibility, number}, or None. Raises InvalidRequest for a malformed name."""
        letters, _ = catalog.normalize_rune(name)
        with self._locked():
            return rune_entries.market_rune(self._store.conn, letters)

    def runes_page(self, offset: int, limit: int) -> tuple[list[Json], bool]:
        """Etched runes, the newest first (ord's `/runes` order): `limit` from `offset`, and
        whether more follow. Each as `rune()` gives it."""
        with self._locked():
            return rune_entries.market_page(self._store.conn, offset, limit)

    def create_inscription(
        self,
        address: str,
        collection_slug: str | None = None,
        attributes: Sequence[Mapping[str, Any]] | Mapping[str, str] | None = None,
        postage: int = 10_000,
        tap_transfer: bool = False,
        content_type: str | None = None,
        body: bytes | None = None,
    ) -> Json:
        """An inscription by commit and reveal with ord's envelope (inscribe_items.py), on the
        first sat of the reveal's `postage`-sat output to `address` (both transactions in the
        mempool). Returns {inscriptionId, number, outpoint}."""
        item = NewItem(
            address, postage, collection_slug, attributes, tap_transfer, content_type, body
        )
        return self.create_inscriptions([item])[0]

    def create_inscriptions(self, items: Sequence[NewItem]) -> list[Json]:
        """Several inscriptions in one commit and one reveal (ord's batch), each on its own
        output of the reveal; as `create_inscription` each."""
        for item in items:
            _int(item.postage, "postage", 1, MAX_POSTAGE)
        with self._locked():
            return create_items(self, items, self._store.transaction)

    def create_runes(self, address: str, rune: str, amount: int) -> Json:
        """`amount` of `rune` on a new 10,000-sat output of `address`, by runestones
        (rune_etch.py). A new rune is etched: its commit mined with 4 blocks after it (ord
        etches at 6 confirmations of the commit: 5 blocks), its reveal left in the mempool;
        an etched one is sent from the sandbox's reserve. Returns {"outpoint"}; a name below
        ord's minimum for the reveal's block is InvalidRequest RUNE_NAME_LOCKED."""
        spk = script_for_address(address)
        return {"outpoint": etch_or_send_runes(self, self._wallet, spk, rune, amount)}

    def transfer_inscription(self, inscription_id: str, to_address: str) -> str:
        """Move an inscription held by a sandbox key to `to_address`; returns the txid."""
        ord_views.check_inscription_id(inscription_id)
        spk = script_for_address(to_address)
        with self._locked() as events:
            tx = transfer_inscription(self._wallet, inscription_id, spk)
            return self._accepted(tx, tx.txid, events)

    def sandbox_address(self, label: str, kind: str = "p2tr") -> str:
        """Address of a sandbox-held key ("p2tr" or "p2wpkh"), stable per (label, kind)."""
        with self._locked():
            return self._keys.address(label, kind)

    def sandbox_private_key(self, label: str, kind: str = "p2tr") -> PrivateKey:
        """The private key behind `sandbox_address(label, kind)`, for the market's sandbox-held
        participants, who sign as a user's wallet does (listing PSBTs with ALL|ANYONECANPAY,
        bid messages, cancel challenges). Its repr shows the secret: wrap it at once in a
        type whose repr does not (app.wallet's RoleKey) and never log it."""
        with self._locked():
            return self._keys.private_key(label, kind)

    def sign_with_sandbox_keys(
        self, raw_tx: bytes, spent: Sequence[tuple[int, bytes]] | None = None
    ) -> bytes:
        """Sign every input whose spent output belongs to a sandbox key (SIGHASH_DEFAULT for
        P2TR, SIGHASH_ALL for P2WPKH); other inputs are left untouched. `spent` gives
        (value, scriptPubKey) per input; by default they are looked up in the index."""
        tx = parse_tx(bytes(raw_tx))
        with self._locked():
            if spent is None:
                spent = []
                for index, (txid, vout) in enumerate(tx.outpoints()):
                    coin = self._engine.indexer.coin(txid, vout)
                    if coin is None:
                        raise InvalidRequest(
                            f"input {index} spends an unknown output", "MISSING_INPUTS"
                        )
                    spent.append((coin.value, coin.script_pubkey))
            etx = Transaction.read_from(io.BytesIO(tx.raw))
            self._keys.sign(etx, spent)
            return bytes(etx.serialize())

    def rebuild_index(self) -> int:
        """Recreate the indexes from the stored chain; returns how many unconfirmed
        transactions were evicted as no longer valid."""
        with self._locked():
            return len(self._engine.rebuild_index())
