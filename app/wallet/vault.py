"""The key vault: wallet profiles whose secret (BIP-39 mnemonic or WIF) is encrypted under the
user's password, kept in the OS keychain or, without a usable one, in the vault file.

Entries in a store: "profiles" (JSON list of names), "profile:<name>" (the record) and, only in
the OS keychain and only when the user opted in, "unlock-key:<name>" (opens without a password).
Methods that take a password run Argon2id (~0.3 s): call them from an executor, not a GUI thread.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from keyring.backend import KeyringBackend

from app.wallet.keyring_store import KeyringStore
from app.wallet.vault_crypto import (
    DEFAULT_KDF,
    Argon2idParams,
    UnlockKey,
    key_for_password,
    open_envelope,
    seal_with_password,
)
from app.wallet.vault_errors import (
    CorruptVaultError,
    InsecureKeyringError,
    NoRememberedKeyError,
    ProfileExistsError,
    ProfileNotFoundError,
    RememberUnavailableError,
    WatchOnlyProfileError,
    WrongPasswordError,
)
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import (
    ProfileInfo,
    ProfileMeta,
    WalletSecret,
    WatchOnlyAddresses,
    check_profile_name,
    check_secret_network,
)
from app.wallet.vault_records import (
    ProfileRecord,
    clear_parts,
    context_of,
    payload_to_secret,
    record_from_text,
    record_to_text,
    secret_to_payload,
)
from app.wallet.vault_store import SecretStore

log = logging.getLogger(__name__)

INDEX_ENTRY: Final = "profiles"


def record_entry(name: str) -> str:
    return f"profile:{name}"


def unlock_key_entry(name: str) -> str:
    return f"unlock-key:{name}"


class Vault:
    """Profiles in one store. Holds no secret itself: unlock returns the secret to the caller."""

    def __init__(self, store: SecretStore, kdf: Argon2idParams = DEFAULT_KDF) -> None:
        kdf.check_safe()
        self._store = store
        self._kdf = kdf

    @property
    def store(self) -> SecretStore:
        return self._store

    def profile_names(self) -> list[str]:
        return list(self._read_index())

    def exists(self, name: str) -> bool:
        return self._store.get(record_entry(name)) is not None

    def info(self, name: str) -> ProfileInfo:
        record = self._load(name)
        return ProfileInfo(
            record.meta, record.watch_only, record.envelope is not None, self._has_key(name)
        )

    def create(
        self,
        meta: ProfileMeta,
        secret: WalletSecret,
        password: str,
        *,
        remember: bool = False,
        watch_only: WatchOnlyAddresses | None = None,
        overwrite: bool = False,
    ) -> None:
        """Encrypt `secret` under `password` and store the profile. `remember=True` also keeps
        the unlock key in the OS keychain so later unlocks need no password."""
        check_secret_network(secret, meta.network)
        if watch_only is not None:
            watch_only.check_network(meta.network)
        if remember and not self._store.holds_unlock_keys:
            raise RememberUnavailableError(
                f"cannot remember the unlock key: {self._store.description} is not a system"
                " keychain; the password will be asked at each unlock"
            )
        self._refuse_overwrite(meta.name, overwrite)
        parts = clear_parts(meta, watch_only)
        envelope, key = seal_with_password(
            secret_to_payload(secret), password, self._kdf, context_of(parts)
        )
        self._store.set(record_entry(meta.name), record_to_text(parts, envelope))
        # The new salt made any previously remembered key useless: replace or drop it.
        if remember:
            self._store.set(unlock_key_entry(meta.name), key.to_text())
        else:
            self._drop_key(meta.name)
        self._add_to_index(meta.name)
        log.info(
            "saved profile %r in %s (remembered: %s)", meta.name, self._store.description, remember
        )

    def create_watch_only(
        self, meta: ProfileMeta, watch_only: WatchOnlyAddresses, *, overwrite: bool = False
    ) -> None:
        """Store a profile of addresses and public keys only: no secret, no password."""
        watch_only.check_network(meta.network)
        self._refuse_overwrite(meta.name, overwrite)
        self._store.set(
            record_entry(meta.name), record_to_text(clear_parts(meta, watch_only), None)
        )
        self._drop_key(meta.name)
        self._add_to_index(meta.name)
        log.info("saved watch-only profile %r in %s", meta.name, self._store.description)

    def unlock(self, name: str, password: str | None = None) -> WalletSecret:
        """Decrypt the profile's secret with `password`, or with the remembered unlock key when
        `password` is None."""
        record = self._load(name)
        payload = self._open(record, name, *self._key(record, name, password))
        log.info("unlocked profile %r", name)
        return payload_to_secret(payload)

    def remember_unlock_key(self, name: str, password: str) -> None:
        """Opt in: keep the unlock key in the OS keychain (checked against the password first)."""
        if not self._store.holds_unlock_keys:
            raise RememberUnavailableError(
                f"cannot remember the unlock key in {self._store.description}:"
                " it is not a system keychain"
            )
        record = self._load(name)
        key, _ = self._key(record, name, password)
        self._open(record, name, key, remembered=False)
        self._store.set(unlock_key_entry(name), key.to_text())
        log.info("remembering the unlock key of profile %r", name)

    def forget_unlock_key(self, name: str) -> bool:
        """Opt out: the password is asked again at the next unlock. False if none was kept."""
        forgotten = self._drop_key(name)
        log.info("forgot the unlock key of profile %r: %s", name, forgotten)
        return forgotten

    def change_password(
        self, name: str, new_password: str, old_password: str | None = None
    ) -> None:
        """Re-encrypt under `new_password` (fresh salt, current KDF parameters). The old password,
        or the remembered key when `old_password` is None, must open the profile first."""
        record = self._load(name)
        payload = self._open(record, name, *self._key(record, name, old_password))
        parts = clear_parts(record.meta, record.watch_only)
        envelope, new_key = seal_with_password(payload, new_password, self._kdf, context_of(parts))
        self._store.set(record_entry(name), record_to_text(parts, envelope))
        if self._has_key(name):
            self._store.set(unlock_key_entry(name), new_key.to_text())
        log.info("changed the password of profile %r", name)

    def delete(self, name: str) -> None:
        """Remove the profile and its remembered key. Missing profile: ProfileNotFoundError."""
        if not self.exists(name):
            raise ProfileNotFoundError(f"no profile named {name!r} in {self._store.description}")
        self._drop_key(name)
        self._store.delete(record_entry(name))
        self._write_index([n for n in self._read_index() if n != name])
        log.info("deleted profile %r from %s", name, self._store.description)

    # -- internals -------------------------------------------------------------------------

    def _load(self, name: str) -> ProfileRecord:
        text = self._store.get(record_entry(name))
        if text is None:
            raise ProfileNotFoundError(f"no profile named {name!r} in {self._store.description}")
        return record_from_text(text, name)

    def _key(
        self, record: ProfileRecord, name: str, password: str | None
    ) -> tuple[UnlockKey, bool]:
        """The key to try: from `password`, else the remembered one (second item True)."""
        if record.envelope is None:
            raise WatchOnlyProfileError(f"profile {name!r} is watch-only: it holds no secret")
        if password is None:
            return self._remembered_key(name), True
        return key_for_password(record.envelope, password), False

    def _open(self, record: ProfileRecord, name: str, key: UnlockKey, remembered: bool) -> bytes:
        assert record.envelope is not None  # _key() refused watch-only profiles
        try:
            return open_envelope(record.envelope, key, record.context)
        except WrongPasswordError:
            if remembered:
                raise WrongPasswordError(
                    f"the remembered unlock key no longer opens profile {name!r};"
                    " unlock with the password"
                ) from None
            raise WrongPasswordError(f"wrong password for profile {name!r}") from None

    def _remembered_key(self, name: str) -> UnlockKey:
        text = self._store.get(unlock_key_entry(name)) if self._store.holds_unlock_keys else None
        if text is None:
            raise NoRememberedKeyError(f"no unlock key is remembered for profile {name!r}")
        return UnlockKey.from_text(text)

    def _has_key(self, name: str) -> bool:
        return self._store.holds_unlock_keys and self._store.get(unlock_key_entry(name)) is not None

    def _drop_key(self, name: str) -> bool:
        return self._store.holds_unlock_keys and self._store.delete(unlock_key_entry(name))

    def _refuse_overwrite(self, name: str, overwrite: bool) -> None:
        check_profile_name(name)
        if not overwrite and self.exists(name):
            raise ProfileExistsError(
                f"a profile named {name!r} already exists; confirm to overwrite it"
            )

    def _read_index(self) -> list[str]:
        text = self._store.get(INDEX_ENTRY)
        if text is None:
            return []
        try:
            names = json.loads(text)
        except ValueError:
            names = None
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise CorruptVaultError(f"the profile list in {self._store.description} is damaged")
        return names

    def _add_to_index(self, name: str) -> None:
        names = self._read_index()
        if name not in names:
            self._write_index([*names, name])

    def _write_index(self, names: list[str]) -> None:
        self._store.set(INDEX_ENTRY, json.dumps(names))

    def __repr__(self) -> str:
        return f"Vault({self._store.description}, kdf={self._kdf})"


@dataclass(frozen=True)
class VaultLocation:
    """The vault the app should use, and why it is not the OS keychain (None when it is)."""

    vault: Vault
    fallback_reason: str | None


def open_default_vault(
    data_dir: Path | None = None,
    backend: KeyringBackend | None = None,
    kdf: Argon2idParams = DEFAULT_KDF,
) -> VaultLocation:
    """The OS keychain when it is a real one, else the vault file in the data directory
    (`data_dir`, else $BIDWALLET_DATA_DIR, else platformdirs' user data dir)."""
    try:
        return VaultLocation(Vault(KeyringStore(backend), kdf), None)
    except InsecureKeyringError as exc:
        store = FileStore(data_dir)
        log.warning("not using the system keychain (%s); using %s", exc, store.description)
        return VaultLocation(Vault(store, kdf), str(exc))
