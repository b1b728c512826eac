"""Reading the JSON bodies of the single-inscription bid and secure listing endpoints.

Every missing, mistyped or unknown field is a 400 that names it (`field`), the way the collection
bid endpoint answers: `MISSING_FIELD` (absent or null), `INVALID_FIELD` (wrong JSON type, an
integer beyond 2^53-1), `UNKNOWN_FIELD` (a misspelt name would otherwise be silently ignored).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from app.core.bid_fee_rate import BidFeeRate, InvalidBidFeeRate
from app.core.errors import ErrorCode
from app.core.limits import MAX_SAFE_INTEGER
from app.sandbox.chain.node import Node
from app.sandbox.market.errors import MarketError

DEFAULT_FEE_RATE = 2.0  # sat/vB: above the relay minimum, as the sandbox's own wallet pays
MAX_TEXT = 200


def path(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def as_object(body: Any, where: str = "") -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"{where or 'the request body'} must be a JSON object",
            field=where,
        )
    return body


def reject_unknown(body: Mapping[str, Any], known: Collection[str], prefix: str = "") -> None:
    for name in body:
        if name not in known:
            raise MarketError(
                ErrorCode.UNKNOWN_FIELD,
                f"{path(prefix, name)} is not a field of this request: check its spelling",
                field=path(prefix, name),
            )


def require(body: Mapping[str, Any], name: str, prefix: str = "") -> Any:
    value = body.get(name)
    if value is None:
        raise MarketError(
            ErrorCode.MISSING_FIELD,
            f"{path(prefix, name)} is required",
            field=path(prefix, name),
        )
    return value


def text(body: Mapping[str, Any], name: str, prefix: str = "") -> str:
    value = require(body, name, prefix)
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"{path(prefix, name)} must be a non-empty string of at most {MAX_TEXT} characters",
            field=path(prefix, name),
        )
    return value.strip()


def optional_text(body: Mapping[str, Any], name: str, prefix: str = "") -> str | None:
    return None if body.get(name) is None else text(body, name, prefix)


def integer(body: Mapping[str, Any], name: str, prefix: str = "") -> int:
    value = require(body, name, prefix)
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_SAFE_INTEGER:
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"{path(prefix, name)} must be a JSON integer (sats) within 2^53-1",
            field=path(prefix, name),
        )
    return value


def string_list(body: Mapping[str, Any], name: str, limit: int) -> list[str] | None:
    """An optional list of strings (`allowedPaymentOutpoints`, `inscriptionIds`)."""
    value = body.get(name)
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) > limit
        or not all(isinstance(v, str) and v for v in value)
    ):
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"{name} must be a list of at most {limit} non-empty strings",
            field=name,
        )
    return [v.strip().lower() for v in value]


def fee_rate(node: Node, value: Any) -> float:
    """`feeRate`: sat/vB as a number, or one of the public service's names, which stand for
    the sandbox's Esplora estimate for that many blocks now (never below DEFAULT_FEE_RATE).
    The accepted values are app.core's rule (`BidFeeRate`), for every endpoint that takes
    one; absent (None) is DEFAULT_FEE_RATE."""
    if value is None:
        return DEFAULT_FEE_RATE
    try:
        choice = BidFeeRate.from_wire(value)
    except InvalidBidFeeRate as exc:
        raise MarketError(ErrorCode.INVALID_FIELD, str(exc), field="feeRate") from None
    if choice.name is None:
        assert choice.sat_vb is not None
        return float(choice.sat_vb)
    estimate = node.fee_estimates()[str(choice.name.target_blocks)]
    return max(DEFAULT_FEE_RATE, estimate)
