"""Helpers of the market read tests: a collection of one's own per test (the node is shared by
the module), competing bids and listings through the scenario API, and the /v1 reads."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

from tests.sandbox.market.helpers import ok

_names = itertools.count(1)
TRAITS = [{"trait_type": "Hat", "values": ["Cap", "Crown"]}]
CROWN = {"trait_type": "Hat", "value": "Crown"}


async def new_collection(client: httpx.AsyncClient, stem: str) -> str:
    slug = f"{stem}-{next(_names)}"
    body = {"slug": slug, "name": f"Reads {slug}", "traits": TRAITS}
    ok(await client.post("/sandbox/collections", json=body), 201)
    return slug


async def competing_bid(client: httpx.AsyncClient, **fields: Any) -> str:
    """A sandbox bidder's bid (a new bidder each time: no rate limit between them); its id."""
    body = {"kind": "collection", "bidder": f"reads-bidder-{next(_names)}", **fields}
    ids: list[str] = ok(await client.post("/sandbox/market/bids", json=body))["bidIds"]
    return ids[0]


async def competing_listing(client: httpx.AsyncClient, slug: str, price: int) -> dict[str, Any]:
    body = {"slug": slug, "price": price, "seller": f"reads-seller-{next(_names)}"}
    listing: dict[str, Any] = ok(await client.post("/sandbox/market/listings", json=body))
    return listing


async def activity(client: httpx.AsyncClient, side: str, **params: Any) -> dict[str, Any]:
    data: dict[str, Any] = ok(await client.get(f"/v1/activity/{side}", params=params))
    return data


async def prices(client: httpx.AsyncClient, side: str, **params: Any) -> list[int]:
    return [row["price"] for row in (await activity(client, side, **params))["items"]]
