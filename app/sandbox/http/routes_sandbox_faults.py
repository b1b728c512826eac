"""`/sandbox/faults`: arm, list and remove faults; `/sandbox/faults/tampers`: the catalogue.

What a fault is and how it matches requests: faults.py; how each kind answers:
fault_middleware.py; the tampers: app/sandbox/faults_tampers.py; for QA: docs/sandbox-faults.md.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from app.sandbox.faults_tampers import TAMPERS, TAMPERS_BY_NAME
from app.sandbox.http.errors import INVALID_REQUEST, NOT_FOUND, ApiError, error_responses
from app.sandbox.http.faults import DEFAULT_HOLD_MS, Fault, FaultBook
from app.sandbox.http.schemas_faults import (
    MAX_RETRY_AFTER_MS,
    ArmedFault,
    FaultList,
    FaultRequest,
    FaultsRemoved,
    TamperCatalogue,
)

router = APIRouter(prefix="/sandbox", tags=["sandbox faults"], responses=error_responses(400, 500))

DEFAULT_ERROR_STATUS = 503
DEFAULT_RETRY_AFTER_MS = 1_000
# The kinds each optional field belongs to.
_FIELD_KINDS = {
    "applied": ("error", "timeout", "drop"),
    "holdMs": ("timeout",),
    "retryAfterMs": ("rate-limit", "error"),
    "tamper": ("tamper",),
    "body": ("reply",),
    "bodyText": ("reply",),
    "status": ("error", "reply"),
}


def book_of(request: Request) -> FaultBook:
    book: FaultBook = request.app.state.faults
    return book


@router.post(
    "/faults",
    response_model=ArmedFault,
    status_code=201,
    summary="arm a fault for the next requests matching a method and path",
)
async def post_fault(body: FaultRequest, request: Request) -> Any:
    return book_of(request).arm(fault_of(body)).to_json()


@router.get("/faults", response_model=FaultList, summary="the armed faults and recent firings")
async def get_faults(request: Request) -> Any:
    book = book_of(request)
    return {
        "armed": [f.to_json() for f in book.armed],
        "fired": [f.to_json() for f in book.fired],
    }


@router.delete(
    "/faults",
    response_model=FaultsRemoved,
    summary="remove every armed fault and forget the firings",
)
async def delete_faults(request: Request) -> Any:
    return {"removed": book_of(request).clear()}


@router.delete(
    "/faults/{faultId}",
    response_model=ArmedFault,
    responses=error_responses(404),
    summary="remove one armed fault",
)
async def delete_fault(faultId: Annotated[int, Path(ge=1, le=2**53 - 1)], request: Request) -> Any:
    removed = book_of(request).remove(faultId)
    if removed is None:
        raise ApiError(404, NOT_FOUND, f"no armed fault {faultId} (fired out or removed?)")
    return removed.to_json()


@router.get(
    "/faults/tampers",
    response_model=TamperCatalogue,
    summary="the named PSBT tampers a tamper fault can serve",
)
async def get_tampers() -> Any:
    return {
        "tampers": [
            {
                "name": t.name,
                "description": t.description,
                "paths": sorted(t.paths),
                "refusal": t.refusal,
            }
            for t in TAMPERS
        ]
    }


def fault_of(req: FaultRequest) -> Fault:
    """The fault a request arms (id 0 until armed), or 400 naming what is wrong with it."""
    given = req.model_fields_set
    for name, kinds in _FIELD_KINDS.items():
        if name in given and getattr(req, name) is not None and req.kind not in kinds:
            raise _bad(f"{name} does not apply to kind {req.kind} (only to {', '.join(kinds)})")
    status = req.status
    if req.kind == "error":
        status = DEFAULT_ERROR_STATUS if status is None else status
        if status < 400:
            raise _bad(f"status {status} is not an error: give 400-599")
    if req.kind == "reply" and status is None:
        raise _bad("a reply needs the status it answers with")
    if req.bodyText is not None and "body" in given:
        raise _bad("a reply answers body or bodyText, not both")
    retry_after_ms = req.retryAfterMs
    if req.kind == "rate-limit":
        retry_after_ms = DEFAULT_RETRY_AFTER_MS if retry_after_ms is None else retry_after_ms
        if retry_after_ms > MAX_RETRY_AFTER_MS:
            raise _bad(
                f"retryAfterMs {retry_after_ms} is over rate-limit's {MAX_RETRY_AFTER_MS:,} "
                "(an error fault names any wait)"
            )
    only_paths = None
    if req.kind == "tamper":
        only_paths = _tamper_paths(req)
    return Fault(
        id=0,
        kind=req.kind,
        method=req.method,
        path=req.path,
        left=req.times,
        applied=bool(req.applied),
        status=status,
        hold_ms=(req.holdMs or DEFAULT_HOLD_MS) if req.kind == "timeout" else None,
        retry_after_ms=retry_after_ms,
        tamper=req.tamper,
        body=req.body,
        body_text=req.bodyText,
        only_paths=only_paths,
        when_body=req.whenBody,
    )


def _tamper_paths(req: FaultRequest) -> frozenset[str]:
    names = ", ".join(t.name for t in TAMPERS)
    if req.tamper is None:
        raise _bad(f"a tamper fault needs tamper: one of {names}")
    tamper = TAMPERS_BY_NAME.get(req.tamper)
    if tamper is None:
        raise _bad(f"unknown tamper {req.tamper!r}: the catalogue has {names}")
    probe = Fault(0, "tamper", req.method, req.path, None, only_paths=tamper.paths)
    if not any(probe.matches("POST", p) for p in tamper.paths):
        raise _bad(
            f"tamper {tamper.name} applies to POST {', '.join(sorted(tamper.paths))}, which "
            f"{req.method} {req.path} does not match"
        )
    return tamper.paths


def _bad(message: str) -> ApiError:
    return ApiError(400, INVALID_REQUEST, message)
