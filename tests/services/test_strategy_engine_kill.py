"""The engine under SIGKILL: a child process runs the strategy engine against the real sandbox
on a busy market (three pools, rivals outbidding between the kills, a fill), and is killed
again and again at whatever step it is in. Each restart reconciles with the journal and the
open bids before acting. At the end: no duplicate bid (every open bid of ours is in exactly
one journal entry, and no pool holds more bids than its plan wants) and no lost intent (no
entry left intent, signed or unknown once its message is too old to land). The figures are
printed (`pytest -s`)."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from app.core.pools import PoolKey
from app.services.bidding_wallet import get_bidding_wallet
from app.services.context import ServiceContext
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.strategy_bid_log import StrategyBidLog
from app.services.strategy_config import load_config
from app.services.strategy_engine import StrategyEngine
from app.services.strategy_journal import MESSAGE_USABLE_MS, EntryState, StrategyJournal
from app.services.strategy_policies import StrategyPolicyStore
from app.services.strategy_signer import StrategySigner
from tests.services.conftest import (
    BIDDING_FUNDS,
    COIN_SATS,
    ContextFactory,
    KeysFactory,
    SandboxControl,
    SandboxSleeper,
    SteppedClock,
    new_mnemonic,
)
from tests.support.strategy_engine import approve_policy

pytestmark = pytest.mark.asyncio(loop_scope="session")
KILLS = 12
KILL_AFTER = ("record_decision", "mark_signed", "mark_placed", "place", "cancel")
CAP = 30_000

CHILD = """
import asyncio, json, sys
from pathlib import Path
import httpx
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.services.context import ServiceContext
from app.services.strategy_bid_log import StrategyBidLog
from app.services.strategy_config import load_config
from app.services.strategy_engine import StrategyEngine
from app.services.strategy_journal import StrategyJournal
from app.services.strategy_policies import StrategyPolicyStore
from app.services.strategy_signer import StrategySigner
from app.wallet.addresses import Network
from app.wallet.keys import MnemonicSeed, derive_wallet_keys
from app.wallet.presets import get_preset
from tests.services.conftest import SandboxControl, SandboxSleeper, SteppedClock

url, profile, config_file = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
words = sys.stdin.readline().strip()

async def main():
    keys = derive_wallet_keys(MnemonicSeed(words), get_preset("leather"), Network.REGTEST)
    config = load_config(config_file)
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        control = SandboxControl(http)
        clock = SteppedClock(int((await control.info())["clockMs"]))
        journal = StrategyJournal.in_profile(profile)
        store = StrategyPolicyStore(profile)
        signer = StrategySigner(keys, store, config.policy_id, journal, clock)
        clients = NetClients.open(ServiceConfig.sandbox(url))
        ctx = ServiceContext(clients, keys, maker_fee=signer.policy.maker_fee, clock=clock,
                             sleeper=SandboxSleeper(control, clock))
        def say(event, fields):
            print(json.dumps({"event": event, **fields}, default=str), flush=True)
        def hook(name):  # say when the journal wrote, so the kill can land right after
            write = getattr(journal, name)
            def wrapped(*args, **kwargs):
                result = write(*args, **kwargs)
                say(name, {})
                return result
            setattr(journal, name, wrapped)
        for name in ("record_decision", "mark_signed", "mark_placed"):
            hook(name)
        engine = StrategyEngine(ctx, signer, journal, StrategyBidLog.in_profile(profile), config,
                                on_event=say)
        await engine.run()

asyncio.run(main())
"""


def write_config(path: Path, policy_id: str, pools: list[PoolKey], budget: int) -> None:
    rule = {"above_top_bid": {"cap": CAP, "floor_percent": 100, "opening": 2_000}}
    config = {
        "policy_id": policy_id,
        "total_budget_sats": budget * len(pools),
        "max_active_bids": 30,
        "units_per_tick": 2,  # a busy queue: placements spread over ticks, shared by pools
        "pools": [
            {"collection": p.collection_slug, "budget_sats": budget, "rule": rule} for p in pools
        ],
    }
    path.write_text(json.dumps(config), encoding="utf-8")


async def rival_bid(sandbox: SandboxControl, slug: str, price: int) -> None:
    body = {"kind": "collection", "slug": slug, "price": price, "quantity": 1,
            "bidder": f"rival-{secrets.token_hex(6)}", "fundSats": 10_000_000}  # fmt: skip
    response = await sandbox.http.post("/sandbox/market/bids", json=body)
    assert response.status_code == 200, response.text


async def funded_bidder(
    make_keys: KeysFactory, make_context: ContextFactory, sandbox: SandboxControl, words: str
) -> ServiceContext:
    ctx = make_context(make_keys(mnemonic=words))
    await sandbox.faucet(ctx.payment_address, COIN_SATS)
    wallet = await get_bidding_wallet(ctx)
    await sandbox.faucet(wallet.address, BIDDING_FUNDS)
    return ctx


async def test_sigkill_during_a_busy_run_leaves_no_duplicate_and_loses_no_intent(
    make_keys: KeysFactory,
    make_context: ContextFactory,
    sandbox: SandboxControl,
    sandbox_sleeper: SandboxSleeper,
    service_clock: SteppedClock,
    active_sandbox_url: str,
    tmp_path: Path,
) -> None:
    words = new_mnemonic()  # the child derives the same keys from it (read on its stdin)
    bidder = await funded_bidder(make_keys, make_context, sandbox, words)
    slugs = [f"kill-{secrets.token_hex(4)}" for _ in range(3)]
    for slug in slugs:
        await sandbox.create_collection(slug)
        response = await sandbox.http.post(
            "/sandbox/market/floor", json={"slug": slug, "price": 60_000}
        )
        assert response.status_code == 200, response.text
    pools = [PoolKey(s) for s in slugs]
    fee = bidder.maker_fee
    budget = 3 * (CAP + fee.on(CAP))
    policy_id = approve_policy(bidder, tmp_path, pools, CAP, 10 * budget)
    config_file = tmp_path / "strategy.json"
    write_config(config_file, policy_id, pools, budget)

    lines_seen = 0
    restarts: list[str] = []  # what each restart reconciled before acting
    for kill in range(KILLS):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, active_sandbox_url, str(tmp_path), str(config_file)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(words + "\n")
        child.stdin.close()
        # The kill lands right after the child wrote an intent (it is signing), a signature
        # (it is sending the bid or waiting for the answer), a placement, or an action's end.
        target = KILL_AFTER[kill % len(KILL_AFTER)]
        left, ticks = 1 + kill % 3, 0
        while left and ticks < 3:  # three ticks without it: the kill lands anyway
            line = child.stdout.readline()
            if not line:
                break
            lines_seen += 1
            event = json.loads(line)["event"]
            if event == "reconciled":
                restarts.append(json.loads(line)["summary"])
            left -= event == target
            ticks += event == "tick"
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        # The market moves between the kills: a rival outbids in one pool.
        await rival_bid(sandbox, slugs[kill % 3], 2_000 + 1_000 * (kill + 1))

    # The children's waits moved the sandbox's clock; ours follows it before signing again.
    service_clock.ms = int((await sandbox.info())["clockMs"])
    journal = StrategyJournal.in_profile(tmp_path)
    config = load_config(config_file)
    signer = StrategySigner(
        bidder.signing_keys(), StrategyPolicyStore(tmp_path), policy_id, journal, bidder.clock
    )
    bidder.maker_fee = signer.policy.maker_fee
    engine = StrategyEngine(bidder, signer, journal, StrategyBidLog.in_profile(tmp_path), config)
    await engine.start()
    for _ in range(20):  # until steady
        if not (await engine.tick()).results:
            break
    await sandbox_sleeper.sleep_ms(MESSAGE_USABLE_MS + 1_000)  # an unknown message is too old
    report = await engine.tick()
    for _ in range(20):
        if not report.results:
            break
        report = await engine.tick()
    assert report.plan is not None

    listed = [b for b in await fetch_open_bids(bidder) if pool_key_of(b) in pools]
    entries = journal.entries(policy_id, limit=100_000)
    in_entries = Counter(b for e in entries for b in e.bid_ids)
    twice = [b for b, n in in_entries.items() if n > 1]
    orphans = [b.bid_id for b in listed if b.bid_id not in in_entries]
    wanted = {p.pool: p.active_bids for p in report.plan.pools}
    held = Counter(pool_key_of(b) for b in listed)
    extra = sum(max(0, held[pool] - wanted[pool]) for pool in pools)
    duplicates = len(twice) + len(orphans) + extra
    lost = [
        e for e in entries if e.state in (EntryState.INTENT, EntryState.SIGNED, EntryState.UNKNOWN)
    ]
    states = Counter(e.state.value for e in entries)
    print(
        f"\nstrategy engine SIGKILL: kills {KILLS}, child lines read {lines_seen}, journal "
        f"entries {len(entries)} ({dict(states)}), open bids {len(listed)}, "
        f"duplicates {duplicates}, lost intents {len(lost)}\nrestarts reconciled: "
        + "; ".join(restarts)
    )
    assert duplicates == 0, (twice, orphans, extra)
    assert lost == []
    assert states["placed"] + states["ended"] >= 3  # it was busy: bids were placed and replaced
