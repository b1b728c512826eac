"""A tiny transaction builder for sandbox tests: regtest P2WPKH and P2TR (BIP-86 key path)
keys, and signed spends of their coins.

Built on embit with its pitfalls avoided (notes/bitcoin-signing.md): `vin`/`vout` are always
passed explicitly (embit's defaults are shared lists), inputs are signed with
`Transaction.sighash_segwit` / `sighash_taproot` directly (never embit's PSBT, which mangles
nSequence 0), and taproot uses SIGHASH_DEFAULT only (embit's taproot sighash is wrong for
SINGLE and ANYONECANPAY).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from embit.ec import PrivateKey
from embit.networks import NETWORKS
from embit.script import Script, Witness, address_to_scriptpubkey, p2pkh, p2tr, p2wpkh
from embit.transaction import SIGHASH, Transaction, TransactionInput, TransactionOutput

REGTEST = NETWORKS["regtest"]
RBF_SEQUENCE = 0xFFFFFFFD


def _test_secret(kind: str, label: str) -> PrivateKey:
    secret = hashlib.sha256(f"bidwallet-test-key:{kind}:{label}".encode()).digest()
    return PrivateKey(secret, network=REGTEST)


@dataclass(frozen=True, repr=False)
class P2wpkhKey:
    """A regtest P2WPKH key and its address; a test-only key derived from a label."""

    private_key: PrivateKey
    address: str
    script_pubkey: Script

    @classmethod
    def from_label(cls, label: str) -> P2wpkhKey:
        key = _test_secret("p2wpkh", label)
        spk = p2wpkh(key.get_public_key())
        return cls(private_key=key, address=spk.address(REGTEST), script_pubkey=spk)

    def witness(self, tx: Transaction, index: int, spent: Sequence[tuple[Script, int]]) -> Witness:
        public = self.private_key.get_public_key()
        digest = tx.sighash_segwit(index, p2pkh(public), spent[index][1], SIGHASH.ALL)
        signature = self.private_key.sign(digest).serialize() + bytes([SIGHASH.ALL])
        return Witness([signature, public.sec()])

    def __repr__(self) -> str:  # the private key stays out of test output
        return f"P2wpkhKey(address={self.address!r})"


@dataclass(frozen=True, repr=False)
class P2trKey:
    """A regtest BIP-86 P2TR key (key path, no script tree); test-only, derived from a label."""

    private_key: PrivateKey
    address: str
    script_pubkey: Script

    @classmethod
    def from_label(cls, label: str) -> P2trKey:
        key = _test_secret("p2tr", label)
        spk = p2tr(key.get_public_key())
        return cls(private_key=key, address=spk.address(REGTEST), script_pubkey=spk)

    def witness(self, tx: Transaction, index: int, spent: Sequence[tuple[Script, int]]) -> Witness:
        digest = tx.sighash_taproot(
            index, [spk for spk, _ in spent], [value for _, value in spent], SIGHASH.DEFAULT
        )
        signature = self.private_key.taproot_tweak(b"").schnorr_sign(digest)
        return Witness([signature.serialize()])

    def __repr__(self) -> str:
        return f"P2trKey(address={self.address!r})"


Key = P2wpkhKey | P2trKey


@dataclass(frozen=True)
class Coin:
    """An output this test controls: where it is, how much it holds, which key spends it."""

    txid: str
    vout: int
    value: int
    key: Key

    @property
    def outpoint(self) -> str:
        return f"{self.txid}:{self.vout}"


@dataclass(frozen=True)
class SignedTx:
    raw: bytes
    txid: str
    vsize: int

    @property
    def hex(self) -> str:
        return self.raw.hex()


def spend(coins: Sequence[Coin], outputs: Sequence[tuple[str, int]]) -> SignedTx:
    """Spend `coins` to `outputs` [(address, sats)], every input signed by its coin's key
    (SIGHASH_ALL for P2WPKH, SIGHASH_DEFAULT for P2TR). The fee is what the inputs leave over."""
    vin = [TransactionInput(bytes.fromhex(c.txid), c.vout, sequence=RBF_SEQUENCE) for c in coins]
    vout = [TransactionOutput(sats, address_to_scriptpubkey(addr)) for addr, sats in outputs]
    tx = Transaction(version=2, vin=vin, vout=vout, locktime=0)
    spent = [(coin.key.script_pubkey, coin.value) for coin in coins]
    witnesses = [coin.key.witness(tx, index, spent) for index, coin in enumerate(coins)]
    for txin, witness in zip(tx.vin, witnesses, strict=True):
        txin.witness = witness
    raw = tx.serialize()
    weight = len(_without_witness(tx)) * 3 + len(raw)
    return SignedTx(raw=raw, txid=tx.txid().hex(), vsize=(weight + 3) // 4)


def split(coin: Coin, to: Key, change: Key, amount: int, fee: int) -> SignedTx:
    """The common 1-in-2-out spend: `amount` to `to`, the rest minus `fee` back to `change`."""
    return spend([coin], [(to.address, amount), (change.address, coin.value - amount - fee)])


def _without_witness(tx: Transaction) -> bytes:
    bare_inputs = [
        TransactionInput(i.txid, i.vout, script_sig=i.script_sig, sequence=i.sequence)
        for i in tx.vin
    ]
    bare = Transaction(
        version=tx.version, vin=bare_inputs, vout=list(tx.vout), locktime=tx.locktime
    )
    return bytes(bare.serialize())
