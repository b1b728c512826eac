"""The sandbox's scenario calls that change its chain and clock (`/sandbox/...`, for QA, tests
and demo mode; app/sandbox/http/routes_scenario.py and routes_scenario_inscribe.py): faucet,
mine, clock, collections, inscriptions, runes, moving an inscription, ord's view of the
mempool, the address of a sandbox-held key. `SandboxClient` (app/net/sandbox.py) has them; the
market's other participants are in sandbox_market.py.

Requests carry exactly the routes' fields (schemas_scenario.py); the answers are read with a
`Reader`, strictly: a scenario that got an answer it cannot read must stop there, not guess.
A refusal is the `HttpError` of `HttpClient.http_error` (status, errorCode, the sandbox's
message).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from app.net.fields import Reader
from app.net.http import HttpClient, segment
from app.net.marketplace_catalog import CollectionInfo

FAUCET_PATH = "/sandbox/faucet"
MINE_PATH = "/sandbox/mine"
CLOCK_PATH = "/sandbox/clock"
COLLECTIONS_PATH = "/sandbox/collections"
INSCRIPTIONS_PATH = "/sandbox/inscriptions"
INSCRIBE_PATH = "/sandbox/inscribe"
RUNES_PATH = "/sandbox/runes"
TRANSFER_PATH = "/sandbox/transfer"
ORD_MEMPOOL_PATH = "/sandbox/ord/mempool"
MEMPOOL_TRAFFIC_PATH = "/sandbox/mempool/traffic"
ADDRESSES_PATH = "/sandbox/addresses/{label}"

AddressKind = Literal["p2tr", "p2wpkh"]


@dataclass(frozen=True)
class FaucetPayment:
    """The faucet's payment: unconfirmed until a block is mined."""

    txid: str
    vout: int

    @property
    def outpoint(self) -> str:
        return f"{self.txid}:{self.vout}"


@dataclass(frozen=True)
class SandboxClock:
    clock_ms: int
    offset_ms: int  # how far the sandbox's clock runs ahead of the wall clock


@dataclass(frozen=True)
class InscriptionCreated:
    """`POST /sandbox/inscriptions`: the new item, in the mempool until a block is mined."""

    inscription_id: str
    number: int
    outpoint: str


@dataclass(frozen=True)
class RevealOutput:
    """An output of `POST /sandbox/inscribe`'s reveal transaction."""

    address: str
    value: int


@dataclass(frozen=True)
class InscriptionRevealed:
    """`POST /sandbox/inscribe`: the commit and reveal transactions of an inscription."""

    inscription_id: str
    commit_txid: str
    reveal_txid: str


@dataclass(frozen=True)
class MempoolTraffic:
    txids: tuple[str, ...]
    fee_estimates: Mapping[str, float] = field(default_factory=dict)


def trait_specs(traits: Mapping[str, Sequence[str]]) -> list[dict[str, Any]]:
    """A collection's trait categories as the sandbox takes them."""
    return [{"trait_type": t, "values": list(v)} for t, v in traits.items()]


def attributes_body(attributes: Mapping[str, str]) -> list[dict[str, str]]:
    """One inscription's traits as the sandbox takes them."""
    return [{"trait_type": t, "value": v} for t, v in attributes.items()]


class ScenarioCalls(HttpClient):
    """The chain and clock half of `SandboxClient`'s scenario API."""

    async def faucet(self, address: str, sats: int) -> FaucetPayment:
        """Pay `sats` to `address` (unconfirmed: `mine` confirms it)."""
        body = await self.post_json(FAUCET_PATH, {"address": address, "sats": sats})
        r = Reader(self.service, FAUCET_PATH)
        return FaucetPayment(r.need_str(body, "txid"), r.need_int(body, "vout"))

    async def mine(self, blocks: int = 1) -> int:
        """Mine `blocks` blocks now, the mempool first; the new tip height."""
        body = await self.post_json(MINE_PATH, {"blocks": blocks})
        return Reader(self.service, MINE_PATH).need_int(body, "height")

    async def advance_clock(self, ms: int) -> SandboxClock:
        """Move the sandbox's clock forward by `ms` (it never goes back)."""
        body = await self.post_json(CLOCK_PATH, {"advanceMs": ms})
        r = Reader(self.service, CLOCK_PATH)
        return SandboxClock(r.need_int(body, "clockMs"), r.need_int(body, "clockOffsetMs"))

    async def create_collection(
        self, slug: str, name: str, traits: Mapping[str, Sequence[str]] | None = None
    ) -> CollectionInfo:
        """A new collection with its trait categories (`{"hat": ["red", "blue"]}`)."""
        request = {"slug": slug, "name": name, "traits": trait_specs(traits or {})}
        body = await self.post_json(COLLECTIONS_PATH, request)
        return parse_collection(Reader(self.service, COLLECTIONS_PATH), body)

    async def inscribe(
        self,
        address: str,
        *,
        collection: str | None = None,
        attributes: Mapping[str, str] | None = None,
        postage: int | None = None,
        tap_transfer: bool = False,
        content_type: str | None = None,
        body: str | None = None,
    ) -> InscriptionCreated:
        """An item at `address` (commit and reveal, in the mempool): in `collection` with
        `attributes` (one value per trait), `postage` sats (the sandbox's 10,000 by default),
        a TAP token-transfer (no content type or body with it), or the given content."""
        request: dict[str, Any] = {"address": address}
        if collection is not None:
            request["collectionSlug"] = collection
        if attributes is not None:
            request["attributes"] = attributes_body(attributes)
        if postage is not None:
            request["postage"] = postage
        if tap_transfer:
            request["tapTransfer"] = True
        if content_type is not None:
            request["contentType"] = content_type
        if body is not None:
            request["body"] = body
        answer = await self.post_json(INSCRIPTIONS_PATH, request)
        r = Reader(self.service, INSCRIPTIONS_PATH)
        return InscriptionCreated(
            r.need_str(answer, "inscriptionId"),
            r.need_int(answer, "number"),
            r.need_str(answer, "outpoint"),
        )

    async def inscribe_envelope(
        self,
        outputs: Sequence[RevealOutput],
        *,
        content_type: str | None = "text/plain;charset=utf-8",
        body: str | None = None,
        body_hex: str | None = None,
        pointer: int | None = None,
        parent: str | None = None,
        attributes: Mapping[str, str] | None = None,
    ) -> InscriptionRevealed:
        """An inscription as ord makes one (`POST /sandbox/inscribe`): the reveal pays
        `outputs` (none: all to the fee), its envelope carries the content type (None: none),
        a text `body` or `body_hex`, a `pointer`, a `parent` held by the sandbox and, with it,
        `attributes` checked against the parent's collection."""
        request: dict[str, Any] = {
            "outputs": [{"address": o.address, "value": o.value} for o in outputs],
            "contentType": content_type,
        }
        optional = {"body": body, "bodyHex": body_hex, "pointer": pointer, "parent": parent}
        request.update({k: v for k, v in optional.items() if v is not None})
        if attributes is not None:
            request["attributes"] = attributes_body(attributes)
        answer = await self.post_json(INSCRIBE_PATH, request)
        r = Reader(self.service, INSCRIBE_PATH)
        return InscriptionRevealed(
            r.need_str(answer, "inscriptionId"),
            r.need_str(answer, "commitTxid"),
            r.need_str(answer, "revealTxid"),
        )

    async def give_runes(self, address: str, rune: str, amount: int) -> str:
        """`amount` units of `rune` on a new output of `address`: a new rune is etched (the
        sandbox mines the blocks it takes), an etched one is sent from the sandbox's reserve.
        The output's outpoint ("txid:vout"), unconfirmed until a block is mined."""
        request = {"address": address, "rune": rune, "amount": amount}
        body = await self.post_json(RUNES_PATH, request)
        return Reader(self.service, RUNES_PATH).need_str(body, "outpoint")

    async def transfer_inscription(self, inscription_id: str, to_address: str) -> str:
        """Move an inscription a sandbox key holds to `to_address`; the transaction's txid."""
        request = {"inscriptionId": inscription_id, "toAddress": to_address}
        body = await self.post_json(TRANSFER_PATH, request)
        return Reader(self.service, TRANSFER_PATH).need_str(body, "txid")

    async def set_ord_indexes_mempool(self, indexed: bool) -> bool:
        """True: `/ord` describes mempool outputs at once (not real ord); False (the default):
        it answers `indexed: false` for them until a block confirms them, as real ord does."""
        body = await self.post_json(ORD_MEMPOOL_PATH, {"indexed": indexed})
        return Reader(self.service, ORD_MEMPOOL_PATH).need_bool(body, "indexed")

    async def add_mempool_traffic(self, fee_rate: float, vbytes: int) -> MempoolTraffic:
        """About `vbytes` of transactions at `fee_rate` sat/vB added to the mempool (a busy
        network); their txids and the fee estimates with them waiting."""
        request = {"feeRate": fee_rate, "vbytes": vbytes}
        body = await self.post_json(MEMPOOL_TRAFFIC_PATH, request)
        r = Reader(self.service, MEMPOOL_TRAFFIC_PATH)
        txids = tuple(str(t) for t in r.need_list(body, "txids"))
        estimates = r.obj(r.pick(body, "feeEstimates"), "feeEstimates")
        return MempoolTraffic(txids, {str(k): float(v) for k, v in estimates.items()})

    async def sandbox_address(self, label: str, kind: AddressKind = "p2tr") -> str:
        """The address of the sandbox-held key `label` (stable per label and kind): items or
        coins sent there are the sandbox's to sign for (a seller's, a buyer's)."""
        path = ADDRESSES_PATH.format(label=segment(label))
        body = await self.get_json(path, params={"kind": kind})
        return Reader(self.service, path).need_str(body, "address")


def parse_collection(r: Reader, body: Any) -> CollectionInfo:
    """One collection as `POST /sandbox/collections` answers it (every trait well formed)."""
    traits = []
    for trait in r.need_list(body, "traits"):
        spec = r.obj(trait, "traits[]")
        values = r.need_list(spec, "values")
        traits.append((r.need_str(spec, "trait_type"), tuple(str(v) for v in values)))
    return CollectionInfo(r.need_str(body, "slug"), r.need_str(body, "name"), tuple(traits))
