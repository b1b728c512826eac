"""`bidwallet strategies run --profile NAME [--strategy ID] [--dry-run] [--once]`: the strategy
engine without a window (issue 17; docs/strategies.md, "Running headless").

The keys come from the profile's vault: the unlock key the OS keyring remembers, else a
password asked on the terminal (`getpass`). Never from an environment variable or an
argument, where other processes and the shell's history could read it. The strategy is
`<profile dir>/strategies/<ID>.json` (`strategy_config`), bounded by the approved policy of
the same id. Log lines are JSON, one per event, on stderr. SIGTERM and SIGINT stop the engine
after the step in progress (journaled); the exit status is 0 after a clean stop.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import logging

    from app.services.strategy_engine import StrategyEngine

EXIT_OK: Final = 0
EXIT_USAGE: Final = 2  # a profile, strategy or key that cannot be used
DESCRIPTION: Final = """\
Run a bid strategy of a profile without the window: every tick (10 s unless the strategy
file says otherwise) it reads each pool's market, the bidding wallet's balance and your open
bids, then places, renews and cancels the strategy's own bids to keep its targets. Every bid
is signed only inside the policy you approved for it (pools, price caps, total exposure,
validity), and journaled with its reason.

The strategy is read from <profile dir>/strategies/<ID>.json; the policy of the same ID must
have been approved with the wallet unlocked. The wallet is unlocked with the key the OS
keyring remembers, or a password typed at the prompt (never an environment variable or an
argument). One engine per profile: a second one is refused. SIGTERM or Ctrl-C stops it after
the step in progress. Log lines are JSON on stderr.

--dry-run prints what the next tick would place, renew and cancel, and why, and signs
nothing."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", required=True, help="the profile's name (as in the window)")
    parser.add_argument(
        "--strategy",
        metavar="ID",
        help="the strategy (its policy id); default: the profile's only strategy file",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the plan for every pool; sign nothing"
    )
    parser.add_argument("--once", action="store_true", help="one tick, then stop")
    parser.add_argument(
        "--sandbox-url",
        metavar="URL",
        help="a sandbox profile: the URL of its running sandbox (bidwallet sandbox serve)",
    )


def _logger() -> logging.Logger:
    import json
    import logging

    class JsonLines(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            line = {"ts": round(record.created, 3), "level": record.levelname.lower()}
            fields = getattr(record, "fields", None)
            line.update(fields if isinstance(fields, dict) else {"message": record.getMessage()})
            return json.dumps(line, ensure_ascii=False, default=str)

    logger = logging.getLogger("bidwallet.strategies.cli")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonLines())
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
    return logger


def event_logger() -> Callable[[str, dict[str, object]], None]:
    logger = _logger()

    def emit(event: str, fields: dict[str, object]) -> None:
        logger.info(event, extra={"fields": {"event": event, **fields}})

    return emit


def run_command(args: argparse.Namespace) -> int:
    import asyncio

    from app.services.errors import ServiceError

    try:
        return asyncio.run(_run(args))
    except ServiceError as exc:
        print(f"bidwallet strategies: {exc.user_message}", file=sys.stderr)
        return EXIT_USAGE


def _fail(message: str) -> int:
    print(f"bidwallet strategies: {message}", file=sys.stderr)
    return EXIT_USAGE


async def _run(args: argparse.Namespace) -> int:
    import asyncio
    import signal

    from app.data_dir import default_data_dir
    from app.services.cli_unlock import unlock_keys_at_terminal
    from app.services.connection import open_clients
    from app.services.context import ServiceContext
    from app.services.pacing import Clock, OffsetClock, SystemClock
    from app.services.profiles import ApiKeyStore, ProfileStore, ServiceKind
    from app.services.sandbox_facts import sandbox_facts
    from app.services.strategy_bid_log import StrategyBidLog
    from app.services.strategy_config import config_path, load_config, strategy_ids
    from app.services.strategy_engine import StrategyEngine
    from app.services.strategy_journal import StrategyJournal
    from app.services.strategy_lock import EngineLock
    from app.services.strategy_policies import StrategyPolicyStore
    from app.services.strategy_signer import StrategySigner

    data_dir = default_data_dir()
    store = ProfileStore(data_dir)
    profile = store.load().get(args.profile)
    if profile is None:
        return _fail(f"no profile named {args.profile!r} in {data_dir}")
    if profile.key_name is None:
        return _fail(f"profile {profile.name!r} has no keys yet: set them up in the window")
    if profile.kind is ServiceKind.SANDBOX and not args.sandbox_url:
        return _fail("a sandbox profile needs --sandbox-url (the running sandbox's URL)")
    profile_dir = store.profile_dir(profile)
    ids = [args.strategy] if args.strategy else strategy_ids(profile_dir)
    if len(ids) != 1:
        found = ", ".join(ids) or "none"
        return _fail(f"choose the strategy with --strategy ID (strategy files: {found})")
    config = load_config(config_path(profile_dir, ids[0]))
    keys = unlock_keys_at_terminal(data_dir, profile.key_name, "bids")  # UnlockError: exit 2
    emit = event_logger()
    lock = EngineLock(profile_dir)
    if not args.dry_run:
        lock.acquire()  # EngineAlreadyRunningError: a ServiceError, said and exit 2
    api_key = ApiKeyStore().get(profile.name) if profile.kind is ServiceKind.SATFLOW else None
    clients = open_clients(profile, api_key=api_key, sandbox_url=args.sandbox_url)
    journal = StrategyJournal.in_profile(profile_dir)
    try:
        clock: Clock = SystemClock()
        service_key = None
        if profile.kind is ServiceKind.SANDBOX:  # its clock may run ahead of ours
            facts = await sandbox_facts(args.sandbox_url)
            if facts is not None and facts.clock_ms is not None:
                clock = OffsetClock(max(0, facts.clock_ms - SystemClock().now_ms()))
                service_key = facts.service_public_key
        signer = StrategySigner(
            keys, StrategyPolicyStore(profile_dir), config.policy_id, journal, clock
        )
        ctx = ServiceContext(
            clients,
            keys,
            maker_fee=signer.policy.maker_fee,
            clock=clock,
            service_public_key=service_key,
        )
        engine = StrategyEngine(
            ctx, signer, journal, StrategyBidLog.in_profile(profile_dir), config, on_event=emit
        )
        if args.dry_run:
            print(await engine.dry_run())
            return EXIT_OK
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, _stopper(engine, emit, sig))
        emit("started", {"profile": profile.name, "policy": config.policy_id})
        await engine.run(max_ticks=1 if args.once else None)
        return EXIT_OK
    finally:
        await clients.aclose()
        journal.close()
        lock.release()


def _stopper(
    engine: StrategyEngine, emit: Callable[[str, dict[str, object]], None], sig: int
) -> Callable[[], None]:
    import signal

    def stop() -> None:
        emit("stopping", {"signal": signal.Signals(sig).name})
        engine.request_stop()

    return stop
