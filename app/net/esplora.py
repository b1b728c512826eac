"""Client of an Esplora HTTP API (Blockstream's esplora, mempool.space, the sandbox's /esplora).

Amounts are satoshis. Fee rates are sat/vB.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from app.net.config import ServiceConfig
from app.net.errors import BroadcastRejected, NetError, NoFeeEstimates, NotFound
from app.net.fee_estimates import FeeEstimates, parse_fee_estimates
from app.net.fields import Reader, as_int, as_str, is_int, loads_json
from app.net.http import HttpClient, Timeouts, segment
from app.net.rate_limit import HostPacer, RateLimits

_TXID = re.compile(r"[0-9a-fA-F]{64}")

__all__ = [
    "Balance",
    "BlockInfo",
    "EsploraClient",
    "FeeEstimates",
    "Outspend",
    "TxStatus",
    "Utxo",
]


@dataclass(frozen=True)
class Balance:
    """Confirmed = chain funded - spent; unconfirmed = mempool funded - spent (may be < 0)."""

    confirmed: int
    unconfirmed: int

    @property
    def total(self) -> int:
        return self.confirmed + self.unconfirmed


@dataclass(frozen=True)
class Utxo:
    txid: str
    vout: int
    value: int
    confirmed: bool
    height: int | None = None

    @property
    def outpoint(self) -> str:
        return f"{self.txid}:{self.vout}"


@dataclass(frozen=True)
class TxStatus:
    confirmed: bool
    block_height: int | None = None
    block_hash: str | None = None
    block_time: int | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class Outspend:
    """Whether an output is spent (a mempool spend counts), and by which transaction input.

    Esplora only looks the spend up: an output it does not know (an unknown transaction, a
    vout past its outputs) is reported unspent too. ``confirmed`` is None when the server
    gives no status for the spending transaction."""

    spent: bool
    txid: str | None = None
    vin: int | None = None
    confirmed: bool | None = None


@dataclass(frozen=True)
class BlockInfo:
    """A block's hash, height, header time and median time past (BIP-113, the median of the
    header times of the last 11 blocks up to and including it), all times in Unix seconds."""

    hash: str
    height: int
    timestamp: int
    median_time: int


class EsploraClient(HttpClient):
    def __init__(
        self,
        base_url: str,
        *,
        timeouts: Timeouts | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        pacer: HostPacer | None = None,
    ) -> None:
        # No API key: Esplora instances are public, and the marketplace key must not leak here.
        super().__init__(
            base_url, service="esplora", timeouts=timeouts, transport=transport, pacer=pacer
        )

    @classmethod
    def from_config(
        cls,
        config: ServiceConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        rate_limits: RateLimits | None = None,
    ) -> EsploraClient:
        pacer = None if rate_limits is None else rate_limits.pacer(config.esplora_url)
        return cls(config.esplora_url, timeouts=config.timeouts, transport=transport, pacer=pacer)

    async def address_balance(self, address: str) -> Balance:
        path = f"/address/{segment(address)}"
        r = Reader(self.service, path)
        body = r.obj(await self.get_json(path))
        return Balance(
            confirmed=self._stats_net(r, body, "chain_stats"),
            unconfirmed=self._stats_net(r, body, "mempool_stats"),
        )

    async def address_utxos(self, address: str) -> list[Utxo]:
        path = f"/address/{segment(address)}/utxo"
        r = Reader(self.service, path)
        body = await self.get_json(path)
        if not isinstance(body, list):
            raise r.error(f"expected a list of UTXOs, got {type(body).__name__}")
        return [self._utxo(r, item, i) for i, item in enumerate(body)]

    async def tx_hex(self, txid: str) -> str:
        path = f"/tx/{segment(txid)}/hex"
        text = self.text_or_raise(await self.send("GET", path))
        try:
            bytes.fromhex(text)
        except ValueError:
            raise Reader(self.service, path).error("the transaction is not hex") from None
        return text.lower()

    async def tx_status(self, txid: str) -> TxStatus:
        path = f"/tx/{segment(txid)}/status"
        r = Reader(self.service, path)
        body = r.obj(await self.get_json(path))
        confirmed = body.get("confirmed")
        if not isinstance(confirmed, bool):
            raise r.error("missing field confirmed", "confirmed")
        return TxStatus(
            confirmed=confirmed,
            block_height=as_int(body.get("block_height")),
            block_hash=as_str(body.get("block_hash")),
            block_time=as_int(body.get("block_time")),
            raw=body,
        )

    async def outspend(self, txid: str, vout: int) -> Outspend:
        """Esplora's ``/tx/:txid/outspend/:vout``: ``{"spent": false}`` or ``{"spent": true,
        "txid", "vin", "status"}``."""
        if not is_int(vout) or not 0 <= vout <= 0xFFFFFFFF:
            raise ValueError(f"vout must be 0 to 2^32 - 1, not {vout!r}")
        path = f"/tx/{segment(txid)}/outspend/{vout}"
        r = Reader(self.service, path)
        body = r.obj(await self.get_json(path))
        spent = body.get("spent")
        if not isinstance(spent, bool):
            raise r.error("missing field spent (a boolean)", "spent")
        if not spent:
            return Outspend(spent=False)
        spender, vin, status = body.get("txid"), body.get("vin"), body.get("status")
        if not isinstance(spender, str) or not _TXID.fullmatch(spender):
            raise r.error("a spent output without a valid spending txid", "txid")
        if not is_int(vin) or vin < 0:
            raise r.error("a spent output without the spending input's index", "vin")
        confirmed = None
        if status is not None:
            confirmed = r.obj(status, "status").get("confirmed")
            if not isinstance(confirmed, bool):
                raise r.error("the spending transaction's status lacks confirmed", "status")
        return Outspend(spent=True, txid=spender.lower(), vin=int(vin), confirmed=confirmed)

    async def block(self, block_hash: str) -> BlockInfo:
        """Esplora's ``/block/:hash`` (hash, height, timestamp, mediantime of it)."""
        path = f"/block/{segment(block_hash)}"
        r = Reader(self.service, path)
        body = r.obj(await self.get_json(path))
        block_id = body.get("id")
        if not isinstance(block_id, str) or not _TXID.fullmatch(block_id):
            raise r.error("missing or malformed field id (the block hash)", "id")
        if block_id.lower() != block_hash.lower():
            raise r.error(f"asked for block {block_hash}, got block {block_id}", "id")
        numbers = {}
        for name in ("height", "timestamp", "mediantime"):
            value = body.get(name)
            if not is_int(value) or value < 0:
                raise r.error(f"missing or malformed field {name} (an integer)", name)
            numbers[name] = int(value)
        return BlockInfo(
            hash=block_id.lower(),
            height=numbers["height"],
            timestamp=numbers["timestamp"],
            median_time=numbers["mediantime"],
        )

    async def tip(self) -> BlockInfo:
        """The chain tip's block: ``/blocks/tip/hash``, then that block (the tip may have moved
        on in between; the answer is the block of the hash read)."""
        return await self.block(await self.tip_hash())

    async def fee_estimates(self) -> FeeEstimates:
        """Esplora's ``/fee-estimates`` ({"1": 87.9, ...}); if this server lacks it,
        mempool.space's ``/v1/fees/recommended`` ({"fastestFee": ...}). Raises
        ``NoFeeEstimates`` when the server has no estimate (e.g. a fresh regtest chain)."""
        path = "/fee-estimates"
        try:
            body = await self.get_json(path)
        except NotFound:
            path = "/v1/fees/recommended"
            body = await self.get_json(path)
        estimates = parse_fee_estimates(Reader(self.service, path), body)
        if estimates is None:
            raise NoFeeEstimates(self.service, path, "the server returned no fee estimate")
        return estimates

    async def broadcast(self, raw_tx_hex: str) -> str:
        """POST the raw transaction hex; return its txid. A refusal by the node becomes
        ``BroadcastRejected`` carrying the node's reason."""
        path = "/tx"
        response = await self.send("POST", path, content=raw_tx_hex, content_type="text/plain")
        txid = self.text_or_raise(response, self._broadcast_error)
        if not _TXID.fullmatch(txid):
            raise Reader(self.service, path).error(f"expected a txid, got {txid[:80]!r}", "txid")
        return txid.lower()

    async def tip_height(self) -> int:
        path = "/blocks/tip/height"
        text = self.text_or_raise(await self.send("GET", path))
        height = as_int(text)
        if height is None or height < 0:
            raise Reader(self.service, path).error(f"expected a block height, got {text[:40]!r}")
        return height

    async def tip_hash(self) -> str:
        path = "/blocks/tip/hash"
        text = self.text_or_raise(await self.send("GET", path))
        if not _TXID.fullmatch(text):
            raise Reader(self.service, path).error(f"expected a block hash, got {text[:80]!r}")
        return text.lower()

    # --- helpers ----------------------------------------------------------------------------

    def _broadcast_error(self, response: httpx.Response) -> NetError:
        if response.status_code == 400:
            return BroadcastRejected(self.service, 400, _node_reason(response.text))
        return self.http_error(response)

    @staticmethod
    def _stats_net(r: Reader, body: Mapping[str, Any], name: str) -> int:
        stats = body.get(name)
        if not isinstance(stats, Mapping):
            raise r.error(f"missing field {name}", name)
        funded, spent = stats.get("funded_txo_sum"), stats.get("spent_txo_sum")
        if not is_int(funded) or not is_int(spent):
            raise r.error(f"{name} lacks funded_txo_sum/spent_txo_sum", f"{name}.funded_txo_sum")
        return int(funded) - int(spent)

    @staticmethod
    def _utxo(r: Reader, item: Any, index: int) -> Utxo:
        entry = r.obj(item, f"[{index}]")
        txid, vout, value = entry.get("txid"), entry.get("vout"), entry.get("value")
        status = entry.get("status")
        if not isinstance(txid, str) or not _TXID.fullmatch(txid):
            raise r.error(f"UTXO [{index}] has no valid txid", f"[{index}].txid")
        if not is_int(vout) or not is_int(value):
            raise r.error(f"UTXO [{index}] lacks an integer vout/value", f"[{index}].value")
        confirmed = isinstance(status, Mapping) and status.get("confirmed") is True
        height = as_int(status.get("block_height")) if isinstance(status, Mapping) else None
        return Utxo(txid.lower(), int(vout), int(value), confirmed, height if confirmed else None)


def _node_reason(text: str) -> str:
    """The node's message out of Esplora's 400 body, e.g.
    ``sendrawtransaction RPC error: {"code":-26,"message":"min relay fee not met"}``."""
    text = text.strip()
    start = text.find("{")
    if start != -1:
        try:
            inner = loads_json(text[start:])
        except ValueError:
            inner = None
        if isinstance(inner, Mapping) and isinstance(inner.get("message"), str):
            return str(inner["message"])[:500]
    return text[:500] or "rejected without a reason"
