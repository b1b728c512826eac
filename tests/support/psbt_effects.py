"""What our signatures on a transaction do to the user, computed from the ground truth.

    effect = effect_of(signed.tx, claimed_utxos(signed), [(1, 0x01), (2, 0x01)], world, owners, tip)
    differences = compare(honest_effect, effect, allowance)   # tests.support.psbt_eff_compare

Nothing here reads the PSBT's claims about the coins it spends, nor the facts a service served:
amounts, scripts and contents come from the world (tests.support.psbt_mut_world: every coin
the honest scenario spends, the spare coins, and the truth a mutation decided), owners from
the parties' real scripts. The PSBT's claimed UTXOs are used only to tell whether our
signature can be valid at all: a signature commits to the amounts and scripts it was made
with (BIP-143: its own input's; BIP-341 without ANYONECANPAY: every input's), so a claim that
differs from the truth makes it useless on the chain ("void": nothing can happen).

With only ALL/DEFAULT signatures the transaction is fixed and its effect exact (ord's FIFO sat
flow, app.core.sat_flow.route, places each inscription; runes go where ord's allocation puts
them, tests.support.psbt_eff_runes: a runestone's edicts and pointer, else the first output
that is not OP_RETURN). With an ANYONECANPAY signature others add inputs in any order: our
signed coins leave us, the outputs are fixed, an inscription on our coin goes wherever the
buyer arranges ("open"); runes do not depend on the inputs' order, so ours land where the
outputs send them (a buyer adding runes of the same id is not modelled).
Outputs are labelled by owner (`owners`), or by `labels` where one owner has several (the
service's escrow and its fee output).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import ceil

from embit.transaction import Transaction, TransactionOutput

from app.core.psbt_review_context import Role, RuneAmount
from app.core.sat_flow import route
from app.wallet.psbt_fixes import FixedInput
from app.wallet.scripts import NUMS_H, script_pushes
from tests.support.psbt_eff_model import (
    FEE,
    NOT_WHOLE,
    OPEN,
    OURS,
    Earliest,
    Effect,
    commitment,
    outpoint_of,
)
from tests.support.psbt_eff_runes import rune_landings
from tests.support.psbt_mut_world import TrueCoin

SEQUENCE_FINAL = 0xFFFFFFFF
LOCKTIME_THRESHOLD = 500_000_000  # BIP-65: below, a block height; from it on, a Unix time
ACP = 0x80


def _witness_bytes(coin: TrueCoin | None) -> int:
    """The smallest witness that spends `coin` by its true script (BIP-141 bytes): P2WPKH a
    70-byte DER signature + hash type and a key; taproot a 64-byte signature by key path, or,
    when the internal key is the unspendable NUMS point (the bidding wallet), by the leaf its
    owner's wallet describes: one signature, an empty item per other key, script, control
    block. Any other script: an empty witness, the cheapest it could be."""
    if coin is None:
        return 0
    spk = coin.script_pubkey
    if spk[:2] == b"\x00\x14" and len(spk) == 22:
        return 1 + (1 + 71) + (1 + 33)
    if spk[:2] != b"\x51\x20" or len(spk) != 34:
        return 1
    described = FixedInput()
    coin.fill(described)
    internal = described.taproot_internal_key
    if internal is None or internal.xonly() != NUMS_H or not described.taproot_scripts:
        return 1 + 1 + 64
    cb, leaf = next(iter(described.taproot_scripts.items()))
    script = bytes(leaf[:-1])
    keys = max(1, sum(len(push) == 32 for push in script_pushes(script)))  # an item per key
    return 1 + (1 + 64) + (keys - 1) + (1 + len(script)) + (1 + len(cb))


def true_vsize(tx: Transaction, world: Mapping[str, TrueCoin]) -> int:
    """The smallest vsize the signed transaction can have (BIP-141), from the true coins:
    an independent estimate, not app.core.psbt_size's."""
    base = len(tx.serialize())  # the PSBT's unsigned transaction: no witness yet
    witness = 2 + sum(_witness_bytes(world.get(outpoint_of(tx, i))) for i in range(len(tx.vin)))
    return ceil((4 * base + witness) / 4)


def _label(role: Role | None) -> str:
    return role.value if role is not None else Role.STRANGER.value


def _output_role(spk: bytes, owners: Mapping[bytes, Role]) -> Role:
    if spk[:1] == b"\x6a":
        return Role.OP_RETURN
    return owners.get(spk, Role.STRANGER)


def _output_label(
    tx: Transaction, vout: int, owners: Mapping[bytes, Role], labels: Mapping[bytes, str]
) -> str:
    spk = bytes(tx.vout[vout].script_pubkey.data)
    return labels.get(spk) or _label(_output_role(spk, owners))


def _runes_land(
    tx: Transaction,
    coins: Sequence[TrueCoin],
    owners: Mapping[bytes, Role],
    labels: Mapping[bytes, str],
) -> dict[str, str]:
    """Rune name -> where ord puts the runes of `coins` (the inputs whose runes count)."""
    held = [RuneAmount(r.rune, r.amount) for c in coins for r in c.contents.runes]
    return rune_landings(tx, held, lambda vout: _output_label(tx, vout, owners, labels))


def item_keys(coin: TrueCoin) -> list[tuple[str, int | None]]:
    """(name, offset) of each inscription (offset) and rune balance (None) on `coin`."""
    return [(name, offset) for name, offset, _ in _keys(coin)]


def _keys(coin: TrueCoin) -> list[tuple[str, int | None, str]]:
    """item_keys with, third, the rune's name (an inscription's: its id)."""
    found: list[tuple[str, int | None, str]] = [
        (f"inscription {i.inscription_id}", i.offset, i.inscription_id)
        for i in coin.contents.inscriptions
    ]
    found += [
        (f"{r.amount:,} {r.rune} on {coin.outpoint}", None, r.rune) for r in coin.contents.runes
    ]
    return found


def _earliest(tx: Transaction, inputs: Sequence[int], enforce_locktime: bool) -> Earliest:
    height = median = blocks = seconds = 0
    if enforce_locktime and tx.locktime:
        if tx.locktime < LOCKTIME_THRESHOLD:
            height = tx.locktime + 1  # final in a block whose height exceeds it
        else:
            median = tx.locktime + 1  # final once the median time past exceeds it
    if tx.version >= 2:  # BIP-68
        for i in inputs:
            seq = tx.vin[i].sequence
            if seq & (1 << 31) or not seq & 0xFFFF:
                continue
            if seq & (1 << 22):
                seconds = max(seconds, (seq & 0xFFFF) * 512)
            else:
                blocks = max(blocks, seq & 0xFFFF)
    return Earliest(height, median, blocks, seconds)


def claims_hold(
    tx: Transaction,
    claimed: Sequence[TransactionOutput | None],
    world: Mapping[str, TrueCoin],
    index: int,
    sighash: int,
) -> str | None:
    """Why our signature on input `index` cannot be valid for the true coins (None: it can)."""
    coin = world.get(outpoint_of(tx, index))
    if coin is None:
        return f"input {index} spends a coin that does not exist"
    taproot = coin.script_pubkey[:2] == b"\x51\x20"
    committed = range(len(tx.vin)) if taproot and not sighash & ACP else [index]
    for j in committed:
        truth = world.get(outpoint_of(tx, j))
        claim = claimed[j] if j < len(claimed) else None
        if truth is None or claim is None:
            return f"our signature on input {index} commits to input {j}'s unknown UTXO"
        if claim.value != truth.value or bytes(claim.script_pubkey.data) != truth.script_pubkey:
            return (
                f"our signature on input {index} commits to input {j} holding "
                f"{claim.value:,} sats to its script, but it holds {truth.value:,} to its own"
            )
    return None


def effect_of(
    tx: Transaction,
    claimed: Sequence[TransactionOutput | None],
    signatures: Sequence[tuple[int, int]],
    world: Mapping[str, TrueCoin],
    owners: Mapping[bytes, Role],
    labels: Mapping[bytes, str] | None = None,
) -> Effect:
    """The effect of our `signatures` ((input index, sighash) pairs) on `tx`. A signature
    that cannot be valid for the true coins counts for nothing; a fixed transaction missing a
    signature only we can make cannot happen. `labels` names outputs whose owner has several
    (scriptPubKey -> label)."""
    outpoints = [outpoint_of(tx, i) for i in range(len(tx.vin))]
    reasons = [claims_hold(tx, claimed, world, i, h) for i, h in signatures]
    valid = [s for s, why in zip(signatures, reasons, strict=True) if why is None]
    sigs = tuple((outpoints[i], h) for i, h in valid)
    blank = tuple(f"input {i} with 0x{h:02x}" for i, h in valid if h & 0x7F not in (0, 1))
    if not valid:
        return Effect(void=next((r for r in reasons if r), "no signature of ours"), blank=blank)
    received: dict[Role, int] = {}
    for out in tx.vout:
        role = _output_role(bytes(out.script_pubkey.data), owners)
        if role in OURS:
            received[role] = received.get(role, 0) + int(out.value)
    signed = [i for i, _ in valid]
    if any(h & ACP for _, h in valid):
        return _open_effect(tx, signed, world, owners, labels or {}, received, sigs, blank)
    return _fixed_effect(tx, signed, world, owners, labels or {}, received, sigs, blank)


def _owner(coin: TrueCoin, owners: Mapping[bytes, Role]) -> Role:
    return owners.get(coin.script_pubkey, Role.STRANGER)


def _untouched_items(
    world: Mapping[str, TrueCoin], spent: set[str], owners: Mapping[bytes, Role]
) -> dict[str, str]:
    """Items on our coins the transaction does not spend: they stay where they are."""
    items = {}
    for outpoint, coin in world.items():
        role = _owner(coin, owners)
        if outpoint not in spent and role in OURS:
            items.update({name: role.value for name, _ in item_keys(coin)})
    return items


def _open_effect(
    tx: Transaction,
    signed: Sequence[int],
    world: Mapping[str, TrueCoin],
    owners: Mapping[bytes, Role],
    labels: Mapping[bytes, str],
    received: dict[Role, int],
    sigs: tuple[tuple[str, int], ...],
    blank: tuple[str, ...],
) -> Effect:
    """Others add inputs, in any order: only our signed coins and the outputs are fixed."""
    coins = [world[outpoint_of(tx, i)] for i in signed]
    sent: dict[Role, int] = {}
    items = _untouched_items(world, {c.outpoint for c in coins}, owners)
    runes_to = _runes_land(tx, coins, owners, labels)
    moved = set()
    with_item = {}
    for i, coin in zip(signed, coins, strict=True):
        vout = _item_output(tx, i, world)
        to = NOT_WHOLE if vout is None else _output_label(tx, vout, owners, labels)
        with_item.update({name: to for name, at in item_keys(coin) if at is None})
    for coin in coins:
        role = _owner(coin, owners)
        sent[role] = sent.get(role, 0) + coin.value
        items.update(
            {name: OPEN if at is not None else runes_to[rune] for name, at, rune in _keys(coin)}
        )
        moved |= {name for name, _ in item_keys(coin)}
    # Our own nSequence values are committed: they enforce nLockTime whatever others add.
    enforce = any(tx.vin[i].sequence != SEQUENCE_FINAL for i in signed)
    commit = commitment(tx)
    return Effect(
        open=True,
        sent=sent,
        received=received,
        items=items,
        earliest=_earliest(tx, signed, enforce),
        signatures=sigs,
        commitments=tuple((o, commit) for o, h in sigs if h & ACP),
        blank=blank,
        moved=frozenset(moved),
        with_item=with_item,
    )


def _item_output(tx: Transaction, index: int, world: Mapping[str, TrueCoin]) -> int | None:
    """The output receiving most of input `index`'s sats, inputs ordered as in `tx` (ord's
    first in, first out): where a sale sends the item. None: no output receives more than
    any other and than the fee, or an earlier input is unknown."""
    start = 0
    for j in range(index):
        coin = world.get(outpoint_of(tx, j))
        if coin is None:
            return None
        start += coin.value
    end = start + world[outpoint_of(tx, index)].value
    shares, low = [], 0
    for out in tx.vout:
        high = low + int(out.value)
        shares.append(max(0, min(end, high) - max(start, low)))
        low = high
    fee = (end - start) - sum(shares)
    best = max(range(len(shares)), key=lambda v: shares[v], default=None)
    if best is None or shares.count(shares[best]) > 1 or shares[best] <= fee:
        return None
    return best


def _fixed_effect(
    tx: Transaction,
    signed: Sequence[int],
    world: Mapping[str, TrueCoin],
    owners: Mapping[bytes, Role],
    labels: Mapping[bytes, str],
    received: dict[Role, int],
    sigs: tuple[tuple[str, int], ...],
    blank: tuple[str, ...],
) -> Effect:
    """Every input and output is committed: the transaction is exactly this one, or none."""
    outpoints = [outpoint_of(tx, i) for i in range(len(tx.vin))]
    coins = [world.get(o) for o in outpoints]
    missing = [i for i, c in enumerate(coins) if c is None]
    if missing:
        why = f"input {missing[0]} spends a coin that does not exist"
        return Effect(void=why, signatures=sigs, blank=blank)
    true_coins = [c for c in coins if c is not None]
    if len(set(outpoints)) != len(outpoints):
        return Effect(void="an outpoint is spent twice", signatures=sigs, blank=blank)
    values = [c.value for c in true_coins]
    outputs = [int(o.value) for o in tx.vout]
    if sum(outputs) > sum(values):
        return Effect(void="the outputs exceed the true inputs", signatures=sigs, blank=blank)
    sent: dict[Role, int] = {}
    for i, coin in enumerate(true_coins):
        role = _owner(coin, owners)
        if role in (Role.PAYMENT, Role.ORDINALS) and i not in signed:
            why = f"input {i} needs a valid signature of ours, which we did not make"
            return Effect(void=why, signatures=sigs, blank=blank)
        if role in OURS:
            sent[role] = sent.get(role, 0) + coin.value
    items = _untouched_items(world, set(outpoints), owners)
    runes_to = _runes_land(tx, true_coins, owners, labels)
    moved = set()
    for i, coin in enumerate(true_coins):
        for name, offset, rune in _keys(coin):
            moved.add(name)
            if offset is None:
                items[name] = runes_to[rune]
                continue
            [dest] = route(values, outputs, [(i, min(offset, coin.value - 1))])
            vout = dest.vout
            items[name] = FEE if vout is None else _output_label(tx, vout, owners, labels)
    enforce = any(vin.sequence != SEQUENCE_FINAL for vin in tx.vin)
    return Effect(
        vsize=true_vsize(tx, world),
        sent=sent,
        received=received,
        fee=sum(values) - sum(outputs),
        items=items,
        earliest=_earliest(tx, range(len(tx.vin)), enforce),
        signatures=sigs,
        blank=blank,
        moved=frozenset(moved),
    )
