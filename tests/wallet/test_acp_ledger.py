"""The ledger of live ANYONECANPAY signatures: recorded before signing, persisted atomically,
shared by processes, refusing a colliding signature; the signing gate uses it."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from app.core.acp_composition import AcpSignature
from app.wallet.acp_ledger import LEDGER_FILE, AcpCollisionError, AcpLedger, AcpLedgerError
from app.wallet.psbt_signer import sign_psbt
from app.wallet.signing_gate import VerdictMismatchError, approved_sign_requests
from tests.support.psbt_scenarios import secure_listing

A, B = "aa" * 32 + ":0", "bb" * 32 + ":1"
X, Y, Z = "1" * 64, "2" * 64, "3" * 64


def test_record_check_forget_and_persist(tmp_path: Path) -> None:
    ledger = AcpLedger(tmp_path / "ledger.json")
    assert ledger.live() == ()
    ledger.record([AcpSignature(A, X, "first")])
    again = AcpLedger(tmp_path / "ledger.json")  # a new process reads what was written
    assert again.live() == (AcpSignature(A, X, "first"),)
    assert [c.other.outpoint for c in again.check([AcpSignature(B, X)])] == [A]
    with pytest.raises(AcpCollisionError) as refused:
        again.record([AcpSignature(B, Y), AcpSignature(B, X)])
    assert "(first)" in str(refused.value)
    assert again.live() == (AcpSignature(A, X, "first"),)  # all or nothing
    assert again.forget([A]) == 1 and again.live() == ()
    again.record([AcpSignature(B, X)])  # A's coin was spent: its signature is dead


def test_recording_one_signature_twice_keeps_one_entry(tmp_path: Path) -> None:
    ledger = AcpLedger(tmp_path / "l.json")
    assert ledger.record([AcpSignature(A, X)]) == (AcpSignature(A, X),)
    assert ledger.record([AcpSignature(A, X), AcpSignature(B, Y)]) == (AcpSignature(B, Y),)
    assert len(ledger.live()) == 2


def test_withdraw_drops_exactly_the_unmade_signatures(tmp_path: Path) -> None:
    ledger = AcpLedger(tmp_path / "l.json")
    ledger.record([AcpSignature(A, X, "older, live")])
    added = ledger.record([AcpSignature(A, Y, "never made"), AcpSignature(B, Z, "made")])
    spent_by = "cc" * 32
    assert ledger.mark_spent(A, spent_by) == 2  # a later change to the entries: still matched
    assert ledger.withdraw(added[:1]) == 1  # by input and commitment: coin A's other stays
    assert ledger.live() == (
        AcpSignature(A, X, "older, live", spent_by),
        AcpSignature(B, Z, "made"),
    )
    assert ledger.withdraw([]) == 0 and ledger.withdraw(added[:1]) == 0


def test_a_signature_another_flow_recorded_too_is_not_withdrawn(tmp_path: Path) -> None:
    """A batch cancelled before signing withdraws what it added, but not once another flow
    (the offline signer, an import, another window served the same PSBT) recorded that very
    signature meanwhile: that flow made it, and the ledger must not forget it."""
    ledger = AcpLedger(tmp_path / "l.json")
    added = ledger.record([AcpSignature(A, X, "listed in the window")])
    assert ledger.record([AcpSignature(A, X, "the same listing, signed offline")]) == ()
    assert ledger.withdraw(added) == 0
    assert ledger.live() == (AcpSignature(A, X, "listed in the window"),)


@pytest.mark.parametrize(
    "text", ["", "{", "[]", '{"format": "x"}', '{"format": "bidwallet-acp-ledger", "version": 9}']
)
def test_a_damaged_ledger_refuses_rather_than_forgets(tmp_path: Path, text: str) -> None:
    path = tmp_path / "l.json"
    path.write_text(text)
    with pytest.raises(AcpLedgerError):
        AcpLedger(path).record([AcpSignature(A, X)])
    assert path.read_text() == text  # nothing overwritten: the entries might still be there


def test_the_file_is_private_json(tmp_path: Path) -> None:
    path = tmp_path / "data" / LEDGER_FILE
    (added,) = AcpLedger(path).record([AcpSignature(A, X, "label")])
    assert path.stat().st_mode & 0o777 == 0o600
    doc = json.loads(path.read_text())
    entry = {"outpoint": A, "commitment": X, "label": "label", "claim": added.claim}
    assert added.claim and doc["entries"] == [entry]


def _record_many(path: str, prefix: str) -> None:
    ledger = AcpLedger(Path(path))
    for n in range(25):
        ledger.record([AcpSignature(f"{prefix}{n:062x}:0", f"{prefix}{n:063x}")])


def test_two_processes_never_lose_each_others_entries(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.json")
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_record_many, args=(path, p)) for p in "ab"]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
    assert [w.exitcode for w in workers] == [0, 0]
    assert len(AcpLedger(Path(path)).live()) == 50


def test_the_signing_gate_records_before_it_allows_an_anyonecanpay_signature(
    tmp_path: Path,
) -> None:
    s = secure_listing()
    verdict = s.verdict()
    with pytest.raises(VerdictMismatchError, match="signature ledger"):
        approved_sign_requests(s.psbt, verdict)
    ledger = AcpLedger(tmp_path / "l.json")
    requests = approved_sign_requests(s.psbt, verdict, ledger, "List it")
    [entry] = ledger.live()
    assert entry.outpoint == s.review().inputs[0].outpoint and entry.label == "List it"
    sign_psbt(s.psbt, s.signer, requests)
    # A second coin listed with the very same outputs is refused at the gate.
    twin = secure_listing()
    twin.psbt.outputs = s.psbt.outputs
    twin_verdict = twin.verdict()
    assert twin_verdict.approved
    with pytest.raises(AcpCollisionError):
        approved_sign_requests(twin.psbt, twin_verdict, ledger)


def _record_forever(path: str, ready: Any) -> None:
    """Record entries one by one, without end; tell the parent once 20 are on disk."""
    ledger = AcpLedger(Path(path))
    n = 0
    while True:
        ledger.record([AcpSignature(f"{n:064x}:0", f"{n:064x}")])
        n += 1
        if n == 20:
            ready.send(n)


def test_a_process_killed_while_recording_leaves_a_readable_ledger(tmp_path: Path) -> None:
    """Crash-safe: SIGKILL at any moment leaves the old file or the new one, never a torn one,
    and every entry recorded before the kill is still there."""
    path = tmp_path / "ledger.json"
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    worker = ctx.Process(target=_record_forever, args=(str(path), child))
    worker.start()
    assert parent.poll(120) and parent.recv() == 20
    os.kill(worker.pid or 0, signal.SIGKILL)
    worker.join(timeout=30)
    live = AcpLedger(path).live()
    assert len(live) >= 20
    assert [s.outpoint for s in live] == [f"{n:064x}:0" for n in range(len(live))]
    AcpLedger(path).record([AcpSignature(B, Y)])  # and it keeps working
