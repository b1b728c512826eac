"""The three clients of one ``ServiceConfig``, opened and closed together, sharing one
``RateLimits`` (a pacer per host, the config's limit)."""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import Self

import httpx

from app.net.config import ServiceConfig
from app.net.esplora import EsploraClient
from app.net.marketplace import MarketplaceClient
from app.net.ord import OrdClient
from app.net.rate_limit import RateLimits


@dataclass(frozen=True)
class NetClients:
    config: ServiceConfig
    marketplace: MarketplaceClient
    esplora: EsploraClient
    ord: OrdClient
    rate_limits: RateLimits

    @classmethod
    def open(
        cls,
        config: ServiceConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        rate_limits: RateLimits | None = None,
    ) -> NetClients:
        """``transport`` (tests) is shared by the three clients; ``rate_limits`` (tests: a
        fake clock and sleep) defaults to the config's limit."""
        limits = rate_limits or RateLimits(config.rate_limit)
        return cls(
            config=config,
            marketplace=MarketplaceClient.from_config(
                config, transport=transport, rate_limits=limits
            ),
            esplora=EsploraClient.from_config(config, transport=transport, rate_limits=limits),
            ord=OrdClient.from_config(config, transport=transport, rate_limits=limits),
            rate_limits=limits,
        )

    async def aclose(self) -> None:
        for client in (self.marketplace, self.esplora, self.ord):
            await client.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
