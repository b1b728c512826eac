"""Vaults for test profiles (the QA plugin, app/ui/qa, and the project's tests): an in-memory
keychain and a cheap Argon2id cost, so a scenario creates and unlocks a key in milliseconds.

Never for real keys: the production cost is `open_vault`'s (measured by
benchmarks/bench_vault.py). The window reaches the wallet only through app.services; these are
the few wallet types a scenario needs to seed a profile.
"""

from __future__ import annotations

from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

from app.services.session import keys_from_secret, layout_for_preset
from app.wallet.keyring_store import KeyringStore
from app.wallet.keys import WalletKeys
from app.wallet.vault import Vault
from app.wallet.vault_crypto import Argon2idParams
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import MnemonicSecret, ProfileMeta

__all__ = ["QA_KDF", "MemoryKeyring", "Vault", "WalletKeys", "file_vault", "keychain_vault"]

QA_KDF = Argon2idParams(time_cost=1, memory_kib=256, parallelism=1)
QA_KEYCHAIN_SERVICE = "bidwallet-test"


class MemoryKeyring(KeyringBackend):
    """A keychain in a dict (priority 1: the vault and the API key store treat it as real)."""

    priority = 1

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
KeyringBackend._classes.discard(MemoryKeyring)


def file_vault(directory: Path) -> Vault:
    """The vault file in `directory`, at the cheap test cost."""
    return Vault(FileStore(directory), QA_KDF)


def keychain_vault(keychain: KeyringBackend) -> Vault:
    """A vault kept in `keychain` (e.g. a MemoryKeyring), at the cheap test cost."""
    return Vault(KeyringStore(keychain, service=QA_KEYCHAIN_SERVICE), QA_KDF)


def store_phrase(
    vault: Vault, key_name: str, network: str, preset: str, phrase: str, password: str
) -> WalletKeys:
    """`phrase` stored in `vault` as `key_name` in `preset`'s layout, locked with `password`;
    its keys."""
    meta = ProfileMeta(name=key_name, network=network, layout=layout_for_preset(preset))
    secret = MnemonicSecret(phrase)
    keys = keys_from_secret(secret, meta)
    vault.create(meta, secret, password)
    return keys
