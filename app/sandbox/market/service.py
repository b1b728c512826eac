"""`Market`: the marketplace's state and the things every market module shares.

- `store`: its SQLite tables (`store.py`), in the node's data directory.
- `lock`: the market lock. Every check-then-write (bid placement against the pools, cancels,
  fills, withdrawals, the balance sweep) runs under it, so 20 concurrent placements never
  over-commit a pool and 50 concurrent cancels of one bid count it once. Slow work that needs
  no state (signature checks) runs before taking it.
- the service key: one random secp256k1 key per data directory, the second key of every
  bidding wallet. It never leaves this object except as a `SigningKey` (whose repr is public).
- `maker_fee`, `now_ms()` (the node's service clock), `balance(address)`, and
  `keyed_address(...)`: the address a bid is listed under and cancelled by
  (`--bids-keyed-by`, read whenever bids are listed or cancelled, so it applies to every
  bid, whenever placed).
- Extension points for the other market modules: `bid_listers` (more entries for
  `GET /address/bids`), `external_bids` (bids kept in other tables that `POST /cancel` can
  cancel) and `inscription_bid_placer` (the single-inscription form of `POST /bid/place`).

The market watches the chain: when a transaction spends from a bidding wallet (a fill, a
withdrawal, any spend), the bids the lower balance no longer covers are cancelled
(`sweep.cancel_uncovered`).
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from embit.ec import PrivateKey

from app.core.pools import MakerFee
from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.events import ChainEvent, SpentOutput
from app.sandbox.chain.node import Node
from app.sandbox.http.settings import SandboxSettings, ServiceRunestones
from app.sandbox.market.store import MarketStore
from app.wallet.addresses import Network
from app.wallet.psbt_signer import SigningKey

log = logging.getLogger(__name__)

Json = dict[str, Any]
# (address bids are keyed by, now_ms) -> extra open-bid entries for GET /address/bids.
BidLister = Callable[[str, int], list[Json]]
# The single-inscription form of POST /bid/place: decoded body -> the `data` object.
InscriptionBidPlacer = Callable[[Mapping[str, Any]], Json]


class ExternalBids(Protocol):
    """Bids another module keeps (single-inscription bids), cancellable by `POST /cancel`.
    Both methods are called under the market lock."""

    def makers(self, ids: Sequence[str]) -> dict[str, str]:
        """Maker of each of `ids` this module knows, open or not: the address the bid is
        keyed by (`Market.keyed_address`)."""
        ...

    def cancel(self, ids: Sequence[str], now_ms: int) -> list[str]:
        """End those of `ids` that are still open; return the ids this call ended."""
        ...


NETWORK = Network.REGTEST
_SERVICE_SECRET_META = "service_secret"


class Market:
    """The sandbox marketplace of one node. Thread-safe; create one per node."""

    def __init__(self, node: Node, settings: SandboxSettings, store: MarketStore) -> None:
        self.node = node
        self.settings = settings
        self.store = store
        self.lock = threading.RLock()
        self.network = NETWORK
        self.maker_fee = MakerFee(settings.maker_fee_bps, settings.maker_fee_sats)
        # `--service-runestones`, changed while running by the scenario API.
        self.runestones: ServiceRunestones = settings.service_runestones
        self._service_key = _load_service_key(store)
        self.service_pubkey: bytes = bytes(self._service_key.get_public_key().sec())
        self.bid_listers: list[BidLister] = []
        self.inscription_bid_placer: InscriptionBidPlacer | None = None
        self.external_bids: list[ExternalBids] = []
        # Bidding-wallet address -> wallet id, for the chain watcher (filled by wallets.py).
        self.wallet_ids_by_address: dict[str, int] = {}
        self._closed = False
        self._chain_listeners: list[Callable[[ChainEvent], None]] = []
        self.watch_chain(self._on_chain_event)

    @classmethod
    def open(cls, node: Node, settings: SandboxSettings) -> Market:
        from app.sandbox.market.wallets import load_wallet_addresses

        market = cls(node, settings, MarketStore.open(node.data_dir))
        load_wallet_addresses(market)
        return market

    def __repr__(self) -> str:
        return f"<Market {self.store.path} service_pubkey={self.service_pubkey.hex()}>"

    def close(self) -> None:
        """Stop watching the chain and close the database. Idempotent."""
        with self.lock:
            if self._closed:
                return
            self._closed = True
            for listener in self._chain_listeners:
                self.node.unsubscribe(listener)
            self.store.close()

    def watch_chain(self, listener: Callable[[ChainEvent], None]) -> None:
        """Follow the node's events until `close()`."""
        self._chain_listeners.append(listener)
        self.node.subscribe(listener)

    def watch_chain_state(
        self, on_tx: Callable[[ChainEvent], object], on_blocks: Callable[[], object]
    ) -> None:
        """`on_tx` for each mempool acceptance; `on_blocks` (a re-check of state) once per batch
        of blocks, after the newest: `mine(1000)` announces 1,000 blocks at once, and one
        re-check sees everything they did."""

        def listener(event: ChainEvent) -> None:
            if event.kind == "tx":
                on_tx(event)
            elif event.height >= self.node.tip_height:
                on_blocks()

        self.watch_chain(listener)

    # -- shared helpers -----------------------------------------------------------------

    def now_ms(self) -> int:
        return self.node.clock.now_ms()

    @property
    def service_xonly(self) -> bytes:
        return self.service_pubkey[1:33]

    def service_signing_key(self) -> SigningKey:
        """The service key, ready for `app.wallet.psbt_signer.sign_psbt`."""
        return SigningKey(self._service_key)

    def balance(self, address: str) -> int:
        """Confirmed plus unconfirmed sats of `address` (what the spec counts as balance)."""
        stats = self.node.address_stats(address)
        chain, mempool = stats["chain_stats"], stats["mempool_stats"]
        return int(
            chain["funded_txo_sum"]
            - chain["spent_txo_sum"]
            + mempool["funded_txo_sum"]
            - mempool["spent_txo_sum"]
        )

    @property
    def bids_keyed_by_payment(self) -> bool:
        return self.settings.bids_keyed_by == "payment"

    def keyed_address(self, ordinals_address: str, payment_address: str) -> str:
        """The address a bid of this (ordinals, payment) pair is listed under and cancelled
        by: the ordinals address, or the payment address with `--bids-keyed-by payment`."""
        return payment_address if self.bids_keyed_by_payment else ordinals_address

    def info(self) -> Json:
        """What `GET /sandbox/info` adds, so a client's pre-flight uses the same numbers."""
        return {
            "makerFeeSats": self.settings.maker_fee_sats,
            "makerFeeBps": self.settings.maker_fee_bps,
            "biddingWalletKind": self.settings.bidding_wallet,
            "listingEscrow": self.settings.listing_escrow,
            "bidsKeyedBy": self.settings.bids_keyed_by,
            "serviceRunestones": self.runestones,
            "rateLimit": None
            if (limit := self.settings.rate_limit) is None
            else {
                "perSecond": limit.per_second,
                "burst": limit.burst,
            },
            "servicePublicKey": self.service_pubkey.hex(),
        }

    # -- chain watcher ------------------------------------------------------------------

    def _on_chain_event(self, event: ChainEvent) -> None:
        if event.kind != "tx" or event.txid is None or self._closed:
            return
        from app.sandbox.market.sweep import cancel_uncovered

        spent_from = self._bidding_wallets_spent_by(event.spent)
        for wallet_id in spent_from:
            cancel_uncovered(self, wallet_id, reason="balance")

    def _bidding_wallets_spent_by(self, spent: Sequence[SpentOutput]) -> set[int]:
        if not self.wallet_ids_by_address:
            return set()
        found = set()
        for output in spent:
            address = address_for_script(output.script_pubkey) or ""
            wallet_id = self.wallet_ids_by_address.get(address)
            if wallet_id is not None:
                found.add(wallet_id)
        return found


def _load_service_key(store: MarketStore) -> PrivateKey:
    """The service key of this data directory: random on first start, then kept (never logged)."""
    secret_hex = store.get_meta(_SERVICE_SECRET_META)
    if secret_hex is None:
        while True:
            candidate = secrets.token_bytes(32)
            try:
                PrivateKey(candidate)
            except Exception:  # outside the curve order: astronomically rare, draw again
                continue
            break
        secret_hex = candidate.hex()
        store.set_meta(_SERVICE_SECRET_META, secret_hex)
    return PrivateKey(bytes.fromhex(secret_hex))
