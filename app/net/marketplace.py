"""Client of the marketplace v1 API (the spec), one typed method per endpoint.

Nothing here retries: the spec's retry rule (a retry is a NEW signed request, and after a
timeout or a 5xx the bids are read first) belongs to the use cases in ``app.services``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import httpx

from app.core.market_snapshot import MarketBid, MarketListing
from app.net.config import ServiceConfig
from app.net.errors import (
    MARKETPLACE_ERRORS_BY_CODE,
    MarketplaceError,
    NetError,
    RateLimited,
    ServerError,
)
from app.net.fields import Reader, as_str, loads_json
from app.net.http import HttpClient, QueryParams, Timeouts
from app.net.marketplace_activity import (
    BIDS_ACTIVITY_PATH,
    LISTINGS_ACTIVITY_PATH,
    SALES_ACTIVITY_PATH,
    ActivityPage,
    Sale,
    activity_params,
    parse_bid_page,
    parse_listing_page,
    parse_sale_page,
)
from app.net.marketplace_bids import BidListEntry, parse_bid_list
from app.net.marketplace_catalog import (
    COLLECTION_PATH,
    CatalogAnswer,
    not_offered,
    parse_collection_catalog,
)
from app.net.marketplace_market import (
    FLOOR_TYPES,
    FLOORS_PATH,
    ITEM_TYPES,
    STATS_PATH,
    WALLET_CONTENTS_PATH,
    CollectionStats,
    FloorsPage,
    WalletContents,
    parse_collection_stats,
    parse_floors,
    parse_wallet_contents,
)
from app.net.marketplace_requests import (
    CancelRequest,
    InscriptionBidIntentRequest,
    InscriptionBidPlacement,
    InvalidRequest,
    Listing,
    SecureListingSubmission,
    SecurePurchaseIntentRequest,
    SupportsToJson,
    WithdrawIntentRequest,
    WithdrawSubmission,
    listings_wire,
)
from app.net.marketplace_responses import (
    BiddingWallet,
    BidPlaced,
    CancelResult,
    Challenge,
    ChallengeVerification,
    SecureListingIntent,
    SecureListingResult,
    SecurePurchaseIntent,
    UnsignedPsbt,
    WithdrawIntent,
    WithdrawResult,
    parse_bid_placed,
    parse_bidding_wallet,
    parse_cancel_result,
    parse_challenge,
    parse_challenge_verification,
    parse_inscription_bid_psbt,
    parse_secure_listing_intent,
    parse_secure_listing_result,
    parse_secure_purchase_intent,
    parse_withdraw_intent,
    parse_withdraw_result,
)
from app.net.marketplace_states import (
    INSCRIPTION_BIDS_PATH,
    LISTINGS_PATH,
    NOT_OFFERED,
    InscriptionBidState,
    SellerListing,
    parse_inscription_bid_states,
    parse_seller_listings,
)
from app.net.rate_limit import HostPacer, RateLimits, service_wait_s

T = TypeVar("T")
# A page of market data (500 orders, a wallet's 100 items) is well under 2 MB. Its JSON is
# decoded on the event loop, the window's thread: a bound this low keeps a lying service's
# page to a few tens of ms of decoding, not the client's general bound's hundreds.
MARKET_PAGE_BYTES = 4 * 1024 * 1024
CollectionBidBody = Mapping[str, Any] | SupportsToJson | str | bytes
_NOT_EXTRA = frozenset({"errorCode", "error_code", "message", "error", "detail", "success"})


class MarketplaceClient(HttpClient):
    def __init__(
        self,
        base_url: str,
        *,
        api_key: str | None = None,
        timeouts: Timeouts | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        pacer: HostPacer | None = None,
    ) -> None:
        super().__init__(
            base_url,
            service="marketplace",
            api_key=api_key,
            timeouts=timeouts,
            transport=transport,
            headers={"accept": "application/json"},
            pacer=pacer,
        )

    @classmethod
    def from_config(
        cls,
        config: ServiceConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        rate_limits: RateLimits | None = None,
    ) -> MarketplaceClient:
        return cls(
            config.marketplace_url,
            api_key=config.api_key,
            timeouts=config.timeouts,
            transport=transport,
            pacer=None if rate_limits is None else rate_limits.pacer(config.marketplace_url),
        )

    # --- bidding wallet and collection bids -------------------------------------------------

    async def get_bidding_wallet(
        self, ordinals_address: str, payment_address: str, payment_pubkey: str
    ) -> BiddingWallet:
        params = {
            "ordinalsAddress": ordinals_address,
            "paymentAddress": payment_address,
            "paymentPubkey": payment_pubkey,
        }
        return await self._get("/address/bidding-wallet", params, parse_bidding_wallet)

    async def place_collection_bid(self, request: CollectionBidBody) -> BidPlaced:
        """``POST /bid/place`` with a collection, trait or rune bid: the body is the wire JSON
        of the bid request (a dict, JSON text, or an object with ``to_json()``)."""
        # A 429 here is bid_retry's to handle: it paces per address and re-signs each attempt.
        body = _collection_bid_body(request)
        answer = await self.post_json(
            "/bid/place", body, on_error=self.marketplace_error, retry_rate_limited=False
        )
        return parse_bid_placed(Reader(self.service, "/bid/place"), answer)

    async def get_bids(self, address: str) -> list[BidListEntry]:
        """Open bids listed under ``address``, each entry marked with it (``listed_under``).
        Which address the service keys bids by (the ordinals address, or the payment address
        that signs them) is the caller's question. The public service answers 404 for an
        address it does not know: that is an empty list."""
        response = await self.send("GET", "/address/bids", params={"address": address})
        if response.status_code == 404 and _is_public_no_bids_body(response):
            return []
        body = self.json_or_raise(response, self.marketplace_error)
        return parse_bid_list(Reader(self.service, "/address/bids"), body, address)

    # --- catalog --------------------------------------------------------------------------

    async def get_collection(self, slug: str) -> CatalogAnswer:
        """The catalog entry of ``slug`` with its traits (``marketplace_catalog``): found, a
        collection the service does not know, or no catalog offered at all."""
        params = {"collection_id": slug, "categoryAttributes": "true"}
        response = await self.send("GET", COLLECTION_PATH, params=params)
        if not_offered(response):
            return CatalogAnswer(offered=False)
        if response.status_code in (400, 404):
            return CatalogAnswer(offered=True)  # the service knows no such collection
        body = self.json_or_raise(response, self.marketplace_error)
        found = parse_collection_catalog(Reader(self.service, COLLECTION_PATH), body, slug)
        return CatalogAnswer(offered=True, collection=found)

    # --- market: orders, statistics, holdings (app/net/marketplace_activity.py, _market.py) --

    async def get_activity_listings(
        self,
        collection_slug: str | None,
        *,
        page: int = 1,
        page_size: int = 100,
        sort_by: str = "unitPrice",
        sort_direction: str = "asc",
        active: bool = True,
    ) -> ActivityPage[MarketListing]:
        """One page of the collection's (or rune's) listings, cheapest first by default."""
        params = activity_params(collection_slug, page, page_size, sort_by, sort_direction, active)
        return await self._get(
            LISTINGS_ACTIVITY_PATH, params, parse_listing_page, MARKET_PAGE_BYTES
        )

    async def get_activity_bids(
        self,
        collection_slug: str | None,
        *,
        page: int = 1,
        page_size: int = 100,
        sort_by: str = "unitPrice",
        sort_direction: str = "desc",
        active: bool = True,
    ) -> ActivityPage[MarketBid]:
        """One page of the bids on the collection (or rune), highest first by default."""
        params = activity_params(collection_slug, page, page_size, sort_by, sort_direction, active)
        return await self._get(BIDS_ACTIVITY_PATH, params, parse_bid_page, MARKET_PAGE_BYTES)

    async def get_activity_sales(
        self,
        collection_slug: str | None,
        *,
        page: int = 1,
        page_size: int = 100,
        sort_by: str = "createdAt",
        sort_direction: str = "desc",
    ) -> ActivityPage[Sale]:
        """One page of the collection's (or rune's) sales, latest first by default."""
        params = activity_params(collection_slug, page, page_size, sort_by, sort_direction, None)
        return await self._get(SALES_ACTIVITY_PATH, params, parse_sale_page, MARKET_PAGE_BYTES)

    async def get_collection_stats(self, slug: str) -> CollectionStats | None:
        """The collection's floor, counts and volumes; None when the service knows no such
        collection (its own 404; a 404 of an unknown route is an error)."""
        response = await self.send("GET", STATS_PATH, params={"collectionId": slug})
        if response.status_code == 404 and not not_offered(response):
            return None
        body = self.json_or_raise(response, self.marketplace_error)
        return parse_collection_stats(Reader(self.service, STATS_PATH), body, slug)

    async def get_collection_floors(self, kind: str, slugs: Sequence[str]) -> FloorsPage:
        """Floors of several collections (``kind`` "ordinals") or runes ("runes") in one call;
        none when the service knows none of them."""
        if kind not in FLOOR_TYPES or not slugs:
            raise InvalidRequest(f"floors need a type in {sorted(FLOOR_TYPES)} and a slug")
        params = {"type": kind, "slugs": ",".join(slugs)}
        response = await self.send("GET", FLOORS_PATH, params=params)
        if response.status_code == 404 and not not_offered(response):
            return FloorsPage((), 0)
        body = self.json_or_raise(response, self.marketplace_error)
        return parse_floors(Reader(self.service, FLOORS_PATH), body)

    async def get_wallet_contents(
        self,
        address: str,
        *,
        item_type: str = "all",
        collection: str | None = None,
        listed_only: bool = False,
        cursor: int | None = None,
        limit: int = 100,
    ) -> WalletContents:
        """What ``address`` holds (inscriptions, rune balances) with its listings; one page."""
        if item_type not in ITEM_TYPES or limit < 1:
            raise InvalidRequest(f"itemType must be one of {sorted(ITEM_TYPES)}, limit >= 1")
        params: dict[str, str | int] = {"address": address, "itemType": item_type, "limit": limit}
        if collection:
            params["collection"] = collection
        if listed_only:
            params["listedOnly"] = "true"
        if cursor is not None:
            params["cursor"] = cursor
        return await self._get(
            WALLET_CONTENTS_PATH, params, parse_wallet_contents, MARKET_PAGE_BYTES
        )

    # --- challenge and cancel ---------------------------------------------------------------

    async def get_challenge(self, address: str) -> Challenge:
        return await self._get("/challenge", {"address": address}, parse_challenge)

    async def verify_challenge(self, address: str, signature: str) -> ChallengeVerification:
        params = {"address": address, "signature": signature}
        return await self._get("/challenge/verify", params, parse_challenge_verification)

    async def cancel(self, request: CancelRequest) -> CancelResult:
        return await self._post("/cancel", request.to_wire(), parse_cancel_result)

    # --- withdraw ---------------------------------------------------------------------------

    async def create_withdraw_intent(self, request: WithdrawIntentRequest) -> WithdrawIntent:
        return await self._post("/intent/withdraw", request.to_wire(), parse_withdraw_intent)

    async def withdraw(self, request: WithdrawSubmission) -> WithdrawResult:
        return await self._post("/withdraw", request.to_wire(), parse_withdraw_result)

    # --- single-inscription bids ------------------------------------------------------------

    async def create_inscription_bid_intent(
        self, request: InscriptionBidIntentRequest
    ) -> UnsignedPsbt:
        return await self._post("/intent/bid", request.to_wire(), parse_inscription_bid_psbt)

    async def place_inscription_bid(self, request: InscriptionBidPlacement) -> BidPlaced:
        return await self._post("/bid/place", request.to_wire(), parse_bid_placed)

    async def get_inscription_bid_states(self, address: str) -> list[InscriptionBidState] | None:
        """The address's single-inscription bids with their state; None when the service does
        not offer that list (404, 405)."""
        params = {"address": address}
        return await self._get_offered(INSCRIPTION_BIDS_PATH, params, parse_inscription_bid_states)

    # --- secure listings --------------------------------------------------------------------

    async def create_secure_sell_intent(self, listing: Listing) -> SecureListingIntent:
        return await self._post(
            "/intent/secure-sell", listing.to_wire(), parse_secure_listing_intent
        )

    async def create_secure_bulk_sell_intent(
        self, listings: Sequence[Listing]
    ) -> SecureListingIntent:
        body = {"listings": listings_wire(listings)}
        return await self._post("/intent/secure-bulk-sell", body, parse_secure_listing_intent)

    async def list_secure(self, request: SecureListingSubmission) -> SecureListingResult:
        return await self._post("/list/secure", request.to_wire(), parse_secure_listing_result)

    async def get_seller_listings(self, seller_ord_address: str) -> list[SellerListing] | None:
        """The seller's secure listings with their state; None when the service does not offer
        that list (404, 405)."""
        params = {"sellerOrdAddress": seller_ord_address}
        return await self._get_offered(LISTINGS_PATH, params, parse_seller_listings)

    async def create_secure_purchase_intent(
        self, request: SecurePurchaseIntentRequest
    ) -> SecurePurchaseIntent:
        return await self._post(
            "/intent/secure-purchase", request.to_wire(), parse_secure_purchase_intent
        )

    # --- plumbing ---------------------------------------------------------------------------

    async def _get(
        self,
        path: str,
        params: QueryParams,
        parse: Callable[[Reader, Any], T],
        max_body_bytes: int | None = None,
    ) -> T:
        body = await self.get_json(
            path, params=params, on_error=self.marketplace_error, max_body_bytes=max_body_bytes
        )
        return parse(Reader(self.service, path), body)

    async def _get_offered(
        self, path: str, params: QueryParams, parse: Callable[[Reader, Any], T]
    ) -> T | None:
        """``_get`` for an endpoint beyond the spec: None when the service answers 404 or 405."""
        response = await self.send("GET", path, params=params)
        if response.status_code in NOT_OFFERED:
            return None
        body = self.json_or_raise(response, self.marketplace_error)
        return parse(Reader(self.service, path), body)

    async def _post(self, path: str, body: Any, parse: Callable[[Reader, Any], T]) -> T:
        answer = await self.post_json(path, body, on_error=self.marketplace_error)
        return parse(Reader(self.service, path), answer)

    def marketplace_error(self, response: httpx.Response) -> NetError:
        """Map an error response: the spec's ``{errorCode, message, ...extra}``, the public
        service's ``{"error": "..."}``, or a FastAPI-style ``{"detail": ...}``."""
        fields = _error_fields(response)
        code = as_str(fields.get("errorCode")) or as_str(fields.get("error_code"))
        message = self.redact(_error_message(fields, response))
        extra = {k: v for k, v in fields.items() if k not in _NOT_EXTRA}
        status = response.status_code
        if status == 429 and "retryAfterMs" not in extra:
            wait = service_wait_s(response)  # a Retry-After header, in seconds or a date
            if wait is not None:
                extra["retryAfterMs"] = math.ceil(wait * 1000)
        if status >= 500:
            return ServerError(self.service, status, message, code, extra)
        cls = MARKETPLACE_ERRORS_BY_CODE.get(code or "")
        if cls is None:
            cls = RateLimited if status == 429 else MarketplaceError
        return cls(self.service, status, message, code, extra)


def _collection_bid_body(request: CollectionBidBody) -> Mapping[str, Any] | str | bytes:
    body: Any = request
    if not isinstance(body, Mapping | str | bytes):
        to_json = getattr(body, "to_json", None)
        if not callable(to_json):
            raise InvalidRequest(f"cannot send a {type(request).__name__} as a bid request")
        body = to_json()
    if isinstance(body, str | bytes):
        try:
            decoded = loads_json(body)
        except ValueError:
            raise InvalidRequest("the bid request text is not JSON") from None
        if not isinstance(decoded, dict):
            raise InvalidRequest("the bid request JSON must be an object")
        return body
    if isinstance(body, Mapping):
        return dict(body)
    raise InvalidRequest(f"to_json() returned a {type(body).__name__}, expected a JSON object")


def _decoded(response: httpx.Response) -> Any:
    try:
        return loads_json(response.content)
    except (ValueError, UnicodeDecodeError):
        return None


def _error_fields(response: httpx.Response) -> dict[str, Any]:
    body = _decoded(response)
    if not isinstance(body, Mapping):
        return {}
    fields = dict(body)
    for wrapper in ("error", "detail"):
        inner = fields.get(wrapper)
        if isinstance(inner, Mapping):
            # {"error": {"errorCode": ...}} or FastAPI's {"detail": {...}}: flatten one level.
            fields.pop(wrapper)
            fields.update(inner)
    return fields


def _error_message(fields: Mapping[str, Any], response: httpx.Response) -> str:
    for key in ("message", "error", "detail"):
        value = fields.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()[:500]
    if "html" not in response.headers.get("content-type", ""):
        text = response.text.strip()
        if text and _decoded(response) is None:
            return text[:300]
    return response.reason_phrase or f"HTTP {response.status_code}"


def _is_public_no_bids_body(response: httpx.Response) -> bool:
    """The public service's 404 for an address without bids: ``{"error": "..."}``.

    Anything else (the sandbox's ``{"errorCode": "NOT_FOUND"}`` for a missing route, a
    framework's ``{"detail"}``, HTML) stays an error: a wrong URL must not read as "no bids",
    since the bid retry rule decides from this list whether a bid was placed."""
    body = _decoded(response)
    return (
        isinstance(body, Mapping)
        and isinstance(body.get("error"), str)
        and ("errorCode" not in body)
    )
