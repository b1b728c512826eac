"""The collections a service offers, with their traits, for the Bid tab's completion and trait
picker. The spec has no such endpoint; the sandbox offers `GET /sandbox/collections`, so the
list is read there when the service is a sandbox and is empty otherwise (free typing)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CollectionInfo:
    slug: str
    name: str
    traits: tuple[tuple[str, tuple[str, ...]], ...]  # (trait_type, its values)


def parse_collections(body: Any) -> list[CollectionInfo]:
    """Tolerant: an entry without a usable slug is skipped, a malformed trait list is empty."""
    if not isinstance(body, list):
        return []
    found = []
    for item in body:
        if not isinstance(item, dict) or not isinstance(item.get("slug"), str):
            continue
        traits = []
        for trait in item.get("traits") or []:
            if not isinstance(trait, dict) or not isinstance(trait.get("trait_type"), str):
                continue
            values = tuple(v for v in trait.get("values") or [] if isinstance(v, str))
            if values:
                traits.append((trait["trait_type"], values))
        name = item.get("name")
        found.append(
            CollectionInfo(item["slug"], name if isinstance(name, str) else "", tuple(traits))
        )
    return sorted(found, key=lambda c: c.slug)


async def load_collections(sandbox_root: str | None) -> list[CollectionInfo]:
    """The sandbox's collections, or [] when the service offers none (or cannot be read)."""
    if sandbox_root is None:
        return []
    from app.net.errors import NetError
    from app.net.http import HttpClient

    client = HttpClient(sandbox_root, service="sandbox")
    try:
        body = await client.get_json("/sandbox/collections")
    except NetError as exc:
        log.info("no collection list: %s", type(exc).__name__)
        return []
    finally:
        await client.aclose()
    return parse_collections(body)
