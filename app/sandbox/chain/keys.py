"""Keys the sandbox holds: the miner/faucet wallet and the demo "other collectors".

Each key is derived from one random seed (kept in SQLite, never logged) and a (label, kind)
pair, so `sandbox_address("collector-1")` is stable across restarts. Signing covers the
sandbox's own spends: P2WPKH with SIGHASH_ALL (BIP-143) and P2TR key path with
SIGHASH_DEFAULT (embit's BIP-341 sighash is correct for DEFAULT/ALL).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from embit.ec import PrivateKey
from embit.script import Script, Witness, p2pkh, p2tr, p2wpkh
from embit.transaction import SIGHASH, Transaction

from app.sandbox.chain.addresses import address_for_script
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.store import Store
from app.sandbox.chain.textcheck import is_utf8_encodable

KeyKind = Literal["p2tr", "p2wpkh"]
KEY_KINDS: tuple[KeyKind, ...] = ("p2tr", "p2wpkh")
MAX_LABEL_LENGTH = 64
_SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


class SandboxKeys:
    def __init__(self, store: Store) -> None:
        self._store = store
        seed_hex = store.get_meta("sandbox_seed")
        if seed_hex is None:
            seed_hex = secrets.token_bytes(32).hex()
            with store.transaction():
                store.set_meta("sandbox_seed", seed_hex)
        self._seed = bytes.fromhex(seed_hex)
        self._by_script: dict[bytes, PrivateKey] = {}
        self._scripts: dict[tuple[str, str], bytes] = {}

    def __repr__(self) -> str:
        return f"<SandboxKeys keys={len(self._scripts)}>"  # never the seed

    def _derive(self, label: str, kind: str) -> PrivateKey:
        counter = 0
        while True:
            material = b"bidwallet-sandbox-key\x00" + self._seed + kind.encode() + b"\x00"
            digest = hashlib.sha256(material + label.encode() + bytes([counter])).digest()
            if 0 < int.from_bytes(digest, "big") < _SECP256K1_N:
                return PrivateKey(digest)
            counter += 1

    def script(self, label: str, kind: str = "p2tr") -> bytes:
        """scriptPubKey of the (label, kind) key, registered so the sandbox can sign for it."""
        if kind not in KEY_KINDS:
            raise InvalidRequest(
                f"key kind must be one of {KEY_KINDS}, not {kind!r}", "INVALID_KIND"
            )
        if (
            not isinstance(label, str)
            or not 0 < len(label) <= MAX_LABEL_LENGTH
            or not is_utf8_encodable(label)
        ):
            raise InvalidRequest("label must be 1-64 UTF-8 characters", "INVALID_LABEL")
        cached = self._scripts.get((label, kind))
        if cached is not None:
            return cached
        key = self._derive(label, kind)
        spk = script_for_key(key, kind)
        self._store.conn.execute(
            "INSERT OR IGNORE INTO sandbox_keys (label, kind, script_pubkey) VALUES (?, ?, ?)",
            (label, kind, spk),
        )
        self._scripts[(label, kind)] = spk
        self._by_script[spk] = key
        return spk

    def address(self, label: str, kind: str = "p2tr") -> str:
        address = address_for_script(self.script(label, kind))
        assert address is not None
        return address

    def private_key(self, label: str, kind: str = "p2tr") -> PrivateKey:
        """The (label, kind) key itself, registered like `script` registers it."""
        return self._by_script[self.script(label, kind)]

    def key_for_script(self, script_pubkey: bytes) -> PrivateKey | None:
        key = self._by_script.get(script_pubkey)
        if key is not None:
            return key
        row = self._store.conn.execute(
            "SELECT label, kind FROM sandbox_keys WHERE script_pubkey = ?", (script_pubkey,)
        ).fetchone()
        if row is None:
            return None
        self.script(row[0], row[1])
        return self._by_script.get(script_pubkey)

    def holds(self, script_pubkey: bytes) -> bool:
        return self.key_for_script(script_pubkey) is not None

    def sign(
        self,
        tx: Transaction,
        spent: Sequence[tuple[int, bytes]],
        only: Iterable[int] | None = None,
    ) -> list[int]:
        """Sign the inputs of `tx` whose spent scriptPubKey is a sandbox key; `spent` holds
        (value, scriptPubKey) per input. Returns the signed input indexes."""
        return sign_transaction(tx, spent, self.key_for_script, only)


def sign_transaction(
    tx: Transaction,
    spent: Sequence[tuple[int, bytes]],
    key_for_script: Callable[[bytes], PrivateKey | None],
    only: Iterable[int] | None = None,
) -> list[int]:
    """Sign P2WPKH (SIGHASH_ALL) and P2TR key-path (SIGHASH_DEFAULT, BIP-86 tweak) inputs
    whose key `key_for_script` knows; returns the signed input indexes."""
    if len(spent) != len(tx.vin):
        raise ValueError("spent outputs must be given for every input")
    tx.clear_cache()  # embit caches sighash parts; the tx may have changed since
    wanted = set(range(len(tx.vin)) if only is None else only)
    scripts = [Script(spk) for _, spk in spent]
    values = [value for value, _ in spent]
    signed = []
    for index in sorted(wanted):
        value, spk = spent[index]
        key = key_for_script(spk)
        if key is None:
            continue
        if spk[:2] == b"\x51\x20":
            digest = tx.sighash_taproot(index, scripts, values, SIGHASH.DEFAULT)
            sig = key.taproot_tweak(b"").schnorr_sign(digest).serialize()
            tx.vin[index].witness = Witness([sig])
        elif spk[:2] == b"\x00\x14":
            pub = key.get_public_key()
            digest = tx.sighash_segwit(index, p2pkh(pub), value, SIGHASH.ALL)
            der = key.sign(digest).serialize() + bytes([SIGHASH.ALL])
            tx.vin[index].witness = Witness([der, pub.sec()])
        else:
            continue
        signed.append(index)
    return signed


def script_for_key(key: PrivateKey, kind: str) -> bytes:
    pub = key.get_public_key()
    return bytes((p2tr(pub) if kind == "p2tr" else p2wpkh(pub)).data)
