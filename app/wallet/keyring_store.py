"""The OS keychain as a vault store, through the `keyring` package. Backends that would keep data
in plaintext, drop it, or prompt on a terminal are refused: the vault then uses its file store."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Final, TypeVar

if sys.platform != "darwin":
    # keyring's macOS backend binds macOS frameworks with ctypes.util.find_library, which off
    # macOS runs ldconfig, gcc and ld for each of three libraries (9 processes, ~40 ms of CPU
    # at every start, while the sandbox child starts) before its import fails, as it must
    # there. Marked unimportable, it fails at once: the backends found are the same.
    sys.modules.setdefault("keyring.backends.macOS.api", None)  # type: ignore[arg-type]

import keyring
from keyring.backend import KeyringBackend
from keyring.errors import InitError, KeyringLocked, PasswordDeleteError

from app.wallet.vault_errors import InsecureKeyringError, KeyringLockedError, VaultStorageError

log = logging.getLogger(__name__)

DEFAULT_SERVICE: Final = "bidwallet"

# Fully qualified class names of backends that store nothing, store in plaintext, or ask for a
# password on stdin (unusable from a GUI).
INSECURE_BACKENDS: Final = frozenset(
    {
        "keyring.backends.fail.Keyring",
        "keyring.backends.null.Keyring",
        "keyrings.alt.file.PlaintextKeyring",
        "keyrings.alt.file.EncryptedKeyring",
        "keyrings.alt.pyfs.PlaintextKeyring",
        "keyrings.alt.pyfs.EncryptedKeyring",
    }
)

_T = TypeVar("_T")


def backend_name(backend: KeyringBackend) -> str:
    cls = type(backend)
    return f"{cls.__module__}.{cls.__qualname__}"


def check_backend_secure(backend: KeyringBackend) -> None:
    """Raise InsecureKeyringError unless `backend` (and every backend it chains) is a real,
    encrypting keychain with a positive priority."""
    name = backend_name(backend)
    chained = getattr(backend, "backends", None)
    if name == "keyring.backends.chainer.ChainerBackend" and chained is not None:
        if not chained:
            raise InsecureKeyringError("no system keychain is available (empty keyring chain)")
        for inner in chained:
            check_backend_secure(inner)
        return
    if name in INSECURE_BACKENDS or "plaintext" in name.lower():
        raise InsecureKeyringError(
            f"refusing keyring backend {name}: it stores secrets in plaintext or not at all"
        )
    try:
        priority = float(type(backend).priority)
    except Exception as exc:  # backends signal "not usable here" by raising from priority
        raise InsecureKeyringError(f"keyring backend {name} is not usable: {exc}") from None
    if priority <= 0:
        raise InsecureKeyringError(
            f"refusing keyring backend {name}: priority {priority} marks it as unsuitable"
        )


class KeyringStore:
    """Vault entries as keyring items of one service (username = entry name)."""

    holds_unlock_keys = True

    def __init__(
        self, backend: KeyringBackend | None = None, service: str = DEFAULT_SERVICE
    ) -> None:
        self._backend = backend if backend is not None else keyring.get_keyring()
        check_backend_secure(self._backend)
        self._service = service
        self._name = backend_name(self._backend)

    @property
    def description(self) -> str:
        return f"system keychain ({self._name}, service {self._service!r})"

    def get(self, entry: str) -> str | None:
        return self._call("read", entry, lambda: self._backend.get_password(self._service, entry))

    def set(self, entry: str, value: str) -> None:
        self._call("write", entry, lambda: self._backend.set_password(self._service, entry, value))
        log.debug("stored keychain entry %r in %s", entry, self.description)

    def delete(self, entry: str) -> bool:
        def remove() -> bool:
            try:
                self._backend.delete_password(self._service, entry)
            except PasswordDeleteError:
                return False
            return True

        return self._call("delete", entry, remove)

    def _call(self, action: str, entry: str, operation: Callable[[], _T]) -> _T:
        try:
            return operation()
        except (KeyringLocked, InitError) as exc:
            raise KeyringLockedError(
                f"the system keychain ({self._name}) is locked or could not be opened"
                f" ({type(exc).__name__}); unlock it and try again"
            ) from exc
        except Exception as exc:
            raise VaultStorageError(
                f"the system keychain ({self._name}) failed to {action} entry {entry!r}:"
                f" {type(exc).__name__}"
            ) from exc

    def __repr__(self) -> str:
        return f"KeyringStore({self._name}, service={self._service!r})"
