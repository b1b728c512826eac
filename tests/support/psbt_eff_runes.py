"""Where the runes on a transaction's inputs go, for the guard fuzzer's oracle (issue 18, F4).

    landings = rune_landings(tx, [RuneAmount("UNCOMMON•GOODS", 2_500)], label_of_output)
    # {"UNCOMMON•GOODS": "the service's escrow"} or BURNED or "split: 2,400 to ..., 100 to ..."

Written from ord's `RuneUpdater::index_runes` (src/index/updater/rune_updater.rs, ordinals/ord
at commit 5241ef3), independently of app.core.runestone_flow, which it checks: only the
decoding is ord's own code (pyord 0.3.0, ord 0.18.2's decipher, on the transaction itself).
ord keeps one balance per rune id and never mixes them, so only the ids the inputs hold are
followed: an etching (0:0 in an edict) or a mint of another rune touches only that rune. The
runes' ids and what a mint gives are the world's truth (psbt_mut_world's TRUE_RUNE_IDS,
MINT_AMOUNTS), not the facts served to the review.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pyord
from embit.transaction import Transaction

from app.core.psbt_review_context import RuneAmount
from tests.support.psbt_eff_model import BURNED, UNDECODED
from tests.support.psbt_mut_world import MINT_AMOUNTS, TRUE_RUNE_IDS, RuneIdT


def _is_op_return(script: bytes) -> bool:
    return script[:1] == b"\x6a"  # rust-bitcoin's Script::is_op_return


def rune_landings(
    tx: Transaction, held: Sequence[RuneAmount], label_of: Callable[[int], str]
) -> dict[str, str]:
    """Each rune of `held` (every balance on the inputs that count) -> where ord puts its whole
    balance: one output's label (`label_of(vout)`), BURNED, or "split: ..." with the amounts."""
    if not held:
        return {}
    ids = {}
    for r in held:
        if r.rune not in TRUE_RUNE_IDS:
            raise AssertionError(f"the fuzzer's world has no id for rune {r.rune!r}")
        ids[r.rune] = TRUE_RUNE_IDS[r.rune]
    try:
        artifact = pyord.Runestone.decipher_hex(tx.serialize().hex())
    except ValueError:  # ord's own code cannot read it: neither can its indexer
        return {r.rune: UNDECODED for r in held}
    scripts = [bytes(out.script_pubkey.data) for out in tx.vout]
    unallocated: dict[RuneIdT, int] = {}
    for r in held:
        unallocated[ids[r.rune]] = unallocated.get(ids[r.rune], 0) + r.amount
    if artifact is not None and artifact.mint is not None:
        minted: RuneIdT = (artifact.mint.block, artifact.mint.tx)
        if minted in unallocated:
            unallocated[minted] += MINT_AMOUNTS.get(minted, 0)
    allocated: dict[RuneIdT, dict[int, int]] = {i: {} for i in unallocated}
    runestone = artifact if isinstance(artifact, pyord.Runestone) else None
    if runestone is not None:
        _edicts(runestone, scripts, unallocated, allocated)
    burned = dict.fromkeys(unallocated, 0)
    # A cenotaph burns everything unallocated; else the pointer or ord's default output.
    cenotaph = isinstance(artifact, pyord.Cenotaph)
    vout = None if cenotaph else _default_output(runestone, scripts)
    for rune_id, balance in unallocated.items():
        if vout is None:
            burned[rune_id] += balance
        elif balance:
            allocated[rune_id][vout] = allocated[rune_id].get(vout, 0) + balance
    return {
        r.rune: _where(allocated[ids[r.rune]], burned[ids[r.rune]], scripts, label_of) for r in held
    }


def _edicts(
    runestone: pyord.Runestone,
    scripts: Sequence[bytes],
    unallocated: dict[RuneIdT, int],
    allocated: dict[RuneIdT, dict[int, int]],
) -> None:
    """ord's edict loop, for the ids the inputs hold."""
    for edict in runestone.edicts:
        rune_id = (edict.id.block, edict.id.tx)
        if rune_id not in unallocated:
            continue  # another rune (0:0: the one being etched), never one of the inputs'

        def allocate(amount: int, vout: int, rune_id: RuneIdT = rune_id) -> None:
            if amount > 0:
                unallocated[rune_id] -= amount
                allocated[rune_id][vout] = allocated[rune_id].get(vout, 0) + amount

        if edict.output == len(scripts):
            destinations = [v for v, s in enumerate(scripts) if not _is_op_return(s)]
            if not destinations:
                continue
            if edict.amount == 0:
                share, remainder = divmod(unallocated[rune_id], len(destinations))
                for i, vout in enumerate(destinations):
                    allocate(share + 1 if i < remainder else share, vout)
            else:
                for vout in destinations:
                    allocate(min(edict.amount, unallocated[rune_id]), vout)
        else:
            balance = unallocated[rune_id]
            allocate(balance if edict.amount == 0 else min(edict.amount, balance), edict.output)


def _default_output(artifact: pyord.Runestone | None, scripts: Sequence[bytes]) -> int | None:
    """The pointer, else the first output that is not OP_RETURN (None: burned)."""
    if artifact is not None and artifact.pointer is not None:
        return int(artifact.pointer)
    return next((v for v, s in enumerate(scripts) if not _is_op_return(s)), None)


def _where(
    outputs: dict[int, int], burned: int, scripts: Sequence[bytes], label_of: Callable[[int], str]
) -> str:
    amounts: dict[str, int] = {}
    for vout, amount in outputs.items():
        label = BURNED if _is_op_return(scripts[vout]) else label_of(vout)
        amounts[label] = amounts.get(label, 0) + amount
    if burned:
        amounts[BURNED] = amounts.get(BURNED, 0) + burned
    places = [label for label, amount in amounts.items() if amount]
    if len(places) == 1:
        return places[0]
    if not places:
        return BURNED  # a balance of nothing: nothing lands anywhere
    return "split: " + ", ".join(f"{amounts[p]:,} to {p}" for p in sorted(places))
