"""Funding policy: move plain sats from the payment address to the bidding wallet.

Rules: only cardinal payment UTXOs are spent (ord must say "nothing" for each: "unknown" is
refused, never guessed); outputs pay the bidding wallet exactly the requested amount, and
change goes back to the payment address; the fee is within the user's bounds; inputs are
signed with SIGHASH_ALL/DEFAULT only.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.policy_common import (
    ALL_OR_DEFAULT,
    check_cardinal,
    check_common,
    check_signed_input_owner,
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
from app.core.psbt_review import SIGHASH_DEFAULT, Review
from app.core.psbt_review_context import Role
from app.core.psbt_review_summary import sats


@dataclass(frozen=True)
class FundingIntent:
    amount: int
    fees: FeeBounds
    fee_consent: FeeConsent | None = None

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise PolicyError("a funding amount must be positive")


def check_funding(review: Review, intent: FundingIntent) -> Verdict:
    refusals: list[Refusal] = []
    plan: list[SignPermission] = []
    if not review.context.addresses_with(Role.BIDDING_WALLET):
        refusals.append(
            Refusal(
                RefusalCode.BIDDING_WALLET_UNKNOWN,
                "The bidding wallet's address is not known, so no output can be checked "
                "against it.",
            )
        )
    for inp in review.inputs:
        wrong_owner = check_signed_input_owner(inp, Flow.FUNDING, Role.PAYMENT)
        if wrong_owner:
            refusals += wrong_owner
            continue
        refusals += check_cardinal(inp)
        permission, bad = plan_sighash(inp, Flow.FUNDING, ALL_OR_DEFAULT, SIGHASH_DEFAULT)
        refusals += bad
        plan += [permission] if permission else []
    funded = []
    for out in review.outputs:
        if Role.BIDDING_WALLET in out.roles:
            funded.append(out)
        elif Role.PAYMENT not in out.roles:
            refusals.append(
                Refusal(
                    RefusalCode.OUTPUT_NOT_ALLOWED,
                    f"Output {out.index} pays {sats(out.value)} to "
                    f"{out.address or 'a script without an address'}, which is neither your "
                    "bidding wallet nor your payment address (change).",
                    output_index=out.index,
                )
            )
    total = sum(o.value for o in funded)
    if funded and total != intent.amount:
        outs = " and ".join(f"output {o.index}" for o in funded)
        refusals.append(
            Refusal(
                RefusalCode.AMOUNT_MISMATCH,
                f"Your bidding wallet receives {sats(total)} ({outs}) but you asked to fund "
                f"{sats(intent.amount)}.",
                output_index=funded[0].index,
            )
        )
    elif not funded:
        refusals.append(
            Refusal(
                RefusalCode.AMOUNT_MISMATCH,
                f"No output pays your bidding wallet the {sats(intent.amount)} you asked for.",
            )
        )
    refusals += check_runes_untouched(review, Flow.FUNDING)
    fee_refusals, fee = check_fee(review, intent.fees, intent.amount, intent.fee_consent)
    refusals += fee_refusals
    refusals += check_common(review, plan)
    return decide(Flow.FUNDING, review, plan, refusals, fee)
