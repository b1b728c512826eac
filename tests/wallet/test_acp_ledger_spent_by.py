"""A live signature whose coin our own move spends (the move ending its listing): it still
collides with any other coin's signature of equal outputs, never with one over an output of
that very move (the two coins never exist unspent together). Kept in the ledger file as an
optional field an older reader ignores (it then only refuses more)."""

from __future__ import annotations

import json
from pathlib import Path

from app.core.acp_composition import AcpSignature, collisions
from app.wallet.acp_ledger import AcpLedger

A = "aa" * 32 + ":0"
MOVE = "cc" * 32  # our transaction spending A
X = "1" * 64


def test_an_output_of_the_move_never_collides_with_the_coin_it_spends() -> None:
    spent = AcpSignature(A, X, "old listing", spent_by=MOVE)
    assert not collisions([AcpSignature(f"{MOVE}:0", X)], [spent])
    assert not collisions([AcpSignature(f"{MOVE}:1", X)], [spent])
    # Any other coin with the same outputs still combines with it (the move may be undone).
    [found] = collisions([AcpSignature("dd" * 32 + ":0", X)], [spent])
    assert found.other == spent and found.other_is_live
    # Without the mark, the move's output collides as before.
    assert collisions([AcpSignature(f"{MOVE}:0", X)], [AcpSignature(A, X)])


def test_mark_spent_is_kept_in_the_file_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    ledger = AcpLedger(path)
    ledger.record([AcpSignature(A, X, "old listing")])
    assert ledger.mark_spent(A, MOVE) == 1
    assert ledger.mark_spent(A, MOVE) == 0  # nothing new
    assert AcpLedger(path).live() == (AcpSignature(A, X, "old listing", MOVE),)
    AcpLedger(path).record([AcpSignature(f"{MOVE}:0", X, "relisted")])
    assert {s.outpoint for s in AcpLedger(path).live()} == {A, f"{MOVE}:0"}
    entries = json.loads(path.read_text())["entries"]
    assert entries[0]["spentBy"] == MOVE and "spentBy" not in entries[1]


def test_a_malformed_mark_is_ignored_and_the_entry_collides_as_before(tmp_path: Path) -> None:
    path = tmp_path / "ledger.json"
    AcpLedger(path).record([AcpSignature(A, X)])
    doc = json.loads(path.read_text())
    doc["entries"][0]["spentBy"] = "not a txid"
    path.write_text(json.dumps(doc))
    ledger = AcpLedger(path)
    assert ledger.live() == (AcpSignature(A, X),)
    assert ledger.check([AcpSignature(f"{MOVE}:0", X)])
