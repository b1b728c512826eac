"""Shared wallet-test fixtures: an in-memory keyring backend and cheap vault instances."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from embit import ec, script
from embit.networks import NETWORKS
from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError

from app.wallet.keyring_store import KeyringStore
from app.wallet.vault import Vault
from app.wallet.vault_crypto import Argon2idParams
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import (
    DerivationLayout,
    MnemonicSecret,
    ProfileMeta,
    WatchOnlyAddresses,
    WifSecret,
)

# Tests use a tiny Argon2id cost; the production default is measured by benchmarks/bench_vault.py.
FAST_KDF = Argon2idParams(time_cost=1, memory_kib=256, parallelism=1)


class MemoryKeyring(KeyringBackend):
    """A keyring backend that keeps items in a dict (priority 1: a "real" backend to the vault).
    `fail_with` makes every call raise that exception, to imitate a locked or broken keychain."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}
        self.fail_with: Exception | None = None

    def _maybe_fail(self) -> None:
        if self.fail_with is not None:
            raise self.fail_with

    def get_password(self, service: str, username: str) -> str | None:
        self._maybe_fail()
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self._maybe_fail()
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self._maybe_fail()
        if self.items.pop((service, username), None) is None:
            raise PasswordDeleteError("no such item")


# keyring registers every backend class it sees; keep the test double out of its global choice.
KeyringBackend._classes.discard(MemoryKeyring)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Samples:
    """Secrets and profile data used across vault tests (test-only values)."""

    mnemonic: str = "ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic"
    passphrase: str = "hunter2 extra word"
    password: str = "correct horse battery staple"
    other_password: str = "Tr0ub4dor&3"

    @property
    def regtest_key(self) -> ec.PrivateKey:
        return ec.PrivateKey(bytes(range(1, 33)), network=NETWORKS["regtest"])

    @property
    def wif(self) -> str:
        return str(self.regtest_key.wif())

    @property
    def mnemonic_secret(self) -> MnemonicSecret:
        return MnemonicSecret(self.mnemonic, self.passphrase)

    @property
    def wif_secret(self) -> WifSecret:
        return WifSecret(self.wif)

    def meta(self, name: str = "Main wallet", network: str = "regtest") -> ProfileMeta:
        layout = DerivationLayout("xverse", account=0)
        created = datetime(2024, 5, 1, 12, 30, tzinfo=UTC)
        return ProfileMeta(name=name, network=network, layout=layout, created_at=created)

    def watch_only(self) -> WatchOnlyAddresses:
        pub = self.regtest_key.get_public_key()
        net = NETWORKS["regtest"]
        return WatchOnlyAddresses(
            payment_address=script.p2wpkh(pub).address(net),
            ordinals_address=script.p2tr(pub).address(net),
            payment_public_key=pub.sec().hex(),
            ordinals_public_key=pub.xonly().hex(),
        )


@pytest.fixture
def fast_kdf() -> Argon2idParams:
    return FAST_KDF


@pytest.fixture
def samples() -> Samples:
    return Samples()


@pytest.fixture
def memory_keyring() -> MemoryKeyring:
    return MemoryKeyring()


@pytest.fixture
def keyring_vault(memory_keyring: MemoryKeyring) -> Vault:
    return Vault(KeyringStore(memory_keyring, service="bidwallet-test"), FAST_KDF)


@pytest.fixture
def file_vault(tmp_path: Path) -> Vault:
    return Vault(FileStore(tmp_path / "data"), FAST_KDF)


@pytest.fixture(params=["keyring", "file"])
def any_vault(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Vault]:
    """The same behaviour is expected from both stores (except remembering unlock keys)."""
    if request.param == "keyring":
        yield Vault(KeyringStore(MemoryKeyring(), service="bidwallet-test"), FAST_KDF)
    else:
        yield Vault(FileStore(tmp_path / "data"), FAST_KDF)
