"""A running strategy's notice (a fill, an outbid, a pool stopped or its budget spent) in the
user's words: the desktop notification's title and text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.ui import strings
from app.ui.market_event_text import said

if TYPE_CHECKING:
    from app.services.strategy_notices import StrategyNotice


def notice_text(notice: StrategyNotice) -> tuple[str, str]:
    strategy, pool = said(notice.policy_id), said(str(notice.pool))
    rune = notice.is_rune
    if notice.kind == "filled":
        title = strings.NOTICE_FILLED.format(strategy=strategy)
        left = max(0, notice.budget_left)
        return title, strings.NOTICE_FILLED_TEXT.format(pool=pool, sats=notice.sats, left=left)
    if notice.kind == "outbid":
        title = strings.NOTICE_OUTBID.format(strategy=strategy)
        top = strings.market_price(notice.top, rune)
        ours = strings.market_price(notice.ours, rune)
        return title, strings.NOTICE_OUTBID_TEXT.format(pool=pool, top=top, ours=ours)
    if notice.kind == "budget_spent":
        title = strings.NOTICE_BUDGET_SPENT.format(strategy=strategy)
    else:
        title = strings.NOTICE_STOPPED.format(strategy=strategy)
    return title, strings.NOTICE_REASON_TEXT.format(pool=pool, reason=said(notice.reason))
