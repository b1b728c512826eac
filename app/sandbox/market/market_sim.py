"""The market moving by itself (issue 16): a simulator driven by a seed, and the demo market a
new sandbox starts with. Both act only through `market_scenario` (so every order obeys the
marketplace's rules) and only with the sandbox participants' own orders: they never buy, fill
or cancel a user's.

Determinism: step `n` of seed `s` draws from `random.Random("s:n")`, and every choice among
orders is made in an order that does not depend on random ids or keys (price, then creation
time, then the inscription's number or the participant's label). So two sandboxes given the
same seed and the same clock moves end with the same market (prices, sizes, sales), whatever
their keys, txids and order ids. A step the marketplace refuses (a bidder still rate-limited,
a pool its wallet no longer covers) is kept in the report as skipped, with the error's code.
Each seed's step counter is kept in the market's meta table, so `simulate(s, 5)` twice is
`simulate(s, 10)` once.
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from app.core.bid_request import Trait
from app.core.errors import ErrorCode
from app.sandbox.chain.errors import ChainError
from app.sandbox.demo import DEMO_COLLECTIONS, DEMO_RUNES
from app.sandbox.market import market_participants as parties
from app.sandbox.market import market_scenario as scenario
from app.sandbox.market.bid_store import OPEN_AT_SQL, BidState, bid_states
from app.sandbox.market.errors import MarketError
from app.sandbox.market.service import Json, Market

log = logging.getLogger(__name__)

SELLERS = ("seller-1", "seller-2", "seller-3")
BIDDERS = tuple(f"bidder-{n}" for n in range(1, 9))
HOUR_MS = 3_600_000
MAX_STEPS_PER_CALL = 50
_STEP_META = "market_sim_step:"
_DEMO_META = "demo_market"
# Per-step action weights of a collection: (action, weight). A rune pool bids (60%), lists a
# new runes output (20%) or cancels a bid (20%).
_ACTIONS = (("list", 30), ("bid", 30), ("reprice", 10), ("cancel", 10), ("unlist", 5),
            ("buy", 10), ("fill", 5))  # fmt: skip


def base_price(slug: str) -> int:
    """A collection's reference price when it has no listing: 20,000-49,000 sats, by slug."""
    return 20_000 + int.from_bytes(hashlib.sha256(slug.encode()).digest()[:2], "big") % 30 * 1_000


def round_step(sats: float) -> int:
    return max(1_000, int(sats) // 1_000 * 1_000)


def _inscription_number(market: Market, inscription_id: str | None) -> int:
    info = None if inscription_id is None else market.node.ord_inscription(inscription_id)
    return -1 if info is None else int(info["number"])


def participant_listings(market: Market, slug: str) -> list[Any]:
    """The participants' active listings of `slug`, in a key-independent order."""
    listings = scenario.active_of(market, slug)
    with market.store.reading() as conn:
        ours = [x for x in listings if parties.label_of(conn, x.seller_ord_address) is not None]
    return sorted(
        ours, key=lambda x: (x.price, x.created_ms, _inscription_number(market, x.inscription_id))
    )


def participant_bids(market: Market, slug: str) -> list[tuple[str, BidState]]:
    """(bidder label, bid) of the participants' open bids in `slug`, highest price first."""
    now = market.now_ms()
    with market.store.reading() as conn:
        rows = conn.execute(
            # OPEN_AT_SQL's columns are the bids' alone: market_participants has none of them
            "SELECT b.id, p.label FROM bids b JOIN market_participants p ON p.ordinals_address "
            f"= b.maker WHERE b.slug = ? AND {OPEN_AT_SQL}",
            (slug, now),
        ).fetchall()
        states = bid_states(conn, [row[0] for row in rows])
    found = [(label, states[bid_id]) for bid_id, label in rows]

    def order(item: tuple[str, BidState]) -> tuple[Any, ...]:
        label, bid = item
        trait = ("", "") if bid.trait is None else (bid.trait.trait_type, bid.trait.value)
        return (-bid.price, bid.expiry_ms, label, trait)

    return sorted(found, key=order)


def _pools(market: Market) -> list[tuple[str, bool]]:
    """(slug or spaced rune name, is a rune), collections first, each sorted."""
    collections = sorted(c["slug"] for c in market.node.collections())
    runes, _ = market.node.runes_page(0, 100)
    return [(s, False) for s in collections] + [(r["spaced"], True) for r in sorted(
        runes, key=lambda r: str(r["rune"]))]  # fmt: skip


def _floor_or_base(market: Market, slug: str) -> int:
    listings = scenario.active_of(market, slug)
    return listings[0].price if listings else base_price(slug)


def _step(market: Market, rng: random.Random) -> Json:
    slug, is_rune = rng.choice(_pools(market))
    names = [name for name, _ in _ACTIONS]
    if is_rune:
        draw = rng.random()
        action = "bid" if draw < 0.6 else "list" if draw < 0.8 else "cancel"
    else:
        action = rng.choices(names, [w for _, w in _ACTIONS])[0]
    try:
        done = _HANDLERS[action](market, rng, slug, is_rune)
    except (MarketError, ChainError) as exc:
        code = exc.code.value if isinstance(exc, MarketError) else exc.code
        return {"slug": slug, "action": action, "done": False, "skipped": code}
    return {"slug": slug, "action": action, "done": done is not None, **(done or {})}


def _list(market: Market, rng: random.Random, slug: str, is_rune: bool) -> Json:
    seller = rng.choice(SELLERS)
    if is_rune:
        units = rng.randint(1, 10) * 1_000
        price = units * rng.randint(3, 7)
        listing = scenario.add_rune_listing(market, slug, price, units, seller)
        return {"price": price, "units": units, "listingId": listing["id"]}
    price = round_step(_floor_or_base(market, slug) * rng.uniform(0.92, 1.4))
    listing = scenario.add_listing(market, slug, price, seller, None)
    return {"price": price, "listingId": listing["id"]}


def _bid(market: Market, rng: random.Random, slug: str, is_rune: bool) -> Json:
    first = rng.randrange(len(BIDDERS))
    expiry = market.now_ms() + rng.randint(1, 24) * HOUR_MS
    if is_rune:
        units = rng.randint(1, 20) * 1_000
        price = max(10_000, units * rng.randint(2, 8))
        order = scenario.BidOrder("", "rune", slug, price, units, expiry)
    else:
        collection = scenario.collection_or_error(market, slug)
        price = round_step(_floor_or_base(market, slug) * rng.uniform(0.55, 0.95))
        trait = None
        traits = [t for t in collection["traits"] if t["values"]]
        if traits and rng.random() < 0.35:
            chosen = rng.choice(traits)
            trait = Trait(chosen["trait_type"], rng.choice(chosen["values"]))
            price = round_step(price * 1.1)
        kind = "collection" if trait is None else "trait"
        order = scenario.BidOrder("", kind, slug, price, rng.randint(1, 2), expiry, trait)
    # The drawn bidder, else the next one the 500 ms rule lets bid now (the clock may stand
    # still between steps): the rule decides, as it does for anyone's bid.
    for turn in range(len(BIDDERS)):
        bidder = BIDDERS[(first + turn) % len(BIDDERS)]
        try:
            data = scenario.add_bid(market, replace(order, bidder=bidder))
        except MarketError as exc:
            if exc.code is not ErrorCode.SUBMIT_BID_RATE_LIMITED or turn == len(BIDDERS) - 1:
                raise
            continue
        return {"price": order.price, "bidder": bidder, "bidIds": data["bidIds"]}
    raise AssertionError("unreachable: the last turn returns or raises")


def _reprice(market: Market, rng: random.Random, slug: str, _rune: bool) -> Json | None:
    listings = participant_listings(market, slug)
    if not listings:
        return None
    listing = rng.choice(listings)
    _, seller = scenario.sandbox_listing(market, listing.id)
    price = round_step(listing.price * rng.uniform(0.85, 1.15))
    assert listing.inscription_id is not None
    parties.list_item(market, seller, price, slug, inscription_id=listing.inscription_id)
    return {"price": price, "from": listing.price}


def _unlist(market: Market, rng: random.Random, slug: str, _rune: bool) -> Json | None:
    listings = participant_listings(market, slug)
    if len(listings) < 2:  # keep a floor
        return None
    listing = rng.choice(listings)
    scenario.remove_listing(market, listing.id)
    return {"price": listing.price}


def _cancel(market: Market, rng: random.Random, slug: str, _rune: bool) -> Json | None:
    bids = participant_bids(market, slug)
    if not bids:
        return None
    _, bid = rng.choice(bids)
    scenario.remove_bid(market, bid.id)
    return {"price": bid.price}


def _buy(market: Market, _rng: random.Random, slug: str, _rune: bool) -> Json | None:
    listings = participant_listings(market, slug)
    if not listings:
        return None
    scenario.buy_listing(market, listings[0].id, None)
    return {"price": listings[0].price}


def _fill(market: Market, rng: random.Random, slug: str, _rune: bool) -> Json | None:
    bids = participant_bids(market, slug)
    if not bids:
        return None
    _, bid = bids[0]
    scenario.fill_with_seller(market, bid.id, rng.choice(SELLERS))
    return {"price": bid.price}


_HANDLERS: dict[str, Callable[[Market, random.Random, str, bool], Json | None]] = {
    "list": _list, "bid": _bid, "reprice": _reprice, "cancel": _cancel, "unlist": _unlist,
    "buy": _buy, "fill": _fill,
}  # fmt: skip


def simulate(market: Market, seed: int, steps: int) -> Json:
    """Advance the market `steps` steps of seed `seed` now; what each step did."""
    key = f"{_STEP_META}{seed}"
    first = int(market.store.get_meta(key) or 0)
    report = []
    for n in range(first, first + steps):
        report.append({"step": n, **_step(market, random.Random(f"{seed}:{n}"))})
        market.store.set_meta(key, str(n + 1))
    return {"seed": seed, "steps": report, "nextStep": first + steps}


# -- the demo market ----------------------------------------------------------------------


def seed_demo_market(market: Market) -> bool:
    """A small live-looking market, the same on every new sandbox: per demo collection four
    listings from three sellers, three collection bids and a trait bid, then one purchase;
    per demo rune two sellers' runes outputs and two rune bids. Once per data directory;
    False when it was there already."""
    if market.store.get_meta(_DEMO_META) is not None:
        return False
    expiry = market.now_ms() + 48 * HOUR_MS
    # One bidder per demo bid: a bidder bids at most once per 500 ms (the rate rule), and the
    # demo places them all at once.
    bidders = (f"demo-bidder-{n}" for n in range(1, 100))
    for spec in DEMO_COLLECTIONS:
        slug = spec["slug"]
        if market.node.collection(slug) is None:
            continue
        base = base_price(slug)
        for i, factor in enumerate((1.0, 1.1, 1.25, 1.5)):
            price, seller = round_step(base * factor), SELLERS[i % len(SELLERS)]
            _quietly(scenario.add_listing, market, slug, price, seller, None)
        first = spec["traits"][0]
        trait = Trait(first["trait_type"], first["values"][0])
        orders = [
            scenario.BidOrder(next(bidders), "collection", slug, round_step(base * f), 1, expiry)
            for f in (0.85, 0.8, 0.7)
        ]
        orders.append(
            scenario.BidOrder(
                next(bidders), "trait", slug, round_step(base * 0.9), 1, expiry, trait
            )
        )
        for order in orders:
            _quietly(scenario.add_bid, market, order)
        _quietly(scenario.buy_listing, market, None, slug)
    for rune, _amount, _owner in DEMO_RUNES:
        for seller, units, per_unit in ((SELLERS[0], 10_000, 4), (SELLERS[1], 5_000, 5)):
            _quietly(scenario.add_rune_listing, market, rune, units * per_unit, units, seller)
        for units, per_unit in ((10_000, 3), (5_000, 2)):
            order = scenario.BidOrder(next(bidders), "rune", rune, units * per_unit, units, expiry)
            _quietly(scenario.add_bid, market, order)
    market.store.set_meta(_DEMO_META, "1")
    return True


def _quietly(action: Callable[..., object], *args: Any) -> None:
    """One demo order; a refusal is logged and the rest go on (a demo is never fatal)."""
    try:
        action(*args)
    except (MarketError, ChainError) as exc:
        log.warning("demo market: an order was refused: %s", exc)
