"""Who each output of a reviewed PSBT pays, named for the user (display only: no policy reads
it; the guard decides on `Review` roles alone).

The service publishes none of its addresses, so an output that is not ours is named by what
the flow's rules say it is: in an inscription bid the seller is paid at the address its input
spends from, and the rest not ours is the service's fee (spec: "the service fee is taken from
the seller's proceeds"); in a secure listing the output that receives the item (the inscribed
sat, or the runes our input carries, wherever ord's rules send them) holds it for the service
until a buyer pays, and the rest not ours is its fee. Each such name says it is inferred; an
address the caller knows as the service's (`Role.SERVICE`) is named plainly. The OP_RETURN
output ord reads as the runestone is named so (a cenotaph as one, which burns the inputs' runes).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.policy_verdict import Flow
from app.core.psbt_review import InputReview, OutputReview, Review
from app.core.psbt_review_context import Role
from app.core.rune_names import rune_letters

_INFERRED = " Inferred from the flow: Bidwallet cannot see whose key this is."
RUNESTONE_TIP = (
    "ord reads this output as the transaction's runestone: it decides which output receives "
    "which runes (each output's Receives column). Sats paid to it are burned."
)
CENOTAPH_TIP = (
    "ord reads this output as a malformed runestone, a cenotaph: it sends runes nowhere, it "
    "burns every rune on the inputs. Sats paid to it are burned."
)
BIDDING_WALLET_TIP = (
    "Your bidding wallet: a 1-of-2 multisig of your key and the service's, spendable by you "
    "or the service (it completes a sale when a seller accepts your bid)."
)


@dataclass(frozen=True)
class Party:
    """Who an output pays: `role` picks its colour, `name` is shown, `tip` explains."""

    role: Role
    name: str
    tip: str = ""


def _stranger(review: Review, flow: str, out: OutputReview) -> Party:
    their_inputs = {
        i.address: i.index for i in review.inputs if not i.is_ours and i.address is not None
    }
    receives_item = _receives_our_item(review, out)
    # Inferred only where nothing else can be meant: no address of the service is known, and
    # every other output not ours is accounted for.
    strangers = [o for o in review.outputs if o.role is Role.STRANGER]
    known_service = any(o.role is Role.SERVICE for o in review.outputs)
    if flow == Flow.INSCRIPTION_BID:
        if out.address in their_inputs:
            index = their_inputs[out.address]
            tip = f"Not yours: the address input {index} (the inscription) is spent from."
            return Party(Role.STRANGER, "the seller", tip)
        sellers = [o for o in strangers if o.address in their_inputs]
        if not known_service and len(sellers) == 1 and len(strangers) == 2:
            tip = "Not yours: the service's fee, taken from the seller's proceeds." + _INFERRED
            return Party(Role.SERVICE, "the service (its fee)", tip)
    elif flow == Flow.SECURE_LISTING and not known_service and len(strangers) <= 2:
        if receives_item:
            tip = "Not yours: holds the item for the service until a buyer pays." + _INFERRED
            return Party(Role.SERVICE, "the service (holds the item)", tip)
        tip = "Not yours: the service's fee, paid by the buyer." + _INFERRED
        return Party(Role.SERVICE, "the service (its fee)", tip)
    return Party(Role.STRANGER, Role.STRANGER.value, "Not yours, and not an address you know.")


def _receives_our_item(review: Review, out: OutputReview) -> bool:
    """An inscription of ours lands on `out`, or a rune our inputs carry goes to it (not any
    rune: an etching's premine or the buyer's runes are not the item)."""
    if any(x.output_index == out.index and x.from_ours for x in review.landings):
        return True
    ours = {
        rune_letters(r.rune)
        for i in review.inputs
        if i.is_ours and i.contents
        for r in i.contents.runes
    }
    return not out.is_op_return and any(rune_letters(r.rune) in ours for r in out.runes)


def input_party(inp: InputReview) -> Party:
    """Whose coin `inp` spends, named for the user."""
    role = inp.role
    return Party(role, role.value, BIDDING_WALLET_TIP if role is Role.BIDDING_WALLET else "")


def input_parties(review: Review, flow: str = "") -> tuple[Party, ...]:
    """Whose coin each input spends. In an inscription bid, input 0 not ours is the seller's
    inscription (the flow's rule, `policy_inscription_bid`): named as the output that pays
    the seller is, not "someone else" beside it."""
    return tuple(
        _SELLER_INPUT
        if flow == Flow.INSCRIPTION_BID and inp.index == 0 and not inp.is_ours
        else input_party(inp)
        for inp in review.inputs
    )


_SELLER_INPUT = Party(
    Role.STRANGER,
    "the seller",
    "Not yours: the seller's inscription, signed by the seller." + _INFERRED,
)


def output_parties(review: Review, flow: str) -> tuple[Party, ...]:
    return tuple(output_party(review, flow, out) for out in review.outputs)


def output_party(review: Review, flow: str, out: OutputReview) -> Party:
    """Who `out` pays, named for the user."""
    role = out.role
    if role is Role.BIDDING_WALLET:
        return Party(role, role.value, BIDDING_WALLET_TIP)
    if role is Role.STRANGER:
        return _stranger(review, flow, out)
    if role is Role.OP_RETURN and out.index == review.rune_moves.runestone_output:
        if review.rune_moves.cenotaph is not None:
            return Party(role, "a cenotaph (OP_RETURN)", CENOTAPH_TIP)
        return Party(role, "a runestone (OP_RETURN)", RUNESTONE_TIP)
    return Party(role, role.value)
