"""The three clients of one ``ServiceConfig``, opened and closed together."""

from __future__ import annotations

from dataclasses import dataclass
from types import TracebackType
from typing import Self

import httpx

from app.net.config import ServiceConfig
from app.net.esplora import EsploraClient
from app.net.marketplace import MarketplaceClient
from app.net.ord import OrdClient


@dataclass(frozen=True)
class NetClients:
    config: ServiceConfig
    marketplace: MarketplaceClient
    esplora: EsploraClient
    ord: OrdClient

    @classmethod
    def open(
        cls, config: ServiceConfig, *, transport: httpx.AsyncBaseTransport | None = None
    ) -> NetClients:
        """``transport`` (tests) is shared by the three clients."""
        return cls(
            config=config,
            marketplace=MarketplaceClient.from_config(config, transport=transport),
            esplora=EsploraClient.from_config(config, transport=transport),
            ord=OrdClient.from_config(config, transport=transport),
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
