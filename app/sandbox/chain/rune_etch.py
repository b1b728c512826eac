"""Runes made as ord makes them: etched by a reveal that commits to the name, then moved by
edicts or minted, every one a real transaction the kernel checks (`Node.broadcast`).

Etching (ord's `RuneUpdater::etched` and `tx_commits_to_rune`): a commit pays a taproot output
whose one leaf is `<key> OP_CHECKSIG OP_0 OP_IF <commitment> OP_ENDIF` (the rune's number,
`Rune::commitment`; the key a sandbox key's). The reveal spends it by that leaf once the commit
has `COMMIT_CONFIRMATIONS` (6) confirmations, ord counting the etching's own block: the commit
in block N, the etching in N + 5 or later. So an etching mines the commit's block and four
more, then leaves the reveal in the mempool, where the next block takes it. Its name must not
be below ord's minimum for the reveal's block (`rune_names.minimum_at_height`), which is
checked before anything is paid (`RUNE_NAME_LOCKED`), for the block ord's wallet checks: the
tip + `COMMIT_CONFIRMATIONS` (batch_command.rs `check_etching`).

`create_runes` (what `Node.create_runes` does): a new rune is etched with a large premine to
the sandbox's reserve key (`rune-reserve`) and an edict giving the amount asked to the
recipient's output in the same reveal; an etched one is sent from the reserve, its outputs
holding the rune spent, an edict to the recipient and the pointer returning the rest.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from embit.ec import PrivateKey

from app.core.inscription_envelope import OP_0, OP_ENDIF, OP_IF, push
from app.core.rune_names import (
    SpacedRune,
    minimum_at_height,
    parse_spaced_rune,
    rune_commitment,
    rune_name,
    rune_value,
)
from app.core.runestone import Edict, Etching, RuneId, Terms, encode_runestone
from app.sandbox.chain import catalog
from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.consensus import dust_threshold
from app.sandbox.chain.errors import InsufficientFunds, InvalidRequest
from app.sandbox.chain.indexer import Coin, Indexer
from app.sandbox.chain.inscribe import REVEAL_FEE_RATE, reveal_transaction, sign_reveal_input
from app.sandbox.chain.rawtx import from_embit
from app.sandbox.chain.wallet import Payment, SandboxWallet, check_not_dust
from app.wallet.scripts import TaprootOutput, checksig_leaf, taproot_output

if TYPE_CHECKING:
    from app.sandbox.chain.node import Node

COMMIT_CONFIRMATIONS = 6  # ord's Runestone::COMMIT_CONFIRMATIONS
ETCHER_LABEL = "rune-etcher"
RESERVE_LABEL = "rune-reserve"
RUNE_POSTAGE = 10_000  # sats of each output the sandbox puts runes on
RUNE_SYMBOL = "¤"
# What a new rune's premine keeps in the reserve beyond the first amount asked, for later
# transfers (capped at ord's u128 supply).
RESERVE_PREMINE = 10**24
MAX_SUPPLY = (1 << 128) - 1


@dataclass(frozen=True)
class Etched:
    commit_txid: str
    reveal_txid: str


def create_runes(
    node: Node, wallet: SandboxWallet, to_script: bytes, rune: str, amount: int
) -> str:
    """`amount` of `rune` onto a new `RUNE_POSTAGE` output (vout 0) paying `to_script`: etched
    first when new (5 blocks mined, the etching left in the mempool), else sent from the
    reserve (nothing mined, unless the rune's etching still waits in the mempool: then one
    block, as ord knows a rune's id only once its etching is mined). Returns the outpoint."""
    letters, spaced = catalog.normalize_rune(rune)
    catalog.check_rune_amount(amount)
    check_not_dust(Payment(to_script, RUNE_POSTAGE))
    with node.lock:
        rune_id = etched_id(node, letters)
        if rune_id is None and etching_in_mempool(node, letters):
            node.mine(1)
            rune_id = etched_id(node, letters)
        if rune_id is not None:
            return f"{transfer_runes(node, wallet, rune_id, letters, amount, to_script)}:0"
        reserve = wallet.keys.script(RESERVE_LABEL, "p2tr")
        etching = rune_etching(
            parse_spaced_rune(spaced), premine=min(amount + RESERVE_PREMINE, MAX_SUPPLY)
        )
        etched = etch_rune(
            node,
            etching,
            [(to_script, RUNE_POSTAGE), (reserve, RUNE_POSTAGE)],
            [Edict(RuneId(0, 0), amount, 0)],
            pointer=1,
        )
        return f"{etched.reveal_txid}:0"


def rune_etching(rune: SpacedRune, premine: int, terms: Terms | None = None) -> Etching:
    """The sandbox's etchings: divisibility 0, symbol ¤, the name's spacers kept."""
    spacers = rune.spacers or None
    return Etching(rune.letters, 0, premine, spacers, RUNE_SYMBOL, terms, turbo=False)


def check_name_unlocked(letters: str, height: int) -> None:
    """Refuse a name ord would not etch in block `height` (below its minimum there)."""
    minimum = minimum_at_height(height)
    if rune_value(letters) < minimum:
        lowest = rune_name(minimum)
        raise InvalidRequest(
            f"rune {letters} cannot be etched in block {height}: ord's minimum name there is "
            f"{lowest} ({len(lowest)} letters); any name of {len(lowest) + 1} letters or more "
            "can be etched",
            "RUNE_NAME_LOCKED",
        )


def commit_output(key: PrivateKey, letters: str) -> TaprootOutput:
    """The taproot output an etching's commit pays: internal key `key`, one leaf
    `<key> OP_CHECKSIG OP_0 OP_IF <commitment> OP_ENDIF`, spendable by `key` alone."""
    xonly = key.get_public_key().xonly()
    leaf = checksig_leaf(xonly) + bytes([OP_0, OP_IF]) + push(rune_commitment(letters))
    return taproot_output(xonly, [leaf + bytes([OP_ENDIF])])


def etch_rune(
    node: Node,
    etching: Etching,
    outputs: Sequence[tuple[bytes, int]],
    edicts: Sequence[Edict] = (),
    pointer: int | None = None,
) -> Etched:
    """Commit, mine until the commit has 5 confirmations, then broadcast the reveal paying
    `outputs` and, last, the runestone (`etching`, `edicts`, `pointer`): the next block
    etches the rune. Raises InvalidRequest RUNE_NAME_LOCKED before paying anything for a
    name ord would refuse."""
    with node.lock:
        commit = commit_etching(node, etching, outputs, edicts, pointer)
        _mine_confirmations(node, commit.txid, COMMIT_CONFIRMATIONS - 1)
        return Etched(commit.txid, reveal_etching(node, commit))


@dataclass(frozen=True)
class EtchingCommit:
    """A commit paid (in the mempool) and the reveal it was sized for."""

    txid: str
    vout: int
    value: int
    tree: TaprootOutput
    reveal_outputs: tuple[tuple[bytes, int], ...]


def commit_etching(
    node: Node,
    etching: Etching,
    outputs: Sequence[tuple[bytes, int]],
    edicts: Sequence[Edict] = (),
    pointer: int | None = None,
) -> EtchingCommit:
    """Pay the commit of `etching` (its name checked first against ord's minimum for the
    reveal's block, the tip + 6 as ord's wallet counts), sized for a reveal paying `outputs`
    then the runestone."""
    letters = etching.rune
    if letters is None:
        raise InvalidRequest("the sandbox etches named runes only", "INVALID_RUNE")
    check_name_unlocked(letters, node.tip_height + COMMIT_CONFIRMATIONS)
    key = node.sandbox_private_key(ETCHER_LABEL, "p2tr")
    tree = commit_output(key, letters)
    runestone = encode_runestone(edicts, pointer=pointer, etching=etching)
    reveal_outputs = (*outputs, (runestone, 0))
    draft = reveal_transaction((), ("00" * 32, 0), reveal_outputs)
    sign_reveal_input(draft, 0, [(0, tree.script_pubkey)], key, tree.leaves[0])  # its size
    fee = math.ceil(from_embit(draft).vsize * REVEAL_FEE_RATE)
    value = max(sum(v for _, v in outputs) + fee, dust_threshold(tree.script_pubkey))
    address = address_for_script(tree.script_pubkey)
    assert address is not None
    txid, vout = node.faucet(address, value)
    return EtchingCommit(txid, vout, value, tree, reveal_outputs)


def reveal_etching(node: Node, commit: EtchingCommit) -> str:
    """Broadcast the reveal spending `commit` by its leaf; returns its txid. ord etches the
    rune only if the block taking it gives the commit 6 confirmations."""
    key = node.sandbox_private_key(ETCHER_LABEL, "p2tr")
    reveal = reveal_transaction((), (commit.txid, commit.vout), commit.reveal_outputs)
    spent = [(commit.value, commit.tree.script_pubkey)]
    sign_reveal_input(reveal, 0, spent, key, commit.tree.leaves[0])
    return node.broadcast(bytes(reveal.serialize()))


def _mine_confirmations(node: Node, txid: str, confirmations: int) -> None:
    """Mine until `txid` has `confirmations` (a full mempool may keep it out of a block)."""
    while True:
        status = node.tx_status(txid)
        assert status is not None
        if status["confirmed"]:
            missing = confirmations - (node.tip_height - int(status["block_height"]) + 1)
            if missing <= 0:
                return
            node.mine(missing)
        else:
            node.mine(1)


def transfer_runes(
    node: Node,
    wallet: SandboxWallet,
    rune_id: RuneId,
    letters: str,
    amount: int,
    to_script: bytes,
) -> str:
    """Send `amount` of an etched rune from the reserve: [recipient, reserve, runestone,
    change], the edict to output 0 and the pointer to the reserve's output 1. Returns the
    txid (in the mempool)."""
    reserve = wallet.keys.script(RESERVE_LABEL, "p2tr")
    held = node.read_index(lambda conn: _reserve_outputs(conn, reserve, letters))
    if sum(units for _, units in held) < amount:
        raise InsufficientFunds(
            f"the sandbox's reserve holds {sum(u for _, u in held)} of {letters}, "
            f"less than {amount}"
        )
    runestone = encode_runestone([Edict(rune_id, amount, 0)], pointer=1)
    payments = [Payment(to_script, RUNE_POSTAGE), Payment(reserve, RUNE_POSTAGE)]
    return _pay(node, wallet, [coin for coin, _ in held], [*payments, Payment(runestone, 0)])


def mint_runes(node: Node, wallet: SandboxWallet, rune_id: RuneId, to_script: bytes) -> str:
    """A mint of `rune_id` (etched with open terms) onto a new `RUNE_POSTAGE` output 0 paying
    `to_script`: ord gives the terms' amount to the first output. Returns the txid."""
    runestone = encode_runestone(mint=rune_id)
    return _pay(node, wallet, [], [Payment(to_script, RUNE_POSTAGE), Payment(runestone, 0)])


def _pay(
    node: Node, wallet: SandboxWallet, fixed: Sequence[Coin], outputs: Sequence[Payment]
) -> str:
    _, tx = wallet.fund(fixed, outputs)
    return node.broadcast(tx.raw)


def etched_id(node: Node, letters: str) -> RuneId | None:
    """The rune's id once a block holds its etching (ord's index), else None."""
    found = node.ord_rune(letters)
    return None if found is None else RuneId.parse(found[0])


def etching_in_mempool(node: Node, letters: str) -> bool:
    """Whether the index has `letters` etched by a reveal still in the mempool (the market's
    current state knows the rune; ord's confirmed view does not yet)."""
    return node.rune(letters) is not None and node.ord_rune(letters) is None


def _reserve_outputs(
    conn: sqlite3.Connection, reserve: bytes, letters: str
) -> list[tuple[Coin, int]]:
    """The reserve's unspent outputs holding the rune (mempool ones too), with its units."""
    rows = conn.execute(
        "SELECT b.txid, b.vout, b.amount FROM rune_balances b JOIN outputs o "
        "ON o.txid = b.txid AND o.vout = b.vout WHERE b.rune = ? AND o.script_pubkey = ? "
        "AND o.spent_txid IS NULL ORDER BY b.txid, b.vout",
        (letters, reserve),
    ).fetchall()
    indexer = Indexer(conn)
    held = []
    for txid, vout, units in rows:
        coin = indexer.coin(str(txid), int(vout))
        assert coin is not None
        held.append((coin, int(units)))
    return held
