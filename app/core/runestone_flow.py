"""Where a transaction's runes go, by ord's allocation rules.

The rules are ord's `RuneUpdater::index_runes` (src/index/updater/rune_updater.rs, ordinals/ord
at commit 5241ef311e015cff4759a379085c8cc8913e621a), applied to the runes the inputs carry:

1. The inputs' runes are unallocated; a mint adds its amount, an etching its premine (the
   etched rune is the id 0:0 in edicts, and its own id `<block>:<tx>` once mined).
2. A runestone's edicts run in order; one naming a rune with no unallocated balance, or 0:0
   without an etching, is skipped. Amount 0 means all that remains (else at most what remains).
   Output n == the number of outputs means every non-OP_RETURN output: amount 0 splits the
   balance evenly, the remainder one each to the first ones; a non-zero amount goes to each in
   turn while the balance lasts.
3. A cenotaph burns everything unallocated (edicts are never run: it has none). Otherwise what
   is left goes to the pointer, else to the first non-OP_RETURN output, else is burned.
4. Runes allocated to an OP_RETURN output are burned.

Edicts name runes by id and ord's outputs list them by name, so each input rune comes with its
id when known. An edict can only be followed when the ids of the runes on the inputs are known,
and a mint only counted when its amount is; otherwise the flow is undecided, with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from app.core.psbt_review_context import RuneAmount
from app.core.rune_names import SpacedRune, rune_letters
from app.core.runestone import (
    Cenotaph,
    Edict,
    RuneId,
    Runestone,
    UndecodableRunestone,
    decipher,
    has_runestone_prefix,
)
from app.core.sat_flow import OP_RETURN, rune_destination

# The key of the rune this transaction etches: its id is unknown until mined, and ord's edicts
# name it 0:0.
ETCHED = RuneId(0, 0)


@dataclass(frozen=True)
class InputRune:
    """A balance on an input: ord's name for the rune, and its id when known."""

    rune: str
    amount: int
    rune_id: RuneId | None = None


@dataclass(frozen=True)
class RuneFlow:
    """Where the runes go. `received` maps each output (OP_RETURN ones included: what they get
    is burned) to its runes; `burned` totals every rune destroyed. Undecided (`decided` False,
    `reason` says why): nothing in `received` or `burned` holds."""

    artifact: Runestone | Cenotaph | None
    decided: bool
    reason: str = ""
    received: Mapping[int, tuple[RuneAmount, ...]] = field(default_factory=dict)
    burned: tuple[RuneAmount, ...] = ()
    etched: str | None = None  # the name of the rune etched here (if the etching is valid)
    # The names of the runes the edicts may name (by id), and how many outputs there are: to
    # say in words what each edict does.
    id_names: Mapping[RuneId, str] = field(default_factory=dict)
    outputs: int = 0

    @property
    def is_cenotaph(self) -> bool:
        return isinstance(self.artifact, Cenotaph)

    @property
    def mint(self) -> RuneId | None:
        return None if self.artifact is None else self.artifact.mint


def is_op_return(script: bytes) -> bool:
    """ord's (rust-bitcoin's) `is_op_return`: the script's first byte is OP_RETURN."""
    return script[:1] == bytes([OP_RETURN])


def has_runestone(output_scripts: Sequence[bytes]) -> bool:
    return any(has_runestone_prefix(s) for s in output_scripts)


def rune_flow(
    output_scripts: Sequence[bytes],
    input_runes: Sequence[InputRune],
    mint_amount: int | None = None,
    *,
    etching_valid: bool = True,
    etched_name: str | None = None,
    etched_id: RuneId | None = None,
) -> RuneFlow:
    """Allocate `input_runes` (every rune balance on every input) to the outputs, as ord
    would. `mint_amount` is what a mint in the runestone yields, when the caller knows it.
    An indexer, which knows whether the etching is valid (ord's `RuneUpdater::etched`), says
    so: an invalid one etches nothing (no premine, edicts to 0:0 skipped); `etched_name` is
    the name it gets (an unnamed etching's reserved one), `etched_id` its id `<block>:<tx>`
    once its place in a block is known (ord credits the premine to that id: an edict naming
    it is one naming 0:0)."""
    try:
        artifact = decipher(output_scripts) if has_runestone(output_scripts) else None
    except UndecodableRunestone as exc:
        return RuneFlow(None, False, f"ord's code cannot read this transaction ({exc})")
    names: dict[RuneId | str, str] = {}
    unallocated: dict[RuneId | str, int] = {}
    for held in input_runes:
        key: RuneId | str = held.rune_id or rune_letters(held.rune)
        names.setdefault(key, held.rune)
        unallocated[key] = unallocated.get(key, 0) + held.amount
    unknown_ids = [h.rune for h in input_runes if h.rune_id is None]
    etched = (etched_name or _etched_name(artifact)) if etching_valid else None
    if artifact is not None and artifact.mint is not None:
        mint = artifact.mint
        if mint_amount is None:
            # A cenotaph burns whatever the mint yields with the rest: its amount is moot.
            if not isinstance(artifact, Cenotaph) and (mint in unallocated or unknown_ids):
                return _undecided(
                    artifact,
                    f"it mints rune {mint}, whose amount this wallet cannot know, and the inputs "
                    "may hold that rune",
                )
        elif mint_amount > 0:
            names.setdefault(mint, f"rune {mint}")
            unallocated[mint] = unallocated.get(mint, 0) + mint_amount
    allocated: list[dict[RuneId | str, int]] = [{} for _ in output_scripts]
    if isinstance(artifact, Runestone):
        if etched is not None and artifact.etching is not None:
            names[ETCHED] = etched
            unallocated[ETCHED] = artifact.etching.premine or 0
        if unknown_ids and any(not e.rune_id.is_etched_here for e in artifact.edicts):
            return _undecided(
                artifact,
                "its edicts name runes by id, and the id of "
                + ", ".join(dict.fromkeys(unknown_ids))
                + " on the inputs is not known",
            )
        _run_edicts(artifact, output_scripts, unallocated, allocated, etched_id)
    burned: dict[RuneId | str, int] = {}
    if isinstance(artifact, Cenotaph):
        _add_all(burned, unallocated)
    else:
        pointer = None if artifact is None else artifact.pointer
        vout = pointer if pointer is not None else rune_destination(output_scripts)
        if vout is None:
            _add_all(burned, unallocated)
        else:
            _add_all(allocated[vout], unallocated)
    received = {}
    for vout, balances in enumerate(allocated):
        if not balances:
            continue
        if is_op_return(output_scripts[vout]):
            _add_all(burned, balances)
        received[vout] = _amounts(balances, names)
    id_names = {k: v for k, v in names.items() if isinstance(k, RuneId)}
    return RuneFlow(
        artifact, True, "", received, _amounts(burned, names), etched, id_names,
        len(output_scripts),
    )  # fmt: skip


def _run_edicts(
    runestone: Runestone,
    output_scripts: Sequence[bytes],
    unallocated: dict[RuneId | str, int],
    allocated: list[dict[RuneId | str, int]],
    etched_id: RuneId | None,
) -> None:
    """ord's edict loop, in the runestone's order."""
    eligible = [v for v, s in enumerate(output_scripts) if not is_op_return(s)]
    for edict in runestone.edicts:
        rune_id = ETCHED if edict.rune_id == etched_id else edict.rune_id
        if rune_id.is_etched_here and ETCHED not in unallocated:
            continue  # 0:0 without an etching: skipped
        if rune_id not in unallocated:
            continue  # nothing of that rune to allocate
        key: RuneId | str = rune_id

        def allocate(amount: int, vout: int, key: RuneId | str = key) -> None:
            if amount > 0:
                unallocated[key] -= amount
                allocated[vout][key] = allocated[vout].get(key, 0) + amount

        if edict.output == len(output_scripts):
            if not eligible:
                continue
            if edict.amount == 0:
                share, remainder = divmod(unallocated[key], len(eligible))
                for i, vout in enumerate(eligible):
                    allocate(share + 1 if i < remainder else share, vout)
            else:
                for vout in eligible:
                    allocate(min(edict.amount, unallocated[key]), vout)
        else:
            balance = unallocated[key]
            allocate(balance if edict.amount == 0 else min(edict.amount, balance), edict.output)


def _add_all(into: dict[RuneId | str, int], balances: Mapping[RuneId | str, int]) -> None:
    for key, amount in balances.items():
        if amount > 0:
            into[key] = into.get(key, 0) + amount


def _amounts(
    balances: Mapping[RuneId | str, int], names: Mapping[RuneId | str, str]
) -> tuple[RuneAmount, ...]:
    return tuple(RuneAmount(names[k], a) for k, a in balances.items() if a > 0)


def _etched_name(artifact: Runestone | Cenotaph | None) -> str | None:
    if isinstance(artifact, Runestone):
        if artifact.etching is None:
            return None
        letters = artifact.etching.rune
        if letters is None:
            return "the new rune this transaction etches"
        return str(SpacedRune(letters, artifact.etching.spacers or 0))
    if isinstance(artifact, Cenotaph) and artifact.etching is not None:
        return artifact.etching
    return None


def describe_artifact(flow: RuneFlow) -> str:
    """'a runestone: 2 edicts, pointer to output 1' / 'a cenotaph (...): ...'."""
    artifact = flow.artifact
    if isinstance(artifact, Cenotaph):
        what = f"a malformed runestone, a cenotaph ({artifact.reason}): ord burns every rune on "
        what += "the inputs"
        parts = [f"the mint of rune {artifact.mint}"] if artifact.mint else []
        parts += [f"the etching of {flow.etched}"] if flow.etched else []
        return what + (f", and {' and '.join(parts)} gives nothing" if parts else "")
    if artifact is None:
        return "not a runestone"
    parts = [_edict_words(flow, edict) for edict in artifact.edicts[:_EDICTS_SAID]]
    if len(artifact.edicts) > _EDICTS_SAID:
        more = len(artifact.edicts) - _EDICTS_SAID
        parts.append(f"{more} more edict{'s' if more != 1 else ''}")
    if artifact.pointer is not None:
        parts.append(f"the runes left go to output {artifact.pointer}")
    if artifact.mint is not None:
        parts.append(f"it mints rune {artifact.mint}")
    if flow.etched is not None:
        premine = artifact.etching.premine if artifact.etching else None
        parts.append(
            f"it etches {flow.etched}"
            + (f" with a premine of {premine:,}" if premine else "")
            + " (if the etching is valid when mined)"
        )
    return "a runestone" + (": " + "; ".join(parts) if parts else " (empty)")


_EDICTS_SAID = 3  # a review names this many edicts; a longer list is counted


def _edict_words(flow: RuneFlow, edict: Edict) -> str:
    """'an edict: all of DOG•GO•TO•THE•MOON to output 0' (what ord does with it)."""
    rune_id = edict.rune_id
    if rune_id.is_etched_here and flow.etched is not None:
        name = flow.etched
    else:
        name = flow.id_names.get(rune_id, f"rune {rune_id}")
    amount = "all" if edict.amount == 0 else f"{edict.amount:,}"
    if flow.outputs and edict.output == flow.outputs:
        where = "each output that is not OP_RETURN" + (" (shared)" if edict.amount == 0 else "")
    else:
        where = f"output {edict.output}"
    return f"an edict: {amount} of {name} to {where}"


def _undecided(artifact: Runestone | Cenotaph | None, reason: str) -> RuneFlow:
    return RuneFlow(artifact, False, reason)
