"""A running strategy's notice (a fill, an outbid, a pool stopped or its budget spent) in the
user's words: the desktop notification's title and text. The text names the pool unless the
strategy's name (in the title) already does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.market_event_text import said

if TYPE_CHECKING:
    from app.services.strategy_notices import StrategyNotice


def notice_text(notice: StrategyNotice) -> tuple[str, str]:
    strategy, pool = said(notice.policy_id), said(str(notice.pool))
    if notice.kind == "filled":
        title = strings.NOTICE_FILLED.format(strategy=strategy)
        left = max(0, notice.budget_left)
        text = strings.NOTICE_FILLED_TEXT.format(sats=notice.sats, left=left)
    elif notice.kind == "outbid":
        title = strings.NOTICE_OUTBID.format(strategy=strategy)
        text = _outbid_text(notice)
    elif notice.kind == "budget_spent":
        title = strings.NOTICE_BUDGET_SPENT.format(strategy=strategy)
        if notice.bid_cost > 0:  # the figures known: no need of the plan's long words
            left = max(0, notice.budget_left)
            too_low = strings.NOTICE_BUDGET_TOO_LOW
            return title, too_low.format(pool=pool, left=left, cost=notice.bid_cost)
        text = said(notice.reason)
    else:
        title = strings.NOTICE_STOPPED.format(strategy=strategy)
        text = said(notice.reason)
    if pool in strategy:
        return title, text
    return title, strings.NOTICE_POOL_PREFIX.format(pool=pool, text=text)


def _outbid_text(notice: StrategyNotice) -> str:
    """What the strategy did about it: held at its cap (the user must act), or bid again."""
    rune = notice.is_rune
    top = strings.market_price(notice.top, rune)
    if notice.cap:
        cap = strings.market_price(notice.cap, rune)
        return strings.NOTICE_OUTBID_ABOVE_CAP.format(top=top, cap=cap)
    if notice.rebid:
        rebid = strings.market_price(notice.rebid, rune)
        return strings.NOTICE_OUTBID_REBID.format(top=top, rebid=rebid)
    ours = strings.market_price(notice.ours, rune)
    return strings.NOTICE_OUTBID_WAITS.format(top=top, ours=ours)
