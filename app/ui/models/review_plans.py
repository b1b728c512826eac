"""The rows of a bulk review's list of PSBTs (one per transaction) and their totals, in a
seller's words: what each gives (an item with the sats it sits on) and receives.

Pure formatting of reviews: no decision is taken here. Loaded with the review dialog (the
core review modules with it), not with the tabs that share `review_model`'s tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.psbt_review import Review
from app.core.psbt_review_headline import gives_items, listed_price, sats_given, totals
from app.ui import strings
from app.ui.models.review_model import Cell, ReviewedPsbt, sats, short


def plan_rows(plans: Sequence[ReviewedPsbt]) -> list[tuple[Cell, ...]]:
    return [_plan_row(plan) for plan in plans]


def _gives_and_receives(review: Review) -> tuple[str, str]:
    """What one transaction gives and receives, in the words of its row. When it gives an
    item (a listing), the sats that leave with it are named with it and what comes back is
    counted whole: 'inscription 1a2b…i0 with 10,000 sats' for '120,000 sats', not '0 sats'
    for '110,000 sats'."""
    summary = review.summary
    items = [short(i, 8) for i in summary.inscriptions_given]
    items += [f"{r.amount:,} {r.rune}" for r in summary.runes_given]
    received = [short(i, 8) for i in summary.inscriptions_received]
    received += [f"{r.amount:,} {r.rune}" for r in summary.runes_received]
    if items and summary.you_give is not None and summary.you_give < 0:
        given = sats_given(review)
        with_sats = "" if not given else " " + strings.REVIEW_ITEMS_WITH.format(sats=sats(given))
        gained = [sats(listed_price(review)), *received]
        return ", ".join(items) + with_sats, ", ".join(gained)
    give = [sats(summary.you_give) if summary.you_give is not None else strings.REVIEW_UNKNOWN]
    if summary.you_give is not None and summary.you_give < 0:
        give = ["0 sats"]
    give += items
    receive = [sats(-summary.you_give)] if summary.you_give and summary.you_give < 0 else []
    receive += received
    return ", ".join(give), ", ".join(receive) or strings.REVIEW_NOTHING


def _plan_row(plan: ReviewedPsbt) -> tuple[Cell, ...]:
    label = plan.label or short(plan.review.txid, 8)
    give, receive = _gives_and_receives(plan.review)
    if plan.verdict.approved:
        text, color = strings.REVIEW_VERDICT_OK, "ok"
    elif plan.verdict.needs_fee_consent:
        text, color = strings.REVIEW_VERDICT_FEE, "warning"
    else:
        text, color = strings.REVIEW_VERDICT_REFUSED, "error"
    verdict = Cell(text, color, " ".join(plan.verdict.reasons()) or None)
    return (
        Cell(label, tooltip=plan.review.txid),
        Cell(give),
        Cell(receive),
        Cell(sats(plan.review.fee) if (plan.review.fee or 0) >= 0 else "0 sats"),
        verdict,
    )


def totals_text(plans: Sequence[ReviewedPsbt]) -> str:
    """The plans' figures added up: what the table's rows sum to."""
    reviews = [p.review for p in plans]
    total = totals(reviews)
    fee = strings.REVIEW_UNKNOWN if total.fees is None else sats(total.fees)
    if total.items_given and all(gives_items(r) for r in reviews) and total.you_give is not None:
        # Listings: the items and the postage that leaves with them, against what comes back.
        postage = (
            strings.REVIEW_UNKNOWN if total.postage_given is None else sats(total.postage_given)
        )
        return strings.REVIEW_TOTALS_ITEMS.format(
            items=strings.counted(strings.REVIEW_ITEMS, total.items_given),
            postage=postage,
            receive=sats(total.listed),
            gain=sats(-total.you_give),
            fees=fee,
        )
    gives = [r.summary.you_give for r in reviews]
    if None in gives:
        give = receive = strings.REVIEW_UNKNOWN
    else:
        known = [g for g in gives if g is not None]
        give = sats(sum(g for g in known if g > 0))
        receive = sats(sum(-g for g in known if g < 0))
    return strings.REVIEW_TOTALS.format(give=give, receive=receive, fees=fee, count=len(plans))
