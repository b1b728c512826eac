"""Inscription bid policy: pay for one inscription and receive it, nothing more.

Rules: input 0 is the requested inscription's current output and not ours (the seller signs
it on acceptance); every other input is ours, at the payment address, carries nothing (ord must
say so), and is signed with SIGHASH_ALL; the inscription's sat lands on our ordinals address;
our payment address pays exactly price + postage (the value of the output receiving the
inscription) + network fee, change coming back to it; the postage is at most what the
inscription's output holds now (or 10,000 sats, whichever is more); no OP_RETURN output (a bid
carries no data, and one would only pad the size so a fee reads as a lower rate) but the
runestone ord reads, when it only routes runes (edicts, a pointer: a service may send the item's
runes with the inscription), pays 0 sats and is small; our runes are never spent
(`check_runes_untouched`), and the seller's land, of our outputs, only with the inscription
(`check_runes_received`: runes on our change would freeze it); the fee is within the user's
bounds, its share measured against the price (the postage comes back to us).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.policy_common import (
    check_cardinal,
    check_common,
    check_signed_input_owner,
    input_owner,
    output_text,
    plan_sighash,
)
from app.core.policy_fee import check_fee
from app.core.policy_runes import check_runes_received, check_runes_untouched
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
from app.core.psbt_review import SIGHASH_ALL, SIGHASH_DEFAULT, OutputReview, Review
from app.core.psbt_review_context import OUR_ROLES, Role
from app.core.psbt_review_summary import Landing, sats
from app.core.psbt_view import ScriptType
from app.core.runestone import Runestone

ITEM_INPUT = 0
POSTAGE_ALLOWANCE = 10_000  # sats: the common postage; more only if the item's output holds more
# A runestone routing the item's runes: a pointer is 5 bytes, an edict about 8 more. Bounded so
# it cannot pad the size (a fee reading as a lower rate) beyond a few vbytes.
MAX_RUNESTONE_BYTES = 40
_ALL = frozenset({SIGHASH_ALL, SIGHASH_DEFAULT})  # DEFAULT is ALL on taproot inputs


@dataclass(frozen=True)
class InscriptionBidIntent:
    inscription_id: str
    price: int
    fees: FeeBounds
    fee_consent: FeeConsent | None = None

    def __post_init__(self) -> None:
        if self.price <= 0 or not self.inscription_id:
            raise PolicyError("an inscription bid needs an inscription id and a positive price")


def check_inscription_bid(review: Review, intent: InscriptionBidIntent) -> Verdict:
    refusals = _check_item_input(review, intent)
    plan: list[SignPermission] = []
    for inp in review.inputs[ITEM_INPUT + 1 :]:
        wrong_owner = check_signed_input_owner(inp, Flow.INSCRIPTION_BID, Role.PAYMENT)
        if wrong_owner:
            refusals += wrong_owner
            continue
        refusals += check_cardinal(inp)
        permission, bad = plan_sighash(inp, Flow.INSCRIPTION_BID, _ALL, SIGHASH_ALL)
        refusals += bad
        plan += [permission] if permission else []
    landing = review.landing_of(intent.inscription_id)
    if landing is not None:  # None: no input carries it, which the item check reports
        refusals += _check_landing(intent, landing)
        refusals += check_runes_received(review, Flow.INSCRIPTION_BID, landing.output_index)
        if landing.output_index is not None and Role.ORDINALS in landing.roles:
            receiving = review.outputs[landing.output_index]
            refusals += _check_payment(review, intent, receiving)
            refusals += _check_postage(review, receiving)
    refusals += [
        Refusal(
            RefusalCode.OUTPUT_NOT_ALLOWED,
            f"Output {out.index} is an OP_RETURN: a bid carries no data, and such an output "
            "only makes the transaction bigger, so that its fee reads as a lower rate.",
            output_index=out.index,
        )
        for out in review.outputs
        if out.script_type is ScriptType.OP_RETURN and not _routes_runes_only(review, out)
    ]
    refusals += check_runes_untouched(review, Flow.INSCRIPTION_BID)
    # The share is of the price: the postage comes back to our ordinals address.
    fee_refusals, fee = check_fee(review, intent.fees, intent.price, intent.fee_consent)
    refusals += fee_refusals
    refusals += check_common(review, plan)
    return decide(Flow.INSCRIPTION_BID, review, plan, refusals, fee)


def _routes_runes_only(review: Review, out: OutputReview) -> bool:
    """`out` is the runestone ord reads, with edicts and a pointer only (no etching, no mint, not
    a cenotaph), 0 sats and at most MAX_RUNESTONE_BYTES: it moves only runes on the inputs;
    where ours would go `check_runes_untouched` judges, the seller's `check_runes_received`."""
    moves = review.rune_moves
    artifact = None if moves.flow is None else moves.flow.artifact
    return (
        out.index == moves.runestone_output
        and isinstance(artifact, Runestone)
        and artifact.etching is None
        and artifact.mint is None
        and out.value == 0
        and len(review.view.outputs[out.index].script_pubkey) <= MAX_RUNESTONE_BYTES
    )


def _check_item_input(review: Review, intent: InscriptionBidIntent) -> list[Refusal]:
    if len(review.inputs) < 2:
        return [
            Refusal(
                RefusalCode.ITEM_INPUT_WRONG,
                "A bid needs the inscription as input 0 and your payment as the other inputs; "
                f"this PSBT has {len(review.inputs)} input.",
            )
        ]
    item = review.inputs[ITEM_INPUT]
    found = []
    if item.is_ours:
        found.append(
            Refusal(
                RefusalCode.ITEM_INPUT_WRONG,
                f"Input 0 spends {input_owner(item)}; it must be the seller's inscription, "
                "not yours.",
                input_index=ITEM_INPUT,
            )
        )
    carried = item.contents and any(
        i.inscription_id == intent.inscription_id for i in item.contents.inscriptions
    )
    if not carried:
        elsewhere = [
            i.index
            for i in review.inputs
            if i.contents
            and any(x.inscription_id == intent.inscription_id for x in i.contents.inscriptions)
        ]
        what = "unknown to ord" if item.contents is None else item.contents.describe()
        hint = f" (it is on input {elsewhere[0]})" if elsewhere else ""
        found.append(
            Refusal(
                RefusalCode.ITEM_INPUT_WRONG,
                f"Input 0 ({item.outpoint}) must carry inscription {intent.inscription_id} "
                f"but carries {what}{hint}.",
                input_index=ITEM_INPUT,
            )
        )
    return found


def _check_postage(review: Review, receiving: OutputReview) -> list[Refusal]:
    """The postage (paid by us, onto the inscription's new output) is at most what the item's
    output holds, or the common 10,000 sats: more only ties our sats to the inscription."""
    held = review.inputs[ITEM_INPUT].value
    allowance = max(POSTAGE_ALLOWANCE, held or 0)
    if receiving.value <= allowance:
        return []
    return [
        Refusal(
            RefusalCode.POSTAGE_TOO_HIGH,
            f"Output {receiving.index} gives the inscription {sats(receiving.value)} of "
            f"postage, paid by you; its output holds {sats(held or 0)} now, and a bid adds at "
            f"most {sats(allowance)}.",
            output_index=receiving.index,
        )
    ]


def _check_landing(intent: InscriptionBidIntent, landing: Landing) -> list[Refusal]:
    if Role.ORDINALS in landing.roles:
        return []
    return [
        Refusal(
            RefusalCode.INSCRIPTION_NOT_RECEIVED,
            f"Inscription {intent.inscription_id} would land on {landing.describe()}, not on "
            "your ordinals address.",
            output_index=landing.output_index,
        )
    ]


def _check_payment(
    review: Review, intent: InscriptionBidIntent, receiving: OutputReview
) -> list[Refusal]:
    """Net outflow of our payment address = price + postage + fee, exactly."""
    flow = review.summary.flow(Role.PAYMENT)
    if review.fee is None or flow is None or flow.net is None:
        return []  # check_fee / the input checks already refuse
    paid = -flow.net
    postage = receiving.value
    expected = intent.price + postage + review.fee
    if receiving.role is Role.PAYMENT:
        paid += postage  # one address for payment and ordinals: the postage came back to it
    if paid == expected:
        return []
    foreign = [o for o in review.outputs if not o.roles & OUR_ROLES]
    culprit = next((o for o in foreign if o.value == paid - expected), None)
    if culprit is not None:
        detail = f" The difference is {output_text(culprit)}: your change goes to someone else."
    else:
        detail = " Outputs not yours: " + "; ".join(output_text(o) for o in foreign) + "."
    return [
        Refusal(
            RefusalCode.PAYMENT_MISMATCH,
            f"Your payment address would pay {sats(paid)}, not the price {sats(intent.price)} "
            f"+ postage {sats(postage)} + fee {sats(review.fee)} = {sats(expected)}." + detail,
            output_index=culprit.index if culprit else (foreign[0].index if foreign else None),
        )
    ]
