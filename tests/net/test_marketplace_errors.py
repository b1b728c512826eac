"""Error responses of the marketplace become typed exceptions, nothing lost."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from net_router import Router

from app.net.errors import (
    AttributesNotSigned,
    BidRateLimited,
    HttpError,
    MarketplaceError,
    RateLimited,
    SecureListingUnsupported,
    ServerError,
    SignatureAlreadyUsed,
    TooManyAttributes,
    TooManyOrders,
    WalletIdentityMismatch,
)
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_requests import Listing

BASE = "http://market.test/v1"
BID = {"price": 1000}


async def place(router: Router, status: int, body: Any, **kw: Any) -> HttpError:
    router.add("POST", "/v1/bid/place", httpx.Response(status, json=body, **kw))
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        with pytest.raises(HttpError) as caught:
            await client.place_collection_bid(BID)
    return caught.value


@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [
        (400, "BIDDING_WALLET_IDENTITY_MISMATCH", WalletIdentityMismatch),
        (400, "COLLECTION_BID_TOO_MANY_ORDERS", TooManyOrders),
        (400, "COLLECTION_BID_TOO_MANY_ATTRIBUTES", TooManyAttributes),
        (400, "COLLECTION_BID_SIGNATURE_USED", SignatureAlreadyUsed),
        (400, "COLLECTION_BID_ATTRIBUTES_NOT_SIGNED", AttributesNotSigned),
        (429, "SUBMIT_BID_RATE_LIMITED", BidRateLimited),
        (400, "SECURE_LISTING_UNSUPPORTED", SecureListingUnsupported),
    ],
)
async def test_known_codes_map_to_classes(
    router: Router, status: int, code: str, cls: type[MarketplaceError]
) -> None:
    error = await place(router, status, {"errorCode": code, "message": "refused because"})
    assert type(error) is cls
    assert (error.status, error.error_code, error.message) == (status, code, "refused because")
    assert str(error) == f"marketplace: refused because (HTTP {status}, {code})"


async def test_too_many_orders_details(router: Router) -> None:
    error = await place(
        router,
        400,
        {
            "errorCode": "COLLECTION_BID_TOO_MANY_ORDERS",
            "message": "Request would place 1500 bids; the limit is 1000",
            "details": {"limit": 1000, "requested": 1500},
        },
    )
    assert isinstance(error, TooManyOrders)
    assert (error.limit, error.requested) == (1000, 1500)
    assert error.extra == {"details": {"limit": 1000, "requested": 1500}}


async def test_rate_limit_carries_retry_after_ms(router: Router) -> None:
    error = await place(
        router,
        429,
        {"errorCode": "SUBMIT_BID_RATE_LIMITED", "message": "slow down", "retryAfterMs": 350},
    )
    assert isinstance(error, BidRateLimited) and isinstance(error, RateLimited)
    assert error.retry_after_ms == 350


async def test_429_without_code_uses_retry_after_header(router: Router) -> None:
    error = await place(router, 429, {"error": "Too many requests"}, headers={"Retry-After": "2"})
    assert type(error) is RateLimited
    assert error.retry_after_ms == 2000 and error.error_code is None


async def test_unknown_error_code_is_kept(router: Router) -> None:
    error = await place(
        router,
        400,
        {"errorCode": "COLLECTION_BID_PRICE_NOT_MULTIPLE", "message": "price", "step": 1000},
    )
    assert type(error) is MarketplaceError
    assert error.error_code == "COLLECTION_BID_PRICE_NOT_MULTIPLE"
    assert error.extra == {"step": 1000}
    assert "COLLECTION_BID_PRICE_NOT_MULTIPLE" in str(error)


async def test_public_error_shape(router: Router) -> None:
    error = await place(router, 400, {"error": "Invalid parameters"})
    assert type(error) is MarketplaceError
    assert (error.message, error.error_code) == ("Invalid parameters", None)


@pytest.mark.parametrize(
    "body",
    [
        {"error": {"errorCode": "COLLECTION_BID_SIGNATURE_USED", "message": "used"}},
        {"detail": {"errorCode": "COLLECTION_BID_SIGNATURE_USED", "message": "used"}},
    ],
)
async def test_wrapped_error_objects_are_flattened(router: Router, body: Any) -> None:
    error = await place(router, 400, body)
    assert isinstance(error, SignatureAlreadyUsed) and error.message == "used"


async def test_5xx_is_a_server_error_keeping_the_code(router: Router) -> None:
    error = await place(router, 503, {"errorCode": "UPSTREAM", "message": "indexer down"})
    assert type(error) is ServerError
    assert (error.status, error.error_code, error.message) == (503, "UPSTREAM", "indexer down")


async def test_5xx_html_page_is_a_server_error_without_the_page(router: Router) -> None:
    router.add(
        "POST",
        "/v1/bid/place",
        httpx.Response(
            502, text="<html><body>Bad gateway</body></html>", headers={"content-type": "text/html"}
        ),
    )
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        with pytest.raises(ServerError) as caught:
            await client.place_collection_bid(BID)
    assert caught.value.message == "Bad Gateway"
    assert "<html>" not in str(caught.value)


async def test_identity_mismatch_on_bidding_wallet(router: Router) -> None:
    router.json(
        "GET",
        "/v1/address/bidding-wallet",
        {
            "errorCode": "BIDDING_WALLET_IDENTITY_MISMATCH",
            "message": "This wallet is tied to another ordinals address; use bc1p...",
        },
        status=400,
    )
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        with pytest.raises(WalletIdentityMismatch, match="tied to another ordinals address"):
            await client.get_bidding_wallet("bc1pord", "bc1qpay", "02" + "11" * 32)


async def test_secure_listing_unsupported_on_secure_sell(router: Router) -> None:
    router.json(
        "POST",
        "/v1/intent/secure-sell",
        {"errorCode": "SECURE_LISTING_UNSUPPORTED", "message": "TAP transfer; use /intent/sell"},
        status=400,
    )
    listing = Listing(
        price=1, seller_ord_address="o", seller_receive_address="r", inscription_id="x" * 64 + "i0"
    )
    async with MarketplaceClient(BASE, transport=router.transport) as client:
        with pytest.raises(SecureListingUnsupported):
            await client.create_secure_sell_intent(listing)
