"""Where inscriptions and runes go, and the plain "you give / you receive" summary of a review."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.core.psbt_review_context import (
    OUR_ROLES,
    ReviewContext,
    Role,
    RuneAmount,
    describe_roles,
)
from app.core.psbt_view import PsbtView
from app.core.rune_names import rune_letters
from app.core.runestone import Cenotaph, RuneId, has_runestone_prefix
from app.core.runestone_flow import InputRune, RuneFlow, describe_artifact, rune_flow
from app.core.sat_flow import SatDestination, SatFlowError, route_partial

if TYPE_CHECKING:
    from app.core.psbt_review import InputReview, OutputReview

_UNKNOWN_AMOUNT = "an input amount is missing or not confirmed by the chain"


def sats(n: int) -> str:
    """'5,000 sats'."""
    return f"{n:,} sats"


@dataclass(frozen=True)
class Landing:
    """Where the sat of one inscription goes. `destination` is None when it cannot be known
    (an earlier input's amount is missing, or ord's offset lies outside the input)."""

    inscription_id: str
    input_index: int
    input_offset: int
    from_ours: bool
    destination: SatDestination | None
    roles: frozenset[Role]  # the receiving output's roles; empty for the fee or unknown

    @property
    def output_index(self) -> int | None:
        return None if self.destination is None else self.destination.vout

    @property
    def to_fee(self) -> bool:
        return self.destination is not None and self.destination.to_fee

    @property
    def to_us(self) -> bool:
        return bool(self.roles & OUR_ROLES)

    def describe(self) -> str:
        if self.destination is None:
            return "an unknown place"
        if self.destination.vout is None:
            return "the fee (the miner gets it)"
        return f"output {self.destination.vout} ({describe_roles(self.roles)})"


def land_inscriptions(
    view: PsbtView,
    context: ReviewContext,
    out_roles: Sequence[frozenset[Role]],
    values: Sequence[int | None],
) -> tuple[Landing, ...]:
    """First-in-first-out landing of every inscription ord reports on the inputs, with the
    input amounts the chain confirms (`values`; None where unverified)."""
    landings = []
    for inp in view.inputs:
        contents = context.contents_of(inp.outpoint)
        if contents is None:
            continue
        ours = inp.address is not None and bool(context.roles_of(inp.address) & OUR_ROLES)
        for ins in contents.inscriptions:
            try:
                dest = route_partial(values, view.output_values, inp.index, ins.offset)
            except SatFlowError:
                dest = None  # ord's offset and the PSBT's amount disagree: nothing is certain
            roles = frozenset() if dest is None or dest.vout is None else out_roles[dest.vout]
            landings.append(Landing(ins.inscription_id, inp.index, ins.offset, ours, dest, roles))
    return tuple(landings)


@dataclass(frozen=True)
class RuneMoves:
    """Runes on the inputs and where they go, by ord's rules (`runestone_flow`): without a
    runestone all to the first non-OP_RETURN output; with one, its edicts and pointer decide and
    a cenotaph burns them all. `received` holds every output's runes (an OP_RETURN output's are
    burned, and in `burned` too). `decoded` is False when the runestone cannot be followed
    (`reason` says why): then nothing is assumed."""

    decoded: bool
    sent: tuple[tuple[int, RuneAmount], ...]  # (input index, balance)
    received: Mapping[int, tuple[RuneAmount, ...]] = field(default_factory=dict)
    burned: tuple[RuneAmount, ...] = ()
    runestone_output: int | None = None  # the output ord reads the runestone from
    flow: RuneFlow | None = None
    reason: str = ""

    @property
    def cenotaph(self) -> Cenotaph | None:
        artifact = None if self.flow is None else self.flow.artifact
        return artifact if isinstance(artifact, Cenotaph) else None

    def describe_runestone(self) -> str | None:
        """What the runestone says, in a sentence (None: there is none)."""
        if self.runestone_output is None or self.flow is None:
            return None
        return f"Output {self.runestone_output} is {describe_artifact(self.flow)}."


def move_runes(view: PsbtView, context: ReviewContext) -> RuneMoves:
    sent = []
    for inp in view.inputs:
        contents = context.contents_of(inp.outpoint)
        sent += [(inp.index, rune) for rune in (contents.runes if contents else ())]
    scripts = [o.script_pubkey for o in view.outputs]
    stone = next((i for i, s in enumerate(scripts) if has_runestone_prefix(s)), None)
    held = [InputRune(r.rune, r.amount, _rune_id(context.rune_id_of(r.rune))) for _, r in sent]
    flow = rune_flow(scripts, held)
    if not flow.decided:
        return RuneMoves(False, tuple(sent), runestone_output=stone, flow=flow, reason=flow.reason)
    return RuneMoves(True, tuple(sent), flow.received, flow.burned, stone, flow)


def _rune_id(text: str | None) -> RuneId | None:
    try:
        return None if text is None else RuneId.parse(text)
    except ValueError:
        return None  # an id nobody could mean: edicts naming runes cannot be followed


@dataclass(frozen=True)
class RoleFlow:
    """Sats one of our roles spends (None: some amount unknown) and receives."""

    role: Role
    sent: int | None
    received: int

    @property
    def net(self) -> int | None:
        return None if self.sent is None else self.received - self.sent


@dataclass(frozen=True)
class Summary:
    """The plain "you give / you receive" of a transaction."""

    flows: tuple[RoleFlow, ...]
    you_give: int | None  # sats leaving our addresses, fee included (negative: we gain)
    fee: int | None
    inscriptions_given: tuple[str, ...]
    inscriptions_received: tuple[str, ...]
    inscriptions_unknown: tuple[str, ...]  # ours whose destination cannot be known
    runes_given: tuple[RuneAmount, ...]
    runes_received: tuple[RuneAmount, ...]
    runes_unknown: tuple[RuneAmount, ...]  # ours moved by a runestone this wallet cannot follow
    runes_burned: tuple[RuneAmount, ...] = ()  # ours destroyed (a cenotaph, an OP_RETURN)
    runestone: str | None = None  # what the transaction's runestone says, if it has one

    def flow(self, role: Role) -> RoleFlow | None:
        return next((f for f in self.flows if f.role is role), None)

    def lines(self) -> tuple[str, ...]:
        """Sentences for the review dialog, most important first."""
        out = []
        if self.you_give is None:
            out.append(f"You give: unknown ({_UNKNOWN_AMOUNT}).")
        elif self.you_give >= 0:
            out.append(f"You give {sats(self.you_give)} in total, network fee included.")
        else:
            out.append(f"You receive {sats(-self.you_give)} in total.")
        for f in self.flows:
            role = f.role.value[0].upper() + f.role.value[1:]
            if f.sent == 0:
                out.append(f"{role} receives {sats(f.received)}.")
                continue
            spent = "an unknown amount" if f.sent is None else sats(f.sent)
            net = "" if f.net is None else f" (net {f.net:+,} sats)"
            out.append(f"{role} spends {spent} and receives {sats(f.received)}{net}.")
        out += [f"You give inscription {i}." for i in self.inscriptions_given]
        out += [f"You receive inscription {i}." for i in self.inscriptions_received]
        out += [f"Where your inscription {i} goes is unknown." for i in self.inscriptions_unknown]
        out += [f"You give {r.amount:,} {r.rune}." for r in self.runes_given]
        out += [f"You receive {r.amount:,} {r.rune}." for r in self.runes_received]
        out += [f"Your {r.amount:,} {r.rune} are burned." for r in self.runes_burned]
        out += [f"Where your {r.amount:,} {r.rune} go is unknown." for r in self.runes_unknown]
        out += [self.runestone] if self.runestone else []
        if self.fee is None:
            out.append(f"Network fee: unknown ({_UNKNOWN_AMOUNT}).")
        elif self.fee < 0:
            out.append(
                f"Network fee: none yet; the outputs exceed the inputs by {sats(-self.fee)}, "
                "so someone else must add inputs."
            )
        else:
            out.append(f"Network fee: {sats(self.fee)}.")
        return tuple(out)


def summarize(
    inputs: Sequence[InputReview],
    outputs: Sequence[OutputReview],
    landings: Sequence[Landing],
    runes: RuneMoves,
    fee: int | None,
) -> Summary:
    flows = []
    for role in (Role.PAYMENT, Role.ORDINALS, Role.BIDDING_WALLET):
        ins = [i for i in inputs if i.is_ours and i.role is role]
        outs = [o.value for o in outputs if o.is_ours and o.role is role]
        if not ins and not outs:
            continue
        values = [i.value for i in ins]
        sent = None if None in values else sum(v for v in values if v is not None)
        flows.append(RoleFlow(role, sent, sum(outs)))
    known = [f.net for f in flows]
    you_give = None if None in known else -sum(n for n in known if n is not None)
    ours_by_index = {i.index: i.is_ours for i in inputs}
    our_runes = tuple(r for i, r in runes.sent if ours_by_index[i])
    given, received, burned = _rune_balance(our_runes, outputs, runes)
    return Summary(
        flows=tuple(flows),
        you_give=you_give,
        fee=fee,
        inscriptions_given=tuple(
            x.inscription_id
            for x in landings
            if x.from_ours and x.destination is not None and not x.to_us
        ),
        inscriptions_received=tuple(
            x.inscription_id for x in landings if not x.from_ours and x.to_us
        ),
        inscriptions_unknown=tuple(
            x.inscription_id for x in landings if x.from_ours and x.destination is None
        ),
        runes_given=given,
        runes_received=received,
        runes_unknown=() if runes.decoded else _merged(our_runes),
        runes_burned=burned,
        runestone=runes.describe_runestone(),
    )


def _rune_balance(
    our_runes: Sequence[RuneAmount], outputs: Sequence[OutputReview], runes: RuneMoves
) -> tuple[tuple[RuneAmount, ...], tuple[RuneAmount, ...], tuple[RuneAmount, ...]]:
    """(given, received, burned) of ours, per rune: runes are fungible, so what counts is what
    our inputs hold against what our outputs receive. A loss is burned up to what the
    transaction burns of that rune, given away beyond it."""
    if not runes.decoded:
        return (), (), ()
    before = _totals(our_runes)
    after = _totals(r for o in outputs if o.is_ours for r in runes.received.get(o.index, ()))
    destroyed = _totals(runes.burned)
    given, received, burned = [], [], []
    for rune in dict.fromkeys([*before, *after]):
        change = after.get(rune, 0) - before.get(rune, 0)
        if change > 0:
            received.append(RuneAmount(_name(rune, our_runes, outputs), change))
        elif change < 0:
            lost = min(-change, destroyed.get(rune, 0))
            name = _name(rune, our_runes, outputs)
            burned += [RuneAmount(name, lost)] if lost else []
            given += [RuneAmount(name, -change - lost)] if -change > lost else []
    return tuple(given), tuple(received), tuple(burned)


def _totals(amounts: Iterable[RuneAmount]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in amounts:
        key = rune_letters(r.rune)
        out[key] = out.get(key, 0) + r.amount
    return out


def _merged(amounts: Sequence[RuneAmount]) -> tuple[RuneAmount, ...]:
    """One amount per rune (in ord's spelling), however many inputs hold it."""
    totals = _totals(amounts)
    return tuple(RuneAmount(_name(k, amounts, ()), a) for k, a in totals.items())


def _name(letters: str, amounts: Sequence[RuneAmount], outputs: Sequence[OutputReview]) -> str:
    """ord's spelling of the rune with these letters."""
    spelled = [r.rune for r in amounts] + [r.rune for o in outputs for r in o.runes]
    return next((n for n in spelled if rune_letters(n) == letters), letters)
