"""The sentences of the PSBT review dialog, made from a Review and a Verdict (no widgets)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from app.core.psbt_review import Review
from app.core.psbt_review_context import Role
from app.core.psbt_review_findings import Risk
from app.core.psbt_review_parties import Party
from app.core.signing_policy import Verdict
from app.ui import strings
from app.ui.models.review_model import ReviewedPsbt, role_color, sats, short
from app.ui.theme import ThemeState

_INSCRIPTION_ID = re.compile(r"\b[0-9a-f]{64}i\d+\b")


def short_ids(text: str) -> str:
    """`text` with each whole inscription id shortened ('6fb976ab…442799i0')."""
    return _INSCRIPTION_ID.sub(lambda found: short(found.group(0), 8), text)


def share_text(share: float) -> str:
    """A percentage readable at any size: '2.3', '0.031' (two figures below 1%)."""
    return f"{share:.1f}" if share >= 1 else f"{share:.2g}"


def fee_text(review: Review, verdict: Verdict | None = None) -> str:
    """'2,310 sats · 15.0 sat/vB · 2.3% of the 100,000 sats moved': in sats, sat/vB and,
    where the flow moves an amount, its share of it (Sparrow shows the first two)."""
    if review.fee is None:
        return strings.REVIEW_FEE_UNKNOWN
    if review.fee < 0:
        return strings.REVIEW_FEE_NEGATIVE
    rate = review.fee_rate
    template = strings.REVIEW_RATE if review.vsize.exact_types else strings.REVIEW_RATE_GUESSED
    rate_text = strings.REVIEW_UNKNOWN if rate is None else template.format(rate=float(rate))
    text = strings.REVIEW_FEE.format(fee=sats(review.fee), rate=rate_text)
    assessed = None if verdict is None else verdict.fee
    if assessed is not None and assessed.share is not None and assessed.moved:
        share = share_text(float(assessed.share) * 100)
        text += " · " + strings.REVIEW_FEE_SHARE.format(share=share, moved=assessed.moved)
    return text


def size_text(review: Review) -> str:
    """'about 153 vB once signed (1 in, 2 out)'."""
    return strings.REVIEW_SIZE_TEXT.format(
        vsize=review.vsize.vsize, inputs=len(review.inputs), outputs=len(review.outputs)
    )


def time_lines(review: Review) -> list[str]:
    """Lock time, replace-by-fee and any relative lock, against the chain's tip."""
    return list(review.timelocks.lines(review.context.tip))


def landing_lines(review: Review, parties: Sequence[Party] = ()) -> list[str]:
    """Where each inscription of the inputs lands (every one, ours or not); an output named
    as its row in the outputs table names it (`parties`: 'the service (holds the item)', not
    'someone else')."""
    lines = []
    for x in review.landings:
        where = x.describe()
        index = x.output_index
        if index is not None and index < len(parties):
            where = strings.REVIEW_LANDS_ON.format(index=index, owner=parties[index].name)
        lines.append(
            strings.REVIEW_LANDS.format(
                inscription=x.inscription_id, input=x.input_index, where=where
            )
        )
    return lines


def findings_text(review: Review, verdict: Verdict) -> str:
    """The review's notes and dangers that the refusals do not already say."""
    said = set(verdict.reasons())
    marks = {Risk.DANGER: "⚠ ", Risk.NOTE: "• ", Risk.OK: "• "}
    lines = [marks[f.risk] + f.message for f in review.findings if f.message not in said]
    if not lines:
        return ""
    return strings.REVIEW_FINDINGS + ":\n" + "\n".join(lines)


def verdict_text(plans: Sequence[ReviewedPsbt], *, signed_here: bool = True) -> str:
    """The review's verdict; `signed_here` False: a watch-only profile exports the PSBT for
    its other wallet to sign, and the approval says nothing is signed here."""
    refused = [p for p in plans if not p.verdict.approved and not p.verdict.needs_fee_consent]
    consent = [p for p in plans if p.verdict.needs_fee_consent]
    if consent and not refused:
        return consent_text(plans, consent)
    if not refused:
        first = plans[0].verdict
        inputs = sorted({p.input_index for plan in plans for p in plan.verdict.to_sign})
        listed = ", ".join(str(i) for i in inputs)
        one, every = (
            (strings.REVIEW_APPROVED, strings.REVIEW_APPROVED_ALL)
            if signed_here
            else (strings.REVIEW_APPROVED_ELSEWHERE, strings.REVIEW_APPROVED_ALL_ELSEWHERE)
        )
        if len(plans) == 1:
            return strings.counted(one, len(inputs), flow=first.flow, inputs=listed)
        return strings.counted(
            every,
            len(inputs),
            transactions=len(plans),
            flow=first.flow,
            inputs=listed,
        )
    lines = []
    if len(plans) > 1:
        lines.append(strings.REVIEW_REFUSED_SOME.format(refused=len(refused), count=len(plans)))
    for plan in refused:
        label = plan.label
        head = strings.REVIEW_REFUSED.format(flow=plan.verdict.flow)
        lines.append(f"{label}: {head}" if label and len(plans) > 1 else head)
        lines += [f"  • {reason}" for reason in plan.verdict.reasons()]
    return "\n".join(lines)


def consent_text(plans: Sequence[ReviewedPsbt], consent: Sequence[ReviewedPsbt]) -> str:
    """The fee bounds a transaction crosses, and that nothing is signed without consent."""
    first = consent[0].verdict
    if len(plans) == 1 and first.fee is not None:
        head = strings.REVIEW_NEEDS_CONSENT.format(flow=first.flow, fee=first.fee.describe())
    else:
        head = strings.REVIEW_NEEDS_CONSENT_SOME.format(count=len(consent), total=len(plans))
    reasons = dict.fromkeys(r for plan in consent for r in plan.verdict.reasons())
    return "\n".join([head, *(f"  • {r}" for r in reasons), strings.REVIEW_CONSENT_HINT])


def consent_label(plans: Sequence[ReviewedPsbt]) -> str:
    """The checkbox's words: the very fee for one transaction, a count for several."""
    consent = [p for p in plans if p.verdict.needs_fee_consent]
    fee = consent[0].verdict.fee if consent else None
    if len(consent) == 1 and fee is not None:
        return strings.REVIEW_FEE_CONSENT.format(fee=fee.describe())
    return strings.REVIEW_FEE_CONSENT_MANY.format(count=len(consent))


def legend_html() -> str:
    """A coloured swatch per owner role: the key to the tables' Owner column (the service's
    colour also marks the outputs named as its fee or as holding a listed item)."""
    shown = (Role.PAYMENT, Role.ORDINALS, Role.BIDDING_WALLET, Role.SERVICE, Role.STRANGER)
    parts = [f'<span style="color:{role_color(r)}">■</span> {html.escape(r.value)}' for r in shown]
    accent = ThemeState.colors["accent"]
    parts.append(f'<span style="color:{accent}">◆</span> inscription or rune')
    return html.escape(strings.REVIEW_LEGEND) + " " + " &nbsp; ".join(parts)
