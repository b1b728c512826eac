"""Inscribing as ord's wallet does: a commit transaction pays a taproot output whose one leaf
is `<key> OP_CHECKSIG <envelope>...`, and the reveal spends it by that leaf, so the envelope
lands in the reveal's witness, where the indexer finds it (envelope_index.py).

The key is a sandbox key ("inscriber"), also the output's internal key; the commit is paid by
the sandbox's faucet and holds exactly the reveal's outputs plus its fee, and both are accepted
through `Node.broadcast`, so the kernel checks them like any other transaction. A parent's
output (held by a sandbox key) is spent before the commit's, as ord's own batches do, so its
sats go back to the first outputs and the inscriptions land after them.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from embit.ec import PrivateKey
from embit.script import Script, Witness
from embit.transaction import SIGHASH, Transaction, TransactionInput, TransactionOutput

from app.core.inscription_envelope import Inscription, reveal_leaf_script
from app.sandbox.chain import catalog
from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.consensus import dust_threshold
from app.sandbox.chain.envelope_index import metadata_for_traits
from app.sandbox.chain.errors import Conflict, InvalidRequest, NotFound
from app.sandbox.chain.rawtx import from_embit, parse_tx
from app.sandbox.chain.wallet import Payment, check_not_dust
from app.wallet.scripts import TapLeaf, TaprootOutput, taproot_output

if TYPE_CHECKING:
    from app.sandbox.chain.node import Node

INSCRIBER_LABEL = "inscriber"
REVEAL_FEE_RATE = 2.0  # sat/vB, as the sandbox wallet pays
RBF_SEQUENCE = 0xFFFFFFFD
_SCHNORR_SIGNATURE_BYTES = 64


@dataclass(frozen=True)
class ParentInput:
    """A reveal input before the commit's, spending a sandbox-held output."""

    txid: str
    vout: int
    value: int
    script_pubkey: bytes


@dataclass(frozen=True)
class Revealed:
    commit_txid: str
    reveal_txid: str
    inscription_ids: tuple[str, ...]  # one per envelope, as ord numbers them (`<reveal>i<n>`)


def inscribe(
    node: Node,
    inscriptions: Sequence[Inscription],
    outputs: Sequence[tuple[bytes, int]],
    parent_inputs: Sequence[ParentInput] = (),
    fee_rate: float = REVEAL_FEE_RATE,
) -> Revealed:
    """Commit and reveal `inscriptions` (one envelope each, in order) with a reveal paying
    `outputs` ((scriptPubKey, value) pairs). Raises the node's errors (InvalidRequest,
    TxRejected, InsufficientFunds) with nothing of the reveal accepted."""
    if not inscriptions:
        raise InvalidRequest("at least one inscription is needed")
    if not outputs:
        raise InvalidRequest("the reveal needs at least one output")
    for script_pubkey, value in outputs:  # refused before the commit is paid, not after
        check_not_dust(Payment(script_pubkey, value))
    key = node.sandbox_private_key(INSCRIBER_LABEL, "p2tr")
    tree = commit_output(key, inscriptions)
    leaf = tree.leaves[0]
    at = len(parent_inputs)  # the commit's input
    draft = reveal_transaction(parent_inputs, ("00" * 32, 0), outputs)
    for index, parent in enumerate(parent_inputs):  # room for each parent's signature
        draft.vin[index].witness = Witness(_witness_room(parent.script_pubkey))
    _set_leaf_witness(draft, at, bytes(_SCHNORR_SIGNATURE_BYTES), leaf)
    fee = math.ceil(from_embit(draft).vsize * fee_rate)
    parents_value = sum(p.value for p in parent_inputs)
    commit_value = max(
        sum(v for _, v in outputs) + fee - parents_value, dust_threshold(tree.script_pubkey)
    )
    commit_address = address_for_script(tree.script_pubkey)
    assert commit_address is not None
    with node.lock:  # commit and reveal back to back
        commit_txid, commit_vout = node.faucet(commit_address, commit_value)
        reveal = reveal_transaction(parent_inputs, (commit_txid, commit_vout), outputs)
        spent = [(p.value, p.script_pubkey) for p in parent_inputs]
        spent.append((commit_value, tree.script_pubkey))
        sign_reveal_input(reveal, at, spent, key, leaf)
        raw = bytes(reveal.serialize())
        if parent_inputs:  # the commit's input is no sandbox key's: left as it is
            raw = node.sign_with_sandbox_keys(raw, spent)
            _check_parents_signed(raw, len(parent_inputs))
        reveal_txid = node.broadcast(raw)
    ids = tuple(f"{reveal_txid}i{n}" for n in range(len(inscriptions)))
    return Revealed(commit_txid, reveal_txid, ids)


def commit_output(key: PrivateKey, inscriptions: Sequence[Inscription]) -> TaprootOutput:
    """The taproot output a commit pays: internal key `key`, one leaf `<key> OP_CHECKSIG`
    followed by an envelope per inscription."""
    xonly = key.get_public_key().xonly()
    return taproot_output(xonly, [reveal_leaf_script(xonly, list(inscriptions))])


def sign_reveal_input(
    reveal: Transaction,
    index: int,
    spent: Sequence[tuple[int, bytes]],
    key: PrivateKey,
    leaf: TapLeaf,
) -> None:
    """Spend input `index` (the commit's output) by `leaf`: BIP-342 signature with
    SIGHASH_DEFAULT, then the leaf and its control block. `spent`: (value, scriptPubKey) of
    every input."""
    digest = reveal.sighash_taproot(
        index,
        [Script(spk) for _, spk in spent],
        [value for value, _ in spent],
        SIGHASH.DEFAULT,
        ext_flag=1,
        script=Script(leaf.script),
    )
    _set_leaf_witness(reveal, index, key.schnorr_sign(digest).serialize(), leaf)


def child_metadata(
    node: Node, parent_id: str | None, attributes: Sequence[Mapping[str, str]]
) -> bytes:
    """The metadata giving a child of `parent_id` these traits (envelope_index reads it back),
    checked against the parent's collection's traits as the catalog checks an item's."""

    def check(conn: sqlite3.Connection) -> list[catalog.Json]:
        row = None
        if parent_id is not None:
            row = conn.execute(
                "SELECT collection FROM inscriptions WHERE id = ?", (parent_id,)
            ).fetchone()
        if row is None or row[0] is None:
            raise InvalidRequest(
                "attributes need a parent inscription that is in a collection",
                "ATTRIBUTES_WITHOUT_COLLECTION",
            )
        return catalog.normalize_attributes(conn, str(row[0]), list(attributes))

    return metadata_for_traits(node.read_index(check))


def parent_input(node: Node, parent_id: str) -> ParentInput:
    """The output holding inscription `parent_id` now, to spend in a child's reveal (it must be
    on a sandbox key's output, which the reveal returns whole to the same address)."""

    def read(conn: sqlite3.Connection) -> tuple[str, int, int, bytes] | None:
        row = conn.execute(
            "SELECT o.txid, o.vout, o.value, o.script_pubkey FROM inscription_locations l "
            "JOIN outputs o ON o.txid = l.txid AND o.vout = l.vout WHERE l.id = ?",
            (parent_id,),
        ).fetchone()
        return None if row is None else (str(row[0]), int(row[1]), int(row[2]), bytes(row[3]))

    found = node.read_index(read)
    if found is None:
        raise NotFound(f"inscription {parent_id} is on no output", "INSCRIPTION_NOT_FOUND")
    return ParentInput(*found)


def reveal_transaction(
    parent_inputs: Sequence[ParentInput],
    commit: tuple[str, int],
    outputs: Sequence[tuple[bytes, int]],
) -> Transaction:
    """An unsigned reveal: the parents' inputs, then the commit's, paying `outputs`."""
    inputs = [(p.txid, p.vout) for p in parent_inputs] + [commit]
    return Transaction(
        version=2,
        vin=[TransactionInput(bytes.fromhex(t), v, sequence=RBF_SEQUENCE) for t, v in inputs],
        vout=[TransactionOutput(value, Script(spk)) for spk, value in outputs],
        locktime=0,
    )


def _set_leaf_witness(tx: Transaction, index: int, signature: bytes, leaf: TapLeaf) -> None:
    tx.vin[index].witness = Witness([signature, leaf.script, leaf.control_block])


def _check_parents_signed(raw: bytes, parents: int) -> None:
    unsigned = [i for i, inp in enumerate(parse_tx(raw).inputs[:parents]) if not inp.witness]
    if unsigned:
        raise Conflict(
            "the parent inscription is not on an output the sandbox holds a key for",
            "NOT_SANDBOX_HELD",
        )


def _witness_room(script_pubkey: bytes) -> list[bytes]:
    """A witness as large as the sandbox's signature for that output type will be."""
    if script_pubkey[:2] == b"\x51\x20":
        return [bytes(_SCHNORR_SIGNATURE_BYTES)]
    return [bytes(72), bytes(33)]  # P2WPKH: the longest DER signature with its hash type
