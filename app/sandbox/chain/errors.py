"""Errors of the sandbox chain. Each has a stable upper-case `code` and a human `message`.

The HTTP layer maps them to `{"errorCode", "message"}`: `InvalidRequest` and `TxRejected` -> 400,
`NotFound` -> 404, any other `ChainError` -> 409. Messages never contain key material.
"""

from __future__ import annotations


class ChainError(Exception):
    """Base class: a refusal by the sandbox chain with a stable code."""

    default_code = "CHAIN_ERROR"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


class InvalidRequest(ChainError, ValueError):
    """The caller's input is malformed: bad hex, unknown address format, wrong network,
    negative amounts, unknown collection, ..."""

    default_code = "INVALID_REQUEST"


class NotFound(ChainError):
    """The named transaction, inscription, collection or output does not exist."""

    default_code = "NOT_FOUND"


class Conflict(ChainError):
    """The request is well formed but clashes with the current state (e.g. slug taken)."""

    default_code = "CONFLICT"


class InsufficientFunds(ChainError):
    """The sandbox's own wallet cannot pay for what was asked (faucet, minting)."""

    default_code = "INSUFFICIENT_FUNDS"


class TxRejected(ChainError):
    """The mempool refused a transaction.

    `code` is ours (e.g. `MISSING_INPUTS`), `reason` is Bitcoin Core's reject reason for the same
    condition (e.g. `bad-txns-inputs-missingorspent`), `input_index` names the failing input when
    the failure belongs to one.
    """

    default_code = "TX_REJECTED"

    def __init__(
        self, code: str, reason: str, message: str, input_index: int | None = None
    ) -> None:
        super().__init__(message, code)
        self.reason = reason
        self.input_index = input_index


class BlockRejected(ChainError):
    """libbitcoinkernel refused a block the sandbox built; nothing was recorded as mined."""

    default_code = "BLOCK_REJECTED"

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason


class StorageError(ChainError):
    """The data directory cannot be used (held by another process, or its chain disagrees with
    the kernel in a way that cannot be repaired)."""

    default_code = "STORAGE_ERROR"
