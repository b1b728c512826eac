"""MarketplaceClient's error mapping against the documented error bodies: Satflow's shared
``{"error": string}`` (every reference page), its ``errorCode``-only 400 of the secure listing
pages, and every row of the spec's error table (section 7, ``{errorCode, message, ...extra}``).
Sources: tests/contract/samples/satflow.py and /work/shared/spec section 7."""

from __future__ import annotations

import pytest

from app.net.errors import (
    AttributesNotSigned,
    BidRateLimited,
    MarketplaceError,
    SecureListingUnsupported,
    ServerError,
    SignatureAlreadyUsed,
    TooManyAttributes,
    TooManyOrders,
    WalletIdentityMismatch,
)
from app.net.marketplace import MarketplaceClient
from app.net.marketplace_requests import Listing, WithdrawSubmission
from tests.contract.samples import satflow as s
from tests.net.net_router import Router

BASE = "http://satflow.test/v1"


def client(router: Router) -> MarketplaceClient:
    return MarketplaceClient(BASE, transport=router.transport)


async def test_error_body_of_the_reference_pages(router: Router) -> None:
    router.json("GET", "/v1/challenge", s.INVALID_ADDRESS, status=400)
    async with client(router) as c:
        with pytest.raises(MarketplaceError) as caught:
            await c.get_challenge("not-an-address")
    error = caught.value
    assert (type(error), error.status, error.error_code, error.message, error.extra) == (
        MarketplaceError,
        400,
        None,
        "Invalid address",
        {},
    )


async def test_server_error_body(router: Router) -> None:
    router.json("POST", "/v1/withdraw", {"error": "Internal server error"}, status=500)
    async with client(router) as c:
        with pytest.raises(ServerError) as caught:
            await c.withdraw(WithdrawSubmission(s.PSBT_B64))
    assert (caught.value.status, caught.value.message) == (500, "Internal server error")


async def test_secure_listing_unsupported_without_message(router: Router) -> None:
    router.json("POST", "/v1/intent/secure-sell", s.SECURE_UNSUPPORTED, status=400)
    listing = Listing(90_000, s.ORD, s.PAY, inscription_id=s.INSCRIPTION)
    async with client(router) as c:
        with pytest.raises(SecureListingUnsupported) as caught:
            await c.create_secure_sell_intent(listing)
    # No message in the body: the status's reason phrase stands in.
    assert (caught.value.error_code, caught.value.message) == (
        "SECURE_LISTING_UNSUPPORTED",
        "Bad Request",
    )


# Spec section 7, one row each: (status, errorCode, the class the client raises).
SPEC_ERRORS = [
    (400, "BIDDING_WALLET_IDENTITY_MISMATCH", WalletIdentityMismatch),
    (400, "COLLECTION_BID_TOO_MANY_ORDERS", TooManyOrders),
    (400, "COLLECTION_BID_TOO_MANY_ATTRIBUTES", TooManyAttributes),
    (400, "COLLECTION_BID_SIGNATURE_USED", SignatureAlreadyUsed),
    (400, "COLLECTION_BID_ATTRIBUTES_NOT_SIGNED", AttributesNotSigned),
    (429, "SUBMIT_BID_RATE_LIMITED", BidRateLimited),
    (400, "SECURE_LISTING_UNSUPPORTED", SecureListingUnsupported),
]


@pytest.mark.parametrize(("status", "code", "cls"), SPEC_ERRORS, ids=[r[1] for r in SPEC_ERRORS])
async def test_spec_error_table(
    router: Router, status: int, code: str, cls: type[MarketplaceError]
) -> None:
    router.json("POST", "/v1/bid/place", {"errorCode": code, "message": "why"}, status=status)
    async with client(router) as c:
        with pytest.raises(cls) as caught:
            await c.place_collection_bid({"quantity": 1})
    assert (type(caught.value), caught.value.status, caught.value.error_code) == (cls, status, code)
    assert caught.value.message == "why"


async def test_spec_error_without_a_code(router: Router) -> None:
    # Section 7's last row: more than 100 listings is a 400 with no errorCode shown.
    body = {"message": "At most 100 listings per request."}
    router.json("POST", "/v1/intent/secure-bulk-sell", body, status=400)
    listing = Listing(90_000, s.ORD, s.PAY, inscription_id=s.INSCRIPTION)
    async with client(router) as c:
        with pytest.raises(MarketplaceError) as caught:
            await c.create_secure_bulk_sell_intent([listing] * 101)
    assert (type(caught.value), caught.value.error_code, caught.value.message) == (
        MarketplaceError,
        None,
        "At most 100 listings per request.",
    )


async def test_spec_error_details(router: Router) -> None:
    router.json("POST", "/v1/bid/place", s.TOO_MANY_ORDERS, status=400)
    async with client(router) as c:
        with pytest.raises(TooManyOrders) as caught:
            await c.place_collection_bid({"quantity": 1200})
    assert (caught.value.limit, caught.value.requested) == (1000, 1200)


async def test_spec_rate_limit_wait(router: Router) -> None:
    router.json("POST", "/v1/bid/place", s.RATE_LIMITED, status=429)
    async with client(router) as c:
        with pytest.raises(BidRateLimited) as caught:
            await c.place_collection_bid({"quantity": 1})
    assert caught.value.retry_after_ms == 350
