"""Request and response bodies of `/sandbox/faults` (faults.py says what a fault is)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.sandbox.http.faults import MAX_HOLD_MS

MAX_RETRY_AFTER_MS = 3_600_000  # rate-limit: at most the hour a real service might ask
# error: any wait a JSON number names exactly, years included (what a broken service may say).
MAX_NAMED_WAIT_MS = 2**53 - 1
MAX_BODY_TEXT_CHARS = 65_536


class FaultRequest(BaseModel):
    """A fault to arm. Fields other than `kind`, `method`, `path` and `times` belong to some
    kinds only; a field given to a kind it does not belong to is refused."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["error", "timeout", "drop", "rate-limit", "tamper", "reply"] = Field(
        description="error: an error envelope; timeout: the connection held unanswered; drop: "
        "the connection closed unanswered; rate-limit: 429 with retryAfterMs; tamper: the "
        "answer's PSBTs altered by a named tamper; reply: `status` with `body` as given."
    )
    path: str = Field(
        min_length=1,
        max_length=512,
        pattern=r"^/",
        description='The request path, exact, or a prefix when it ends in "*" (no query).',
    )
    method: str = Field("*", pattern=r"^(\*|[A-Z]{1,16})$", description='"*" matches any.')
    times: int | None = Field(
        1, ge=1, le=1_000_000, description="How many requests it hits; null: until removed."
    )
    applied: bool | None = Field(
        None,
        description="error, timeout, drop: true lets the app handle the request fully first "
        "(e.g. a bid is stored); false (the default) answers before the app sees it.",
    )
    status: int | None = Field(
        None, ge=200, le=599, description="error: 400-599 (503 by default); reply: required."
    )
    holdMs: int | None = Field(
        None,
        ge=1,
        le=MAX_HOLD_MS,
        description="timeout: the longest it holds the connection (60,000 by default); it "
        "ends sooner when the client gives up.",
    )
    retryAfterMs: int | None = Field(
        None,
        ge=0,
        le=MAX_NAMED_WAIT_MS,
        description="rate-limit: at most 3,600,000, 1,000 by default; error: any, none by "
        "default (given: in the envelope and as Retry-After).",
    )
    tamper: str | None = Field(
        None, max_length=64, description="tamper: a name of GET /sandbox/faults/tampers."
    )
    body: Any = Field(None, description="reply: the JSON body answered.")
    bodyText: str | None = Field(
        None,
        max_length=MAX_BODY_TEXT_CHARS,
        description="reply: this exact text answered instead of `body`, as application/json "
        "(e.g. something that is not JSON).",
    )
    whenBody: dict[str, Any] | None = Field(
        None,
        max_length=20,
        description="Hit only requests whose JSON body is an object holding each of these "
        "top-level fields with these values (any kind).",
    )


class ArmedFault(BaseModel):
    id: int
    kind: str
    method: str
    path: str
    left: int | None = Field(description="Requests it will still hit; null: until removed.")
    applied: bool
    status: int | None
    holdMs: int | None
    retryAfterMs: int | None
    tamper: str | None
    body: Any = None
    bodyText: str | None = None
    whenBody: dict[str, Any] | None = None
    description: str


class FiredFault(BaseModel):
    faultId: int
    kind: str
    method: str
    path: str
    atMs: int = Field(description="The sandbox clock when the request arrived.")
    left: int | None
    outcome: str = Field(description='What was done ("in progress", "holding ..." until known).')


class FaultList(BaseModel):
    armed: list[ArmedFault]
    fired: list[FiredFault] = Field(description="The recent firings, oldest first.")


class FaultsRemoved(BaseModel):
    removed: int = Field(description="How many armed faults were removed.")


class TamperInfo(BaseModel):
    name: str
    description: str
    paths: list[str] = Field(description="The intent endpoints it applies to.")
    refusal: str = Field(description="What the app's PSBT guard answers to it.")


class TamperCatalogue(BaseModel):
    tampers: list[TamperInfo]
