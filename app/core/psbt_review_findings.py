"""Problems a review finds in any PSBT, whatever the flow: each a code and a human sentence
naming the input or output at fault. The signing policies turn the relevant ones into refusals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from app.core.psbt_review_context import ReviewContext, describe_roles
from app.core.psbt_review_summary import Landing, RuneMoves, sats
from app.core.psbt_view import PsbtView, ScriptType

if TYPE_CHECKING:
    from app.core.psbt_review import InputReview


class Risk(StrEnum):
    OK = "ok"
    NOTE = "note"
    DANGER = "danger"


class FindingCode(StrEnum):
    DUPLICATE_INPUT = "DUPLICATE_INPUT"
    MISSING_UTXO = "MISSING_UTXO"
    UTXO_MISMATCH = "UTXO_MISMATCH"
    UTXO_NOT_AS_ON_CHAIN = "UTXO_NOT_AS_ON_CHAIN"
    AMOUNT_UNVERIFIED = "AMOUNT_UNVERIFIED"
    COUNTERPARTY_IS_YOU = "COUNTERPARTY_IS_YOU"
    WRONG_NETWORK = "WRONG_NETWORK"
    OUTPUTS_EXCEED_INPUTS = "OUTPUTS_EXCEED_INPUTS"
    INSCRIPTION_TO_FEE = "INSCRIPTION_TO_FEE"
    INSCRIPTION_LANDING_UNKNOWN = "INSCRIPTION_LANDING_UNKNOWN"
    CONTENTS_UNKNOWN = "CONTENTS_UNKNOWN"
    RUNESTONE_NOT_DECODED = "RUNESTONE_NOT_DECODED"
    CENOTAPH = "CENOTAPH"
    RUNES_BURNED = "RUNES_BURNED"
    RISKY_SIGHASH = "RISKY_SIGHASH"
    INPUT_FINAL = "INPUT_FINAL"
    NON_STANDARD_OUTPUT = "NON_STANDARD_OUTPUT"


@dataclass(frozen=True)
class Finding:
    code: FindingCode
    risk: Risk
    message: str
    input_index: int | None = None
    output_index: int | None = None


def find_problems(
    view: PsbtView,
    context: ReviewContext,
    inputs: Sequence[InputReview],
    landings: Sequence[Landing],
    runes: RuneMoves,
    fee: int | None,
) -> tuple[Finding, ...]:
    found = [*_network(view, context), *_inputs(view, context, inputs)]
    if fee is not None and fee < 0:
        total_in = sum(i.value or 0 for i in inputs)
        found.append(
            Finding(
                FindingCode.OUTPUTS_EXCEED_INPUTS,
                Risk.DANGER,
                f"The outputs ({sats(total_in - fee)}) exceed the inputs ({sats(total_in)}): "
                "the transaction is invalid unless someone else adds inputs.",
            )
        )
    found += _landings(landings)
    found += _runes(runes)
    for out in view.outputs:
        if out.script_type is ScriptType.UNKNOWN:
            found.append(
                Finding(
                    FindingCode.NON_STANDARD_OUTPUT,
                    Risk.NOTE,
                    f"Output {out.index} has a non-standard script ({sats(out.value)}).",
                    output_index=out.index,
                )
            )
    return tuple(found)


def _network(view: PsbtView, context: ReviewContext) -> list[Finding]:
    found = []
    if view.network != context.network:
        found.append(
            Finding(
                FindingCode.WRONG_NETWORK,
                Risk.DANGER,
                f"The PSBT was read as a {view.network} transaction but this wallet is on "
                f"{context.network}.",
            )
        )
    for posing in context.counterparty_posing_as_ours():
        what = posing.label or posing.role.value
        found.append(
            Finding(
                FindingCode.COUNTERPARTY_IS_YOU,
                Risk.DANGER,
                f"The service names {posing.address} as {what}, but that is your own "
                "address: whatever it holds (inscriptions included) would be treated as the "
                "service's.",
            )
        )
    for known in context.wrong_network_addresses():
        label = known.label or known.role.value
        found.append(
            Finding(
                FindingCode.WRONG_NETWORK,
                Risk.DANGER,
                f"The address served as {label}, {known.address}, is not a "
                f"{context.network} address.",
            )
        )
    return found


def _inputs(view: PsbtView, context: ReviewContext, inputs: Sequence[InputReview]) -> list[Finding]:
    found = []
    first_seen: dict[str, int] = {}
    for inp in inputs:
        i, where = inp.index, f"Input {inp.index}"
        if inp.outpoint in first_seen:
            found.append(
                Finding(
                    FindingCode.DUPLICATE_INPUT,
                    Risk.DANGER,
                    f"{where} spends {inp.outpoint}, which input {first_seen[inp.outpoint]} "
                    "already spends.",
                    input_index=i,
                )
            )
        first_seen.setdefault(inp.outpoint, i)
        if inp.claimed_value is None:
            found.append(
                Finding(
                    FindingCode.MISSING_UTXO,
                    Risk.DANGER,
                    f"{where} has no UTXO data: its amount and owner cannot be verified.",
                    input_index=i,
                )
            )
        elif inp.value is None and inp.outpoint not in context.chain_utxos:
            found.append(
                Finding(
                    FindingCode.AMOUNT_UNVERIFIED,
                    Risk.DANGER,
                    f"{where} claims {sats(inp.claimed_value)}, but the chain does not show "
                    f"{inp.outpoint}: the fee and where inscriptions land cannot be known.",
                    input_index=i,
                )
            )
        for problem in inp.utxo_problems:
            found.append(
                Finding(
                    FindingCode.UTXO_MISMATCH,
                    Risk.DANGER,
                    f"{where} carries contradictory UTXO data: {problem}.",
                    input_index=i,
                )
            )
        found += _chain_check(view, context, inp)
        if inp.is_ours and inp.contents is None:
            found.append(
                Finding(
                    FindingCode.CONTENTS_UNKNOWN,
                    Risk.NOTE,
                    f"What input {i} ({describe_roles(inp.roles)}) carries is unknown: it may "
                    "hold inscriptions or runes.",
                    input_index=i,
                )
            )
        if inp.sighash.risk is not Risk.OK:
            found.append(
                Finding(
                    FindingCode.RISKY_SIGHASH,
                    inp.sighash.risk,
                    f"{where} asks for SIGHASH_{inp.sighash.name}. {inp.sighash.explanation}",
                    input_index=i,
                )
            )
        if inp.final:
            found.append(
                Finding(
                    FindingCode.INPUT_FINAL,
                    Risk.NOTE,
                    f"{where} is already signed and finalised.",
                    input_index=i,
                )
            )
    return found


def _chain_check(view: PsbtView, context: ReviewContext, inp: InputReview) -> list[Finding]:
    """The PSBT's amount and script of an input against what the chain says (when known)."""
    chain = context.chain_utxos.get(inp.outpoint)
    spk = view.inputs[inp.index].script_pubkey
    claimed = inp.claimed_value
    if chain is None or claimed is None:
        return []
    if chain.value == claimed and chain.script_pubkey == spk:
        return []
    if chain.script_pubkey != spk:
        message = (
            f"Input {inp.index} claims {inp.outpoint} pays {inp.address or 'a script'}, but on "
            "the chain it pays another script."
        )
    else:
        message = (
            f"Input {inp.index} claims {sats(claimed)}, but on the chain {inp.outpoint} "
            f"holds {sats(chain.value)}."
        )
    return [Finding(FindingCode.UTXO_NOT_AS_ON_CHAIN, Risk.DANGER, message, input_index=inp.index)]


def _landings(landings: Sequence[Landing]) -> list[Finding]:
    found = []
    for x in landings:
        if x.to_fee:
            found.append(
                Finding(
                    FindingCode.INSCRIPTION_TO_FEE,
                    Risk.DANGER,
                    f"Inscription {x.inscription_id} on input {x.input_index} lands in the fee: "
                    "the miner gets it.",
                    input_index=x.input_index,
                )
            )
        elif x.destination is None and x.from_ours:
            found.append(
                Finding(
                    FindingCode.INSCRIPTION_LANDING_UNKNOWN,
                    Risk.DANGER,
                    f"Where inscription {x.inscription_id} on input {x.input_index} lands "
                    "cannot be known: an amount before it is missing or disagrees with ord.",
                    input_index=x.input_index,
                )
            )
    return found


def _runes(runes: RuneMoves) -> list[Finding]:
    """A runestone that cannot be followed, a cenotaph, runes burned."""
    stone = runes.runestone_output
    held = bool(runes.sent)
    if not runes.decoded:
        return [
            Finding(
                FindingCode.RUNESTONE_NOT_DECODED,
                Risk.DANGER if held else Risk.NOTE,
                f"Output {stone} is a runestone this wallet cannot follow ({runes.reason}), so "
                "where runes go is not checked.",
                output_index=stone,
            )
        ]
    burned = ", ".join(f"{r.amount:,} {r.rune}" for r in runes.burned)
    cenotaph = runes.cenotaph
    if cenotaph is not None:
        what = f": {burned} burned" if burned else " (the inputs carry none)"
        return [
            Finding(
                FindingCode.CENOTAPH,
                Risk.DANGER if held else Risk.NOTE,
                f"Output {stone} is a malformed runestone, a cenotaph ({cenotaph.reason}): ord "
                f"burns every rune on the inputs{what}.",
                output_index=stone,
            )
        ]
    if burned:
        return [
            Finding(
                FindingCode.RUNES_BURNED,
                Risk.DANGER,
                f"This transaction burns {burned}: sent to an OP_RETURN output, or to no output.",
            )
        ]
    return []
