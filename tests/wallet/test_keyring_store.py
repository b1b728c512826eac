"""The keyring store: refuses insecure backends, maps keyring errors, and is the default when a
real keychain exists (else the vault file is used)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null
from keyring.compat import properties

from app.wallet.keyring_store import KeyringStore, check_backend_secure
from app.wallet.vault import open_default_vault
from app.wallet.vault_errors import InsecureKeyringError
from app.wallet.vault_file_store import FileStore

if TYPE_CHECKING:
    from conftest import MemoryKeyring


def fake_backend(module: str, name: str, priority: float = 1) -> KeyringBackend:
    """A backend class that looks like `module.name` (e.g. keyrings.alt, not installed here)."""

    def get_password(self: KeyringBackend, service: str, username: str) -> str | None:
        return None

    cls = type(
        name,
        (KeyringBackend,),
        {
            "priority": priority,
            "__module__": module,
            "get_password": get_password,
            "set_password": lambda *a: None,
            "delete_password": lambda *a: None,
        },
    )
    KeyringBackend._classes.discard(cls)  # type: ignore[attr-defined]
    backend: KeyringBackend = cls()
    return backend


class UnusableKeyring(KeyringBackend):
    """Like SecretService without a D-Bus session: reading `priority` raises."""

    @properties.classproperty
    def priority(cls) -> float:
        raise RuntimeError("The Secret Service daemon is neither running nor activatable")

    def get_password(self, service: str, username: str) -> str | None:
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        pass

    def delete_password(self, service: str, username: str) -> None:
        pass


# keyring registers every backend class it sees; keep test doubles out of its global choice.
KeyringBackend._classes.discard(UnusableKeyring)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("backend", "match"),
    [
        (fail.Keyring(), "plaintext or not at all"),
        (null.Keyring(), "plaintext or not at all"),
        (fake_backend("keyrings.alt.file", "PlaintextKeyring"), "plaintext"),
        (fake_backend("keyrings.alt.file", "EncryptedKeyring"), "plaintext or not at all"),
        (fake_backend("some.plugin", "MyPlaintextStore", priority=3), "plaintext"),
        (fake_backend("some.plugin", "LowKeyring", priority=0), "priority 0"),
        (fake_backend("some.plugin", "NegativeKeyring", priority=-1), "unsuitable"),
    ],
)
def test_insecure_backends_are_refused(backend: KeyringBackend, match: str) -> None:
    with pytest.raises(InsecureKeyringError, match=match):
        KeyringStore(backend)


def test_backend_whose_priority_raises_is_refused() -> None:
    with pytest.raises(InsecureKeyringError, match="not usable: The Secret Service daemon"):
        check_backend_secure(UnusableKeyring())


def test_chained_backends_are_checked_one_by_one(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    chain = chainer.ChainerBackend()
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [memory_keyring, null.Keyring()])
    with pytest.raises(InsecureKeyringError, match="null"):
        check_backend_secure(chain)
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [])
    with pytest.raises(InsecureKeyringError, match="no system keychain"):
        check_backend_secure(chain)
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [memory_keyring, memory_keyring])
    check_backend_secure(chain)


def test_store_operations(memory_keyring: MemoryKeyring) -> None:
    store = KeyringStore(memory_keyring, service="svc")
    assert store.holds_unlock_keys
    assert store.get("a") is None
    store.set("a", "1")
    store.set("a", "2")
    assert store.get("a") == "2"
    assert memory_keyring.items == {("svc", "a"): "2"}
    assert store.delete("a")
    assert not store.delete("a")
    assert "MemoryKeyring" in store.description and "svc" in store.description


def test_default_vault_uses_a_real_keychain(memory_keyring: MemoryKeyring, tmp_path: Path) -> None:
    location = open_default_vault(data_dir=tmp_path, backend=memory_keyring)
    assert location.fallback_reason is None
    assert isinstance(location.vault.store, KeyringStore)


def test_default_vault_falls_back_to_the_vault_file(tmp_path: Path) -> None:
    location = open_default_vault(data_dir=tmp_path, backend=null.Keyring())
    assert isinstance(location.vault.store, FileStore)
    assert location.vault.store.path == tmp_path / "vault.json"
    assert location.fallback_reason is not None
    assert "keyring.backends.null.Keyring" in location.fallback_reason


_BACKEND_LOOKUP = """
import json, subprocess
spawned = []
real_init = subprocess.Popen.__init__
def recording_init(self, *args, **kwargs):
    spawned.append(args[0] if args else kwargs.get("args"))
    real_init(self, *args, **kwargs)
subprocess.Popen.__init__ = recording_init
import keyring.backend
from app.wallet.keyring_store import backend_name
chosen = backend_name(keyring.get_keyring())
found = sorted(backend_name(b) for b in keyring.backend.get_all_keyring())
print(json.dumps({"spawned": spawned, "chosen": chosen, "found": found}))
"""


@pytest.mark.skipif(sys.platform == "darwin", reason="the macOS backend is real there")
def test_backend_lookup_spawns_no_process_off_macos() -> None:
    # keyring's macOS backend probed gcc and ld (9 processes at every start) to fail anyway.
    result = subprocess.run(
        [sys.executable, "-c", _BACKEND_LOOKUP],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["spawned"] == []
    assert not any("macOS" in name for name in report["found"])
    assert report["chosen"]  # a backend is still chosen as before (fail.Keyring where none)
