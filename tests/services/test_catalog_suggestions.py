"""The Bid tab's suggestions where the service lists no collections (the public service): the
collections and runes seen named in our open bids, in what our addresses hold and in the
market's latest activity, against a fake marketplace in the documented shapes; a source that
fails is left out, our open bids failing fails the whole."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.net.errors import ServerError
from app.services.catalog import suggested_collections
from app.services.context import ServiceContext
from tests.support.fake_market import FakeMarket

pytestmark = pytest.mark.asyncio(loop_scope="session")


def ok(data: Any) -> dict[str, Any]:
    return {"success": True, "data": data}


def rows(*items: dict[str, Any]) -> dict[str, Any]:
    return ok({"items": list(items), "pagination": {"total": len(items)}})


def our_bids(fake: FakeMarket, fake_ctx: ServiceContext) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.params["address"] != fake_ctx.ordinals_address:
            return httpx.Response(200, json=ok({"results": []}))
        results = [
            {"bid_id": "1", "price": 2_000, "collectionSlug": "puppets"},
            {"bid_id": "2", "price": 50_000, "type": "rune", "collectionSlug": "UNCOMMON•GOODS"},
        ]
        return httpx.Response(200, json=ok({"results": results}))

    fake.routes["/v1/address/bids"] = answer


HELD = ok(
    {
        "results": {
            "ordinals": [
                {"collection": {"id": "nodemonkes", "name": "NodeMonkes"},
                 "token": {"inscription_id": "i1"}},
                {"collection": {"id": "puppets", "name": "Bitcoin Puppets"},
                 "token": {"inscription_id": "i2"}},
            ],
            "runes": [{"collection": {"id": "DOG•GO•TO•THE•MOON"}, "token": {"rune_amount": "5"}}],
        }
    }
)  # fmt: skip


async def test_seen_in_our_bids_holdings_and_the_latest_activity(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    our_bids(fake, fake_ctx)
    fake.json("/v1/address/wallet-contents", HELD)
    fake.json(
        "/v1/activity/listings",
        rows({"id": "a", "unitPrice": 9_000, "collectionSlug": "quantum-cats"}),
    )
    fake.json(
        "/v1/activity/bids",
        rows(
            {"id": "b", "unitPrice": 1, "collectionSlug": "SATOSHI•NAKAMOTO", "type": "rune"},
            {"id": "c", "unitPrice": 5_000, "collectionSlug": "puppets"},
        ),
    )  # fmt: skip
    fake.json("/v1/activity/sales", rows({"id": "s", "price": 7_000, "collectionSlug": "ocm"}))

    found = await suggested_collections(fake_ctx, None)

    assert not found.searchable
    assert found.runes == ("DOG•GO•TO•THE•MOON", "SATOSHI•NAKAMOTO", "UNCOMMON•GOODS")
    assert [(c.slug, c.name) for c in found.collections] == [
        ("nodemonkes", "NodeMonkes"),
        ("ocm", "ocm"),
        ("puppets", "Bitcoin Puppets"),
        ("quantum-cats", "quantum-cats"),
    ]
    latest = dict(fake.asked("/v1/activity/bids")[0].url.params)
    assert "collectionSlug" not in latest and latest["sortBy"] == "createdAt"
    held_at = {r.url.params["address"] for r in fake.asked("/v1/address/wallet-contents")}
    assert held_at == {fake_ctx.ordinals_address, fake_ctx.payment_address}


async def test_a_source_that_fails_is_left_out(fake_ctx: ServiceContext, fake: FakeMarket) -> None:
    our_bids(fake, fake_ctx)  # holdings and activity: unknown routes (404 {"detail"})
    fake.json("/v1/activity/sales", {"error": "down"}, 503)
    found = await suggested_collections(fake_ctx, None)
    assert [c.slug for c in found.collections] == ["puppets"]
    assert found.runes == ("UNCOMMON•GOODS",)


async def test_our_bids_unreadable_fail_the_suggestions(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    fake.json("/v1/address/bids", {"error": "down"}, 503)
    with pytest.raises(ServerError):
        await suggested_collections(fake_ctx, None)


async def test_names_that_could_pass_for_others_are_not_suggested(
    fake_ctx: ServiceContext, fake: FakeMarket
) -> None:
    """A lying market plants slugs and rune names that show as others (a bidi override, a
    zero-width space, a Cyrillic 'о', a blank) and names with control characters: none is
    suggested; a printable name of a plain slug still is."""
    our_bids(fake, fake_ctx)
    planted = ["node\u202eskcenom", "nodemonkes\u200b", "n\u043edemonkes", "node monkes", "ok"]
    asks = ({"id": str(n), "unitPrice": 9_000, "collectionSlug": s} for n, s in enumerate(planted))
    fake.json("/v1/activity/listings", rows(*asks))
    runes = ["DOG\u202e•GO", "D\u041eG", "DOG•GO\u200b", "BIDWALLET•DEMO"]
    fake.json(
        "/v1/activity/bids",
        rows(*({"id": r, "unitPrice": 1, "collectionSlug": r, "type": "rune"} for r in runes)),
    )
    held = {
        "collection": {"id": "puppets", "name": "Puppets\u202e"},
        "token": {"inscription_id": "i"},
    }
    fake.json("/v1/address/wallet-contents", ok({"results": {"ordinals": [held]}}))

    found = await suggested_collections(fake_ctx, None)

    assert [(c.slug, c.name) for c in found.collections] == [("ok", "ok"), ("puppets", "puppets")]
    assert found.runes == ("BIDWALLET•DEMO", "UNCOMMON•GOODS")
