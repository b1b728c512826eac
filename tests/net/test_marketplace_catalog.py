"""`GET /collection`: a collection's catalog entry and traits in the documented shape
(docs.satflow.com/reference/get_collection, as summarised in ../shared/notes/
satflow-market-data.md), a collection the service does not know, and a service without a
catalog."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from net_router import Router

from app.net.errors import BadResponse, ServerError
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_catalog import CatalogAnswer, CollectionInfo

BASE = "http://market.test/v1"

# The documented fields of one entry, with illustrative values.
ENTRY = {
    "id": "nodemonkes",
    "name": "NodeMonkes",
    "description": "10k monkes",
    "inscription_min": 0,
    "inscription_max": 9999,
    "total_items": 10000,
    "image_url": "https://example.invalid/m.png",
    "image_url_content_type": "image/png",
    "external_url": None,
    "twitter_username": "nodemonkes",
    "discord_url": None,
    "creator_tips_address": None,
    "creator_fees_enabled": False,
    "category_attributes": [
        {"key": "Body", "values": [{"value": "Blue", "count": 123}, {"value": "Red", "count": 7}]},
        {"key": "Hat", "values": [{"value": "Crown", "count": 1}, {"count": 3}]},
        {"key": "Empty", "values": []},
        {"values": [{"value": "orphan"}]},
    ],
}


async def lookup(router: Router, slug: str = "nodemonkes") -> CatalogAnswer:
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        return await client.get_collection(slug)


async def test_the_documented_entry_gives_name_size_and_traits() -> None:
    router = Router()
    router.json("GET", "/v1/collection", {"success": True, "data": {"collection": [ENTRY]}})
    answer = await lookup(router)
    assert answer == CatalogAnswer(
        offered=True,
        collection=CollectionInfo(
            "nodemonkes",
            "NodeMonkes",
            (("Body", ("Blue", "Red")), ("Hat", ("Crown",))),
            total_items=10_000,
            trait_counts=(("Body", "Blue", 123), ("Body", "Red", 7), ("Hat", "Crown", 1)),
        ),
    )
    assert router.last.url.params["collection_id"] == "nodemonkes"
    assert router.last.url.params["categoryAttributes"] == "true"


@pytest.mark.parametrize(
    "body",
    [
        {"collection": [ENTRY]},  # no envelope
        {"success": True, "data": {"collection": ENTRY}},  # one object, not an array
        {"success": True, "data": {"collection": [{"id": "other"}, ENTRY]}},  # the slug's entry
    ],
)
async def test_tolerated_shapes(body: dict[str, Any]) -> None:
    router = Router()
    router.json("GET", "/v1/collection", body)
    answer = await lookup(router)
    assert answer.collection is not None and answer.collection.slug == "nodemonkes"


@pytest.mark.parametrize(
    "other", ["nodemonkes\u200b", "n\u043edemonkes", "NodeMonkes", "nodemonkes-2", " nodemonkes"]
)
async def test_an_answer_without_the_slugs_entry_is_no_entry(other: str) -> None:
    """Another collection's entry (a look-alike's) is not taken for the slug asked: it would
    join the suggestions under its own slug, its traits offered for the slug typed."""
    router = Router()
    body = {"success": True, "data": {"collection": [{**ENTRY, "id": other}]}}
    router.json("GET", "/v1/collection", body)
    answer = await lookup(router)
    assert answer.offered and answer.collection is None


async def test_an_entry_without_traits_has_none() -> None:
    router = Router()
    plain = {k: v for k, v in ENTRY.items() if k != "category_attributes"}
    router.json("GET", "/v1/collection", {"success": True, "data": {"collection": [plain]}})
    answer = await lookup(router)
    assert answer.collection is not None and answer.collection.traits == ()


@pytest.mark.parametrize(
    "reply",
    [
        httpx.Response(404, json={"error": "Collection not found"}),
        httpx.Response(404, json={"code": "NOT_FOUND", "message": "no such collection"}),
        httpx.Response(400, json={"code": "BAD_REQUEST", "error": "invalid collection_id"}),
    ],
)
async def test_a_collection_the_service_does_not_know(reply: httpx.Response) -> None:
    router = Router()
    router.add("GET", "/v1/collection", reply)
    assert await lookup(router, "nope") == CatalogAnswer(offered=True, collection=None)


@pytest.mark.parametrize(
    "reply",
    [
        httpx.Response(404, json={"detail": "Not Found"}),  # a framework's unknown route
        httpx.Response(404, text="<html>Not Found</html>"),
        httpx.Response(405, json={"detail": "Method Not Allowed"}),
    ],
)
async def test_a_service_without_a_catalog(reply: httpx.Response) -> None:
    router = Router()
    router.add("GET", "/v1/collection", reply)
    assert await lookup(router) == CatalogAnswer(offered=False)


async def test_an_empty_array_is_no_entry_and_a_broken_body_is_an_error() -> None:
    router = Router()
    router.json("GET", "/v1/collection", {"success": True, "data": {"collection": []}})
    assert await lookup(router) == CatalogAnswer(offered=True, collection=None)
    router.json("GET", "/v1/collection", {"success": True, "data": {"collection": "x"}})
    with pytest.raises(BadResponse, match=r"data\.collection"):
        await lookup(router)
    router.add("GET", "/v1/collection", httpx.Response(500, json={"error": "boom"}))
    with pytest.raises(ServerError):
        await lookup(router)


async def test_trait_counts_are_read_where_given() -> None:
    router = Router()
    router.json("GET", "/v1/collection", {"success": True, "data": {"collection": [ENTRY]}})
    info = (await lookup(router)).collection
    assert info is not None
    assert (info.count_of("Body", "Red"), info.count_of("Hat", "Crown")) == (7, 1)
    assert info.count_of("Body", "Green") is None and info.count_of("Eyes", "Red") is None
