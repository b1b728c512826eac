"""The error the marketplace raises: an HTTP status, a code from `app.core.errors` (or one of
the sandbox's own), a message that says how to fix it, and the extra fields of its table row.

The HTTP layer renders `to_json()` as the body, so `retryAfterMs` (top level) and `details`
arrive exactly as `docs/error-codes.md` lists them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.core.errors import ERROR_CODES, ErrorCode, RuleViolation


class MarketError(Exception):
    """A refused marketplace request. Never carries a secret: messages name public data only."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        status: int | None = None,
        field: str = "",
        details: Mapping[str, Any] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.status = ERROR_CODES[code].status if status is None else status
        self.message = message
        self.field = field
        self.details = dict(details or {})
        self.extra = dict(extra or {})

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"errorCode": self.code.value, "message": self.message}
        if self.field:
            body["field"] = self.field
        if self.details:
            body["details"] = self.details
        body.update(self.extra)
        return body

    @classmethod
    def from_violations(cls, violations: Sequence[RuleViolation]) -> MarketError:
        """The first violation as the error; all of them under `violations` (a request that
        breaks several rules is told every one at once)."""
        first = violations[0]
        extra: dict[str, Any] = {}
        if len(violations) > 1:
            extra["violations"] = [v.to_json() for v in violations]
        return cls(first.code, first.message, field=first.field, details=first.details, extra=extra)
