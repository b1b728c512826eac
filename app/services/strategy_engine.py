"""The strategy engine (issue 17): each tick reads the market of every pool, the bidding
wallet's balance and our open bids, plans (`strategy_plan.plan_strategy`) and acts. No Qt:
the window and the headless command (`strategy_cli`) drive the same object.

    engine = StrategyEngine(ctx, signer, journal, bid_log, config)
    await engine.start()            # reconcile with the open bids and the journal FIRST
    report = await engine.tick()    # one step; the loop (`run`) is ticks and waits
    text = await engine.dry_run()   # the plan's text for every pool; nothing signed

Acting, in the plan's order: cancels (only the strategy's own bids, each written to the bid
log before its request and completed after), then renewals (a cancel, then a new bid) and
placements through `place_strategy_bid` (the signer checks the approved policy before every
signature and journals it; the spec's retry rules: the per-address pace of 500 ms a bid,
429s waited out, the open bids looked at after a timeout or 5xx), at most `units_per_tick`
of them, shared fairly across pools (`FairScheduler`). A relative rule never acts on a
missing or stale market (the plan says HOLD). `request_stop()` ends the loop after the step
in progress, which is journaled like any other.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from app.core.limits import MIN_BID_EXPIRY_MS
from app.core.market_snapshot import MarketSnapshot
from app.core.pools import PoolKey
from app.core.rune_names import rune_letters
from app.core.strategy_dry_run import dry_run_text
from app.core.strategy_plan import PlanAction, PoolState, StrategyPlan, plan_strategy
from app.core.strategy_policy import PoolKind, StrategyPolicy
from app.core.strategy_rules import InvalidStrategy, PoolStrategy
from app.core.strategy_schedule import FairScheduler
from app.core.strategy_settings import EXPIRY_SLACK_MS, LifecycleSettings, StrategyLimits
from app.core.strategy_targets import HeldBid, sats
from app.net.marketplace_bids import BidListEntry
from app.services.bidding_wallet import bidding_wallet_balance
from app.services.bids import BidSpec
from app.services.context import ServiceContext
from app.services.errors import NetError, ServiceError
from app.services.market import own_addresses, read_pool_market
from app.services.open_bids import fetch_open_bids, pool_key_of
from app.services.strategy_bid_log import StrategyBidLog
from app.services.strategy_cancel import (
    ActionResult,
    cancel_strategy_bids,
    withdraw_strategy_bids,
)
from app.services.strategy_journal import StrategyJournal
from app.services.strategy_placement import place_strategy_bid
from app.services.strategy_reconcile import (
    OwnBid,
    ReconcileReport,
    own_bids,
    reconcile,
)
from app.services.strategy_signer import BidMessageSigner, StrategyRefusedError

log = logging.getLogger("bidwallet.strategies")

DEFAULT_TICK_MS = 10_000
MIN_TICK_MS = 1_000
DEFAULT_UNITS_PER_TICK = 20  # 10 s of the address's pace: one tick's worth


@dataclass(frozen=True)
class StrategyConfig:
    """What runs: the approved policy's id, each pool's strategy, the budgets and lifecycle."""

    policy_id: str
    pools: tuple[PoolStrategy, ...]
    limits: StrategyLimits
    lifecycle: LifecycleSettings = field(default_factory=LifecycleSettings)
    tick_ms: int = DEFAULT_TICK_MS
    units_per_tick: int = DEFAULT_UNITS_PER_TICK

    def __post_init__(self) -> None:
        # A shorter tick reads every pool's market in a tight loop (the service's rate).
        if self.tick_ms < MIN_TICK_MS or self.units_per_tick < 1:
            raise InvalidStrategy(
                f"a strategy checks its pools at most every {MIN_TICK_MS // 1000} s "
                f"(tick_ms >= {MIN_TICK_MS}) and places at least one bid a tick"
            )


@dataclass(frozen=True)
class Observation:
    """What a tick read: the pools' states for the plan, and the listed bids."""

    states: dict[PoolKey, PoolState]
    listed: tuple[BidListEntry, ...]
    balance_sats: int
    own: dict[str, OwnBid]  # the strategy's listed bids and the entries that placed them
    now_ms: int


@dataclass(frozen=True)
class TickReport:
    now_ms: int
    reconciled: ReconcileReport
    plan: StrategyPlan | None  # None: the tick could not read what it needs
    results: tuple[ActionResult, ...] = ()
    deferred: int = 0  # placements left for the next tick (the rate budget)
    error: str | None = None


class StrategyEngine:
    """One strategy's engine over one profile's context (see the module docstring)."""

    def __init__(
        self,
        ctx: ServiceContext,
        signer: BidMessageSigner,
        journal: StrategyJournal,
        bid_log: StrategyBidLog,
        config: StrategyConfig,
        *,
        on_event: Callable[[str, dict[str, object]], None] | None = None,
        on_tick: Callable[[TickReport], None] | None = None,
    ) -> None:
        if signer.policy.policy_id != config.policy_id:
            raise ServiceError("the signer's policy is not the strategy's")
        config = within_policy(config, signer.policy)
        self.ctx = ctx
        self.signer = signer
        self.journal = journal
        self.bid_log = bid_log
        self.config = config
        self.scheduler = FairScheduler(config.units_per_tick)
        self._snapshots: dict[PoolKey, MarketSnapshot] = {}
        self._stop = asyncio.Event()
        self._started = False
        self._on_event = on_event or _log_event
        self._on_tick = on_tick

    @property
    def policy_id(self) -> str:
        return self.config.policy_id

    # --- start, stop ----------------------------------------------------------------------

    async def start(self) -> ReconcileReport:
        """Reconcile the journal with the service's open bids before anything is acted on:
        unfinished intents abandoned, signatures whose answer was lost found or not."""
        listed = await fetch_open_bids(self.ctx)
        now = self.ctx.clock.now_ms()
        report = await self.ctx.run_cpu(
            lambda: reconcile(
                self.journal, self.bid_log, self.policy_id, listed, now, started_ms=now
            )
        )
        self._started = True
        self._on_event("reconciled", {"at": "start", "summary": report.summary()})
        return report

    def last_snapshot(self, pool: PoolKey) -> MarketSnapshot | None:
        """The pool's market as the last tick read it (the window's outbid notice)."""
        return self._snapshots.get(pool)

    async def cancel_own_bids(self, reason: str) -> list[ActionResult]:
        """Cancel every open bid this strategy placed (the user stopping it and taking its
        bids back); the user's other bids are never touched."""
        results = await withdraw_strategy_bids(
            self.ctx, self.journal, self.bid_log, self.policy_id, reason
        )
        return [self._said(r) for r in results]

    def request_stop(self) -> None:
        """Stop after the step in progress (a placement or cancel completes and is journaled)."""
        self._stop.set()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    # --- reading and planning -------------------------------------------------------------

    async def observe(self, *, reconcile_first: bool = True) -> tuple[Observation, ReconcileReport]:
        """The open bids (reconciled with the journal unless told not to: a dry run writes
        nothing, even beside a running engine), the balance and every pool's market."""
        ctx = self.ctx
        listed = tuple(await fetch_open_bids(ctx))
        now = ctx.clock.now_ms()
        report = ReconcileReport()
        if reconcile_first:
            report = await ctx.run_cpu(
                lambda: reconcile(self.journal, self.bid_log, self.policy_id, listed, now)
            )
        ours = await ctx.run_cpu(lambda: own_bids(self.journal, self.policy_id, listed))
        spent = await ctx.run_cpu(self.bid_log.spent_by_pool, self.policy_id)
        balance = (await bidding_wallet_balance(ctx)).total
        listed_ids = frozenset(b.bid_id for b in listed)
        states: dict[PoolKey, PoolState] = {}
        for strategy in self.config.pools:
            pool, rune = strategy.pool, strategy.is_rune
            snapshot = await self._market(pool, listed_ids, rune)
            mine = tuple(
                HeldBid(
                    bid_id,
                    own.listed.price if own.listed.price is not None else own.entry.price,
                    own.entry.quantity if rune else 1,
                    own.listed.expiration_ms or own.entry.bid_expiry,
                    own.entry.created_ms,
                )
                for bid_id, own in sorted(ours.items())
                if pool_key_of(own.listed) == pool
            )
            manual = tuple(
                _manual(b, rune, now)
                for b in listed
                if b.bid_id not in ours and pool_key_of(b) == pool and b.price is not None
            )
            states[pool] = PoolState(snapshot, mine, manual, spent.get(str(pool), 0))
        return Observation(states, listed, balance, ours, now), report

    async def _market(
        self, pool: PoolKey, our_ids: frozenset[str], rune: bool
    ) -> MarketSnapshot | None:
        """The pool's market now; on an error the last one read (the plan holds once it is
        older than `max_market_age_ms`), or None."""
        try:
            snapshot = await read_pool_market(
                self.ctx,
                pool,
                own_addresses=own_addresses(self.ctx),
                own_bid_ids=our_ids,
                rune=rune,
            )
        except (NetError, ServiceError) as exc:
            self._on_event("market_unread", {"pool": str(pool), "error": type(exc).__name__})
            return self._snapshots.get(pool)
        self._snapshots[pool] = snapshot
        return snapshot

    def plan_for(self, seen: Observation) -> StrategyPlan:
        pools = [(s, seen.states[s.pool]) for s in self.config.pools]
        return plan_strategy(
            pools,
            balance_sats=seen.balance_sats,
            budgets=self.config.limits,
            fee=self.ctx.maker_fee,
            settings=self.config.lifecycle,
            now_ms=seen.now_ms,
        )

    async def dry_run(self) -> str:
        """What the next tick would place, renew and cancel, and why; nothing is signed."""
        seen, _ = await self.observe(reconcile_first=False)
        return dry_run_text(self.plan_for(seen), seen.now_ms)

    # --- acting ---------------------------------------------------------------------------

    async def tick(self) -> TickReport:
        """One step: observe, plan, act (cancels, then the scheduled renewals and placements)."""
        if not self._started:
            raise ServiceError("start() reconciles with the open bids first")
        try:
            seen, reconciled = await self.observe()
        except (NetError, ServiceError) as exc:
            now = self.ctx.clock.now_ms()
            self._on_event("tick_skipped", {"error": type(exc).__name__})
            return TickReport(now, ReconcileReport(), None, error=type(exc).__name__)
        plan = self.plan_for(seen)
        cancels = [a for a in plan.actions if a.kind == "cancel"]
        scheduled = self.scheduler.take(plan.actions)
        deferred = sum(1 for a in plan.actions if a.kind != "cancel") - len(scheduled)
        results: list[ActionResult] = []
        if cancels and not self.stopping:
            for result in await self._cancel(cancels, seen):
                results.append(self._said(result))
        for action in scheduled:
            if self.stopping:
                break
            results.append(self._said(await self._place_or_renew(action, seen)))
        statuses = " ".join(f"{p.pool}={p.status}" for p in plan.pools)
        self._on_event(
            "tick",
            {"actions": len(results), "deferred": deferred, "pools": statuses},
        )
        return TickReport(seen.now_ms, reconciled, plan, tuple(results), deferred)

    def _said(self, result: ActionResult) -> ActionResult:
        """Log one action's result as soon as it is known (a structured line)."""
        action = result.action
        self._on_event(
            action.kind,
            {
                "pool": str(action.pool),
                "price": action.price,
                "quantity": action.quantity,
                "done": result.done,
                "detail": result.detail,
                "reason": action.reason,
                "bid_id": action.bid_id,  # the bid cancelled or renewed (None: a placement)
            },
        )
        return result

    async def _cancel(self, actions: list[PlanAction], seen: Observation) -> list[ActionResult]:
        return await cancel_strategy_bids(
            self.ctx, self.journal, self.bid_log, self.policy_id, actions, seen.own
        )

    async def _place_or_renew(self, action: PlanAction, seen: Observation) -> ActionResult:
        action = self._within_validity(action)  # before a renewal cancels the old bid
        if action.bid_expiry_ms is None:
            return ActionResult(
                action, False, "the policy ends too soon for a bid the service takes"
            )
        if action.kind == "renew":
            assert action.bid_id is not None
            (cancelled,) = await self._cancel(
                [PlanAction("cancel", action.pool, action.price, 1, action.reason, action.bid_id)],
                seen,
            )
            if not cancelled.done:
                return ActionResult(action, False, f"the old bid was not cancelled: {cancelled}")
        spec = _spec_of(action, next(s for s in self.config.pools if s.pool == action.pool))
        try:
            placed = await place_strategy_bid(
                self.ctx, self.signer, self.journal, spec, action.reason
            )
        except StrategyRefusedError as exc:
            codes = ", ".join(c.value for c in exc.verdict.codes)
            return ActionResult(action, False, f"refused by the policy: {codes}")
        except (NetError, ServiceError) as exc:
            return ActionResult(action, False, f"{type(exc).__name__}: {exc}")
        return ActionResult(action, True, "bids " + ", ".join(placed.bid_ids))

    def _within_validity(self, action: PlanAction) -> PlanAction:
        """A bid may not outlive the policy (the signer refuses it): its expiry is brought
        back to the policy's end while the service still takes it (at least
        `MIN_BID_EXPIRY_MS` and a minute to reach it ahead); None when it would not."""
        end = self.signer.policy.valid_until_ms
        if action.bid_expiry_ms is None or action.bid_expiry_ms <= end:
            return action
        if end - self.ctx.clock.now_ms() < MIN_BID_EXPIRY_MS + EXPIRY_SLACK_MS:
            return replace(action, bid_expiry_ms=None)
        return replace(action, bid_expiry_ms=end)

    # --- the loop -------------------------------------------------------------------------

    async def run(self, max_ticks: int | None = None) -> int:
        """Tick, then wait `wait_after(report)` (through the context's sleeper), until
        `request_stop`; returns the ticks made. The wait ends early on a stop."""
        if not self._started:
            await self.start()
        ticks = 0
        while not self.stopping and (max_ticks is None or ticks < max_ticks):
            report = await self.tick()
            if self._on_tick is not None:
                self._on_tick(report)
            ticks += 1
            if self.stopping or (max_ticks is not None and ticks >= max_ticks):
                break
            wait = self.wait_after(report)
            if wait > 0:
                await self._wait(wait)
        self._on_event("stopped", {"ticks": ticks})
        return ticks

    def wait_after(self, report: TickReport) -> int:
        """The wait before the next tick: `tick_ms`, or none when the tick carried out every
        placement it took and left more for the next one. Then the address's pace spaces
        the requests already (500 ms each, `units_per_tick` of them a tick), and `tick_ms` on
        top would leave the pace idle: half the bound at the defaults. A tick that took no
        placement, or saw an action fail (refused, or not placed after its retries), waits
        as usual, so the loop never spins faster than the pace."""
        placed = any(r.action.kind != "cancel" for r in report.results)
        done = placed and all(r.done for r in report.results)
        return 0 if report.deferred > 0 and done else self.config.tick_ms

    async def _wait(self, ms: int) -> None:
        sleep = asyncio.ensure_future(self.ctx.sleeper.sleep_ms(ms))
        stop = asyncio.ensure_future(self._stop.wait())
        try:
            await asyncio.wait({sleep, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sleep, stop):
                if not task.done():
                    task.cancel()


def within_policy(config: StrategyConfig, policy: StrategyPolicy) -> StrategyConfig:
    """The strategy checked against its approved policy before it runs: a pool outside the
    policy, or a rule that may price above the pool's cap, is refused with a clear message
    (the signer would refuse each of its bids); a total budget above the policy's exposure
    cap is lowered to it, so the plan never commits more than the signer allows."""
    allowed = {a.match_key: a for a in policy.pools}
    for strategy in config.pools:
        kind = PoolKind.RUNES if strategy.is_rune else PoolKind.ORDINALS
        slug = strategy.pool.collection_slug
        key = (kind.value, rune_letters(slug) if strategy.is_rune else slug, strategy.pool.trait)
        pool = allowed.get(key)
        if pool is None:
            raise ServiceError(
                f"Pool {strategy.pool} is not in the approved policy {policy.policy_id}: "
                "approve a policy that names it, or remove it from the strategy."
            )
        if strategy.cap() > pool.max_price:
            raise ServiceError(
                f"Pool {strategy.pool}: the strategy may bid up to {sats(strategy.cap())}, above "
                f"the policy's cap of {pool.describe_cap()}: lower the rule's cap or approve a "
                "policy with a higher one."
            )
    if config.limits.total_budget_sats > policy.max_exposure:
        limits = replace(config.limits, total_budget_sats=policy.max_exposure)
        return replace(config, limits=limits)
    return config


def _manual(listed: BidListEntry, rune: bool, now_ms: int) -> HeldBid:
    """The user's other open bid in a pool: the plan's ceiling and the pool rule's share."""
    price = listed.price or 0
    quantity = (listed.quantity or 1) if rune else 1
    return HeldBid(listed.bid_id, price, quantity, listed.expiration_ms or now_ms, 0)


def _spec_of(action: PlanAction, strategy: PoolStrategy) -> BidSpec:
    expiry = action.bid_expiry_ms
    assert expiry is not None  # the plan sets it on every placement and renewal
    pool = action.pool
    if strategy.is_rune:
        return BidSpec.rune(pool.collection_slug, action.price, action.quantity, expiry)
    if pool.trait is not None:
        return BidSpec.trait(
            pool.collection_slug, [pool.trait], action.price, action.quantity, expiry
        )
    return BidSpec.collection(pool.collection_slug, action.price, action.quantity, expiry)


def _log_event(event: str, fields: dict[str, object]) -> None:
    log.info("%s %s", event, " ".join(f"{k}={v!r}" for k, v in fields.items()))
