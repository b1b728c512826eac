"""Speed of a pool's market snapshot (`app.core.market_snapshot.build_snapshot`): a collection
pool read as 10,000 competing bids (collection-wide, trait and rune rows mixed in, as a page of
`/activity/bids` mixes them; 50 of them ours) and 1,000 listings (10 ours), at prices spread over
a few hundred levels; then `rank_for_price` for a price being typed.

Inputs are built before the clock starts; the figure is the median of the rounds.

Run: ./dev bench market_snapshot [--rounds 30] [--bids 10000] [--listings 1000]
Target: the snapshot in <= 50 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from app.core.bid_request import Trait
from app.core.market_snapshot import (
    BidKindName,
    MarketBid,
    MarketListing,
    build_snapshot,
    rank_for_price,
)
from app.core.pools import PoolKey

POOL = PoolKey("bench")
OWN = frozenset({"bc1qours", "bc1pours"})
TARGET_MS = 50.0


def make_bids(count: int, rng: random.Random) -> list[MarketBid]:
    kinds: tuple[BidKindName, ...] = ("collection",) * 8 + ("trait", "rune")
    bids = []
    for i in range(count):
        kind = rng.choice(kinds)
        trait = Trait("Tag", f"v{i % 20}") if kind == "trait" else None
        bidder = "bc1qours" if i % 200 == 0 else f"bc1qbidder{i % 700}"
        price = rng.randint(5, 400) * 1_000
        bids.append(
            MarketBid(f"bid{i}", price, rng.randint(1, 3), bidder, kind, trait, None, "bench")
        )
    return bids


def make_listings(count: int, rng: random.Random) -> list[MarketListing]:
    return [
        MarketListing(
            f"ask{i}",
            f"{i:064x}i0",
            rng.randint(300, 2_000) * 1_000,
            "bc1pours" if i % 100 == 0 else f"bc1pseller{i}",
        )
        for i in range(count)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--bids", type=int, default=10_000)
    parser.add_argument("--listings", type=int, default=1_000)
    args = parser.parse_args()
    rng = random.Random(16)
    bids, listings = make_bids(args.bids, rng), make_listings(args.listings, rng)
    load_before = os.getloadavg()
    timings, typed = [], []
    for _ in range(args.rounds):
        start = time.perf_counter()
        snapshot = build_snapshot(
            POOL, bids, listings, own_addresses=OWN, own_bid_ids=frozenset(), fetched_at_ms=0
        )
        timings.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        rank_for_price(snapshot, 150_000)
        typed.append((time.perf_counter() - start) * 1000)
    load_after = os.getloadavg()
    median = statistics.median(timings)
    verdict = "within" if median <= TARGET_MS else "OVER"
    print(f"{'measure':<52} {'median':>10} {'target':>10}")
    label = f"snapshot, {args.bids:,} bids + {args.listings:,} listings"
    print(f"{label:<52} {median:7.2f} ms {'<= 50 ms':>10}  ({verdict})")
    print(f"{'rank_for_price (a price being typed)':<52} {statistics.median(typed):7.3f} ms")
    print(
        f"(rounds {args.rounds}; min/max {min(timings):.2f}/{max(timings):.2f} ms; "
        f"{snapshot.bid_units:,} units in {len(snapshot.bid_levels)} bid levels, "
        f"{len(snapshot.my_ranks)} of ours ranked; load average "
        f"{load_before[0]:.2f} before, {load_after[0]:.2f} after)"
    )


if __name__ == "__main__":
    main()
