"""A transaction's runes, derived from its runestone by ord's rules (`RuneUpdater::index_runes`,
src/index/updater/rune_updater.rs, ordinals/ord at 5241ef311e015cff4759a379085c8cc8913e621a).

The runestone is read by ord's own code (`app.core.runestone.decipher`) and the runes are
allocated by `app.core.runestone_flow.rune_flow` (ord's edicts, pointer, split, burns). Here:
- the inputs' runes (`rune_balances`, by letters) are taken off them as unallocated, each with
  its id `<block>:<tx>` once its etching is in a block;
- a mint of a rune whose terms allow it (`RuneEntry::mintable`: amount, cap, height and offset
  windows) counts and adds its amount, a cenotaph's too (then burned with the rest);
- an etching is valid as in `RuneUpdater::etched`: a name at or above
  `Rune::minimum_at_height`, not reserved, not etched before, and committed to by an input's
  tapscript pushing `Rune::commitment` while spending a taproot output of a transaction with at
  least 6 confirmations; without a name it gets `Rune::reserved(block, tx)`. A cenotaph's valid
  etching creates the rune with no supply; an invalid etching creates nothing (edicts to 0:0
  are skipped) and the rest of the runestone still applies;
- what is burned (a cenotaph's inputs and mint, runes sent to OP_RETURN, runes with nowhere to
  go) is kept per transaction: ord's `burned`.

Heights. ord indexes blocks; the sandbox indexes a transaction when it enters the mempool and
confirms it when it is mined. A mempool transaction's runes are decided at the height it would
have in the next block (tip + 1), with the chain as the index has it then; `rune_decisions`
keeps that height and order. When its block disagrees (mined later, before a runestone decided
ahead of it, or naming an id that was not known yet: a rune etched by a transaction still in
the mempool has none), `confirm` says so and the index is rebuilt
from the blocks, each transaction at its own height as ord does. A rune etched in the mempool
has no id until mined (ord's views, which answer from the confirmed chain, do not know it);
an unnamed etching's reserved name comes from where it is mined, so a mempool one holds a
placeholder (a reserved name no block can give) until `confirm` renames it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.core.inscription_envelope import script_pushes, tapscript_from_witness
from app.core.rune_names import (
    RESERVED_RUNE_VALUE,
    SpacedRune,
    minimum_at_height,
    parse_spaced_rune,
    reserved_rune,
    rune_commitment,
    rune_name,
    rune_value,
)
from app.core.runestone import Cenotaph, RuneId, Runestone, Terms, decipher
from app.core.runestone_flow import InputRune, RuneFlow, has_runestone, is_op_return, rune_flow
from app.sandbox.chain.rawtx import ParsedTx

if TYPE_CHECKING:
    from app.sandbox.chain.indexer import Coin

COMMIT_CONFIRMATIONS = 6  # ord's Runestone::COMMIT_CONFIRMATIONS
# Placeholder tx indexes of unnamed mempool etchings count down from here: no block has so many
# transactions, so a placeholder never meets a name a block gives.
_PLACEHOLDER_TX_INDEX = 2**32 - 1
_P2TR_PREFIX = b"\x51\x20"


def index_runes(
    conn: sqlite3.Connection,
    tx: ParsedTx,
    coins: Sequence[Coin],
    height: int | None,
    block_pos: int | None,
) -> None:
    """Move, mint, etch and burn `tx`'s runes (`coins`: what each input spends). `height`
    and `block_pos` None: a mempool transaction, decided as the next block's."""
    if height is None:
        height = _tip(conn) + 1
    inputs = _take_input_runes(conn, coins)
    scripts = [o.script_pubkey for o in tx.outputs]
    if not has_runestone(scripts):
        if inputs:
            _record(conn, tx, rune_flow(scripts, inputs))
        return
    artifact = decipher(scripts)
    mint_amount = 0
    if artifact is not None and artifact.mint is not None:
        minted = _mint(conn, tx.txid, artifact.mint, height)
        if minted is not None:
            letters, mint_amount = minted
            inputs.append(InputRune(letters, 0, artifact.mint))  # names the minted rune
    if block_pos is None:
        _record_decision(conn, tx.txid, height, _provisional(artifact, inputs, height))
    etched = _etched(conn, tx, coins, artifact, height, block_pos)
    flow = rune_flow(
        scripts,
        inputs,
        mint_amount,
        etching_valid=etched is not None,
        etched_name=etched,
        etched_id=None if block_pos is None else RuneId(height, block_pos),
    )
    if not flow.decided:  # ord reads every transaction a node accepts: never seen
        raise RuntimeError(f"runes of {tx.txid} undecided: {flow.reason}")
    if etched is not None and artifact is not None:
        # A mempool etching without a name holds a placeholder until mined (`confirm`).
        placeholder = block_pos is None and _unnamed(artifact)
        _create_entry(conn, tx.txid, artifact, etched, unnamed=placeholder)
    _record(conn, tx, flow)


class RunesDecidedOtherwise(Exception):
    """A mempool transaction's runes were decided for another height, in another order than
    its block's, or before an id its runestone names could be known: the index must be
    rebuilt, replaying the blocks as ord does."""


def confirm(conn: sqlite3.Connection, txid: str, height: int, block_pos: int) -> None:
    """`txid`, indexed in the mempool, is mined at (height, block_pos). Its runes hold if they
    were decided for this height, with every runestone decided before it already mined
    (earlier in this block or before), else RunesDecidedOtherwise. An unnamed rune it etched
    takes the reserved name ord gives it from there."""
    decision = conn.execute(
        "SELECT seq, height, provisional FROM rune_decisions WHERE txid = ?", (txid,)
    ).fetchone()
    if decision is None:
        return
    seq, decided_at, provisional = decision
    decided_before = conn.execute(
        "SELECT 1 FROM rune_decisions WHERE seq < ? LIMIT 1", (seq,)
    ).fetchone()
    if decided_at != height or provisional or decided_before is not None:
        raise RunesDecidedOtherwise(txid)
    conn.execute("DELETE FROM rune_decisions WHERE txid = ?", (txid,))
    _rename_unnamed(conn, txid, height, block_pos)


def _rename_unnamed(conn: sqlite3.Connection, txid: str, height: int, block_pos: int) -> None:
    row = conn.execute(
        "SELECT rune, spaced FROM rune_entries WHERE etching = ? AND unnamed = 1", (txid,)
    ).fetchone()
    if row is None:
        return
    old, new = str(row[0]), rune_name(reserved_rune(height, block_pos))
    # ord spaces the reserved name by the etching's spacers (`create_rune_entry`).
    spaced = str(SpacedRune(new, parse_spaced_rune(str(row[1])).spacers))
    conn.execute(
        "UPDATE rune_entries SET rune = ?, spaced = ?, unnamed = 0 WHERE etching = ?",
        (new, spaced, txid),
    )
    for table in ("rune_balances", "spent_rune_balances", "rune_mints", "rune_burns"):
        conn.execute(f"UPDATE {table} SET rune = ? WHERE rune = ?", (new, old))


def add_balance(conn: sqlite3.Connection, txid: str, vout: int, rune: str, amount: int) -> None:
    row = conn.execute(
        "SELECT amount FROM rune_balances WHERE txid = ? AND vout = ? AND rune = ?",
        (txid, vout, rune),
    ).fetchone()
    total = amount + (int(row[0]) if row else 0)
    conn.execute(
        "INSERT OR REPLACE INTO rune_balances (txid, vout, rune, amount) VALUES (?, ?, ?, ?)",
        (txid, vout, rune, str(total)),
    )


def _record_decision(conn: sqlite3.Connection, txid: str, height: int, provisional: bool) -> None:
    conn.execute(
        "INSERT INTO rune_decisions (txid, height, provisional) VALUES (?, ?, ?)",
        (txid, height, int(provisional)),
    )


def _provisional(
    artifact: Runestone | Cenotaph | None, inputs: Sequence[InputRune], height: int
) -> bool:
    """Whether ord, indexing the block, could decide otherwise for want of an id: an edict
    naming a rune on the inputs whose etching is not mined yet, a mint of a rune that may
    be etched earlier in the same block, or an edict naming an id of that block (this
    transaction's own etching, by its id)."""
    if artifact is None:
        return False
    if artifact.mint is not None and artifact.mint.block == height:
        return True
    if isinstance(artifact, Runestone) and any(e.rune_id.block == height for e in artifact.edicts):
        return True
    unknown = any(i.rune_id is not None and i.rune_id.block == 0 for i in inputs)
    return (
        unknown
        and isinstance(artifact, Runestone)
        and any(not e.rune_id.is_etched_here for e in artifact.edicts)
    )


def _unnamed(artifact: Runestone | Cenotaph) -> bool:
    return isinstance(artifact, Runestone) and (
        artifact.etching is not None and artifact.etching.rune is None
    )


def _tip(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COALESCE(MAX(height), 0) FROM blocks").fetchone()[0])


def _take_input_runes(conn: sqlite3.Connection, coins: Sequence[Coin]) -> list[InputRune]:
    """The inputs' balances, moved to what the spent outputs held. A rune not yet in a block
    has no id: it gets one no edict can name (block 0 with a non-zero tx is a cenotaph)."""
    taken: list[InputRune] = []
    unknown: dict[str, RuneId] = {}
    for coin in coins:
        rows = conn.execute(
            "SELECT b.rune, b.amount, t.height, t.block_pos FROM rune_balances b "
            "LEFT JOIN rune_entries e ON e.rune = b.rune LEFT JOIN txs t ON t.txid = e.etching "
            "WHERE b.txid = ? AND b.vout = ?",
            (coin.txid, coin.vout),
        ).fetchall()
        if not rows:
            continue
        conn.execute(
            "INSERT INTO spent_rune_balances (txid, vout, rune, amount) SELECT txid, vout, "
            "rune, amount FROM rune_balances WHERE txid = ? AND vout = ?",
            (coin.txid, coin.vout),
        )
        conn.execute(
            "DELETE FROM rune_balances WHERE txid = ? AND vout = ?", (coin.txid, coin.vout)
        )
        for rune, amount, block, tx_index in rows:
            if block is None:
                rune_id = unknown.setdefault(rune, RuneId(0, len(unknown) + 1))
            else:
                rune_id = RuneId(block, tx_index)
            taken.append(InputRune(rune, int(amount), rune_id))
    return taken


def _mint(
    conn: sqlite3.Connection, txid: str, rune_id: RuneId, height: int
) -> tuple[str, int] | None:
    """ord's `RuneUpdater::mint`: (letters, amount) when the rune's terms allow a mint at
    `height` (the mint is counted), else None."""
    row = conn.execute(
        "SELECT e.rune, e.terms FROM rune_entries e JOIN txs t ON t.txid = e.etching "
        "WHERE t.height = ? AND t.block_pos = ?",
        (rune_id.block, rune_id.tx),
    ).fetchone()
    if row is None:
        return None
    letters, terms = str(row[0]), terms_from_json(row[1])
    mints = int(
        conn.execute("SELECT COUNT(*) FROM rune_mints WHERE rune = ?", (letters,)).fetchone()[0]
    )
    amount = mintable(terms, rune_id.block, mints, height)
    if amount is None:
        return None
    _add(conn, "rune_mints", txid, letters, amount)
    return letters, amount


def mintable(terms: Terms | None, block: int, mints: int, height: int) -> int | None:
    """ord's `RuneEntry::mintable`: what a mint at `height` gets (None: not mintable) of a
    rune etched in `block` with these terms, already minted `mints` times."""
    if terms is None:
        return None
    start = _bound(terms.height[0], terms.offset[0], block, later=True)
    if start is not None and height < start:
        return None
    end = _bound(terms.height[1], terms.offset[1], block, later=False)
    if end is not None and height >= end:
        return None
    if mints >= (terms.cap or 0):
        return None
    return terms.amount or 0


def _bound(absolute: int | None, offset: int | None, block: int, later: bool) -> int | None:
    """ord's `RuneEntry::start`/`end`: the absolute height and the offset from the etching's
    block, the later of both for a start, the earlier for an end."""
    relative = None if offset is None else block + offset
    if relative is None or absolute is None:
        return relative if absolute is None else absolute
    return max(relative, absolute) if later else min(relative, absolute)


def _etched(
    conn: sqlite3.Connection,
    tx: ParsedTx,
    coins: Sequence[Coin],
    artifact: Runestone | Cenotaph | None,
    height: int,
    block_pos: int | None,
) -> str | None:
    """ord's `RuneUpdater::etched`: the letters of the rune this transaction etches, or None."""
    if isinstance(artifact, Runestone):
        if artifact.etching is None:
            return None
        letters = artifact.etching.rune
    elif isinstance(artifact, Cenotaph) and artifact.etching is not None:
        letters = artifact.etching
    else:
        return None
    if letters is None:
        if block_pos is None:
            pending = conn.execute("SELECT COUNT(*) FROM txs WHERE height IS NULL").fetchone()
            block_pos = _PLACEHOLDER_TX_INDEX - int(pending[0])
        return rune_name(reserved_rune(height, block_pos))
    value = rune_value(letters)
    if (
        value < minimum_at_height(height)
        or value >= RESERVED_RUNE_VALUE
        or conn.execute("SELECT 1 FROM rune_entries WHERE rune = ?", (letters,)).fetchone()
        or not _commits_to(tx, coins, letters, height)
    ):
        return None
    return letters


def _commits_to(tx: ParsedTx, coins: Sequence[Coin], letters: str, height: int) -> bool:
    """ord's `tx_commits_to_rune`: an input's tapscript pushes the rune's commitment and spends
    a taproot output whose transaction has `COMMIT_CONFIRMATIONS` at `height`."""
    if not coins:
        return False  # a coinbase spends no output
    commitment = rune_commitment(letters)
    for tx_in, coin in zip(tx.inputs, coins, strict=True):
        tapscript = tapscript_from_witness(tx_in.witness)
        if tapscript is None or commitment not in script_pushes(tapscript):
            continue
        taproot = len(coin.script_pubkey) == 34 and coin.script_pubkey[:2] == _P2TR_PREFIX
        confirmed = coin.height is not None and height - coin.height + 1 >= COMMIT_CONFIRMATIONS
        if taproot and confirmed:
            return True
    return False


def _create_entry(
    conn: sqlite3.Connection,
    txid: str,
    artifact: Runestone | Cenotaph,
    letters: str,
    unnamed: bool,
) -> None:
    """ord's `create_rune_entry`: a cenotaph's rune has nothing but its name."""
    etching = artifact.etching if isinstance(artifact, Runestone) else None
    if etching is None:
        _insert_entry(conn, txid, letters, letters, None, 0, 0, None, False, unnamed=unnamed)
        return
    spaced = str(SpacedRune(letters, etching.spacers or 0))
    _insert_entry(
        conn, txid, letters, spaced, etching.symbol, etching.divisibility or 0,
        etching.premine or 0, etching.terms, etching.turbo, unnamed=unnamed,
    )  # fmt: skip


def _insert_entry(
    conn: sqlite3.Connection,
    txid: str,
    letters: str,
    spaced: str,
    symbol: str | None,
    divisibility: int,
    premine: int,
    terms: Terms | None,
    turbo: bool,
    *,
    unnamed: bool = False,
) -> None:
    conn.execute(
        "INSERT INTO rune_entries (rune, spaced, symbol, divisibility, premine, terms, turbo, "
        "etching, unnamed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            letters, spaced, symbol, divisibility, str(premine), terms_to_json(terms),
            int(turbo), txid, int(unnamed),
        ),
    )  # fmt: skip


def terms_to_json(terms: Terms | None) -> str | None:
    if terms is None:
        return None
    return json.dumps(
        {
            "amount": terms.amount,
            "cap": terms.cap,
            "height": list(terms.height),
            "offset": list(terms.offset),
        }
    )


def terms_from_json(text: str | None) -> Terms | None:
    if text is None:
        return None
    found = json.loads(text)
    return Terms(found["amount"], found["cap"], tuple(found["height"]), tuple(found["offset"]))


def _add(conn: sqlite3.Connection, table: str, txid: str, rune: str, amount: int) -> None:
    """Add `amount` to `table`'s (txid, rune) row (rune_mints, rune_burns)."""
    row = conn.execute(
        f"SELECT amount FROM {table} WHERE txid = ? AND rune = ?", (txid, rune)
    ).fetchone()
    total = amount + (int(row[0]) if row else 0)
    conn.execute(
        f"INSERT OR REPLACE INTO {table} (txid, rune, amount) VALUES (?, ?, ?)",
        (txid, rune, str(total)),
    )


def _record(conn: sqlite3.Connection, tx: ParsedTx, flow: RuneFlow) -> None:
    """Write where the runes went: balances on the outputs, burns per rune."""
    for vout, amounts in flow.received.items():
        if is_op_return(tx.outputs[vout].script_pubkey):
            continue  # counted in flow.burned
        for held in amounts:
            add_balance(conn, tx.txid, vout, held.rune, held.amount)
    for burned in flow.burned:
        _add(conn, "rune_burns", tx.txid, burned.rune, burned.amount)
