"""Runestone transactions for the rune updater's tests, built with test keys and broadcast to a
`Node` (so the kernel checks every one): a commit to a rune's name (a taproot output whose one
leaf pushes `Rune::commitment`, then `<key> OP_CHECKSIG`), the reveal spending it by that leaf,
and key-path spends of rune outputs carrying a runestone. Runestones are written by ord's own
code (`app.core.runestone.encode_runestone`); malformed ones by `tests/support/runestones.py`."""

from __future__ import annotations

import secrets
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.core.inscription_envelope import OP_CHECKSIG, push
from app.core.rune_names import rune_commitment
from app.core.runestone import Edict, Etching, RuneId, Terms, encode_runestone
from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.inscribe import sign_reveal_input
from app.sandbox.chain.keys import sign_transaction
from app.sandbox.chain.node import Node
from app.sandbox.chain.spend import Utxo
from app.wallet.scripts import TaprootOutput, taproot_output
from tests.sandbox.chain.helpers import KeyPair, fund

OWNER = KeyPair.make("rune-updater-owner", "p2tr")
OP_DROP = 0x75
POSTAGE = 10_000
FEE = 3_000


def fresh_name(prefix: str) -> str:
    """A name of `prefix` and random letters, 16 letters in all: above regtest's minimum."""
    return prefix + "".join(secrets.choice(string.ascii_uppercase) for _ in range(16 - len(prefix)))


def etching(letters: str | None, premine: int | None = None, **fields: Any) -> Etching:
    values: dict[str, Any] = {
        "divisibility": None, "premine": premine, "spacers": None, "symbol": None,
        "terms": None, "turbo": False,
    }  # fmt: skip
    values.update(fields)
    return Etching(rune=letters, **values)


def terms(
    amount: int | None,
    cap: int | None,
    height: tuple[int | None, int | None] = (None, None),
    offset: tuple[int | None, int | None] = (None, None),
) -> Terms:
    return Terms(amount, cap, height, offset)


def edict(rune_id: RuneId | str, amount: int, output: int) -> Edict:
    return Edict(RuneId.parse(rune_id) if isinstance(rune_id, str) else rune_id, amount, output)


def stone(
    edicts: Sequence[Edict] = (),
    *,
    etch: Etching | None = None,
    mint: RuneId | str | None = None,
    pointer: int | None = None,
) -> bytes:
    minted = RuneId.parse(mint) if isinstance(mint, str) else mint
    return encode_runestone(edicts, pointer=pointer, etching=etch, mint=minted)


@dataclass(frozen=True)
class Commit:
    utxo: Utxo
    tree: TaprootOutput


def commit(node: Node, pushed: bytes, *, outputs: int = 2, confirmations: int = 6) -> Commit:
    """A commit whose leaf pushes `pushed` (a rune's commitment), mined so that a reveal in the
    next block has `confirmations` (ord counts the reveal's own block)."""
    key = OWNER.key
    leaf = push(pushed) + bytes([OP_DROP]) + push(key.get_public_key().xonly())
    tree = taproot_output(key.get_public_key().xonly(), [leaf + bytes([OP_CHECKSIG])])
    address = address_for_script(tree.script_pubkey)
    assert address is not None
    value = outputs * POSTAGE + FEE
    txid, vout = node.faucet(address, value)
    node.mine(confirmations - 1)
    return Commit(Utxo(txid, vout, value, tree.script_pubkey), tree)


def commit_to(node: Node, letters: str, **kwargs: Any) -> Commit:
    return commit(node, rune_commitment(letters), **kwargs)


def reveal(
    node: Node, made: Commit, runestone: bytes, outputs: int = 2, extra: Sequence[Utxo] = ()
) -> str:
    """Spend the commit by its leaf (and `extra` outputs of OWNER by key path) to the runestone
    first, then `outputs` outputs of OWNER; returns the txid (in the mempool)."""
    spent = [made.utxo, *extra]
    pay = [(runestone, 0)] + [(OWNER.script_pubkey, POSTAGE)] * outputs
    pay[1] = (OWNER.script_pubkey, POSTAGE + sum(u.value for u in extra))
    tx = _tx(spent, pay)
    values = [(u.value, u.script_pubkey) for u in spent]
    if extra:
        sign_transaction(tx, values, {OWNER.script_pubkey: OWNER.key}.get)
    sign_reveal_input(tx, 0, values, OWNER.key, made.tree.leaves[0])
    return node.broadcast(bytes(tx.serialize()))


def etch(node: Node, runestone: bytes, letters: str | None, outputs: int = 2) -> str:
    """Commit (when named) and reveal an etching, mined; returns the reveal's txid."""
    made = commit(node, b"" if letters is None else rune_commitment(letters), outputs=outputs)
    txid = reveal(node, made, runestone, outputs)
    node.mine(1)
    return txid


def spend(
    node: Node,
    coins: Sequence[Utxo],
    runestone: bytes | None,
    outputs: int = 2,
    *,
    fee: int = FEE,
    payer: Utxo | None = None,
) -> str:
    """OWNER's outputs `coins` (plus `payer`, by default a fresh coin in the mempool) to the
    runestone (if any) and `outputs` outputs of OWNER, paying `fee`; returns the txid (in the
    mempool)."""
    if payer is None:
        payer = fund(node, OWNER, POSTAGE * outputs + fee, confirm=False)
    spent = [*coins, payer]
    pay = [] if runestone is None else [(runestone, 0)]
    total = sum(c.value for c in spent) - fee
    pay += [(OWNER.script_pubkey, POSTAGE)] * (outputs - 1)
    pay += [(OWNER.script_pubkey, total - POSTAGE * (outputs - 1))]
    tx = _tx(spent, pay)
    sign_transaction(
        tx, [(u.value, u.script_pubkey) for u in spent], {OWNER.script_pubkey: OWNER.key}.get
    )
    return node.broadcast(bytes(tx.serialize()))


def coin(node: Node, txid: str, vout: int) -> Utxo:
    out = node.ord_output(f"{txid}:{vout}")
    assert out is not None
    return Utxo(txid, vout, int(out["value"]), OWNER.script_pubkey)


def runes_on(node: Node, txid: str, vout: int) -> dict[str, int]:
    """What the confirmed chain puts on an output, as `/ord/output` shows it."""
    out = node.ord_served("output", f"{txid}:{vout}")
    assert out is not None
    return {name: pile["amount"] for name, pile in out["runes"].items()}


def _tx(spent: Sequence[Utxo], pay: Sequence[tuple[bytes, int]]) -> Transaction:
    return Transaction(
        version=2,
        vin=[TransactionInput(bytes.fromhex(u.txid), u.vout, sequence=0xFFFFFFFD) for u in spent],
        vout=[TransactionOutput(value, Script(spk)) for spk, value in pay],
        locktime=0,
    )
