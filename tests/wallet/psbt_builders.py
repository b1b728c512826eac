"""Helpers (no tests here) that build real spends for the PSBT signer tests.

Each `Utxo` is an output of a given type owned by deterministic test keys; `build_psbt` makes an
unsigned PSBT spending some of them, with the PSBT fields a wallet/updater would fill in.
The prevout txids are made up: script verification does not look them up.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from embit import ec
from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_fixes import FixedInput, FixedPSBT, new_transaction
from app.wallet.psbt_signer import SignRequest, sign_psbt
from app.wallet.scripts import (
    bidding_p2wsh_1of2,
    bidding_taproot_1of2,
    checksig_leaf,
    taproot_output,
)
from tests.wallet.kernel import assert_accepted


def key_n(n: int) -> ec.PrivateKey:
    """Deterministic private key number `n` (never a real wallet's key)."""
    return ec.PrivateKey(hashlib.sha256(b"bidwallet psbt test key %d" % n).digest())


def hash160(data: bytes) -> bytes:
    return hashlib.new("ripemd160", hashlib.sha256(data).digest()).digest()


@dataclass
class Utxo:
    """An output to spend: its scriptPubKey, amount and how to fill its PSBT input fields."""

    spk: bytes
    amount: int
    fill: Callable[[FixedInput], None] = field(default=lambda inp: None)

    @property
    def txout(self) -> TransactionOutput:
        return TransactionOutput(self.amount, Script(self.spk))


def p2wpkh(key: ec.PrivateKey, amount: int = 100_000) -> Utxo:
    return Utxo(b"\x00\x14" + hash160(key.sec()), amount)


def p2sh_p2wpkh(key: ec.PrivateKey, amount: int = 100_000) -> Utxo:
    redeem = b"\x00\x14" + hash160(key.sec())

    def fill(inp: FixedInput) -> None:
        inp.redeem_script = Script(redeem)

    return Utxo(b"\xa9\x14" + hash160(redeem) + b"\x87", amount, fill)


def p2wsh_1of2(user: ec.PrivateKey, service: ec.PrivateKey, amount: int = 100_000) -> Utxo:
    wallet = bidding_p2wsh_1of2(user.sec(), service.sec())

    def fill(inp: FixedInput) -> None:
        inp.witness_script = Script(wallet.witness_script)

    return Utxo(wallet.script_pubkey, amount, fill)


def p2tr_key(key: ec.PrivateKey, amount: int = 100_000, leaves: Sequence[bytes] = ()) -> Utxo:
    """BIP-86 key-path output, or key path of an output that also has script leaves."""
    out = taproot_output(key.xonly(), leaves)

    def fill(inp: FixedInput) -> None:
        inp.taproot_internal_key = ec.PublicKey.from_xonly(key.xonly())
        inp.taproot_merkle_root = out.merkle_root

    return Utxo(out.script_pubkey, amount, fill)


def p2tr_leaves(internal_xonly: bytes, leaves: Sequence[bytes], amount: int = 100_000) -> Utxo:
    """Script-path output; every leaf goes into PSBT_IN_TAP_LEAF_SCRIPT."""
    out = taproot_output(internal_xonly, leaves)

    def fill(inp: FixedInput) -> None:
        inp.taproot_internal_key = ec.PublicKey.from_xonly(internal_xonly)
        inp.taproot_merkle_root = out.merkle_root
        for leaf in out.leaves:
            inp.taproot_scripts[leaf.control_block] = leaf.script + bytes([leaf.leaf_version])

    return Utxo(out.script_pubkey, amount, fill)


def p2tr_checksig_leaf(key: ec.PrivateKey, other: ec.PrivateKey, amount: int = 100_000) -> Utxo:
    """Two leaves (`<other> CHECKSIG`, `<key> CHECKSIG`) under a NUMS-like internal key."""
    leaves = [checksig_leaf(other.xonly()), checksig_leaf(key.xonly())]
    return p2tr_leaves(key_n(99).xonly(), leaves, amount)


def p2tr_bidding(user: ec.PrivateKey, service: ec.PrivateKey, amount: int = 100_000) -> Utxo:
    """The bidding wallet: NUMS internal key, one sorted 1-of-2 multi_a leaf."""
    out = bidding_taproot_1of2(user.xonly(), service.xonly())
    return p2tr_leaves(out.internal_key, [out.leaves[0].script], amount)


def build_psbt(
    utxos: Sequence[Utxo],
    outputs: Sequence[tuple[bytes, int]],
    *,
    version: int = 2,
    locktime: int = 0,
    sequences: Sequence[int] | None = None,
) -> FixedPSBT:
    vin = [
        TransactionInput(
            hashlib.sha256(b"prevout %d" % i).digest(),
            i % 3,
            sequence=0xFFFFFFFD if sequences is None else sequences[i],
        )
        for i in range(len(utxos))
    ]
    vout = [TransactionOutput(amount, Script(spk)) for spk, amount in outputs]
    psbt = FixedPSBT(new_transaction(version, locktime, vin, vout))
    for inp, utxo in zip(psbt.inputs, utxos, strict=True):
        inp.witness_utxo = utxo.txout
        utxo.fill(inp)
    return psbt


def pay_to(n: int, amount: int) -> tuple[bytes, int]:
    """An output paying `amount` to a P2WPKH of test key `n`."""
    return (b"\x00\x14" + hash160(key_n(n).sec()), amount)


def spent(utxos: Sequence[Utxo]) -> list[tuple[bytes, int]]:
    return [(u.spk, u.amount) for u in utxos]


def sign_all_and_extract(
    psbt: FixedPSBT, signers: Sequence[tuple[ec.PrivateKey, Sequence[SignRequest]]]
) -> bytes:
    for key, requests in signers:
        sign_psbt(psbt, key, requests)
    finalize_psbt(psbt)
    return bytes(extract_transaction(psbt).serialize())


def assert_spend_accepted(raw: bytes, utxos: Sequence[Utxo]) -> None:
    assert_accepted(raw, spent(utxos))
