"""What a sandbox service says about itself (`GET /sandbox/info`, `GET /sandbox/collections`
at its root URL), for a client that knows it talks to one.

- `sandbox_facts(root)`: its maker fee (so pre-flight checks count what the service counts),
  the key it publishes for its half of every bidding wallet, and its clock; None when the root
  is not a sandbox or does not answer (the caller keeps its defaults).
- `sandbox_collections(root)`: its collections with their traits, in its own order (the first
  is the one a demo wallet was given); the network's error when they cannot be read.
- `collection_catalog(root)`: the same sorted by slug for completion and a trait picker; empty
  without a sandbox or when it cannot be read (typing stays free).

Each call opens its own client on the root and closes it: these are read once per connection.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from app.core.pools import MakerFee
from app.net.errors import NetError
from app.net.sandbox import CollectionInfo, SandboxClient

__all__ = [
    "CollectionInfo",
    "SandboxFacts",
    "collection_catalog",
    "sandbox_collections",
    "sandbox_facts",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SandboxFacts:
    """The sandbox at `root`: what it says, None where it does not say."""

    root: str
    maker_fee: MakerFee | None
    service_public_key: bytes | None
    clock_ms: int | None


async def sandbox_facts(root: str) -> SandboxFacts | None:
    """The sandbox's own facts; None when `root` is not a sandbox or is not answering."""
    try:
        async with SandboxClient(root) as client:
            info = await client.info()
    except NetError as exc:
        log.info("no sandbox info at the service root: %s", type(exc).__name__)
        return None
    fee = info.maker_fee_sats
    return SandboxFacts(
        root,
        None if fee is None else MakerFee(info.maker_fee_bps or 0, fee),
        info.service_public_key,
        info.clock_ms,
    )


async def sandbox_collections(root: str) -> list[CollectionInfo]:
    """Every collection of the sandbox at `root`, in its order; `NetError` when unreadable."""
    async with SandboxClient(root) as client:
        return await client.collections()


async def collection_catalog(root: str | None) -> list[CollectionInfo]:
    """The collections sorted by slug, or [] when there is no sandbox (`root` None) or its list
    cannot be read."""
    if root is None:
        return []
    try:
        found = await sandbox_collections(root)
    except NetError as exc:
        log.info("no collection list: %s", type(exc).__name__)
        return []
    return sorted(found, key=lambda c: c.slug)
