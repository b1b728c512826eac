"""Vaults for use-case tests: an in-memory keychain and a cheap Argon2id cost (the production
cost is measured by benchmarks/bench_vault.py)."""

from __future__ import annotations

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

from app.wallet.vault_crypto import Argon2idParams

FAST_KDF = Argon2idParams(time_cost=1, memory_kib=256, parallelism=1)


class MemoryKeyring(KeyringBackend):
    """A keychain in a dict (priority 1: the vault and the API key store treat it as real)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.items.pop((service, username), None) is None:
            raise PasswordDeleteError("no such item")


# keyring registers every backend subclass; keep this one out of its automatic choice.
KeyringBackend._classes.discard(MemoryKeyring)  # type: ignore[attr-defined]
