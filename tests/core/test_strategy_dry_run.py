"""A strategy's dry run: the plan as data and as the text the command line prints."""

from __future__ import annotations

from app.core.pools import MakerFee, PoolKey
from app.core.strategy_dry_run import DryRunLine, DryRunPool, dry_run, dry_run_text
from app.core.strategy_plan import PoolState, StrategyPlan, plan_strategy
from app.core.strategy_rules import AboveTopBid, BelowFloor, FixedPrice, PoolStrategy
from app.core.strategy_settings import LifecycleSettings, StrategyLimits
from app.core.strategy_targets import HeldBid

from .strategy_helpers import market

PUPPETS = PoolKey("bitcoin-puppets")
MONKES = PoolKey("nodemonkes")
DOG = PoolKey("DOG•GO•TO•THE•MOON")
NOW = 10_000_000
EXPIRY = NOW + 30 * 60_000


def sample_plan() -> StrategyPlan:
    puppets = market(PUPPETS, floor=60_000, bids=[(40_000, 2)], fetched_at_ms=NOW)
    open_bids = (
        HeldBid("old", 39_000, 1, EXPIRY, 0),
        HeldBid("soon", 41_000, 1, NOW + 90_000, 1),
        HeldBid("ok", 41_000, 1, EXPIRY, 2),
    )
    pools = [
        (PoolStrategy(PUPPETS, AboveTopBid(50_000, 90), 130_000), PoolState(puppets, open_bids)),
        (PoolStrategy(MONKES, BelowFloor(10, 90_000), 100_000), PoolState(None)),
        (PoolStrategy(DOG, FixedPrice(1), 50_000), PoolState(None)),
    ]
    return plan_strategy(
        pools,
        balance_sats=1_000_000,
        budgets=StrategyLimits(1_000_000, 10),
        fee=MakerFee(0, 0),
        settings=LifecycleSettings(),
        now_ms=NOW,
    )


def test_dry_run_as_data() -> None:
    dog, puppets, monkes = dry_run(sample_plan(), NOW)  # pools in PoolKey.sort_key order
    assert puppets == DryRunPool(
        pool="bitcoin-puppets",
        status="bid",
        target="3 bids at 41,000 sats (one step above the top competing bid of 40,000 sats).",
        room="the pool's budget: 0 sats of 130,000 sats spent, 130,000 sats left",
        kept=1,
        lines=(
            DryRunLine(
                "cancel",
                "1 bid at 39,000 sats (bid old)",
                "The target moved from 39,000 sats to 41,000 sats an item (more than the 1 % "
                "threshold): cancel and place the target.",
            ),
            DryRunLine(
                "renew",
                "1 bid at 41,000 sats (bid soon), expiring in 30 min",
                "Expires in 90 s (renewed 180 s before it lapses): a new bid message with a new "
                "timestamp (spec retry rule 1), at the target 41,000 sats.",
            ),
            DryRunLine(
                "place",
                "1 bid at 41,000 sats, expiring in 30 min",
                "Open: 2 of the 3 bids wanted at 41,000 sats; place 1 (one step above the top "
                "competing bid of 40,000 sats).",
            ),
        ),
        exposure_sats=123_000,
        active_bids=3,
    )
    assert (monkes.status, monkes.lines, monkes.kept) == ("hold", (), 0)
    assert dog.lines == (
        DryRunLine(
            "place",
            "one bid of 50,000 units for 50,000 sats, expiring in 30 min",
            "No bid open at this level: place one bid of 50,000 units for 50,000 sats (the fixed "
            "price).",
        ),
    )


def test_dry_run_text() -> None:
    assert dry_run_text(sample_plan(), NOW).splitlines() == [
        "DOG•GO•TO•THE•MOON: Bidding: One bid of 50,000 units for 50,000 sats (the fixed price).",
        "  Tightest limit: the pool's budget: 0 sats of 50,000 sats spent, 50,000 sats left. Open "
        "bids kept as they are: 0.",
        "  Place one bid of 50,000 units for 50,000 sats, expiring in 30 min: No bid open at "
        "this level: place one bid of 50,000 units for 50,000 sats (the fixed price).",
        "  After it: 1 open bid committing 50,000 sats.",
        "bitcoin-puppets: Bidding: 3 bids at 41,000 sats (one step above the top competing bid of "
        "40,000 sats).",
        "  Tightest limit: the pool's budget: 0 sats of 130,000 sats spent, 130,000 sats left. "
        "Open bids kept as they are: 1.",
        "  Cancel 1 bid at 39,000 sats (bid old): The target moved from 39,000 sats to 41,000 "
        "sats an item (more than the 1 % threshold): cancel and place the target.",
        "  Renew 1 bid at 41,000 sats (bid soon), expiring in 30 min: Expires in 90 s (renewed "
        "180 s before it lapses): a new bid message with a new timestamp (spec retry rule 1), at "
        "the target 41,000 sats.",
        "  Place 1 bid at 41,000 sats, expiring in 30 min: Open: 2 of the 3 bids wanted at "
        "41,000 sats; place 1 (one step above the top competing bid of 40,000 sats).",
        "  After it: 3 open bids committing 123,000 sats.",
        "nodemonkes: Holding: no market data; a price relative to the market is not set "
        "on missing data.",
        "  Tightest limit: the pool's budget: 0 sats of 100,000 sats spent, 100,000 sats left. "
        "Open bids kept as they are: 0.",
        "  Nothing to do.",
        "  After it: 0 open bids committing 0 sats.",
        "Total: 4 actions; 4 open bids committing 173,000 sats.",
    ]
