"""Workarounds for embit 0.8.0's PSBT classes (see notes/bitcoin-signing.md).

- embit issue #146: `InputScope.vin` and `PSBT.tx` use `x or default`, so nSequence 0 becomes
  0xFFFFFFFF and tx version 0 becomes 2; signatures then commit to another transaction.
  `FixedInput.vin` / `FixedPSBT.tx` use `is None` checks.
- Mutable defaults: `InputScope(unknown={})`, `OutputScope(unknown={})`, `PSBT(unknown={})` and
  `Transaction(vin=[], vout=[])` share one object across instances. Every constructor here
  creates a fresh one, and `set_unknown` replaces a scope's dict instead of mutating it.
- PSBT_IN_TAP_KEY_SIG (0x13) is not parsed by embit: `FixedInput.tap_key_sig` reads and writes it.
- BIP-371 length rules (0x13/0x14 signatures of 64 or 65 bytes, 0x15 control blocks, 32-byte
  x-only keys) are enforced so malformed fields raise `PSBTError`, not `AssertionError`.
- embit's taproot sighash is wrong for SINGLE and ANYONECANPAY: `FixedPSBT.sighash_taproot`
  routes to our BIP-341 implementation.
"""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO
from typing import IO, Any

from embit import ec
from embit.psbt import PSBT, InputScope, OutputScope, PSBTError, read_string, ser_string
from embit.script import Script
from embit.transaction import Transaction, TransactionInput, TransactionOutput

from app.wallet.scripts import tapleaf_hash
from app.wallet.sighash import taproot_sighash

PSBT_IN_TAP_KEY_SIG = 0x13
PSBT_IN_TAP_SCRIPT_SIG = 0x14
PSBT_IN_TAP_LEAF_SCRIPT = 0x15
PSBT_IN_TAP_BIP32_DERIVATION = 0x16
PSBT_IN_TAP_INTERNAL_KEY = 0x17
PSBT_OUT_TAP_INTERNAL_KEY = 0x05
PSBT_OUT_TAP_BIP32_DERIVATION = 0x07

SEQUENCE_FINAL = 0xFFFFFFFF
_SCHNORR_SIG_LENGTHS = (64, 65)
_MAX_TAPROOT_DEPTH = 128


def new_transaction(
    version: int,
    locktime: int,
    vin: Sequence[TransactionInput],
    vout: Sequence[TransactionOutput],
) -> Transaction:
    """A Transaction with its own input and output lists (embit's defaults are shared)."""
    return Transaction(version=version, vin=list(vin), vout=list(vout), locktime=locktime)


def set_unknown(scope: Any, key: bytes, value: bytes) -> None:
    """Add an unknown key-value pair by assigning a new dict (the old one may be shared)."""
    scope.unknown = {**scope.unknown, key: value}


def _check_schnorr_sig(sig: bytes, field: str) -> None:
    if len(sig) not in _SCHNORR_SIG_LENGTHS:
        raise PSBTError(f"{field}: Schnorr signature must be 64 or 65 bytes, got {len(sig)}")
    if len(sig) == 65 and sig[64] == 0:
        # BIP-341: an explicit 0x00 hash type byte is invalid (DEFAULT is the 64-byte form).
        raise PSBTError(f"{field}: 65-byte Schnorr signature with hash type 0x00")


def _check_xonly(data: bytes, field: str) -> None:
    if len(data) != 32:
        raise PSBTError(f"{field}: x-only public key must be 32 bytes, got {len(data)}")


def _check_control_block(cb: bytes) -> None:
    path_len = len(cb) - 33
    if path_len < 0 or path_len % 32 or path_len // 32 > _MAX_TAPROOT_DEPTH:
        raise PSBTError(f"PSBT_IN_TAP_LEAF_SCRIPT: invalid control block length {len(cb)}")


class FixedInput(InputScope):  # type: ignore[misc]
    """InputScope with the nSequence fix, PSBT_IN_TAP_KEY_SIG and BIP-371 length checks."""

    def __init__(
        self,
        unknown: dict[bytes, bytes] | None = None,
        vin: TransactionInput | None = None,
        compress: int = 0,
    ) -> None:
        self.tap_key_sig: bytes | None = None
        super().__init__({} if unknown is None else unknown, vin=vin, compress=compress)

    @property
    def vin(self) -> TransactionInput:
        sequence = SEQUENCE_FINAL if self.sequence is None else self.sequence
        return TransactionInput(self.txid, self.vout, sequence=sequence)

    def read_value(self, stream: IO[bytes], k: bytes) -> None:
        if not k:
            return
        kind = k[0]
        if kind == PSBT_IN_TAP_KEY_SIG:
            if len(k) != 1:
                raise PSBTError("PSBT_IN_TAP_KEY_SIG: key must be one byte")
            sig = read_string(stream)
            _check_schnorr_sig(sig, "PSBT_IN_TAP_KEY_SIG")
            if self.tap_key_sig is not None:
                raise PSBTError("Duplicated PSBT_IN_TAP_KEY_SIG")
            self.tap_key_sig = sig
            return
        if kind in (PSBT_IN_TAP_SCRIPT_SIG, PSBT_IN_TAP_LEAF_SCRIPT, PSBT_IN_TAP_INTERNAL_KEY):
            # Peek at the value to validate it, then hand embit an identical stream.
            value = read_string(stream)
            self._check_taproot_field(kind, k, value)
            replay = BytesIO()
            ser_string(replay, value)
            replay.seek(0)
            stream = replay
        elif kind in (PSBT_IN_TAP_BIP32_DERIVATION,) and len(k) != 33:
            raise PSBTError("PSBT_IN_TAP_BIP32_DERIVATION: key must be a 32-byte x-only key")
        super().read_value(stream, k)

    @staticmethod
    def _check_taproot_field(kind: int, k: bytes, value: bytes) -> None:
        if kind == PSBT_IN_TAP_SCRIPT_SIG:
            if len(k) != 65:
                raise PSBTError("PSBT_IN_TAP_SCRIPT_SIG: key must be x-only key + leaf hash")
            _check_schnorr_sig(value, "PSBT_IN_TAP_SCRIPT_SIG")
        elif kind == PSBT_IN_TAP_LEAF_SCRIPT:
            _check_control_block(k[1:])
            if not value:
                raise PSBTError("PSBT_IN_TAP_LEAF_SCRIPT: missing leaf version")
        elif kind == PSBT_IN_TAP_INTERNAL_KEY:
            if len(k) != 1:
                raise PSBTError("PSBT_IN_TAP_INTERNAL_KEY: key must be one byte")
            _check_xonly(value, "PSBT_IN_TAP_INTERNAL_KEY")

    def write_to(
        self, stream: IO[bytes], skip_separator: bool = False, version: int | None = None, **kw: Any
    ) -> int:
        r: int = super().write_to(stream, skip_separator=True, version=version, **kw)
        if self.tap_key_sig is not None:
            r += ser_string(stream, bytes([PSBT_IN_TAP_KEY_SIG]))
            r += ser_string(stream, self.tap_key_sig)
        if not skip_separator:
            r += stream.write(b"\x00")
        return r

    def update(self, other: InputScope) -> None:
        # embit's update() mutates self.unknown in place: give it a private copy first.
        self.unknown: dict[bytes, bytes] = dict(self.unknown)
        super().update(other)
        other_sig = getattr(other, "tap_key_sig", None)
        if other_sig is not None:
            self.tap_key_sig = other_sig


class FixedOutput(OutputScope):  # type: ignore[misc]
    """OutputScope with a private `unknown` dict and BIP-371 key length checks."""

    def __init__(
        self,
        unknown: dict[bytes, bytes] | None = None,
        vout: TransactionOutput | None = None,
        compress: int = 0,
    ) -> None:
        super().__init__({} if unknown is None else unknown, vout=vout, compress=compress)

    def read_value(self, stream: IO[bytes], k: bytes) -> None:
        if k and k[0] == PSBT_OUT_TAP_INTERNAL_KEY:
            if len(k) != 1:
                raise PSBTError("PSBT_OUT_TAP_INTERNAL_KEY: key must be one byte")
            value = read_string(stream)
            _check_xonly(value, "PSBT_OUT_TAP_INTERNAL_KEY")
            self.taproot_internal_key = ec.PublicKey.from_xonly(value)
            return
        if k and k[0] == PSBT_OUT_TAP_BIP32_DERIVATION and len(k) != 33:
            raise PSBTError("PSBT_OUT_TAP_BIP32_DERIVATION: key must be a 32-byte x-only key")
        super().read_value(stream, k)

    def update(self, other: OutputScope) -> None:
        self.unknown: dict[bytes, bytes] = dict(self.unknown)
        super().update(other)


class UnsignedTransaction(Transaction):  # type: ignore[misc]
    """The PSBT global unsigned tx: BIP-174 requires empty scriptSigs and witnesses."""

    @classmethod
    def read_from(cls, stream: IO[bytes]) -> Transaction:
        start = stream.tell()
        header = stream.read(5)
        stream.seek(start)
        if len(header) == 5 and header[4] == 0:  # segwit marker (or a tx with no inputs)
            raise PSBTError("unsigned transaction must use the non-witness serialization")
        tx = super().read_from(stream)
        for i, txin in enumerate(tx.vin):
            if txin.script_sig.data or txin.witness.items:
                raise PSBTError(f"unsigned transaction input {i} has a scriptSig or witness")
        return tx


class FixedPSBT(PSBT):  # type: ignore[misc]
    """embit PSBT using FixedInput/FixedOutput, `is None` tx defaults and a BIP-341 sighash."""

    PSBTIN_CLS = FixedInput
    PSBTOUT_CLS = FixedOutput
    TX_CLS = UnsignedTransaction

    def __init__(
        self,
        tx: Transaction | None = None,
        unknown: dict[bytes, bytes] | None = None,
        version: int | None = None,
    ) -> None:
        super().__init__(tx, {} if unknown is None else unknown, version=version)

    @property
    def tx(self) -> Transaction:
        return new_transaction(
            version=2 if self.tx_version is None else self.tx_version,
            locktime=0 if self.locktime is None else self.locktime,
            vin=[inp.vin for inp in self.inputs],
            vout=[out.vout for out in self.outputs],
        )

    def sighash_taproot(
        self,
        input_index: int,
        script_pubkeys: Sequence[Script],
        values: Sequence[int],
        sighash: int = 0,
        ext_flag: int = 0,
        annex: bytes | None = None,
        script: Script | None = None,
        leaf_version: int = 0xC0,
        codeseparator_pos: int | None = None,
    ) -> bytes:
        """Replaces embit's (wrong for SINGLE/ANYONECANPAY) version for any embit code path."""
        spent = [TransactionOutput(v, s) for v, s in zip(values, script_pubkeys, strict=True)]
        leaf_hash = None
        if ext_flag == 1 and script is not None:
            leaf_hash = tapleaf_hash(script.data, leaf_version)
        return taproot_sighash(
            self.tx,
            input_index,
            spent,
            sighash,
            leaf_hash=leaf_hash,
            annex=annex,
            codesep_pos=0xFFFFFFFF if codeseparator_pos is None else codeseparator_pos,
        )
