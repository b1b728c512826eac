"""`/sandbox/requests`: the request journal (request_journal.py) read and forgotten; for QA:
docs/sandbox-faults.md."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from app.sandbox.http.errors import error_responses
from app.sandbox.http.request_journal import RequestJournal

router = APIRouter(prefix="/sandbox", tags=["sandbox faults"], responses=error_responses(400, 500))


class JournalFault(BaseModel):
    id: int = Field(description="The fault's id (as armed).")
    kind: str
    outcome: str = Field(description="What it did (as in GET /sandbox/faults' firings).")


class JournalRequest(BaseModel):
    id: int = Field(description="Counts up from 1 for the sandbox's life (clearing keeps on).")
    method: str
    path: str
    query: str = Field(description='The query string as sent, without "?" ("" for none).')
    atMs: int = Field(description="The sandbox clock when the request arrived.")
    status: int | None = Field(
        description="The status answered; null until answered or when none was (a timeout, "
        "a dropped connection)."
    )
    body: Any = Field(None, description="The JSON body sent; null when empty or not JSON.")
    bodyJson: bool = Field(description="Whether the body parsed as JSON (`body` is it).")
    bodyBytes: int = Field(description="The body's size in bytes.")
    fault: JournalFault | None = Field(description="The fault that hit it, if one did.")


class RequestJournalPage(BaseModel):
    requests: list[JournalRequest] = Field(description="Oldest first.")


class RequestsForgotten(BaseModel):
    forgotten: int = Field(description="How many recorded requests were forgotten.")


def journal_of(request: Request) -> RequestJournal:
    journal: RequestJournal = request.app.state.requests
    return journal


@router.get(
    "/requests",
    response_model=RequestJournalPage,
    summary="the requests the sandbox received (the last 5,000), oldest first",
)
async def get_requests(
    request: Request,
    method: Annotated[str | None, Query(pattern=r"^[A-Z]{1,16}$")] = None,
    path: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=512,
            pattern=r"^/",
            description='Exact, or a prefix when it ends in "*".',
        ),
    ] = None,
    since: Annotated[
        int | None, Query(ge=0, le=2**53 - 1, description="Only requests with a higher id.")
    ] = None,
) -> Any:
    found = journal_of(request).select(method=method, path=path, since=since)
    return {"requests": [entry.to_json() for entry in found]}


@router.delete(
    "/requests",
    response_model=RequestsForgotten,
    summary="forget every recorded request",
)
async def delete_requests(request: Request) -> Any:
    return {"forgotten": journal_of(request).clear()}
