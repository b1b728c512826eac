"""Where the vault keeps its entries: the OS keychain (keyring_store) or, without a usable one,
an encrypted vault file (vault_file_store). Both are string key-value stores."""

from __future__ import annotations

from typing import Protocol


class SecretStore(Protocol):
    """A key-value store of strings. Values are already encrypted, except remembered unlock keys,
    which only a store with `holds_unlock_keys` (the OS keychain) may receive."""

    @property
    def description(self) -> str:
        """Human-readable location, for logs and the UI (never includes stored values)."""
        ...

    @property
    def holds_unlock_keys(self) -> bool:
        """True when the store is protected by the OS (so an unlock key may live there)."""
        ...

    def get(self, entry: str) -> str | None:
        """The value stored under `entry`, or None."""
        ...

    def set(self, entry: str, value: str) -> None:
        """Store `value` under `entry`, replacing any previous value."""
        ...

    def delete(self, entry: str) -> bool:
        """Remove `entry`; False when it did not exist."""
        ...
