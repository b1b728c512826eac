"""Reading JSON request bodies field by field with the table's codes: MISSING_FIELD for an
absent required field, INVALID_FIELD for a wrong type (a JSON `true` is not an integer)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.core.errors import ErrorCode
from app.sandbox.market.errors import MarketError

# Long enough for any address, signature, PSBT of a few thousand inputs; bounded anyway.
MAX_TEXT_CHARS = 4 * 1024 * 1024


def require_object(body: Any) -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        raise MarketError(
            ErrorCode.INVALID_FIELD, "the request body must be a JSON object: send one"
        )
    return body


def require_str(body: Mapping[str, Any], name: str, max_chars: int = MAX_TEXT_CHARS) -> str:
    value = body.get(name)
    if value is None:
        raise MarketError(ErrorCode.MISSING_FIELD, f"{name} is required: send it", field=name)
    if not isinstance(value, str) or not value or len(value) > max_chars:
        raise MarketError(
            ErrorCode.INVALID_FIELD,
            f"{name} must be a non-empty string of at most {max_chars} characters",
            field=name,
        )
    return value


def require_int(body: Mapping[str, Any], name: str) -> int:
    value = body.get(name)
    if value is None:
        raise MarketError(ErrorCode.MISSING_FIELD, f"{name} is required: send it", field=name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MarketError(
            ErrorCode.INVALID_FIELD, f"{name} must be a whole number (JSON integer)", field=name
        )
    return value
