"""Script helpers for the bidding wallet's 1-of-2 multisig outputs (taproot and P2WSH).

Taproot: a NUMS internal key (BIP-341's H point, so there is no key path) and one leaf
`<k1> OP_CHECKSIG <k2> OP_CHECKSIGADD OP_1 OP_NUMEQUAL` with x-only keys sorted ascending
(the shape of miniscript's `multi_a(1,k1,k2)` / descriptor `sortedmulti_a`).
P2WSH: `OP_1 <k1> <k2> OP_2 OP_CHECKMULTISIG` with compressed keys sorted ascending (BIP-67).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from embit.networks import NETWORKS
from embit.script import Script
from embit.util import secp256k1

NUMS_H = bytes.fromhex("50929b74c1a04954b78b4b6035e97a5e078a5a0f28ec96d547bfee9ace803ac0")
TAPSCRIPT_LEAF_VERSION = 0xC0

OP_0 = 0x00
OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4 = 0x4C, 0x4D, 0x4E
OP_1 = 0x51
OP_16 = 0x60
OP_NUMEQUAL = 0x9C
OP_CHECKSIG = 0xAC
OP_CHECKMULTISIG = 0xAE
OP_CHECKSIGADD = 0xBA

_NETWORK_ALIASES = {"mainnet": "main", "bitcoin": "main", "testnet": "test"}


class ScriptError(ValueError):
    """A script or key does not have the expected form."""


def _tagged_hash(tag: str, data: bytes) -> bytes:
    t = hashlib.sha256(tag.encode()).digest()
    return hashlib.sha256(t + t + data).digest()


def _compact_size(n: int) -> bytes:
    if n < 0xFD:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfd" + n.to_bytes(2, "little")
    return b"\xfe" + n.to_bytes(4, "little")


def tapleaf_hash(script: bytes, leaf_version: int = TAPSCRIPT_LEAF_VERSION) -> bytes:
    """BIP-341 TapLeaf hash of a leaf script."""
    return _tagged_hash("TapLeaf", bytes([leaf_version]) + _compact_size(len(script)) + script)


def tapbranch_hash(a: bytes, b: bytes) -> bytes:
    """BIP-341 TapBranch hash: children sorted lexicographically."""
    return _tagged_hash("TapBranch", min(a, b) + max(a, b))


def tweak_xonly(internal_key: bytes, merkle_root: bytes | None) -> tuple[bytes, int]:
    """Output key (x-only) and its y parity for `internal_key` tweaked with `merkle_root`."""
    if len(internal_key) != 32:
        raise ScriptError("internal key must be a 32-byte x-only key")
    tweak = _tagged_hash("TapTweak", internal_key + (merkle_root or b""))
    try:
        point = secp256k1.ec_pubkey_parse(b"\x02" + internal_key)
        tweaked = secp256k1.ec_pubkey_serialize(secp256k1.ec_pubkey_add(point, tweak))
    except Exception as exc:  # libsecp raises plain errors for off-curve keys and bad tweaks
        raise ScriptError(f"cannot tweak internal key: {exc}") from exc
    return bytes(tweaked[1:33]), tweaked[0] & 1


def script_pushes(script: bytes) -> list[bytes]:
    """Data pushed by a script, in order; raises ScriptError on a truncated push."""
    out, i = [], 0
    while i < len(script):
        op, i = script[i], i + 1
        if 0x01 <= op <= 0x4B:
            size = op
        elif op in (OP_PUSHDATA1, OP_PUSHDATA2, OP_PUSHDATA4):
            width = {OP_PUSHDATA1: 1, OP_PUSHDATA2: 2, OP_PUSHDATA4: 4}[op]
            size, i = int.from_bytes(script[i : i + width], "little"), i + width
        else:
            continue
        if i + size > len(script):
            raise ScriptError("truncated push in script")
        out.append(script[i : i + size])
        i += size
    return out


def _small_int(n: int) -> int:
    if not 1 <= n <= 16:
        raise ScriptError(f"number {n} is not encodable as OP_1..OP_16")
    return OP_1 - 1 + n


def checksig_leaf(xonly_key: bytes) -> bytes:
    """Tapscript `<key> OP_CHECKSIG`."""
    if len(xonly_key) != 32:
        raise ScriptError("tapscript keys must be 32-byte x-only keys")
    return b"\x20" + xonly_key + bytes([OP_CHECKSIG])


def multi_a_leaf(threshold: int, xonly_keys: Sequence[bytes]) -> bytes:
    """Tapscript `<k1> CHECKSIG <k2> CHECKSIGADD ... <m> NUMEQUAL`, keys sorted ascending."""
    keys = sorted(xonly_keys)
    if len(keys) < 2 or len(set(keys)) != len(keys) or any(len(k) != 32 for k in keys):
        raise ScriptError("multi_a needs at least two distinct 32-byte x-only keys")
    if not 1 <= threshold <= len(keys):
        raise ScriptError(f"threshold {threshold} outside 1..{len(keys)}")
    body = b"\x20" + keys[0] + bytes([OP_CHECKSIG])
    body += b"".join(b"\x20" + k + bytes([OP_CHECKSIGADD]) for k in keys[1:])
    return body + bytes([_small_int(threshold), OP_NUMEQUAL])


def parse_checksig_leaf(script: bytes) -> bytes | None:
    """The key of a `<key> OP_CHECKSIG` leaf, or None for any other script."""
    if len(script) == 34 and script[0] == 0x20 and script[33] == OP_CHECKSIG:
        return script[1:33]
    return None


def parse_multi_a_leaf(script: bytes) -> tuple[int, list[bytes]] | None:
    """(threshold, keys in script order) of a multi_a leaf, or None for any other script."""
    n, rem = divmod(len(script) - 2, 34)
    if n < 1 or rem or script[-1] != OP_NUMEQUAL or not OP_1 <= script[-2] <= OP_16:
        return None
    keys = []
    for i in range(n):
        chunk = script[34 * i : 34 * i + 34]
        opcode = OP_CHECKSIG if i == 0 else OP_CHECKSIGADD
        if chunk[0] != 0x20 or chunk[33] != opcode:
            return None
        keys.append(chunk[1:33])
    threshold = script[-2] - OP_1 + 1
    return (threshold, keys) if threshold <= n else None


def sorted_multisig_script(threshold: int, pubkeys: Sequence[bytes]) -> bytes:
    """`OP_m <k1> ... <kn> OP_n OP_CHECKMULTISIG` with compressed keys sorted (BIP-67)."""
    keys = sorted(pubkeys)
    if any(len(k) != 33 or k[0] not in (2, 3) for k in keys) or len(set(keys)) != len(keys):
        raise ScriptError("multisig needs distinct 33-byte compressed public keys")
    if not 1 <= threshold <= len(keys) <= 16:
        raise ScriptError(f"invalid {threshold}-of-{len(keys)} multisig")
    body = b"".join(b"\x21" + k for k in keys)
    return bytes([_small_int(threshold)]) + body + bytes([_small_int(len(keys)), OP_CHECKMULTISIG])


def parse_multisig_script(script: bytes) -> tuple[int, list[bytes]] | None:
    """(threshold, compressed keys in script order) of a CHECKMULTISIG script, or None."""
    n, rem = divmod(len(script) - 3, 34)
    if n < 1 or rem or script[-1] != OP_CHECKMULTISIG or script[-2] != _small_int_or(n):
        return None
    if not OP_1 <= script[0] <= OP_16:
        return None
    keys = [script[1 + 34 * i : 35 + 34 * i] for i in range(n)]
    if any(k[0] != 0x21 for k in keys):
        return None
    threshold = script[0] - OP_1 + 1
    return (threshold, [k[1:] for k in keys]) if threshold <= n else None


def _small_int_or(n: int) -> int:
    return OP_1 - 1 + n if 1 <= n <= 16 else -1


def p2wsh_script_pubkey(witness_script: bytes) -> bytes:
    return b"\x00\x20" + hashlib.sha256(witness_script).digest()


def p2tr_script_pubkey(output_key: bytes) -> bytes:
    return b"\x51\x20" + output_key


def address_of(script_pubkey: bytes, network: str = "regtest") -> str:
    """Address of a scriptPubKey on 'main'/'mainnet', 'test'/'testnet', 'signet' or 'regtest'."""
    name = _NETWORK_ALIASES.get(network, network)
    if name not in NETWORKS:
        raise ScriptError(f"unknown network {network!r}")
    try:
        return str(Script(script_pubkey).address(NETWORKS[name]))
    except ValueError as exc:
        raise ScriptError(f"script has no address form: {script_pubkey.hex()}") from exc


@dataclass(frozen=True)
class TapLeaf:
    script: bytes
    leaf_version: int
    leaf_hash: bytes
    control_block: bytes


@dataclass(frozen=True)
class TaprootOutput:
    """A taproot output: internal key, script tree and everything needed to spend a leaf."""

    internal_key: bytes
    output_key: bytes
    parity: int
    merkle_root: bytes | None
    leaves: tuple[TapLeaf, ...]

    @property
    def script_pubkey(self) -> bytes:
        return p2tr_script_pubkey(self.output_key)

    def address(self, network: str = "regtest") -> str:
        return address_of(self.script_pubkey, network)


def _build_tree(hashes: list[bytes]) -> tuple[bytes, list[list[bytes]]]:
    """Balanced tree over leaf hashes: (root, merkle path per leaf)."""
    if len(hashes) == 1:
        return hashes[0], [[]]
    mid = (len(hashes) + 1) // 2
    left, left_paths = _build_tree(hashes[:mid])
    right, right_paths = _build_tree(hashes[mid:])
    paths = [[*p, right] for p in left_paths] + [[*p, left] for p in right_paths]
    return tapbranch_hash(left, right), paths


def taproot_output(internal_key: bytes, leaf_scripts: Sequence[bytes] = ()) -> TaprootOutput:
    """Taproot output for `internal_key` and tapscript leaves (a balanced tree, in order)."""
    if not leaf_scripts:
        out_key, parity = tweak_xonly(internal_key, None)
        return TaprootOutput(internal_key, out_key, parity, None, ())
    hashes = [tapleaf_hash(s) for s in leaf_scripts]
    root, paths = _build_tree(hashes)
    out_key, parity = tweak_xonly(internal_key, root)
    leaves = tuple(
        TapLeaf(
            s,
            TAPSCRIPT_LEAF_VERSION,
            h,
            bytes([TAPSCRIPT_LEAF_VERSION | parity]) + internal_key + b"".join(path),
        )
        for s, h, path in zip(leaf_scripts, hashes, paths, strict=True)
    )
    return TaprootOutput(internal_key, out_key, parity, root, leaves)


def control_block_commits(
    output_key: bytes, script: bytes, leaf_version: int, control_block: bytes
) -> bool:
    """True when `control_block` proves `script` is a leaf of the output with `output_key`."""
    if len(control_block) < 33 or (len(control_block) - 33) % 32:
        return False
    if control_block[0] & 0xFE != leaf_version:
        return False
    node = tapleaf_hash(script, leaf_version)
    for i in range(33, len(control_block), 32):
        node = tapbranch_hash(node, control_block[i : i + 32])
    try:
        key, parity = tweak_xonly(control_block[1:33], node)
    except ScriptError:
        return False
    return key == output_key and parity == control_block[0] & 1


def bidding_taproot_1of2(user_xonly: bytes, service_xonly: bytes) -> TaprootOutput:
    """The bidding wallet as taproot: NUMS internal key, one sorted 1-of-2 multi_a leaf."""
    return taproot_output(NUMS_H, [multi_a_leaf(1, [user_xonly, service_xonly])])


@dataclass(frozen=True)
class P2wshMultisig:
    witness_script: bytes

    @property
    def script_pubkey(self) -> bytes:
        return p2wsh_script_pubkey(self.witness_script)

    def address(self, network: str = "regtest") -> str:
        return address_of(self.script_pubkey, network)


def bidding_p2wsh_1of2(user_pubkey: bytes, service_pubkey: bytes) -> P2wshMultisig:
    """The bidding wallet as P2WSH: `OP_1 <k1> <k2> OP_2 OP_CHECKMULTISIG`, keys sorted."""
    return P2wshMultisig(sorted_multisig_script(1, [user_pubkey, service_pubkey]))
