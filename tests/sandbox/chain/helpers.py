"""Keys and funding helpers for chain tests (test-only keys derived from a label)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from embit.ec import PrivateKey

from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.keys import script_for_key
from app.sandbox.chain.node import Node
from app.sandbox.chain.spend import Utxo, build_spend


@dataclass(frozen=True)
class KeyPair:
    key: PrivateKey
    kind: str
    script_pubkey: bytes
    address: str

    @classmethod
    def make(cls, label: str, kind: str = "p2wpkh") -> KeyPair:
        key = PrivateKey(hashlib.sha256(b"chain-test:" + label.encode()).digest())
        spk = script_for_key(key, kind)
        address = address_for_script(spk)
        assert address is not None
        return cls(key, kind, spk, address)

    def __repr__(self) -> str:
        return f"KeyPair({self.kind}, {self.address})"

    def spend(self, utxos: list[Utxo], outputs: list[tuple[bytes, int]], **kwargs: int) -> bytes:
        return build_spend(utxos, outputs, {self.script_pubkey: self.key}, **kwargs)


def fund(node: Node, key: KeyPair, sats: int, *, confirm: bool = True) -> Utxo:
    txid, vout = node.faucet(key.address, sats)
    if confirm:
        node.mine(1)
    return Utxo(txid, vout, sats, key.script_pubkey)


def kernel_tip(node: Node) -> tuple[int, str]:
    return node._kernel.tip()


def stored_heights(node: Node) -> list[int]:
    return [r[0] for r in node._store.conn.execute("SELECT height FROM blocks ORDER BY height")]
