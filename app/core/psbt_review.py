"""The pure review of a PSBT: roles, amounts, inscriptions and runes, fee, sighash risks.

`review(view, context)` answers "what does this transaction do to me?" from the PSBT and from
what the caller knows (`ReviewContext`). It decides nothing: the signing policies read the
Review, and a dialog only draws it. Amounts are integer sats; anything that cannot be verified
is None ("unknown"), never a guess: an input's amount counts only when the chain confirms it
(the caller's `chain_utxos`, or a non_witness_utxo that hashes to the spent txid), so a server
cannot lower or raise the fee the user sees by lying about an input it signs itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.core.psbt_review_context import (
    OUR_ROLES,
    OutpointContents,
    ReviewContext,
    Role,
    RuneAmount,
    primary_role,
)
from app.core.psbt_review_findings import Finding, FindingCode, Risk, find_problems
from app.core.psbt_review_summary import (
    Landing,
    RuneMoves,
    Summary,
    land_inscriptions,
    move_runes,
    summarize,
)
from app.core.psbt_review_time import TimeLocks, time_locks
from app.core.psbt_size import VsizeEstimate, estimate_vsize
from app.core.psbt_view import InputView, PsbtView, ScriptType

SIGHASH_DEFAULT, SIGHASH_ALL, SIGHASH_NONE, SIGHASH_SINGLE = 0x00, 0x01, 0x02, 0x03
SIGHASH_ANYONECANPAY = 0x80
SIGHASH_ALL_ANYONECANPAY = SIGHASH_ALL | SIGHASH_ANYONECANPAY
_BASE_NAMES = {SIGHASH_DEFAULT: "DEFAULT", SIGHASH_ALL: "ALL", SIGHASH_NONE: "NONE"}
_BASE_NAMES[SIGHASH_SINGLE] = "SINGLE"


def sighash_name(value: int) -> str:
    """'ALL', 'SINGLE|ANYONECANPAY', or '0x42' for values no standard type has."""
    base = value & ~SIGHASH_ANYONECANPAY
    if value not in (0x00, 0x01, 0x02, 0x03, 0x81, 0x82, 0x83) or base not in _BASE_NAMES:
        return f"0x{value:02x}"
    return _BASE_NAMES[base] + ("|ANYONECANPAY" if value & SIGHASH_ANYONECANPAY else "")


@dataclass(frozen=True)
class SighashInfo:
    """PSBT_IN_SIGHASH_TYPE of an input, with its risk and a one-sentence explanation."""

    value: int | None
    name: str
    risk: Risk
    explanation: str


def sighash_info(value: int | None, kind: ScriptType | None) -> SighashInfo:
    """Grade a sighash: ALL/DEFAULT are OK, ALL|ANYONECANPAY is a NOTE, the rest DANGER."""
    if value is None:
        return SighashInfo(
            None, "not set", Risk.OK, "Signed with the default: every input and output."
        )
    name = sighash_name(value)
    if value == SIGHASH_DEFAULT and kind is not ScriptType.P2TR:
        return SighashInfo(value, name, Risk.DANGER, "DEFAULT is only valid for taproot inputs.")
    explanations = {
        SIGHASH_DEFAULT: (Risk.OK, "Commits to every input and output."),
        SIGHASH_ALL: (Risk.OK, "Commits to every input and output."),
        SIGHASH_ALL_ANYONECANPAY: (
            Risk.NOTE,
            "Commits to every output; others may add inputs to pay for it.",
        ),
        SIGHASH_NONE: (Risk.DANGER, "Commits to no output: anyone can redirect the coins."),
        0x82: (
            Risk.DANGER,
            "Commits to no output and no other input: anyone can take the coins.",
        ),
        SIGHASH_SINGLE: (
            Risk.DANGER,
            "Commits only to the output with the same index; the others can be changed.",
        ),
        0x83: (
            Risk.DANGER,
            "Commits only to one output and lets anyone add inputs and outputs (an open offer).",
        ),
    }
    risk, text = explanations.get(value, (Risk.DANGER, "Not a sighash type this wallet knows."))
    return SighashInfo(value, name, risk, text)


@dataclass(frozen=True)
class InputReview:
    """One input as the user should see it. `value` is the amount the chain confirms (None:
    unverified), `claimed_value` what the PSBT says; `contents` is None when ord's answer is
    unknown."""

    index: int
    outpoint: str
    value: int | None
    claimed_value: int | None
    address: str | None
    roles: frozenset[Role]
    script_type: ScriptType | None
    contents: OutpointContents | None
    sighash: SighashInfo
    final: bool
    has_witness_utxo: bool
    utxo_problems: tuple[str, ...]

    @property
    def role(self) -> Role:
        return primary_role(self.roles)

    @property
    def is_ours(self) -> bool:
        return bool(self.roles & OUR_ROLES)


@dataclass(frozen=True)
class OutputReview:
    """One output, with the inscriptions whose sat lands on it and the runes it receives (an
    OP_RETURN output's are burned)."""

    index: int
    value: int
    address: str | None
    roles: frozenset[Role]
    script_type: ScriptType
    inscriptions: tuple[str, ...]
    runes: tuple[RuneAmount, ...]

    @property
    def role(self) -> Role:
        return primary_role(self.roles)

    @property
    def is_ours(self) -> bool:
        return bool(self.roles & OUR_ROLES)

    @property
    def is_op_return(self) -> bool:
        return self.script_type is ScriptType.OP_RETURN


@dataclass(frozen=True)
class Review:
    """Everything a dialog draws and a policy decides on."""

    view: PsbtView
    context: ReviewContext
    inputs: tuple[InputReview, ...]
    outputs: tuple[OutputReview, ...]
    fee: int | None  # None when any input amount is unverified
    vsize: VsizeEstimate
    landings: tuple[Landing, ...]
    summary: Summary
    findings: tuple[Finding, ...]
    timelocks: TimeLocks
    rune_moves: RuneMoves  # where the inputs' runes go, by ord's rules (runestones read)

    @property
    def txid(self) -> str:
        return self.view.txid_unsigned

    @property
    def network(self) -> str:
        return self.context.network

    @property
    def fee_rate(self) -> Fraction | None:
        """sat/vB on the estimated vsize; None when the fee is unknown or negative."""
        if self.fee is None or self.fee < 0:
            return None
        return Fraction(self.fee, self.vsize.vsize)

    @property
    def unknown_amount_inputs(self) -> tuple[int, ...]:
        """Inputs whose amount the chain does not confirm (or that have no UTXO data)."""
        return tuple(i.index for i in self.inputs if i.value is None)

    def findings_of(self, code: FindingCode) -> list[Finding]:
        return [f for f in self.findings if f.code is code]

    def landing_of(self, inscription_id: str) -> Landing | None:
        return next((x for x in self.landings if x.inscription_id == inscription_id), None)


def verified_value(inp: InputView, context: ReviewContext) -> int | None:
    """The input's amount when the chain vouches for it: the caller's chain facts agree with
    the PSBT, or (no chain fact) the PSBT's non_witness_utxo hashes to the spent txid."""
    chain = context.chain_utxos.get(inp.outpoint)
    if chain is not None:
        agrees = chain.value == inp.value and chain.script_pubkey == inp.script_pubkey
        return chain.value if agrees else None
    return inp.value if inp.non_witness_utxo_matches else None


def review(view: PsbtView, context: ReviewContext) -> Review:
    """Review `view` in the light of `context` (pure: same arguments, same Review)."""
    values = tuple(verified_value(inp, context) for inp in view.inputs)
    fee = None
    if all(v is not None for v in values):
        fee = sum(v for v in values if v is not None) - sum(view.output_values)
    out_roles = tuple(_output_roles(context, o.address, o.is_op_return) for o in view.outputs)
    landings = land_inscriptions(view, context, out_roles, values)
    rune_moves = move_runes(view, context)
    inputs = tuple(
        InputReview(
            index=inp.index,
            outpoint=inp.outpoint,
            value=values[inp.index],
            claimed_value=inp.value,
            address=inp.address,
            roles=context.roles_of(inp.address) if inp.address else frozenset({Role.UNKNOWN}),
            script_type=inp.script_type,
            contents=context.contents_of(inp.outpoint),
            sighash=sighash_info(inp.sighash_type, inp.script_type),
            final=inp.final,
            has_witness_utxo=inp.has_witness_utxo,
            utxo_problems=inp.utxo_problems,
        )
        for inp in view.inputs
    )
    outputs = tuple(
        OutputReview(
            index=out.index,
            value=out.value,
            address=out.address,
            roles=out_roles[out.index],
            script_type=out.script_type,
            inscriptions=tuple(x.inscription_id for x in landings if x.output_index == out.index),
            runes=rune_moves.received.get(out.index, ()),
        )
        for out in view.outputs
    )
    summary = summarize(inputs, outputs, landings, rune_moves, fee)
    findings = find_problems(view, context, inputs, landings, rune_moves, fee)
    vsize = estimate_vsize(view, trusted={i.index for i in inputs if i.is_ours})
    timelocks = time_locks(view)
    return Review(
        view,
        context,
        inputs,
        outputs,
        fee,
        vsize,
        landings,
        summary,
        findings,
        timelocks,
        rune_moves,
    )


def _output_roles(
    context: ReviewContext, address: str | None, is_op_return: bool
) -> frozenset[Role]:
    if is_op_return:
        return frozenset({Role.OP_RETURN})
    if address is None:
        return frozenset({Role.STRANGER})  # a script without an address: nobody we know
    return context.roles_of(address)
