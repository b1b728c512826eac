"""Signature hashes: BIP-341/342 for taproot (our own), BIP-143 for segwit v0 (embit's).

embit 0.8.0's taproot sighash is wrong for SIGHASH_SINGLE (it hashes the raw output instead of
its SHA256) and for every ANYONECANPAY type (it hashes the whole serialized input instead of
outpoint, amount, scriptPubKey and nSequence), so taproot goes through `TaprootSigContext`.
embit's BIP-143 implementation matches every published vector and is used as is.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cached_property

from embit import compact
from embit.script import Script
from embit.transaction import Transaction, TransactionOutput

SIGHASH_DEFAULT = 0x00
SIGHASH_ALL = 0x01
SIGHASH_NONE = 0x02
SIGHASH_SINGLE = 0x03
SIGHASH_ANYONECANPAY = 0x80

TAPROOT_HASH_TYPES = frozenset({0x00, 0x01, 0x02, 0x03, 0x81, 0x82, 0x83})
ECDSA_HASH_TYPES = frozenset({0x01, 0x02, 0x03, 0x81, 0x82, 0x83})
CODESEP_NONE = 0xFFFFFFFF
TAPSCRIPT_KEY_VERSION = 0x00

_NAMES = {0x00: "DEFAULT", 0x01: "ALL", 0x02: "NONE", 0x03: "SINGLE"}
_TAPSIGHASH_TAG = hashlib.sha256(b"TapSighash").digest()


class SighashError(ValueError):
    """A signature hash cannot be computed for these arguments."""


def sighash_name(hash_type: int) -> str:
    """Human-readable name, e.g. 'ALL|ANYONECANPAY'."""
    base = _NAMES.get(hash_type & 0x7F, f"0x{hash_type:02x}")
    return base + ("|ANYONECANPAY" if hash_type & SIGHASH_ANYONECANPAY else "")


def _sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class TaprootSigContext:
    """BIP-341 signature messages for one transaction and all the outputs it spends.

    The whole-transaction hashes (sha_prevouts, sha_amounts, ...) are computed once and shared
    by every input signed from this context. Do not mutate `tx` after creating it.
    """

    def __init__(self, tx: Transaction, spent_outputs: Sequence[TransactionOutput]) -> None:
        if len(spent_outputs) != len(tx.vin):
            raise SighashError(
                f"taproot sighash needs all {len(tx.vin)} spent outputs, got {len(spent_outputs)}"
            )
        self.tx = tx
        self.spent_outputs = list(spent_outputs)

    @cached_property
    def _sha_prevouts(self) -> bytes:
        return _sha256(
            b"".join(bytes(reversed(i.txid)) + i.vout.to_bytes(4, "little") for i in self.tx.vin)
        )

    @cached_property
    def _sha_amounts(self) -> bytes:
        return _sha256(b"".join(o.value.to_bytes(8, "little") for o in self.spent_outputs))

    @cached_property
    def _sha_scriptpubkeys(self) -> bytes:
        return _sha256(b"".join(o.script_pubkey.serialize() for o in self.spent_outputs))

    @cached_property
    def _sha_sequences(self) -> bytes:
        return _sha256(b"".join(i.sequence.to_bytes(4, "little") for i in self.tx.vin))

    @cached_property
    def _sha_outputs(self) -> bytes:
        return _sha256(b"".join(o.serialize() for o in self.tx.vout))

    def sigmsg(
        self,
        input_index: int,
        hash_type: int,
        *,
        leaf_hash: bytes | None = None,
        annex: bytes | None = None,
        codesep_pos: int = CODESEP_NONE,
    ) -> bytes:
        """SigMsg(hash_type, ext_flag) of BIP-341, with the BIP-342 extension for script path."""
        tx = self.tx
        if not 0 <= input_index < len(tx.vin):
            raise SighashError(f"input index {input_index} out of range ({len(tx.vin)} inputs)")
        if hash_type not in TAPROOT_HASH_TYPES:
            raise SighashError(f"invalid taproot hash type 0x{hash_type:02x}")
        output_type = hash_type & 0x03
        anyonecanpay = bool(hash_type & SIGHASH_ANYONECANPAY)
        if output_type == SIGHASH_SINGLE and input_index >= len(tx.vout):
            raise SighashError(f"SIGHASH_SINGLE: input {input_index} has no matching output")
        parts = [
            bytes([hash_type]),
            tx.version.to_bytes(4, "little"),
            tx.locktime.to_bytes(4, "little"),
        ]
        if not anyonecanpay:
            parts += [
                self._sha_prevouts,
                self._sha_amounts,
                self._sha_scriptpubkeys,
                self._sha_sequences,
            ]
        if output_type not in (SIGHASH_NONE, SIGHASH_SINGLE):
            parts.append(self._sha_outputs)
        ext_flag = 0 if leaf_hash is None else 1
        parts.append(bytes([2 * ext_flag + (annex is not None)]))
        if anyonecanpay:
            txin, spent = tx.vin[input_index], self.spent_outputs[input_index]
            parts += [
                bytes(reversed(txin.txid)),
                txin.vout.to_bytes(4, "little"),
                spent.value.to_bytes(8, "little"),
                spent.script_pubkey.serialize(),
                txin.sequence.to_bytes(4, "little"),
            ]
        else:
            parts.append(input_index.to_bytes(4, "little"))
        if annex is not None:
            parts.append(_sha256(compact.to_bytes(len(annex)) + annex))
        if output_type == SIGHASH_SINGLE:
            parts.append(_sha256(tx.vout[input_index].serialize()))
        if leaf_hash is not None:
            if len(leaf_hash) != 32:
                raise SighashError("tapleaf hash must be 32 bytes")
            parts += [leaf_hash, bytes([TAPSCRIPT_KEY_VERSION]), codesep_pos.to_bytes(4, "little")]
        return b"".join(parts)

    def sighash(
        self,
        input_index: int,
        hash_type: int,
        *,
        leaf_hash: bytes | None = None,
        annex: bytes | None = None,
        codesep_pos: int = CODESEP_NONE,
    ) -> bytes:
        """tagged_hash("TapSighash", 0x00 || SigMsg): the 32-byte message a Schnorr sig signs."""
        msg = self.sigmsg(
            input_index, hash_type, leaf_hash=leaf_hash, annex=annex, codesep_pos=codesep_pos
        )
        return _sha256(_TAPSIGHASH_TAG + _TAPSIGHASH_TAG + b"\x00" + msg)


def taproot_sighash(
    tx: Transaction,
    input_index: int,
    spent_outputs: Sequence[TransactionOutput],
    hash_type: int,
    *,
    leaf_hash: bytes | None = None,
    annex: bytes | None = None,
    codesep_pos: int = CODESEP_NONE,
) -> bytes:
    """One-off BIP-341 sighash (key path, or script path when `leaf_hash` is given)."""
    return TaprootSigContext(tx, spent_outputs).sighash(
        input_index, hash_type, leaf_hash=leaf_hash, annex=annex, codesep_pos=codesep_pos
    )


def segwit_v0_sighash(
    tx: Transaction, input_index: int, script_code: bytes, amount: int, hash_type: int
) -> bytes:
    """BIP-143 sighash. `script_code` is the raw script (P2PKH form for P2WPKH), no length."""
    if hash_type not in ECDSA_HASH_TYPES:
        raise SighashError(f"invalid segwit v0 hash type 0x{hash_type:02x}")
    if not 0 <= input_index < len(tx.vin):
        raise SighashError(f"input index {input_index} out of range ({len(tx.vin)} inputs)")
    digest: bytes = tx.sighash_segwit(input_index, Script(script_code), amount, hash_type)
    return digest
