"""Cost of the strategy signer's checks next to the spec's pace (one bid per 500 ms per
receive address): `authorize` alone, and a whole `StrategySigner.sign_bid` (policy file
re-read, journal transaction with the open exposure, BIP-322 signature checked by the Rust
verifier, journal update), on a journal already holding many entries of the policy.

The journal's earlier entries are written before the clock starts; the figure is the median.

Run: ./dev bench strategy_signer [--rounds 200] [--entries 10000] [--preset leather]
Target: a signature well under the 500 ms pace (a few ms).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from app.core.strategy_policy import OpenExposure, authorize
from app.services.bids import BidSpec
from app.services.strategy_journal import StrategyJournal
from app.services.strategy_policies import StrategyPolicyStore
from app.services.strategy_signer import StrategySigner
from tests.services.conftest import new_mnemonic
from tests.support.strategies import HOUR_MS, ManualClock, policy_for, unsigned_bid

PACE_MS = 500.0


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--preset", default="leather")
    args = parser.parse_args()

    from app.wallet.addresses import Network
    from app.wallet.keys import MnemonicSeed, derive_wallet_keys
    from app.wallet.presets import get_preset

    keys = derive_wallet_keys(
        MnemonicSeed(new_mnemonic()), get_preset(args.preset), Network.REGTEST, 0
    )
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp)
        clock = ManualClock()
        policy = policy_for(keys, max_exposure=10**15, max_open_bids=None)
        store = StrategyPolicyStore(profile)
        store.approve(keys, policy)
        journal = StrategyJournal.in_profile(profile)
        request = unsigned_bid(keys, clock)
        for i in range(args.entries):  # a long-running strategy's history
            entry_id, _ = journal.record_decision(
                "pol-1",
                request,
                "history",
                clock.now_ms(),
                lambda o: authorize(policy, request, o, clock.now_ms()),
            )
            journal.mark_signed(entry_id, "m", clock.now_ms())
            journal.mark_placed(entry_id, clock.now_ms())
            if i % 10:
                journal.mark_ended(entry_id, clock.now_ms(), "filled")
        signer = StrategySigner(keys, store, "pol-1", journal, clock)
        spec = BidSpec.collection("puppets", 40_000, 1, clock.now_ms() + HOUR_MS)

        judged, signed = [], []
        exposure = journal.open_exposure("pol-1", clock.now_ms())
        for _ in range(args.rounds):
            fresh = unsigned_bid(keys, clock, spec)
            started = time.perf_counter()
            authorize(policy, fresh, OpenExposure(exposure.sats, exposure.bids), clock.now_ms())
            judged.append(time.perf_counter() - started)
            started = time.perf_counter()
            signer.sign_bid(fresh, "bench")
            signed.append(time.perf_counter() - started)
        journal.close()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    whole = _median_ms(signed)
    print(f"strategy signer ({args.preset} payment key, {args.entries:,} earlier entries)")
    print(f"  authorize alone         {_median_ms(judged):8.3f} ms median")
    print(f"  sign_bid, whole         {whole:8.3f} ms median ({args.rounds} rounds)")
    print(f"  share of the 500 ms pace {whole / PACE_MS:7.1%}")
    print(f"  load average            {load:8.2f}")


if __name__ == "__main__":
    main()
