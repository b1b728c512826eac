"""A PSBT file the user opens or saves by hand (the offline signer's PSBT files tab, the review
dialog's "Save PSBT…"): read it and count its signed inputs, or write one as base64 text or
as binary (BIP-174's .psbt file); and the raw transaction a PSBT holds, for copying. Exports
with their manifest are written and read by `offline`. Blocking file I/O: call from an executor.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.core.psbt_review import Review
    from app.wallet.psbt_fixes import FixedPSBT

# Far above any real PSBT file (base64 of the parser's own 32 MiB cap).
MAX_FILE_BYTES = 45 * 1024 * 1024


class PsbtFileError(Exception):
    """The file holds no readable PSBT, or cannot be written (the message says why)."""


class PsbtReadError(PsbtFileError):
    """The file itself cannot be read (missing, no permission, too large)."""


@dataclass(frozen=True)
class LoadedPsbt:
    """A PSBT read from `path`: its size and how many of its inputs carry a signature."""

    path: Path
    psbt: FixedPSBT
    inputs: int
    outputs: int
    signed_inputs: int

    @property
    def sign_state(self) -> int:
        """0 not signed, 1 partly signed, 2 every input signed."""
        if self.signed_inputs == 0:
            return 0
        return 2 if self.signed_inputs == self.inputs else 1


def is_signed(scope: Any) -> bool:
    """Whether a PSBT input carries a signature (partial, taproot key or script path) or is
    finalised."""
    # tap_key_sig is FixedInput's PSBT_IN_TAP_KEY_SIG (0x13), where our signer writes key-path
    # signatures; embit itself has no such attribute.
    return bool(
        getattr(scope, "partial_sigs", None)
        or getattr(scope, "tap_key_sig", None)
        or getattr(scope, "taproot_sigs", None)
        or getattr(scope, "final_scriptwitness", None)
        or getattr(scope, "final_scriptsig", None)
    )


def load_psbt_file(path: Path) -> LoadedPsbt:
    """The PSBT in `path` (binary, base64 or hex); PsbtReadError when the file cannot be read,
    PsbtFileError when it holds no readable PSBT."""
    from app.wallet.psbt_io import PsbtDecodeError, parse_psbt

    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise PsbtReadError("the file is far larger than any PSBT")
        data = path.read_bytes()
    except OSError as exc:
        raise PsbtReadError(exc.strerror or type(exc).__name__) from None
    try:
        psbt = parse_psbt(data)
    except PsbtDecodeError as exc:
        raise PsbtFileError(str(exc)) from None
    signed = sum(1 for scope in psbt.inputs if is_signed(scope))
    return LoadedPsbt(path, psbt, len(psbt.inputs), len(psbt.outputs), signed)


def review_without_manifest(psbt: FixedPSBT, network: str) -> Review:
    """The guard's review of a PSBT nothing is known about (no manifest: no address is ours,
    no amount confirmed by the chain, no flow, so no policy can approve it): what the terminal
    signer shows for a lone file. CPU only."""
    from app.core.psbt_review import review
    from app.core.psbt_review_context import ReviewContext
    from app.wallet.psbt_reader import view_of

    return review(view_of(psbt, network), ReviewContext(network, ()))


def save_psbt_file(path: Path, psbt: FixedPSBT | str, *, binary: bool = False) -> None:
    """Write the PSBT (parsed, or its base64 text) atomically: base64 text (what wallets and
    the marketplace exchange), or with `binary` the raw bytes of BIP-174 (Sparrow's and
    Bitcoin Core's .psbt files)."""
    from app.wallet.psbt_io import PsbtDecodeError, parse_psbt, psbt_to_base64, psbt_to_bytes
    from app.wallet.vault_file_store import write_atomically

    try:
        parsed = parse_psbt(psbt) if isinstance(psbt, str) else psbt
    except PsbtDecodeError as exc:
        raise PsbtFileError(str(exc)) from None
    data = psbt_to_bytes(parsed) if binary else (psbt_to_base64(parsed) + "\n").encode("ascii")
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise PsbtFileError(exc.strerror or type(exc).__name__) from None


@dataclass(frozen=True)
class RawTransaction:
    """The network transaction a PSBT holds, as hex: `signed` when every input is finalised
    (it could be broadcast as is), else the unsigned transaction (no signatures)."""

    hex: str
    signed: bool


def raw_transaction(psbt_base64: str) -> RawTransaction:
    """The PSBT's transaction: finalised when every input is, else unsigned."""
    from app.wallet.finalize import extract_transaction, is_finalized
    from app.wallet.psbt_io import PsbtDecodeError, parse_psbt

    try:
        psbt = parse_psbt(psbt_base64)
    except PsbtDecodeError as exc:
        raise PsbtFileError(str(exc)) from None
    if psbt.inputs and all(is_finalized(inp) for inp in psbt.inputs):
        return RawTransaction(extract_transaction(psbt).serialize().hex(), True)
    return RawTransaction(psbt.tx.serialize().hex(), False)
