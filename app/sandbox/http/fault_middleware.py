"""ASGI middleware applying the armed faults of `/sandbox/faults` (see faults.py).

It sits outside the body limit, the rate limit and every route (inside only the catch-all 500),
so a fault that does not apply the request answers before the app sees a byte of it. One that
applies it runs the app with its answer captured, then sends its own instead (an error, 429,
nothing at all) or the captured answer with its PSBTs tampered.

It also keeps the request journal (request_journal.py): it reads each request's body first (up
to the body limit; `whenBody` looks at it too), records the request, then hands the app the
body unchanged and notes the status answered.

Closing a connection without an answer: under uvicorn the request's transport is closed
(the client sees the connection end with no response at all); elsewhere (an in-process test
transport) a response is started and never finished, which is the nearest an ASGI app can do.
"""

from __future__ import annotations

import asyncio
import json
import math
from dataclasses import dataclass, field
from http import HTTPStatus

from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.errors import ErrorCode
from app.sandbox.chain.node import Node
from app.sandbox.faults_tampers import TAMPERS_BY_NAME, TamperNotApplicable, tamper_answer
from app.sandbox.http.errors import RATE_LIMITED, code_for_status, error_response
from app.sandbox.http.faults import Fault, FaultBook, is_control_path
from app.sandbox.http.request_journal import JournalEntry, RequestJournal

FAULT_NOT_APPLICABLE = "FAULT_NOT_APPLICABLE"
_BID_PLACE = "/v1/bid/place"


@dataclass
class _Captured:
    """The app's answer, kept from the client."""

    status: int = 0
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: bytearray = field(default_factory=bytearray)


class FaultMiddleware:
    def __init__(
        self,
        app: ASGIApp,
        book: FaultBook,
        journal: RequestJournal,
        node: Node,
        max_body_bytes: int,
    ) -> None:
        self.app = app
        self.book = book
        self.journal = journal
        self.node = node
        self.max_body_bytes = max_body_bytes  # read first; a larger body is not JSON to either

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or is_control_path(scope["path"]):
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        read, raw, size = await _read_body(scope, receive, self.max_body_bytes)
        query = scope.get("query_string", b"").decode("latin-1")
        entry = self.journal.record(method, path, query, raw, size)
        app_receive = _replaying(read, receive, entry)
        answering = _status_into(entry, send)
        taken = self.book.take(method, path, entry.body if entry.body_json else None)
        if taken is None:
            try:
                await self.app(scope, app_receive, answering)
            except Exception:
                entry.status = entry.status or 500  # the catch-all answers it
                raise
            return
        fault, firing = taken
        entry.firing = firing
        applied = fault.applied or fault.kind == "tamper"
        captured = _Captured()
        if applied:
            try:
                await self.app(scope, app_receive, _capture_into(captured))
            except Exception:
                entry.status = 500  # the catch-all answers it
                self.book.done(firing, "not done: the app failed on the request (see below)")
                raise  # the catch-all answers 500 and logs the traceback
        when = (
            f"after it was applied (the app answered {captured.status})"
            if applied
            else "without applying it"
        )
        # The firing is logged before the client can see it (an answer, a closed connection),
        # so whoever watches the log finds the line once the client has its outcome.
        if fault.kind == "timeout":
            firing.outcome = f"holding the connection unanswered {when}"
            gave_up = await _held_until_client_gives_up(receive, fault.hold_ms or 0)
            ended = (
                "the client gave up" if gave_up else f"{fault.hold_ms} ms passed, then closed it"
            )
            self.book.done(firing, f"held the connection unanswered {when} until {ended}")
            if not gave_up:
                await _close_unanswered(receive, send)
            return
        if fault.kind == "drop":
            self.book.done(firing, f"closed the connection unanswered {when}")
            await _close_unanswered(receive, send)
            return
        if fault.kind == "tamper":
            outcome, answer = await self._tamper(fault, scope, raw or b"", captured)
        elif fault.kind == "error":
            assert fault.status is not None
            answer = _injected_error(fault, fault.status)
            named = "" if fault.retry_after_ms is None else f" retryAfterMs {fault.retry_after_ms}"
            outcome = f"answered {fault.status}{named} {when}"
        elif fault.kind == "rate-limit":
            answer = _rate_limited(fault, scope["path"])
            outcome = f"answered 429 retryAfterMs {fault.retry_after_ms} {when}"
        elif fault.body_text is not None:
            assert fault.status is not None
            answer = Response(fault.body_text, fault.status, media_type="application/json")
            outcome = f"answered {fault.status} with the armed text {when}"
        else:
            assert fault.status is not None
            answer = JSONResponse(fault.body, status_code=fault.status)
            outcome = f"answered {fault.status} with the armed body {when}"
        self.book.done(firing, outcome)
        await answer(scope, _no_receive, answering)

    async def _tamper(
        self, fault: Fault, scope: Scope, request: bytes, captured: _Captured
    ) -> tuple[str, ASGIApp]:
        """What was done, and the answer: the captured one with its PSBTs tampered."""
        if captured.status != 200:
            return f"not tampered: the app answered {captured.status}", _replay(captured)
        assert fault.tamper is not None
        tamper = TAMPERS_BY_NAME[fault.tamper]
        try:
            answer = json.loads(captured.body)
            changes = await run_in_threadpool(
                tamper_answer, tamper, self.node, scope["path"], json.loads(request), answer["data"]
            )
        except (TamperNotApplicable, KeyError, TypeError, ValueError) as exc:
            reason = str(exc) or type(exc).__name__
            message = f"injected fault {fault.id}: tamper {tamper.name} cannot apply: {reason}"
            return (
                f"answered 500: tamper {tamper.name} cannot apply ({reason})",
                error_response(500, FAULT_NOT_APPLICABLE, message),
            )
        outcome = f"served the PSBT tampered by {tamper.name}: {'; '.join(changes)}"
        return outcome, _replay(captured, json.dumps(answer).encode())


async def _read_body(
    scope: Scope, receive: Receive, limit: int
) -> tuple[list[Message], bytes | None, int]:
    """The messages read of the request's body, the body (None when it passes `limit` bytes:
    reading stops there, or never starts when Content-Length says so) and how many bytes were
    read."""
    read: list[Message] = []
    size = 0
    announced = Headers(raw=scope.get("headers", [])).get("content-length")
    if announced is not None and announced.isdigit() and int(announced) > limit:
        return read, None, size  # the body limit refuses it unread
    while True:
        message = await receive()
        read.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        if not message.get("more_body") or size > limit:
            break
    complete = read[-1]["type"] == "http.request" and not read[-1].get("more_body")
    raw = b"".join(m.get("body", b"") for m in read) if complete and size <= limit else None
    return read, raw, size


def _replaying(read: list[Message], receive: Receive, entry: JournalEntry) -> Receive:
    """A `receive` handing the app the messages `read` first, then the rest (counted into
    the journal entry's size: the part of a body over the limit)."""

    async def replaying() -> Message:
        if read:
            return read.pop(0)
        message = await receive()
        if message["type"] == "http.request":
            entry.body_bytes += len(message.get("body", b""))
        return message

    return replaying


def _status_into(entry: JournalEntry, send: Send) -> Send:
    """`send`, noting the status answered in the journal entry."""

    async def noting(message: Message) -> None:
        if message["type"] == "http.response.start":
            entry.status = message["status"]
        await send(message)

    return noting


def _capture_into(captured: _Captured) -> Send:
    async def capture(message: Message) -> None:
        if message["type"] == "http.response.start":
            captured.status = message["status"]
            captured.headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            captured.body.extend(message.get("body", b""))

    return capture


def _replay(captured: _Captured, body: bytes | None = None) -> ASGIApp:
    """The captured answer (with `body` in place of its own) as an ASGI app to send it."""
    payload = bytes(captured.body) if body is None else body

    async def answer(_scope: Scope, _receive: Receive, send: Send) -> None:
        headers = MutableHeaders(raw=list(captured.headers))
        headers["content-length"] = str(len(payload))
        start = {"type": "http.response.start", "status": captured.status, "headers": headers.raw}
        await send(start)
        await send({"type": "http.response.body", "body": payload})

    return answer


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


def _injected_error(fault: Fault, status: int) -> JSONResponse:
    phrase = HTTPStatus(status).phrase
    when = "after the request was applied" if fault.applied else "before the request was applied"
    message = f"injected fault {fault.id}: {status} {phrase} {when}"
    if fault.retry_after_ms is None:
        return error_response(status, code_for_status(status), message)
    return _naming_a_wait(status, code_for_status(status), message, fault.retry_after_ms)


def _rate_limited(fault: Fault, path: str) -> JSONResponse:
    retry_ms = fault.retry_after_ms or 0
    code = ErrorCode.SUBMIT_BID_RATE_LIMITED.value if path == _BID_PLACE else RATE_LIMITED
    message = f"injected fault {fault.id}: rate limited, retry in {retry_ms} ms"
    return _naming_a_wait(429, code, message, retry_ms)


def _naming_a_wait(status: int, code: str, message: str, retry_ms: int) -> JSONResponse:
    """The error envelope with `retryAfterMs`, and Retry-After in whole seconds, rounded up."""
    return JSONResponse(
        {"errorCode": code, "message": message, "retryAfterMs": retry_ms},
        status_code=status,
        headers={"Retry-After": str(math.ceil(retry_ms / 1000))},
    )


async def _held_until_client_gives_up(receive: Receive, hold_ms: int) -> bool:
    """Wait until the client disconnects (True) or `hold_ms` passes (False)."""

    async def disconnected() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    try:
        await asyncio.wait_for(disconnected(), hold_ms / 1000)
    except TimeoutError:
        return False
    return True


async def _close_unanswered(receive: Receive, send: Send) -> None:
    transport = getattr(getattr(receive, "__self__", None), "transport", None)
    if transport is not None:  # uvicorn: close the socket; wait until it has seen it closed
        transport.close()
        while (await receive())["type"] != "http.disconnect":
            pass
        return
    # No transport to close: promise a body and send none of it.
    start = {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"1")]}
    await send(start)
