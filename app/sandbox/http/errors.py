"""The error envelope: every error response is JSON `{"errorCode", "message"}`, fitting status.

Route code raises `ApiError` (or lets a chain exception through); `install_error_handlers` maps
those, FastAPI's validation errors and Starlette's HTTP errors (404, 405, 413) to the envelope.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.sandbox.chain.errors import (
    BlockRejected,
    ChainError,
    InvalidRequest,
    NotFound,
    StorageError,
    TxRejected,
)

log = logging.getLogger(__name__)

INVALID_REQUEST = "INVALID_REQUEST"
INVALID_JSON = "INVALID_JSON"
NOT_FOUND = "NOT_FOUND"
NOT_ACCEPTABLE = "NOT_ACCEPTABLE"
METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
UNAUTHORIZED = "UNAUTHORIZED"
RATE_LIMITED = "RATE_LIMITED"
INTERNAL_ERROR = "INTERNAL_ERROR"

# Codes for HTTP errors raised by Starlette itself (routing, body limit), by status.
_CODE_BY_STATUS = {
    400: INVALID_REQUEST,
    401: UNAUTHORIZED,
    403: "FORBIDDEN",
    404: NOT_FOUND,
    405: METHOD_NOT_ALLOWED,
    409: "CONFLICT",
    413: PAYLOAD_TOO_LARGE,
    415: "UNSUPPORTED_MEDIA_TYPE",
    429: RATE_LIMITED,
    500: INTERNAL_ERROR,
    502: "BAD_GATEWAY",
    503: "SERVICE_UNAVAILABLE",
    504: "GATEWAY_TIMEOUT",
}

# How many validation problems one message lists; the rest are summarised by a count.
_MAX_LISTED_PROBLEMS = 3


class ErrorBody(BaseModel):
    """The JSON body of every error response: `errorCode` and `message` always; the extra
    fields of spec section 7 where they apply."""

    errorCode: str
    message: str
    field: str | None = Field(None, description="The request field at fault, when there is one.")
    details: dict[str, Any] | None = Field(
        None, description="e.g. `limit` and `requested` of COLLECTION_BID_TOO_MANY_ORDERS."
    )
    retryAfterMs: int | None = Field(None, description="SUBMIT_BID_RATE_LIMITED: how long to wait.")
    violations: list[dict[str, Any]] | None = Field(
        None, description="Every rule a request broke, when it broke more than one."
    )


class ApiError(Exception):
    """An error the HTTP layer reports as-is: status, stable code and a human message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class PayloadTooLarge(StarletteHTTPException):
    """Raised while a body is being received once it passes the limit.

    A Starlette HTTPException on purpose: FastAPI re-raises those from body parsing unchanged,
    so it reaches our handler instead of becoming a generic 400.
    """

    def __init__(self, limit: int) -> None:
        super().__init__(status_code=413, detail=f"request body is larger than {limit} bytes")


def error_response(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        {"errorCode": code, "message": message}, status_code=status, headers=headers
    )


def code_for_status(status: int) -> str:
    """The envelope's code for an error known only by its status (`HTTP_<status>` otherwise)."""
    return _CODE_BY_STATUS.get(status, f"HTTP_{status}")


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI `responses=` entries documenting the envelope for the given statuses."""
    return {
        status: {"model": ErrorBody, "description": HTTPStatus(status).phrase}
        for status in statuses
    }


def validation_message(errors: list[Any]) -> tuple[str, str]:
    """(errorCode, message) for FastAPI's validation errors; the message names each field."""
    if any(err.get("type") == "json_invalid" for err in errors):
        detail = next(err for err in errors if err.get("type") == "json_invalid")
        reason = (detail.get("ctx") or {}).get("error", "malformed JSON")
        return INVALID_JSON, f"request body is not valid JSON: {reason}"
    parts = []
    for err in errors[:_MAX_LISTED_PROBLEMS]:
        field = ".".join(str(p) for p in err.get("loc", ())) or "request"
        parts.append(f"{field}: {err.get('msg', 'invalid value')}")
    if len(errors) > _MAX_LISTED_PROBLEMS:
        more = len(errors) - _MAX_LISTED_PROBLEMS
        parts.append(f"and {more} more {'problem' if more == 1 else 'problems'}")
    return INVALID_REQUEST, "; ".join(parts)


def chain_error_status(exc: ChainError) -> int:
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, InvalidRequest | TxRejected):
        return 400
    if isinstance(exc, BlockRejected | StorageError):
        return 500  # the sandbox's own fault, never the caller's input
    # Any other refusal (Conflict, InsufficientFunds, ...) clashes with the current state.
    return 409


async def _on_api_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message)


async def _on_chain_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ChainError)
    status = chain_error_status(exc)
    if status >= 500:
        log.error("%s %s failed: %r", request.method, request.url.path, exc)
    return error_response(status, exc.code, exc.message)


async def _on_validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    code, message = validation_message(list(exc.errors()))
    return error_response(400, code, message)


async def _on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    code = code_for_status(status)
    if status == 404 and exc.detail == "Not Found":
        message = f"no such endpoint: {request.method} {request.url.path}"
    elif status == 405:
        message = f"method {request.method} is not allowed on {request.url.path}"
    else:
        message = str(exc.detail)
    return error_response(status, code, message, headers=exc.headers)


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _on_api_error)
    app.add_exception_handler(ChainError, _on_chain_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
