"""The journal under SIGKILL: a process signing in a loop is killed at some point; the journal
reopens intact, every signature it reported is there as `signed`, at most one entry was left
unfinished (`intent`, or `signed` but not reported yet), and a restart abandons the intent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.services.strategy_journal import EntryState, StrategyJournal
from app.services.strategy_policies import StrategyPolicyStore
from tests.services.conftest import new_mnemonic
from tests.support.strategies import policy_for

S = EntryState
PRESET = "leather"

CHILD = """
import sys
from pathlib import Path
from app.services.strategy_journal import StrategyJournal
from app.services.strategy_policies import StrategyPolicyStore
from app.services.strategy_signer import StrategySigner
from app.wallet.addresses import Network
from app.wallet.keys import MnemonicSeed, derive_wallet_keys
from app.wallet.presets import get_preset
from tests.support.strategies import ManualClock, unsigned_bid

profile, words = Path(sys.argv[1]), sys.stdin.readline().strip()
keys = derive_wallet_keys(MnemonicSeed(words), get_preset("leather"), Network.REGTEST, 0)
clock = ManualClock()
journal = StrategyJournal.in_profile(profile)
signer = StrategySigner(keys, StrategyPolicyStore(profile), "pol-1", journal, clock)
while True:
    signed = signer.sign_bid(unsigned_bid(keys, clock), "loop")
    print(signed.entry_id, flush=True)
    clock.advance(1)
"""


@pytest.mark.parametrize("reported_before_kill", [1, 6, 17])
def test_a_sigkill_loses_no_intent_and_leaves_the_journal_whole(
    tmp_path: Path, reported_before_kill: int
) -> None:
    from app.wallet.addresses import Network
    from app.wallet.keys import MnemonicSeed, derive_wallet_keys
    from app.wallet.presets import get_preset

    words = new_mnemonic()
    keys = derive_wallet_keys(MnemonicSeed(words), get_preset(PRESET), Network.REGTEST, 0)
    StrategyPolicyStore(tmp_path).approve(
        keys, policy_for(keys, max_exposure=10**12, max_open_bids=None)
    )
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(words + "\n")
    child.stdin.close()
    reported = [int(child.stdout.readline()) for _ in range(reported_before_kill)]
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()

    journal = StrategyJournal.in_profile(tmp_path)
    assert journal._conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    entries = {e.entry_id: e for e in journal.entries(limit=10_000)}
    assert all(entries[i].state is S.SIGNED for i in reported)
    unreported = [e for i, e in entries.items() if i not in reported]
    # The kill fell between two signatures, or inside one: its intent (or its signature,
    # not printed yet) is the one entry beyond those reported.
    assert len(unreported) <= 1
    assert all(e.state in (S.INTENT, S.SIGNED) for e in unreported)
    if unreported and unreported[0].state is S.INTENT:
        last = max(e.created_ms for e in entries.values())
        assert journal.abandon_intents("pol-1", last + 1, last + 1) == 1
    assert not [e for e in journal.unsettled() if e.state is S.INTENT]
