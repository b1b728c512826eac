"""Client of the sandbox's own API at its root URL (`/sandbox/...`, beside `/v1`, `/esplora`
and `/ord`): what the app reads there, and the scenario calls that change the world (QA, tests,
demo mode) in their own modules, sandbox_scenario.py (chain, clock, items),
sandbox_market.py (the market's other participants) and sandbox_faults.py (faults on demand),
which `SandboxClient` inherits.

- ``GET /sandbox/info``: the marketplace's maker fee, the key the service publishes for its
  half of every bidding wallet, and the sandbox's clock (ahead of ours when moved).
- ``GET /sandbox/collections``: the collections with their traits, in the sandbox's order.

The spec has neither endpoint: a caller asks only a service it knows to be a sandbox. The
body's shape is strict (an object, a list: ``BadResponse`` otherwise); its fields are read
tolerantly, a field of the wrong type counting as absent, as a caller falls back to its own
default for each.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from app.net.fields import Reader, as_str, is_int
from app.net.http import Timeouts
from app.net.marketplace_catalog import CollectionInfo
from app.net.sandbox_faults import FaultCalls
from app.net.sandbox_market import MarketCalls
from app.net.sandbox_requests import RequestCalls
from app.net.sandbox_scenario import ScenarioCalls

INFO_PATH = "/sandbox/info"
COLLECTIONS_PATH = "/sandbox/collections"
_KEY_HEX_CHARS = 66  # a compressed secp256k1 public key
# Scenario calls build, sign and mine real transactions (an etching mines 5 blocks).
SANDBOX_TIMEOUTS = Timeouts(read=120.0)

__all__ = ["CollectionInfo", "SandboxClient", "SandboxInfo", "parse_collections", "parse_info"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SandboxInfo:
    """The facts of ``GET /sandbox/info`` a client uses; None where the sandbox does not say.

    ``maker_fee_bps`` counts only beside ``maker_fee_sats`` (the sandbox sends both or none).
    """

    maker_fee_sats: int | None = None
    maker_fee_bps: int | None = None
    service_public_key: bytes | None = None  # 33 bytes
    clock_ms: int | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)


class SandboxClient(ScenarioCalls, MarketCalls, FaultCalls, RequestCalls):
    """The sandbox API at ``root_url`` (the service root, without ``/sandbox`` or ``/v1``)."""

    def __init__(
        self,
        root_url: str,
        *,
        timeouts: Timeouts | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        super().__init__(
            root_url,
            service="sandbox",
            timeouts=timeouts or SANDBOX_TIMEOUTS,
            transport=transport,
        )

    async def info(self) -> SandboxInfo:
        return parse_info(Reader(self.service, INFO_PATH), await self.get_json(INFO_PATH))

    async def collections(self) -> list[CollectionInfo]:
        """Every collection, in the order the sandbox lists them (creation order)."""
        body = await self.get_json(COLLECTIONS_PATH)
        return parse_collections(Reader(self.service, COLLECTIONS_PATH), body)


def parse_info(r: Reader, body: Any) -> SandboxInfo:
    info = r.obj(body)
    fee_sats, fee_bps, clock_ms = (info.get(k) for k in ("makerFeeSats", "makerFeeBps", "clockMs"))
    return SandboxInfo(
        maker_fee_sats=fee_sats if is_int(fee_sats) else None,
        maker_fee_bps=fee_bps if is_int(fee_bps) else None,
        service_public_key=_public_key(info.get("servicePublicKey")),
        clock_ms=clock_ms if is_int(clock_ms) else None,
        raw=info,
    )


def _public_key(value: Any) -> bytes | None:
    if not isinstance(value, str) or len(value) != _KEY_HEX_CHARS:
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        log.warning("the sandbox's servicePublicKey is not hex; not used")
        return None


def parse_collections(r: Reader, body: Any) -> list[CollectionInfo]:
    """The list itself is required; an entry without a usable slug is skipped, a malformed
    trait is left out, and a trait without a usable value too."""
    if not isinstance(body, list):
        raise r.error(f"body is {type(body).__name__}, expected a JSON list")
    found = []
    for item in body:
        if not isinstance(item, Mapping) or not isinstance(item.get("slug"), str):
            continue
        traits = []
        for trait in _list(item.get("traits")):
            if not isinstance(trait, Mapping) or not isinstance(trait.get("trait_type"), str):
                continue
            values = tuple(v for v in _list(trait.get("values")) if isinstance(v, str))
            if values:
                traits.append((trait["trait_type"], values))
        found.append(CollectionInfo(item["slug"], as_str(item.get("name")) or "", tuple(traits)))
    return found


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
