"""Typed exceptions of the network clients.

The split that matters to callers (the spec's bid retry rule, section 4.2):
- ``ConnectFailed``: the request never reached the server; it was NOT applied, resending is safe.
- ``RequestTimeout`` / ``ConnectionLost``: the request may have been applied; read state first.
- ``ServerError`` (5xx): the request may have been applied too.
- ``MarketplaceError`` (4xx from the marketplace): the service refused it, with its ``errorCode``.
- ``BadResponse``: a 2xx (or error) body that does not have the expected shape.

No exception here ever carries request headers or bodies: the API key lives in a header and
request bodies carry signatures and PSBTs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any


class NetError(Exception):
    """Base of every error raised by ``app.net``."""


# --- transport ------------------------------------------------------------------------------


class TransportError(NetError):
    """The HTTP exchange did not complete (no status code was received)."""

    #: Whether the server may have received and applied the request.
    may_have_been_applied: bool = True

    def __init__(self, service: str, method: str, path: str, reason: str) -> None:
        self.service = service
        self.method = method
        self.path = path
        self.reason = reason
        super().__init__(f"{service}: {method} {path}: {reason}")


class RequestTimeout(TransportError):
    """Sent (or partly sent) but no answer in time: the request may have been applied."""

    may_have_been_applied = True


class ConnectionLost(TransportError):
    """The connection broke after the request was sent: it may have been applied."""

    may_have_been_applied = True


class ConnectFailed(TransportError):
    """Could not connect (refused, DNS, connect timeout): the request was not applied."""

    may_have_been_applied = False


# --- HTTP status ----------------------------------------------------------------------------


class HttpError(NetError):
    """A non-2xx response. ``extra`` holds the body's fields other than code and message."""

    def __init__(
        self,
        service: str,
        status: int,
        message: str,
        error_code: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        self.service = service
        self.status = status
        self.message = message
        self.error_code = error_code
        self.extra: dict[str, Any] = dict(extra or {})
        code = f", {error_code}" if error_code else ""
        super().__init__(f"{service}: {message} (HTTP {status}{code})")


class ServerError(HttpError):
    """5xx: the server failed; the request may have been applied (check state before retrying)."""


class NotFound(HttpError):
    """404 from Esplora or ord: the transaction, output or inscription is unknown."""


class MarketplaceError(HttpError):
    """A 4xx from the marketplace, with the spec's ``errorCode`` (kept as is when unknown)."""

    #: The errorCode this subclass stands for (None on the generic class).
    code: str | None = None


class WalletIdentityMismatch(MarketplaceError):
    """The bidding wallet is tied to another (ordinals, payment, pubkey) triple; see message."""

    code = "BIDDING_WALLET_IDENTITY_MISMATCH"


class TooManyOrders(MarketplaceError):
    """The request would place more bids than allowed (``details.limit``/``details.requested``)."""

    code = "COLLECTION_BID_TOO_MANY_ORDERS"

    def _detail(self, name: str) -> int | None:
        details = self.extra.get("details")
        value = details.get(name) if isinstance(details, Mapping) else self.extra.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    @property
    def limit(self) -> int | None:
        return self._detail("limit")

    @property
    def requested(self) -> int | None:
        return self._detail("requested")


class TooManyAttributes(MarketplaceError):
    """More traits in one request than the service accepts."""

    code = "COLLECTION_BID_TOO_MANY_ATTRIBUTES"


class SignatureAlreadyUsed(MarketplaceError):
    """This signed bid message already placed a bid: sign a new one (new timestamp)."""

    code = "COLLECTION_BID_SIGNATURE_USED"


class AttributesNotSigned(MarketplaceError):
    """A trait bid whose signature covers only the colon-joined line."""

    code = "COLLECTION_BID_ATTRIBUTES_NOT_SIGNED"


class RateLimited(MarketplaceError):
    """429: wait ``retry_after_ms`` (None when the service did not say) before a new request."""

    @property
    def retry_after_ms(self) -> int | None:
        for source in (self.extra, self.extra.get("details")):
            if isinstance(source, Mapping):
                value = source.get("retryAfterMs")
                if (
                    isinstance(value, int | float)
                    and not isinstance(value, bool)
                    and math.isfinite(value)
                    and value >= 0
                ):
                    return int(value)
        return None


class BidRateLimited(RateLimited):
    """Bids placed faster than one per 500 ms per bidderTokenReceiveAddress."""

    code = "SUBMIT_BID_RATE_LIMITED"


class SecureListingUnsupported(MarketplaceError):
    """A TAP token transfer cannot be a secure listing (list it with /intent/sell instead)."""

    code = "SECURE_LISTING_UNSUPPORTED"


MARKETPLACE_ERRORS_BY_CODE: dict[str, type[MarketplaceError]] = {
    cls.code: cls
    for cls in (
        WalletIdentityMismatch,
        TooManyOrders,
        TooManyAttributes,
        SignatureAlreadyUsed,
        AttributesNotSigned,
        BidRateLimited,
        SecureListingUnsupported,
    )
    if cls.code is not None
}


# --- response shape -------------------------------------------------------------------------


class BadResponse(NetError):
    """A response body that is not what the API promises (``field`` names what is wrong)."""

    def __init__(self, service: str, path: str, problem: str, field: str | None = None) -> None:
        self.service = service
        self.path = path
        self.field = field
        self.problem = problem
        super().__init__(f"{service}: unexpected response to {path}: {problem}")


class NotJson(BadResponse):
    """The body could not be decoded as JSON."""


class BodyTooLarge(BadResponse):
    """An answer longer than any the client reads (``HttpClient.max_body_bytes``): not read."""

    def __init__(self, service: str, path: str, limit: int) -> None:
        super().__init__(service, path, f"the answer is larger than {limit:,} bytes")
        self.limit = limit


class NoFeeEstimates(BadResponse):
    """The Esplora server returned no usable fee estimate (common on a fresh regtest chain)."""


class BroadcastRejected(NetError):
    """The node refused the transaction; ``reason`` is its message ('min relay fee not met')."""

    def __init__(self, service: str, status: int, reason: str) -> None:
        self.service = service
        self.status = status
        self.reason = reason
        super().__init__(f"{service}: transaction rejected: {reason}")
