"""The headline of a review: what a transaction does, in the user's words, for its flow; and
the totals of several (a bulk listing). For display only: no policy reads them, and every
figure comes from the Review (the amounts the chain confirms), never from the service's words.

    "Moves 500,000 sats into your bidding wallet, spendable by you or the service."
    "You pay 62,000 sats: 50,000 sats to the seller and the service, 10,000 sats of postage
     that go with the inscription to your ordinals address, 2,000 sats of network fee."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.core.policy_verdict import Flow
from app.core.psbt_review import Review
from app.core.psbt_review_context import Role
from app.core.psbt_review_summary import sats

# Who can spend the bidding wallet: the spec's 1-of-2 multisig of the user's key and the
# service's, so the service can complete a sale when a seller accepts a bid.
BIDDING_WALLET_NOTE = "spendable by you or the service"


def _fee_part(review: Review) -> str:
    if review.fee is None:
        return "the network fee is unknown (an input amount is not confirmed by the chain)"
    if review.fee < 0:
        return "no network fee yet (the buyer adds inputs to pay it)"
    return f"the network fee is {sats(review.fee)}"


def _item_names(review: Review) -> str:
    given = [f"inscription {i}" for i in review.summary.inscriptions_given]
    given += [f"{r.amount:,} {r.rune}" for r in review.summary.runes_given]
    return ", ".join(given) or "your item"


def _funding(review: Review) -> str | None:
    wallet = review.summary.flow(Role.BIDDING_WALLET)
    if wallet is None or wallet.sent != 0:
        return None
    return (
        f"Moves {sats(wallet.received)} into your bidding wallet, {BIDDING_WALLET_NOTE}; "
        f"{_fee_part(review)}."
    )


def _withdraw(review: Review) -> str | None:
    wallet = review.summary.flow(Role.BIDDING_WALLET)
    payment = review.summary.flow(Role.PAYMENT)
    if wallet is None or payment is None or wallet.net is None:
        return None
    if review.fee is None or review.fee < 0:
        return None
    return (
        f"Moves {sats(payment.received)} from your bidding wallet to your payment address; "
        f"the bidding wallet pays the network fee of {sats(review.fee)} "
        f"({sats(-wallet.net)} out of it in all)."
    )


def postage_of(review: Review) -> int:
    """Sats of our outputs that receive an inscription someone else gives us (its postage)."""
    landed = {x.output_index for x in review.landings if not x.from_ours and x.to_us}
    return sum(review.outputs[i].value for i in landed if i is not None)


def _inscription_bid(review: Review) -> str | None:
    give, fee = review.summary.you_give, review.fee
    if give is None or fee is None or fee < 0 or not review.summary.inscriptions_received:
        return None
    postage = postage_of(review)
    item = review.summary.inscriptions_received[0]
    return (
        f"You pay {sats(give + postage)} for inscription {item}: {sats(give - fee)} to the "
        f"seller and the service, {sats(postage)} of postage that go with the inscription to "
        f"your ordinals address, and {sats(fee)} of network fee."
    )


def listed_price(review: Review) -> int:
    """What our addresses receive once a listing is bought (its price)."""
    return sum(o.value for o in review.outputs if o.is_ours)


def sats_given(review: Review) -> int | None:
    """Sats of our inputs: for a listing, the postage that leaves with the item (None when
    an input's amount is unknown)."""
    values = [i.value for i in review.inputs if i.is_ours]
    return None if None in values else sum(v for v in values if v is not None)


def gives_items(review: Review) -> bool:
    return bool(review.summary.inscriptions_given or review.summary.runes_given)


def _secure_listing(review: Review) -> str:
    return (
        f"Lists {_item_names(review)} for {sats(listed_price(review))}: once it is bought, "
        "your payment address receives that; until then nothing moves."
    )


def _end_listing(review: Review) -> str:
    return f"Moves your item back to your own address, which ends its listing; {_fee_part(review)}."


def headline(review: Review, flow: str) -> str:
    """One sentence saying what `review`'s transaction does, for its `flow` (a Flow value);
    the summary's own first line when the transaction is not shaped like its flow."""
    text: str | None = None
    if flow == Flow.FUNDING:
        text = _funding(review)
    elif flow == Flow.WITHDRAW:
        text = _withdraw(review)
    elif flow == Flow.INSCRIPTION_BID:
        text = _inscription_bid(review)
    elif flow == Flow.SECURE_LISTING:
        text = _secure_listing(review)
    elif flow == Flow.END_LISTING:
        text = _end_listing(review)
    return text or review.summary.lines()[0]


@dataclass(frozen=True)
class Totals:
    """Several transactions added up; None where any one's figure is unknown."""

    count: int
    you_give: int | None  # net, fees included (negative: you gain)
    fees: int | None  # network fees we pay (a listing's is 0: the buyer pays it)
    listed: int  # what listings pay once bought
    items_given: int
    postage_given: int | None  # sats of our inputs that leave with the items given


def totals(reviews: Sequence[Review]) -> Totals:
    gives = [r.summary.you_give for r in reviews]
    fees = [r.fee for r in reviews]
    postages = [sats_given(r) for r in reviews if gives_items(r)]
    return Totals(
        count=len(reviews),
        you_give=None if None in gives else sum(g for g in gives if g is not None),
        fees=None if None in fees else sum(max(0, f) for f in fees if f is not None),
        listed=sum(listed_price(r) for r in reviews),
        items_given=sum(
            len(r.summary.inscriptions_given) + len(r.summary.runes_given) for r in reviews
        ),
        postage_given=None if None in postages else sum(p or 0 for p in postages),
    )


def bulk_headline(reviews: Sequence[Review], flow: str) -> str:
    """The headline of several transactions of one flow, their figures added up."""
    total = totals(reviews)
    if flow == Flow.SECURE_LISTING:
        # The flow's note already says "You list N items for X"; this says what it means.
        return (
            f"Once bought, your payment address receives {sats(total.listed)} for the "
            f"{total.items_given:,} items; until then nothing moves."
        )
    fees = "unknown" if total.fees is None else sats(total.fees)
    if total.you_give is None:
        return f"{total.count} transactions: what you give is unknown; network fees {fees}."
    if total.you_give >= 0:
        return (
            f"{total.count} transactions: you give {sats(total.you_give)} in all, "
            f"network fees ({fees}) included."
        )
    return f"{total.count} transactions: you receive {sats(-total.you_give)} in all."
