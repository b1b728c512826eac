"""Checks every signing policy shares: sighash choice, input ownership and ord's answers, and
the refusals common to all flows (duplicated inputs, lying UTXO data, wrong networks, a
counterparty posing as us, time locks (`policy_time`), missing witness UTXOs, finalised inputs
of ours, inscriptions lost to the fee). The fee check is `policy_fee`.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.policy_time import check_timelocks
from app.core.policy_verdict import (
    Flow,
    Refusal,
    RefusalCode,
    SignPermission,
)
from app.core.psbt_review import (
    SIGHASH_ALL,
    SIGHASH_DEFAULT,
    InputReview,
    OutputReview,
    Review,
    sighash_name,
)
from app.core.psbt_review_context import Role, describe_roles
from app.core.psbt_review_findings import FindingCode
from app.core.psbt_review_summary import sats
from app.core.psbt_view import ScriptType, address_networks


def output_text(out: OutputReview) -> str:
    """'output 1 pays 5,000 sats to bcrt1q... (someone else)'."""
    to = out.address or ("an OP_RETURN" if out.script_type is ScriptType.OP_RETURN else "a script")
    return f"output {out.index} pays {sats(out.value)} to {to} ({describe_roles(out.roles)})"


def input_owner(inp: InputReview) -> str:
    if inp.address is None:
        return "an output nobody can vouch for (the PSBT has no UTXO data for it)"
    return f"{inp.address} ({describe_roles(inp.roles)})"


def check_address(review: Review, address: str, what: str) -> list[Refusal]:
    """An address from the user's intent must belong to the wallet's network."""
    if review.network in address_networks(address):
        return []
    return [
        Refusal(
            RefusalCode.WRONG_NETWORK,
            f"{what} {address} is not a {review.network} address.",
        )
    ]


def plan_sighash(
    inp: InputReview, flow: Flow, allowed: frozenset[int], preferred: int
) -> tuple[SignPermission | None, list[Refusal]]:
    """The hash type to sign `inp` with: its PSBT_IN_SIGHASH_TYPE when the policy allows it,
    else `preferred` when the field is absent (DEFAULT becomes ALL off taproot)."""
    taproot = inp.script_type is ScriptType.P2TR
    value = inp.sighash.value
    if value is None:
        chosen = SIGHASH_ALL if preferred == SIGHASH_DEFAULT and not taproot else preferred
        return SignPermission(inp.index, chosen), []
    if value in allowed and (value != SIGHASH_DEFAULT or taproot):
        return SignPermission(inp.index, value), []
    names = [sighash_name(v) for v in sorted(allowed, key=_sighash_order)]
    listed = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
    return None, [
        Refusal(
            RefusalCode.SIGHASH_NOT_ALLOWED,
            f"Input {inp.index} asks to be signed with SIGHASH_{sighash_name(value)}. "
            f"{inp.sighash.explanation} The {flow} policy signs only with {listed}.",
            input_index=inp.index,
        )
    ]


def _sighash_order(value: int) -> tuple[int, int]:
    return (value & 0x7F, value)


_ALWAYS_REFUSED = {
    FindingCode.DUPLICATE_INPUT: RefusalCode.DUPLICATE_INPUT,
    FindingCode.UTXO_MISMATCH: RefusalCode.UTXO_MISMATCH,
    FindingCode.UTXO_NOT_AS_ON_CHAIN: RefusalCode.UTXO_NOT_AS_ON_CHAIN,
    FindingCode.WRONG_NETWORK: RefusalCode.WRONG_NETWORK,
    FindingCode.COUNTERPARTY_IS_YOU: RefusalCode.COUNTERPARTY_IS_YOU,
}


def check_common(review: Review, plan: Sequence[SignPermission]) -> list[Refusal]:
    """Refusals every flow applies, given the inputs it plans to sign."""
    found = [
        Refusal(_ALWAYS_REFUSED[f.code], f.message, f.input_index, f.output_index)
        for f in review.findings
        if f.code in _ALWAYS_REFUSED
    ]
    found += check_timelocks(review, plan)
    signed = {p.input_index for p in plan}
    taproot = any(review.inputs[i].script_type is ScriptType.P2TR for i in signed)
    for inp in review.inputs:
        if inp.index in signed and not inp.has_witness_utxo:
            found.append(
                Refusal(
                    RefusalCode.MISSING_WITNESS_UTXO,
                    f"Input {inp.index} has no witness UTXO: the amount a signature commits "
                    "to cannot be checked, so it is not signed.",
                    input_index=inp.index,
                )
            )
        elif taproot and inp.claimed_value is None:
            found.append(
                Refusal(
                    RefusalCode.MISSING_WITNESS_UTXO,
                    f"Input {inp.index} has no UTXO data; a taproot signature commits to the "
                    "amount of every input, so none is made.",
                    input_index=inp.index,
                )
            )
        if inp.final and (inp.is_ours or inp.index in signed):
            found.append(
                Refusal(
                    RefusalCode.INPUT_ALREADY_FINAL,
                    f"Input {inp.index} spends {input_owner(inp)} and is already finalised: "
                    "someone else signed it.",
                    input_index=inp.index,
                )
            )
    for x in review.landings:
        if x.from_ours and x.to_fee:
            found.append(
                Refusal(
                    RefusalCode.INSCRIPTION_TO_FEE,
                    f"Your inscription {x.inscription_id} on input {x.input_index} lands in "
                    "the fee: the miner would get it.",
                    input_index=x.input_index,
                )
            )
        elif x.from_ours and x.destination is None:
            found.append(
                Refusal(
                    RefusalCode.INSCRIPTION_LANDING_UNKNOWN,
                    f"Where your inscription {x.inscription_id} on input {x.input_index} "
                    "lands cannot be known.",
                    input_index=x.input_index,
                )
            )
    return found


def check_signed_input_owner(inp: InputReview, flow: Flow, role: Role) -> list[Refusal]:
    """An input the flow signs must be at our `role` address; one without UTXO data cannot
    be shown to be, so it is refused as missing its witness UTXO."""
    if role in inp.roles:
        return []
    if Role.UNKNOWN in inp.roles:
        return [
            Refusal(
                RefusalCode.MISSING_WITNESS_UTXO,
                f"Input {inp.index} has no witness UTXO: whose it is and what it is worth "
                f"cannot be checked, and this {flow} would sign it.",
                input_index=inp.index,
            )
        ]
    code = RefusalCode.INPUT_NOT_ALLOWED if inp.is_ours else RefusalCode.FOREIGN_INPUT
    return [
        Refusal(
            code,
            f"Input {inp.index} spends {input_owner(inp)}; this {flow} may spend only "
            f"{role.value}.",
            input_index=inp.index,
        )
    ]


def check_cardinal(inp: InputReview) -> list[Refusal]:
    """An input spent as plain sats: ord must say it carries nothing."""
    if inp.contents is None:
        return [
            Refusal(
                RefusalCode.CONTENTS_UNKNOWN,
                f"Input {inp.index} ({inp.outpoint}): ord's answer about what it carries is "
                "unknown, so it might hold an inscription or runes.",
                input_index=inp.index,
            )
        ]
    if not inp.contents.is_cardinal:
        return [
            Refusal(
                RefusalCode.NOT_CARDINAL,
                f"Input {inp.index} ({inp.outpoint}) carries {inp.contents.describe()}: it "
                "must not be spent as plain sats.",
                input_index=inp.index,
            )
        ]
    return []


ALL_OR_DEFAULT = frozenset({SIGHASH_ALL, SIGHASH_DEFAULT})
