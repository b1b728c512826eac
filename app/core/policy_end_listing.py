"""End-listing policy: move a listed item back to our own ordinals address, nothing else.

A secure listing is a signature over the item's output (ALL|ANYONECANPAY); it stays valid until
that output is spent, so the only sure way to end a listing is to spend it. This transaction
does that and gives nothing away:

- the item's input (the one ord says carries the listed inscription, or the listed runes
  outpoint, which ord must describe too) is at our ordinals address; every other input is a
  coin of our payment address that ord says carries nothing (it pays the fee). Another of our
  items, a coin ord cannot describe, or anyone else's coin is refused;
- every output pays our ordinals or our payment address (change): no one else, no bidding
  wallet (the service co-signs it), no OP_RETURN;
- every inscription lands on our ordinals address, and the runes too, where ord's rules send
  them (`policy_runes`: a runestone's edicts and pointer, else the first output); a runestone
  this wallet cannot follow, a cenotaph, or runes burned are refused;
- the fee is known and within the user's bounds (rate and absolute; no share of an amount:
  nothing is paid out), unless the user accepted this very fee;
- signed with SIGHASH_ALL (DEFAULT on taproot, which commits to the same) only: never
  ANYONECANPAY, which would let the transaction be completed with other inputs, nor NONE or
  SINGLE.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.policy_common import (
    ALL_OR_DEFAULT,
    check_cardinal,
    check_common,
    input_owner,
    output_text,
    plan_sighash,
)
from app.core.policy_fee import check_fee
from app.core.policy_runes import check_runestone
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
from app.core.psbt_review import SIGHASH_DEFAULT, InputReview, Review
from app.core.psbt_review_context import Role


@dataclass(frozen=True)
class EndListingIntent:
    """End the listing of `inscription_id`, or of the runes outpoint `runes_outpoint`, by
    moving it back to our ordinals address; the fee is the user's (`fees`)."""

    fees: FeeBounds
    inscription_id: str | None = None
    runes_outpoint: str | None = None
    fee_consent: FeeConsent | None = None

    def __post_init__(self) -> None:
        if (self.inscription_id is None) == (self.runes_outpoint is None):
            raise PolicyError("an end of listing names either an inscription or a runes outpoint")

    @property
    def item(self) -> str:
        if self.inscription_id is not None:
            return f"inscription {self.inscription_id}"
        return f"the runes on {self.runes_outpoint}"

    def is_item(self, inp: InputReview) -> bool:
        if self.runes_outpoint is not None:
            return inp.outpoint == self.runes_outpoint
        return inp.contents is not None and any(
            i.inscription_id == self.inscription_id for i in inp.contents.inscriptions
        )


def check_end_listing(review: Review, intent: EndListingIntent) -> Verdict:
    refusals: list[Refusal] = []
    plan: list[SignPermission] = []
    items = [inp for inp in review.inputs if intent.is_item(inp)]
    if not items:
        refusals.append(
            Refusal(
                RefusalCode.ITEM_INPUT_WRONG,
                f"No input carries {intent.item}: there is nothing to move back.",
            )
        )
    item = items[0] if items else None
    for inp in review.inputs:
        found = _check_item(inp, intent) if inp is item else _check_fee_coin(inp)
        refusals += found
        if found:
            continue
        permission, bad = plan_sighash(inp, Flow.END_LISTING, ALL_OR_DEFAULT, SIGHASH_DEFAULT)
        refusals += bad
        plan += [permission] if permission else []
    refusals += _check_outputs(review)
    refusals += _check_landings(review, intent)
    fee_refusals, fee = check_fee(review, intent.fees, None, intent.fee_consent)
    refusals += fee_refusals
    refusals += check_common(review, plan)
    return decide(Flow.END_LISTING, review, plan, refusals, fee)


def _check_item(inp: InputReview, intent: EndListingIntent) -> list[Refusal]:
    if Role.ORDINALS in inp.roles:
        if inp.contents is None:  # a runes item is named by its outpoint alone
            return [
                Refusal(
                    RefusalCode.CONTENTS_UNKNOWN,
                    f"Input {inp.index} ({inp.outpoint}): ord's answer about what it carries "
                    f"is unknown, so where {intent.item} and anything else on it land "
                    "cannot be checked.",
                    input_index=inp.index,
                )
            ]
        return []
    code = RefusalCode.ITEM_NOT_OURS if not inp.is_ours else RefusalCode.INPUT_NOT_ALLOWED
    return [
        Refusal(
            code,
            f"Input {inp.index} carries {intent.item} but spends {input_owner(inp)}, not your "
            "ordinals address.",
            input_index=inp.index,
        )
    ]


def _check_fee_coin(inp: InputReview) -> list[Refusal]:
    """Any input but the item pays the fee: a plain coin of our payment address."""
    if Role.PAYMENT not in inp.roles:
        if Role.UNKNOWN in inp.roles:
            code = RefusalCode.MISSING_WITNESS_UTXO
        elif inp.is_ours:
            code = RefusalCode.EXTRA_INPUT_OF_OURS
        else:
            code = RefusalCode.FOREIGN_INPUT
        return [
            Refusal(
                code,
                f"Input {inp.index} spends {input_owner(inp)}; ending a listing spends only the "
                "listed item and plain coins of your payment address (for the fee).",
                input_index=inp.index,
            )
        ]
    return check_cardinal(inp)


def _check_outputs(review: Review) -> list[Refusal]:
    return [
        Refusal(
            RefusalCode.OUTPUT_NOT_ALLOWED,
            f"O{output_text(out)[1:]}: ending a listing pays only your ordinals address "
            "(the item) and your payment address (change).",
            output_index=out.index,
        )
        for out in review.outputs
        if not out.roles & {Role.ORDINALS, Role.PAYMENT} or out.roles & {Role.OP_RETURN}
    ]


def _check_landings(review: Review, intent: EndListingIntent) -> list[Refusal]:
    """Every inscription and every rune ends on our ordinals address."""
    found = []
    outputs = {o.index: o for o in review.outputs}
    for x in review.landings:
        out = outputs.get(x.output_index) if x.output_index is not None else None
        if out is not None and Role.ORDINALS not in out.roles:
            found.append(
                Refusal(
                    RefusalCode.INSCRIPTION_NOT_RECEIVED,
                    f"Inscription {x.inscription_id} lands on output {out.index} "
                    f"({out.address or 'a script with no address'}), not on your ordinals "
                    "address.",
                    input_index=x.input_index,
                    output_index=out.index,
                )
            )
    rune_inputs = [i for i in review.inputs if i.contents is not None and i.contents.runes]
    stone = check_runestone(review, Flow.END_LISTING, rune_inputs)
    if stone or not rune_inputs:
        return found + stone
    received = [o for o in review.outputs if o.runes and not o.is_op_return]
    if review.rune_moves.burned:
        burned = ", ".join(f"{r.amount:,} {r.rune}" for r in review.rune_moves.burned)
        found.append(
            Refusal(
                RefusalCode.RUNES_BURNED,
                f"This transaction would burn {burned} of {intent.item} (sent to an OP_RETURN "
                "output, or to no output).",
            )
        )
    found += [
        Refusal(
            RefusalCode.INSCRIPTION_NOT_RECEIVED,
            f"The runes go to output {o.index} ({o.address or 'a script with no address'}), "
            "not to your ordinals address.",
            output_index=o.index,
        )
        for o in received
        if Role.ORDINALS not in o.roles
    ]
    return found
