"""Client of ord's JSON API (``ord server`` with ``Accept: application/json``; the sandbox's /ord).

Safety rule: an output whose ``inscriptions`` or ``runes`` field is missing or null (ord built
without that index, or a server that does not say) is NOT an output that carries nothing:
``output()`` raises ``BadResponse`` and the coin selection refuses rather than guesses.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import httpx

from app.net.config import ServiceConfig
from app.net.errors import HttpError, NotFound
from app.net.fields import Reader, as_int, as_str, is_int
from app.net.http import HttpClient, Timeouts, segment
from app.net.ord_runes import (
    RuneBalance,
    RuneEntry,
    RuneHolding,
    RunesPage,
    parse_output_runes,
    parse_rune_entry,
    parse_runes_balances,
    parse_runes_page,
)
from app.net.rate_limit import HostPacer, RateLimits

__all__ = [
    "InscriptionLocation",
    "OrdAddressContents",
    "OrdClient",
    "OrdOutput",
    "RuneBalance",
    "RuneEntry",
    "RuneHolding",
    "RunesPage",
]

OutputKind = Literal["any", "cardinal", "inscribed", "runic"]
#: The most entries one batch lookup asks for: ord takes any number, but the sandbox (and a
#: proxy in front of ord) may bound a request body, so a longer list goes in several.
MAX_BATCH: Final = 1000
_SATPOINT = re.compile(r"[0-9a-fA-F]{64}:[0-9]{1,10}:[0-9]{1,20}")


@dataclass(frozen=True)
class OrdOutput:
    outpoint: str
    value: int
    inscriptions: tuple[str, ...]
    runes: tuple[RuneBalance, ...]
    address: str | None = None
    spent: bool | None = None
    #: False when ord has not indexed this output yet: its (empty) lists then mean nothing.
    indexed: bool | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def carries_assets(self) -> bool:
        return bool(self.inscriptions or self.runes)

    @property
    def is_cardinal(self) -> bool:
        """Safe to spend as plain bitcoin: indexed, and no inscription and no rune on it."""
        return self.indexed is not False and not self.carries_assets


@dataclass(frozen=True)
class InscriptionLocation:
    inscription_id: str
    satpoint: str
    number: int | None = None
    address: str | None = None
    value: int | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def output(self) -> str:
        """``txid:vout`` of the output holding the inscription."""
        return self.satpoint.rsplit(":", 1)[0]

    @property
    def offset(self) -> int:
        """Offset of the inscribed sat within that output."""
        return int(self.satpoint.rsplit(":", 1)[1])


@dataclass(frozen=True)
class OrdAddressContents:
    """``None`` lists mean ord did not report them (index built without them)."""

    outputs: tuple[str, ...]
    inscriptions: tuple[str, ...] | None = None
    sat_balance: int | None = None
    runes_balances: tuple[RuneHolding, ...] | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


class OrdClient(HttpClient):
    def __init__(
        self,
        base_url: str,
        *,
        timeouts: Timeouts | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        pacer: HostPacer | None = None,
    ) -> None:
        # ord serves HTML unless asked for JSON.
        super().__init__(
            base_url,
            service="ord",
            timeouts=timeouts,
            transport=transport,
            headers={"accept": "application/json"},
            pacer=pacer,
        )

    @classmethod
    def from_config(
        cls,
        config: ServiceConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        rate_limits: RateLimits | None = None,
    ) -> OrdClient:
        pacer = None if rate_limits is None else rate_limits.pacer(config.ord_url)
        return cls(config.ord_url, timeouts=config.timeouts, transport=transport, pacer=pacer)

    async def output(self, outpoint: str) -> OrdOutput:
        """What ``txid:vout`` carries. Raises ``NotFound`` for an unknown output."""
        path = f"/output/{segment(outpoint)}"
        return parse_output(Reader(self.service, path), await self.get_json(path), outpoint)

    async def outputs(self, outpoints: Sequence[str]) -> list[OrdOutput]:
        """Several outputs, in the order asked: one ``POST /outputs`` (ord >= 0.21) per
        `MAX_BATCH` of them, or one ``GET /output`` each where the server lacks it (the
        sandbox, older ord). A batch entry must name the output it describes (an entry of
        another output is refused); a batch whose entries do not all name one is asked again
        one ``GET`` each, since only its order would tie an entry to an output."""
        chunks = await asyncio.gather(
            *(self._outputs_batch(c) for c in _chunks(outpoints, MAX_BATCH))
        )
        return [output for chunk in chunks for output in chunk]

    async def _outputs_batch(self, outpoints: Sequence[str]) -> list[OrdOutput]:
        path = "/outputs"
        r = Reader(self.service, path)
        try:
            body = await self.post_json(path, list(outpoints))
        except HttpError as exc:
            if exc.status not in (404, 405):
                raise
            body = None
        if _unnamed(body, "outpoint"):
            return list(await asyncio.gather(*(self.output(o) for o in outpoints)))
        if not isinstance(body, list) or len(body) != len(outpoints):
            raise r.error(f"expected a list of {len(outpoints)} outputs")
        return [
            parse_output(r, item, outpoint) for item, outpoint in zip(body, outpoints, strict=True)
        ]

    async def address_outputs(self, address: str, kind: OutputKind = "any") -> list[OrdOutput]:
        path = f"/outputs/{segment(address)}"
        r = Reader(self.service, path)
        body = await self.get_json(path, params={"type": kind})
        if not isinstance(body, list):
            raise r.error(f"expected a list of outputs, got {type(body).__name__}")
        return [parse_output(r, item, None) for item in body]

    async def inscription(self, inscription_id: str) -> InscriptionLocation:
        """Where an inscription is now. Raises ``NotFound`` for an unknown id."""
        path = f"/inscription/{segment(inscription_id)}"
        return parse_inscription(
            Reader(self.service, path), await self.get_json(path), inscription_id
        )

    async def inscriptions(self, inscription_ids: Sequence[str]) -> list[InscriptionLocation]:
        """Where several inscriptions are now, in the order asked: one ``POST /inscriptions``
        per `MAX_BATCH` of them, or one ``GET /inscription`` each where the server lacks it or
        refuses the batch (404: the single lookups then name the unknown id). Raises
        ``NotFound`` for an unknown id. As with `outputs`, a batch whose entries do not all
        name their id is asked again one ``GET`` each: two inscriptions of one output would
        swap places unseen."""
        chunks = await asyncio.gather(
            *(self._inscriptions_batch(c) for c in _chunks(inscription_ids, MAX_BATCH))
        )
        return [location for chunk in chunks for location in chunk]

    async def _inscriptions_batch(
        self, inscription_ids: Sequence[str]
    ) -> list[InscriptionLocation]:
        path = "/inscriptions"
        r = Reader(self.service, path)
        try:
            body = await self.post_json(path, list(inscription_ids))
        except HttpError as exc:
            if exc.status not in (404, 405):
                raise
            body = None
        if _unnamed(body, "id"):
            return list(await asyncio.gather(*(self.inscription(i) for i in inscription_ids)))
        if not isinstance(body, list) or len(body) != len(inscription_ids):
            raise r.error(f"expected a list of {len(inscription_ids)} inscriptions")
        return [
            parse_inscription(r, item, i) for item, i in zip(body, inscription_ids, strict=True)
        ]

    async def address(self, address: str) -> OrdAddressContents:
        """Outputs, inscriptions and rune balances of an address (ord ``--index-addresses``)."""
        path = f"/address/{segment(address)}"
        r = Reader(self.service, path)
        body = r.obj(await self.get_json(path))
        outputs = body.get("outputs")
        if not isinstance(outputs, list) or not all(isinstance(o, str) for o in outputs):
            raise r.error("missing field outputs", "outputs")
        inscriptions = body.get("inscriptions")
        return OrdAddressContents(
            outputs=tuple(outputs),
            inscriptions=(
                tuple(i for i in inscriptions if isinstance(i, str))
                if isinstance(inscriptions, list)
                else None
            ),
            sat_balance=as_int(body.get("sat_balance")),
            runes_balances=parse_runes_balances(body.get("runes_balances")),
            raw=body,
        )

    async def rune(self, name: str) -> RuneEntry | None:
        """The entry of the rune ``name`` (its letters, or a spaced name): its canonical spaced
        name, id, divisibility, symbol. None when ord knows no such rune (404); ord must run
        with ``--index-runes``."""
        path = f"/rune/{segment(name)}"
        try:
            body = await self.get_json(path)
        except NotFound:
            return None
        return parse_rune_entry(Reader(self.service, path), body)

    async def runes(self, page: int = 0) -> RunesPage | None:
        """A page of the etched runes, the newest first (ord ``/runes/<PAGE>``); None when
        this ord lists none (404: built without ``--index-runes``, or too old)."""
        path = f"/runes/{int(page)}"
        try:
            body = await self.get_json(path)
        except NotFound:
            return None
        return parse_runes_page(Reader(self.service, path), body, page)

    async def block_height(self) -> int:
        """Height of the last block ord has indexed (compare with Esplora's tip)."""
        path = "/blockheight"
        r = Reader(self.service, path)
        height = await self.get_json(path)
        if not is_int(height) or height < 0:
            raise r.error(f"expected a block height, got {type(height).__name__}")
        return int(height)


def parse_inscription(r: Reader, data: Any, inscription_id: str) -> InscriptionLocation:
    """One inscription's answer; one about another inscription than asked is refused."""
    body = r.obj(data, "inscription")
    reported = as_str(body.get("id"))
    if reported is not None and reported.lower() != inscription_id.lower():
        raise r.error(f"asked for {inscription_id}, ord answered about {reported}", "id")
    satpoint = as_str(body.get("satpoint")) or as_str(body.get("location"))
    if satpoint is None or not _is_satpoint(satpoint):
        raise r.error("missing or malformed field satpoint (txid:vout:offset)", "satpoint")
    return InscriptionLocation(
        inscription_id=reported or inscription_id,
        satpoint=satpoint,
        # ord <= 0.16.0-rc1 named them inscription_number and output_value.
        number=as_int(_first_present(body, "number", "inscription_number")),
        address=as_str(body.get("address")),
        value=as_int(_first_present(body, "value", "output_value")),
        raw=body,
    )


def parse_output(r: Reader, body: Any, outpoint: str | None) -> OrdOutput:
    entry = r.obj(body, "output")
    reported = as_str(entry.get("outpoint"))
    if outpoint is not None and reported is not None and reported.lower() != outpoint.lower():
        raise r.error(f"asked for {outpoint}, ord answered about {reported}", "outpoint")
    where = outpoint or reported or "output"
    value = entry.get("value")
    if not is_int(value):
        raise r.error(f"{where}: missing field value", "value")
    inscriptions = entry.get("inscriptions")
    if not isinstance(inscriptions, list) or not all(isinstance(i, str) for i in inscriptions):
        raise r.error(
            f"{where}: ord did not report the inscriptions on this output; refusing to "
            "treat it as carrying none",
            "inscriptions",
        )
    runes = parse_output_runes(r, entry.get("runes"), where)
    spent, indexed = entry.get("spent"), entry.get("indexed")
    return OrdOutput(
        outpoint=outpoint or reported or "",
        value=int(value),
        inscriptions=tuple(inscriptions),
        runes=runes,
        address=as_str(entry.get("address")),
        spent=spent if isinstance(spent, bool) else None,
        indexed=indexed if isinstance(indexed, bool) else None,
        raw=entry,
    )


def _unnamed(body: Any, field: str) -> bool:
    """No batch answer (None), or one with an entry not naming what it describes (`field`:
    its outpoint, its id): only single lookups can then be trusted to be about what was
    asked."""
    if body is None:
        return True
    return isinstance(body, list) and not all(
        isinstance(e, dict) and as_str(e.get(field)) is not None for e in body
    )


def _chunks(items: Sequence[str], size: int) -> list[Sequence[str]]:
    """`items` in consecutive slices of at most `size`; none for no items."""
    return [items[start : start + size] for start in range(0, len(items), size)]


def _is_satpoint(text: str) -> bool:
    return _SATPOINT.fullmatch(text) is not None


def _first_present(body: Mapping[str, Any], *names: str) -> Any:
    """The first of `names` the body has (a field renamed between ord versions)."""
    return next((body[name] for name in names if name in body), None)
