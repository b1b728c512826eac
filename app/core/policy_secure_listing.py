"""Secure listing policy: sign the listed item's input, and only it, for exactly the price.

Rules: the PSBT spends the listed item and nothing else (the buyer adds their inputs when
buying): the input whose outpoint carries the listed inscription (or is the listed runes
outpoint), at our ordinals address, carrying nothing else we did not mean to sell; it is
signed with SIGHASH_ALL|ANYONECANPAY only (the spec's secure listing), never ALL: an ALL
signature over other inputs (a coin listed elsewhere with these very outputs, one without UTXO
data) would combine with our other signatures into one purchase of two items, and the ledger
of ANYONECANPAY signatures could not see it; exactly one output pays our receive address,
exactly the listed price. The buyer adds inputs later, so the fee is not ours to
bound. "Exactly", not "at least": a cheaper listing that overpays could carry the very outputs
of a dearer one, and two ANYONECANPAY signatures with equal outputs combine into one purchase
(`acp_composition`).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.policy_common import (
    check_address,
    check_common,
    input_owner,
    output_text,
    plan_sighash,
)
from app.core.policy_runes import check_listed_runes
from app.core.policy_verdict import (
    Flow,
    PolicyError,
    Refusal,
    RefusalCode,
    SignPermission,
    Verdict,
    decide,
)
from app.core.psbt_review import SIGHASH_ALL_ANYONECANPAY, InputReview, Review
from app.core.psbt_review_context import Role
from app.core.psbt_review_summary import sats
from app.core.psbt_view import normalize_address

_ALLOWED = frozenset({SIGHASH_ALL_ANYONECANPAY})


@dataclass(frozen=True)
class SecureListingIntent:
    """List `inscription_id`, or the whole UTXO `runes_outpoint` ("txid:vout"), for `price`."""

    price: int
    receive_address: str
    inscription_id: str | None = None
    runes_outpoint: str | None = None

    def __post_init__(self) -> None:
        if (self.inscription_id is None) == (self.runes_outpoint is None):
            raise PolicyError("a listing names either an inscription or a runes outpoint")
        if self.price <= 0 or not self.receive_address.strip():
            raise PolicyError("a listing needs a positive price and a receive address")

    @property
    def item(self) -> str:
        if self.inscription_id is not None:
            return f"inscription {self.inscription_id}"
        return f"the runes on {self.runes_outpoint}"

    def is_item(self, inp: InputReview) -> bool:
        if self.runes_outpoint is not None:
            return inp.outpoint == self.runes_outpoint
        contents = inp.contents
        return contents is not None and any(
            i.inscription_id == self.inscription_id for i in contents.inscriptions
        )


def check_secure_listing(review: Review, intent: SecureListingIntent) -> Verdict:
    refusals = check_address(review, intent.receive_address, "The receive address")
    items = [inp for inp in review.inputs if intent.is_item(inp)]
    plan: list[SignPermission] = []
    if not items:
        unknown = [str(i.index) for i in review.inputs if i.contents is None]
        hint = f" (ord has no answer for input {', '.join(unknown)})" if unknown else ""
        refusals.append(
            Refusal(
                RefusalCode.ITEM_INPUT_WRONG,
                f"No input carries {intent.item}{hint}: there is nothing to list.",
            )
        )
    item = items[0] if items else None
    if item is not None:
        refusals += _check_item(intent, item)
        if intent.runes_outpoint is not None:
            refusals += check_listed_runes(review, Flow.SECURE_LISTING, item)
        permission, bad = plan_sighash(
            item, Flow.SECURE_LISTING, _ALLOWED, SIGHASH_ALL_ANYONECANPAY
        )
        refusals += bad
        plan += [permission] if permission else []
    for inp in review.inputs:
        if inp is item:
            continue
        code = RefusalCode.EXTRA_INPUT_OF_OURS if inp.is_ours else RefusalCode.INPUT_NOT_ALLOWED
        refusals.append(
            Refusal(
                code,
                f"Input {inp.index} spends {input_owner(inp)}; a secure listing spends only "
                f"the input carrying {intent.item} (the buyer adds their inputs when buying).",
                input_index=inp.index,
            )
        )
    refusals += _check_price(review, intent)
    refusals += check_common(review, plan)
    return decide(Flow.SECURE_LISTING, review, plan, refusals)


def _check_item(intent: SecureListingIntent, item: InputReview) -> list[Refusal]:
    found = []
    if Role.ORDINALS not in item.roles and Role.UNKNOWN not in item.roles:
        found.append(
            Refusal(
                RefusalCode.ITEM_NOT_OURS,
                f"Input {item.index} carries {intent.item} but spends {input_owner(item)}, "
                "not your ordinals address.",
                input_index=item.index,
            )
        )
    contents = item.contents
    if contents is None:
        found.append(
            Refusal(
                RefusalCode.CONTENTS_UNKNOWN,
                f"Input {item.index} ({item.outpoint}): ord's answer about what it carries is "
                "unknown.",
                input_index=item.index,
            )
        )
        return found
    if intent.inscription_id is not None:
        extra = [f"inscription {i.inscription_id}" for i in contents.inscriptions]
        extra = [e for e in extra if e != intent.item]
        extra += [f"{r.amount:,} {r.rune}" for r in contents.runes]
    else:
        extra = [f"inscription {i.inscription_id}" for i in contents.inscriptions]
        if not contents.runes:
            found.append(
                Refusal(
                    RefusalCode.ITEM_INPUT_WRONG,
                    f"Input {item.index} ({item.outpoint}) carries no runes: nothing to list.",
                    input_index=item.index,
                )
            )
    if extra:
        found.append(
            Refusal(
                RefusalCode.ITEM_CARRIES_MORE,
                f"Input {item.index} ({item.outpoint}) carries more than {intent.item}: "
                f"{', '.join(extra)} would be sold with it.",
                input_index=item.index,
            )
        )
    return found


def _check_price(review: Review, intent: SecureListingIntent) -> list[Refusal]:
    """One output pays exactly the price to the receive address, and no other pays it."""
    wanted = normalize_address(intent.receive_address)
    to_receive = [o for o in review.outputs if o.address and normalize_address(o.address) == wanted]
    if len(to_receive) == 1 and to_receive[0].value == intent.price:
        return []
    if len(to_receive) > 1:
        which = ", ".join(str(o.index) for o in to_receive)
        listed = "; ".join(output_text(o) for o in to_receive)
        return [
            Refusal(
                RefusalCode.LISTING_PAYS_OTHER_AMOUNT,
                f"Outputs {which} pay your receive address ({listed}); a listing pays "
                f"exactly its price, {sats(intent.price)}, in one output.",
                output_index=to_receive[0].index,
            )
        ]
    if to_receive:
        paid = to_receive[0]
        code = (
            RefusalCode.LISTING_UNDERPAID
            if paid.value < intent.price
            else RefusalCode.LISTING_PAYS_OTHER_AMOUNT
        )
        why = (
            "less than the listing price"
            if paid.value < intent.price
            else "more than the listing price: a listing pays exactly its price, or its "
            "outputs could equal a dearer listing's and the two signatures would combine"
        )
        return [
            Refusal(
                code,
                f"Output {paid.index} pays {sats(paid.value)} to your receive address "
                f"{intent.receive_address}, {why} ({sats(intent.price)}).",
                output_index=paid.index,
            )
        ]
    others = "; ".join(output_text(o) for o in review.outputs) or "there is no output"
    first = review.outputs[0].index if review.outputs else None
    return [
        Refusal(
            RefusalCode.LISTING_UNDERPAID,
            f"No output pays the listing price {sats(intent.price)} to your receive address "
            f"{intent.receive_address}: {others}.",
            output_index=first,
        )
    ]
