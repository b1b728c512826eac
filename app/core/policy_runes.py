"""What the signing policies check of runes, by ord's rules (the review's `RuneMoves`, from
`runestone_flow`): where a runestone's edicts and pointer, or ord's default, send the runes our
inputs carry.

- Funding, withdrawal, inscription bid (`check_runes_untouched`): no rune of ours is spent at
  all; each input of ours carrying runes is refused with where they would go (burned, given to
  whom, or wherever a runestone this wallet cannot follow sends them).
- A runes listing (`check_listed_runes`): the listed runes go, whole, to the output that
  receives the item's sats (where an inscription on it would land: the escrow), which is not
  ours (on our price output they would come back with it, freezing it); none to any other
  output (the service's fee address, a stranger, even our own), none burned. The buyer's
  inputs, added later, can only add runes to what an edict or the pointer moves.
- Every flow whose inputs of ours carry runes (`check_runestone`): a runestone this wallet
  cannot follow, or a cenotaph (which burns every rune on the inputs), is refused.
- An inscription bid spends the seller's coin, whose runes its runestone (or ord's default)
  routes (`check_runes_received`): they may land, of our outputs, only on the one receiving
  the item. A coin of ours carrying runes is never spent as plain sats, so runes sent to our
  change would freeze it in this wallet; and a runestone that cannot be followed could.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.policy_verdict import Flow, Refusal, RefusalCode
from app.core.psbt_review import InputReview, Review
from app.core.psbt_review_context import Role, RuneAmount, describe_roles
from app.core.rune_names import rune_letters
from app.core.sat_flow import route_partial


def runes_of(inputs: Sequence[InputReview]) -> tuple[RuneAmount, ...]:
    """Every rune balance on `inputs`, one amount per rune (ord's spelling)."""
    totals: dict[str, RuneAmount] = {}
    for inp in inputs:
        for r in inp.contents.runes if inp.contents else ():
            key = rune_letters(r.rune)
            held = totals.get(key)
            totals[key] = RuneAmount(r.rune, r.amount + (held.amount if held else 0))
    return tuple(totals.values())


def check_runestone(review: Review, flow: Flow, inputs: Sequence[InputReview]) -> list[Refusal]:
    """A runestone that cannot be followed, or a cenotaph, while `inputs` carry runes."""
    held = runes_of(inputs)
    moves = review.rune_moves
    if not held or moves.runestone_output is None:
        return []
    what = ", ".join(f"{r.amount:,} {r.rune}" for r in held)
    stone = moves.runestone_output
    if not moves.decoded:
        return [
            Refusal(
                RefusalCode.RUNESTONE_NOT_DECODED,
                f"Output {stone} is a runestone this wallet cannot follow ({moves.reason}); "
                f"it decides where your {what} go, so this {flow} is not signed.",
                output_index=stone,
            )
        ]
    cenotaph = moves.cenotaph
    if cenotaph is not None:
        return [
            Refusal(
                RefusalCode.RUNES_BURNED,
                f"Output {stone} is a malformed runestone, a cenotaph ({cenotaph.reason}): "
                f"ord would burn every rune on the inputs, your {what} included.",
                output_index=stone,
            )
        ]
    return []


def check_runes_untouched(review: Review, flow: Flow) -> list[Refusal]:
    """A funding, withdrawal or inscription bid never spends, moves or burns our runes."""
    ours = [i for i in review.inputs if i.is_ours and i.contents and i.contents.runes]
    found = check_runestone(review, flow, ours)
    for inp in ours:
        held = runes_of([inp])
        what = ", ".join(f"{r.amount:,} {r.rune}" for r in held)
        burned = _burned(review, held)
        found.append(
            Refusal(
                RefusalCode.RUNES_BURNED if burned else RefusalCode.RUNES_MISDIRECTED,
                f"Input {inp.index} carries your {what}: a {flow} never spends runes, and here "
                f"they would {_fate(review, held)}.",
                input_index=inp.index,
            )
        )
    return found


def check_runes_received(review: Review, flow: Flow, item_output: int | None) -> list[Refusal]:
    """Runes from inputs not ours land on no output of ours but `item_output` (None: on none)."""
    theirs = [i for i in review.inputs if not i.is_ours]
    held = runes_of(theirs)
    moves = review.rune_moves
    if not held:
        return []
    if not moves.decoded:
        stone = moves.runestone_output
        what = ", ".join(f"{r.amount:,} {r.rune}" for r in held)
        return [
            Refusal(
                RefusalCode.RUNESTONE_NOT_DECODED,
                f"Output {stone} is a runestone this wallet cannot follow ({moves.reason}); it "
                f"decides where the {what} of input {theirs[0].index} go, your change "
                f"included, so this {flow} is not signed.",
                output_index=stone,
            )
        ]
    return [
        Refusal(
            RefusalCode.RUNES_MISDIRECTED,
            f"Output {out.index} ({describe_roles(out.roles)}) would receive "
            + ", ".join(f"{r.amount:,} {r.rune}" for r in out.runes)
            + f" from input {theirs[0].index}: a coin carrying runes is never spent as plain "
            f"sats here, so its {out.value:,} sats would be stuck until a wallet that handles "
            f"runes moves them. In this {flow}, runes may come only with the item.",
            output_index=out.index,
        )
        for out in review.outputs
        if out.is_ours and out.runes and out.index != item_output
    ]


def check_listed_runes(review: Review, flow: Flow, item: InputReview) -> list[Refusal]:
    """The listed runes (every balance on the item's output) all go with the item's sats."""
    held = runes_of([item])
    if not held:
        return []
    found = check_runestone(review, flow, [item])
    if found:
        return found
    values = tuple(i.value for i in review.inputs)
    first = route_partial(values, review.view.output_values, item.index, 0)
    last = (
        None
        if item.value is None
        else route_partial(values, review.view.output_values, item.index, item.value - 1)
    )
    if first is None or last is None or first.vout is None or first.vout != last.vout:
        where = (
            "cannot be known"
            if first is None or last is None
            else "is the fee"
            if first.vout is None
            else f"is split among outputs {first.vout} and {last.vout}"
        )
        return [
            Refusal(
                RefusalCode.RUNES_MISDIRECTED,
                f"Where the item's sats go {where}: the listed runes must go to the one output "
                "that receives the whole item, so this listing is not signed.",
                input_index=item.index,
            )
        ]
    target = first.vout
    receiver = review.outputs[target]
    if receiver.is_ours:
        found.append(
            Refusal(
                RefusalCode.RUNES_MISDIRECTED,
                f"Output {target} ({describe_roles(receiver.roles)}) receives the item's sats and "
                "the listed runes: a listing hands them to the service's escrow, and back on "
                "your address nothing is sold"
                + (
                    ", while that coin (the price) carries runes, which this wallet never spends "
                    "as plain sats."
                    if Role.PAYMENT in receiver.roles
                    else "."
                ),
                input_index=item.index,
                output_index=target,
            )
        )
    for rune in held:
        key = rune_letters(rune.rune)
        for out in review.outputs:
            got = sum(r.amount for r in out.runes if rune_letters(r.rune) == key)
            if out.index == target or not got or out.is_op_return:
                continue
            found.append(
                Refusal(
                    RefusalCode.RUNES_MISDIRECTED,
                    f"A runestone sends {got:,} of the listed {rune.rune} to output {out.index} "
                    f"({describe_roles(out.roles)}), not with the item to output {target}: a "
                    "listing moves the listed runes only where it sends the item.",
                    input_index=item.index,
                    output_index=out.index,
                )
            )
        burned = sum(r.amount for r in review.rune_moves.burned if rune_letters(r.rune) == key)
        if burned:
            found.append(
                Refusal(
                    RefusalCode.RUNES_BURNED,
                    f"This transaction would burn {burned:,} of the listed {rune.rune}.",
                    input_index=item.index,
                )
            )
    return found


def _burned(review: Review, held: Sequence[RuneAmount]) -> bool:
    keys = {rune_letters(r.rune) for r in held}
    return any(rune_letters(r.rune) in keys for r in review.rune_moves.burned)


def _fate(review: Review, held: Sequence[RuneAmount]) -> str:
    """'be burned', 'go to output 1 (the service)', or 'go where ... cannot follow'."""
    moves = review.rune_moves
    if not moves.decoded:
        return "go where a runestone this wallet cannot follow sends them"
    keys = {rune_letters(r.rune) for r in held}
    places = [
        f"output {o.index} ({describe_roles(o.roles)})"
        for o in review.outputs
        if not o.is_op_return and any(rune_letters(r.rune) in keys for r in o.runes)
    ]
    parts = [f"go to {' and '.join(places)}"] if places else []
    parts += ["be burned"] if _burned(review, held) else []
    return " and ".join(parts) or "be burned"
