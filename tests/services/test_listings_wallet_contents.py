"""Our listings where the service has no list of a seller's listings (the public service:
`GET /listings` is beyond the spec): the items `/address/wallet-contents` says are listed, as
active listings without an id, page by page (the notes' documented shape: `data.results.
ordinals[].listing.price`, runes with their output, `nextCursor`); None when neither is offered.
A fake marketplace in those shapes (docs.satflow.com/reference/get_address-wallet-contents)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.net.errors import ServerError
from app.services.context import ServiceContext
from app.services.listings_inventory import my_listings
from tests.support.fake_market import FakeMarket

pytestmark = pytest.mark.asyncio(loop_scope="session")

CONTENTS = "/v1/address/wallet-contents"
PAGES: dict[str | None, dict[str, Any]] = {
    None: {
        "results": {
            "ordinals": [
                {"collection": {"id": "puppets"}, "token": {"inscription_id": "aa" * 32 + "i0"},
                 "listing": {"price": 150_000, "secureListing": True}},
                {"collection": {"id": "puppets"}, "token": {"inscription_id": "bb" * 32 + "i0"},
                 "listing": None},
            ],
            "runes": [
                {"collection": {"id": "DOG•GO•TO•THE•MOON"},
                 "token": {"rune_amount": "5000", "output": "cc" * 32 + ":1"},
                 "listing": {"price": 40_000, "price_per_rune_sats": 8}},
            ],
        },
        "nextCursor": 100,
    },
    "100": {
        "results": {
            "ordinals": [
                {"collection": {"id": "puppets"}, "token": {"inscription_id": "dd" * 32 + "i0"},
                 "listing": {"price": 90_000}},
            ],
        },
        "nextCursor": None,
    },
}  # fmt: skip


def contents(fake: FakeMarket, fake_ctx: ServiceContext) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.params["address"] == fake_ctx.ordinals_address
        assert request.url.params["listedOnly"] == "true"
        page = PAGES[request.url.params.get("cursor")]
        return httpx.Response(200, json={"success": True, "data": page})

    fake.routes[CONTENTS] = answer


async def test_the_listed_items_wallet_contents_name_are_our_listings(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    contents(fake, fake_ctx)
    found = await my_listings(fake_ctx)
    assert found is not None
    assert [(x.listing_id, x.item, x.price, x.state) for x in found] == [
        ("", "aa" * 32 + "i0", 150_000, "active"),
        ("", "cc" * 32 + ":1", 40_000, "active"),  # a runes output, listed whole
        ("", "dd" * 32 + "i0", 90_000, "active"),  # the second page
    ]
    assert [r.url.params.get("cursor") for r in fake.asked(CONTENTS)] == [None, "100"]
    assert len(fake.asked("/v1/listings")) == 1  # asked first: not offered here


async def test_neither_list_offered_is_none(fake_ctx: ServiceContext, fake: FakeMarket) -> None:
    assert await my_listings(fake_ctx) is None  # both answer 404


async def test_wallet_contents_failing_is_said(fake_ctx: ServiceContext, fake: FakeMarket) -> None:
    fake.json(CONTENTS, {"message": "upstream timeout"}, status=502)
    with pytest.raises(ServerError):
        await my_listings(fake_ctx)


async def test_cursors_that_loop_end_the_reading_and_repeat_no_item(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    """A lying service whose cursors go 100, 200, 100, ...: each page is read once and each
    item named once (the same item on every page included)."""
    item = {"collection": {"id": "puppets"}, "token": {"inscription_id": "aa" * 32 + "i0"},
            "listing": {"price": 150_000}}  # fmt: skip
    following = {None: 100, "100": 200, "200": 100}

    def answer(request: httpx.Request) -> httpx.Response:
        cursor = following[request.url.params.get("cursor")]
        page = {"results": {"ordinals": [item]}, "nextCursor": cursor}
        return httpx.Response(200, json={"success": True, "data": page})

    fake.routes[CONTENTS] = answer
    found = await my_listings(fake_ctx)
    assert found is not None and [(x.item, x.price) for x in found] == [("aa" * 32 + "i0", 150_000)]
    assert [r.url.params.get("cursor") for r in fake.asked(CONTENTS)] == [None, "100", "200"]
