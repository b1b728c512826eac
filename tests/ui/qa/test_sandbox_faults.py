"""The QA plugin's sandbox faults against the session's real sandbox (no window): armed through
`bidwallet_faults`, seen by a client as the sandbox serves them, listed as fired, and gone when
the scope ends; outside a scope `sandbox.faults` refuses."""

from __future__ import annotations

import httpx
import pytest

from app.services.sandbox_scenario import SandboxRefused
from app.ui.qa.sandbox import Sandbox
from app.ui.qa.sandbox_faults import SandboxFaults

TIP = "/esplora/blocks/tip/height"


def get(sandbox: Sandbox, path: str) -> httpx.Response:
    with httpx.Client(base_url=sandbox.url, timeout=30) as http:
        return http.get(path)


def test_outside_a_scope_faults_are_refused(bidwallet_sandbox: Sandbox) -> None:
    with pytest.raises(RuntimeError, match="bidwallet_faults"):
        bidwallet_sandbox.faults.error("GET", TIP)


def test_an_error_hits_the_next_request_once_and_is_listed_as_fired(
    bidwallet_sandbox: Sandbox, bidwallet_faults: SandboxFaults
) -> None:
    assert bidwallet_sandbox.faults is bidwallet_faults
    armed = bidwallet_faults.error("GET", "/sandbox/collections", status=503, applied=False)
    assert (armed.kind, armed.status, armed.left, armed.applied) == ("error", 503, 1, False)
    with pytest.raises(SandboxRefused) as refused:
        bidwallet_sandbox.run(lambda c: c.collections())
    assert (refused.value.status, refused.value.error_code) == (503, "SERVICE_UNAVAILABLE")
    assert bidwallet_sandbox.run(lambda c: c.collections())  # once only
    (fired,) = bidwallet_faults.fired()
    assert (fired.fault_id, fired.path, fired.left) == (armed.id, "/sandbox/collections", 0)
    assert bidwallet_faults.armed() == ()


def test_a_rate_limit_says_when_to_come_back(
    bidwallet_sandbox: Sandbox, bidwallet_faults: SandboxFaults
) -> None:
    bidwallet_faults.rate_limit("GET", TIP, retry_after_ms=2_500, times=2)
    answers = [get(bidwallet_sandbox, TIP) for _ in range(3)]
    assert [a.status_code for a in answers] == [429, 429, 200]
    assert answers[0].json()["retryAfterMs"] == 2_500
    assert answers[0].headers["retry-after"] == "3"


def test_an_error_naming_a_wait_and_a_reply_of_garbage(
    bidwallet_sandbox: Sandbox, bidwallet_faults: SandboxFaults
) -> None:
    bidwallet_faults.error("GET", TIP, status=429, applied=True, retry_after_ms=10**15)
    garbage = '{"retryAfterMs": Infinity}'
    armed = bidwallet_faults.reply("GET", TIP, 200, body_text=garbage)
    assert (armed.body_text, armed.body) == (garbage, None)
    limited, malformed = get(bidwallet_sandbox, TIP), get(bidwallet_sandbox, TIP)
    assert (limited.status_code, limited.json()["retryAfterMs"]) == (429, 10**15)
    assert limited.headers["retry-after"] == str(10**12)
    assert (malformed.status_code, malformed.text) == (200, garbage)


def test_a_dropped_connection_and_a_fault_until_removed(
    bidwallet_sandbox: Sandbox, bidwallet_faults: SandboxFaults
) -> None:
    dropping = bidwallet_faults.drop("GET", TIP, applied=False, times=None)
    for _ in range(2):
        with pytest.raises(httpx.RemoteProtocolError):
            get(bidwallet_sandbox, TIP)
    assert bidwallet_faults.remove(dropping.id).id == dropping.id
    assert get(bidwallet_sandbox, TIP).status_code == 200


def test_a_tamper_is_armed_by_name_and_an_unknown_one_refused(
    bidwallet_faults: SandboxFaults,
) -> None:
    catalogue = bidwallet_faults.tampers()
    withdraw = next(t for t in catalogue if "/v1/intent/withdraw" in t.paths)
    armed = bidwallet_faults.tamper("POST", "/v1/intent/withdraw", withdraw.name)
    assert (armed.kind, armed.tamper) == ("tamper", withdraw.name)
    with pytest.raises(SandboxRefused) as refused:
        bidwallet_faults.tamper("POST", "/v1/intent/withdraw", "no-such-tamper")
    assert refused.value.status == 400 and withdraw.name in refused.value.message


def test_a_reply_and_a_timeout_are_armed_as_asked(bidwallet_faults: SandboxFaults) -> None:
    reply = bidwallet_faults.reply("*", "/ord/*", 503, {"message": "down"}, times=None)
    held = bidwallet_faults.timeout("POST", "/v1/bid/place", hold_ms=5_000, applied=True)
    assert (reply.path, reply.status, reply.body, reply.left) == (
        "/ord/*",
        503,
        {"message": "down"},
        None,
    )
    assert (held.kind, held.hold_ms, held.applied) == ("timeout", 5_000, True)
    assert [f.id for f in bidwallet_faults.armed()] == [reply.id, held.id]


def test_the_scope_removes_its_faults_and_firings(bidwallet_sandbox: Sandbox) -> None:
    with bidwallet_sandbox.fault_scope() as faults:
        faults.error("GET", TIP, times=None)
        assert get(bidwallet_sandbox, TIP).status_code == 503
        with pytest.raises(RuntimeError, match="already open"), bidwallet_sandbox.fault_scope():
            pass
    left = bidwallet_sandbox.run(lambda c: c.faults())
    assert (left.armed, left.fired) == ((), ())
    assert get(bidwallet_sandbox, TIP).status_code == 200
    with pytest.raises(RuntimeError, match="bidwallet_faults"):
        bidwallet_sandbox.faults.clear()


def test_the_journal_has_what_was_sent_since_the_scope_began(
    bidwallet_sandbox: Sandbox,
) -> None:
    get(bidwallet_sandbox, TIP)  # before the scope: forgotten when it starts
    with bidwallet_sandbox.fault_scope() as faults:
        dropping = faults.drop("GET", TIP, applied=False)
        with pytest.raises(httpx.RemoteProtocolError):
            get(bidwallet_sandbox, TIP)
        get(bidwallet_sandbox, f"{TIP}?again=1")
        with httpx.Client(base_url=bidwallet_sandbox.url, timeout=30) as http:
            http.post("/sandbox/clock", json={"advanceMs": 1})

        dropped, answered = bidwallet_sandbox.requests(path=TIP)
        (posted,) = bidwallet_sandbox.requests(method="POST", since=answered.id)
    assert bidwallet_sandbox.requests() == ()  # forgotten when the scope ended

    assert dropped.status is None and dropped.fault is not None  # no answer was sent
    assert (dropped.fault.id, dropped.fault.kind) == (dropping.id, "drop")
    assert (answered.status, answered.query, answered.fault) == (200, "again=1", None)
    assert (posted.path, posted.body, posted.status) == ("/sandbox/clock", {"advanceMs": 1}, 200)
