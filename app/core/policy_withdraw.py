"""Withdraw policy: move sats from the bidding wallet to the payment address, nothing else.

Rules: every input is the bidding wallet's and carries nothing (ord must say so: a "bidding
wallet" that is really an address holding inscriptions must not be swept); every output pays
the payment address or goes back to the bidding wallet; the payment address receives exactly
the requested amount (fee on top, paid by the bidding wallet) or, with `fee_from_amount`,
exactly the amount minus the fee;
the fee is within the user's bounds; inputs are signed with SIGHASH_ALL/DEFAULT only.
"Exactly" because taking more from the bidding wallet than asked can cancel the user's bids.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.policy_common import (
    ALL_OR_DEFAULT,
    check_cardinal,
    check_common,
    check_signed_input_owner,
    output_text,
    plan_sighash,
)
from app.core.policy_fee import check_fee
from app.core.policy_runes import check_runes_untouched
from app.core.policy_verdict import (
    FeeBounds,
    FeeConsent,
    Flow,
    PolicyError,
    Refusal,
    RefusalCode,
    SignPermission,
    Verdict,
    decide,
)
from app.core.psbt_review import SIGHASH_DEFAULT, OutputReview, Review
from app.core.psbt_review_context import OUR_ROLES, Role
from app.core.psbt_review_summary import sats


@dataclass(frozen=True)
class WithdrawIntent:
    amount: int
    fees: FeeBounds
    fee_from_amount: bool = False
    fee_consent: FeeConsent | None = None

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise PolicyError("a withdrawal amount must be positive")


def check_withdraw(review: Review, intent: WithdrawIntent) -> Verdict:
    refusals: list[Refusal] = []
    plan: list[SignPermission] = []
    for inp in review.inputs:
        wrong_owner = check_signed_input_owner(inp, Flow.WITHDRAW, Role.BIDDING_WALLET)
        if wrong_owner:
            refusals += wrong_owner
            continue
        refusals += check_cardinal(inp)
        permission, bad = plan_sighash(inp, Flow.WITHDRAW, ALL_OR_DEFAULT, SIGHASH_DEFAULT)
        refusals += bad
        plan += [permission] if permission else []
    to_payment: list[OutputReview] = []
    for out in review.outputs:
        if Role.PAYMENT in out.roles:
            to_payment.append(out)
        elif Role.BIDDING_WALLET not in out.roles:
            refusals.append(
                Refusal(
                    RefusalCode.OUTPUT_NOT_ALLOWED,
                    f"Output {out.index} pays {sats(out.value)} to "
                    f"{out.address or 'a script without an address'}, which is neither your "
                    "payment address nor your bidding wallet.",
                    output_index=out.index,
                )
            )
    refusals += _check_amount(review, intent, to_payment)
    refusals += check_runes_untouched(review, Flow.WITHDRAW)
    fee_refusals, fee = check_fee(review, intent.fees, intent.amount, intent.fee_consent)
    refusals += fee_refusals
    refusals += check_common(review, plan)
    return decide(Flow.WITHDRAW, review, plan, refusals, fee)


def _check_amount(
    review: Review, intent: WithdrawIntent, to_payment: list[OutputReview]
) -> list[Refusal]:
    received = sum(o.value for o in to_payment)
    if intent.fee_from_amount:
        if review.fee is None:
            return []  # check_fee already refuses an unknown fee
        expected = intent.amount - review.fee
        wanted = f"{sats(intent.amount)} minus the {sats(review.fee)} fee = {sats(expected)}"
    else:
        expected, wanted = intent.amount, sats(intent.amount)
    if received == expected:
        return []
    payment = ", ".join(review.context.addresses_with(Role.PAYMENT)) or "your payment address"
    if not to_payment:
        others = "; ".join(output_text(o) for o in review.outputs if not o.roles & OUR_ROLES)
        return [
            Refusal(
                RefusalCode.AMOUNT_MISMATCH,
                f"No output pays your payment address {payment}; you asked for {wanted}."
                + (f" Instead {others}." if others else ""),
            )
        ]
    outs = " and ".join(f"output {o.index}" for o in to_payment)
    return [
        Refusal(
            RefusalCode.AMOUNT_MISMATCH,
            f"Your payment address receives {sats(received)} ({outs}) but you asked for {wanted}.",
            output_index=to_payment[0].index,
        )
    ]
