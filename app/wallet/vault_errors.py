"""Errors raised by the key vault. Each failure a user can meet has its own class so the UI can
say exactly what happened. Messages name profiles, backends and files, never a secret value."""


class VaultError(Exception):
    """Base class of every key vault error."""


class WrongPasswordError(VaultError):
    """The password (or remembered unlock key) does not open this profile."""


class CorruptVaultError(VaultError):
    """Stored vault data is damaged: not JSON, bad base64, truncated, or failed authentication."""


class UnsupportedVaultVersionError(VaultError):
    """Stored data uses a format version, KDF or cipher this build does not know."""


class UnsafeKdfParametersError(VaultError):
    """KDF parameters outside the accepted range: refused before any work is done, so a
    malicious file cannot make the app allocate gigabytes or spin for minutes."""


class ProfileNotFoundError(VaultError):
    """No profile (or no stored entry) under that name."""


class ProfileExistsError(VaultError):
    """A profile with that name exists and the caller did not confirm overwriting it."""


class InvalidProfileError(VaultError):
    """Profile metadata or watch-only data is malformed (name, network, layout, keys)."""


class InvalidSecretError(VaultError):
    """The wallet secret is not a valid BIP-39 mnemonic or WIF key (the value is never quoted)."""


class EmptyPasswordError(VaultError):
    """A vault password must not be empty."""


class WatchOnlyProfileError(VaultError):
    """The profile holds no secret (addresses and public keys only), so it cannot be unlocked."""


class NoRememberedKeyError(VaultError):
    """Unlock without a password was asked for, but no unlock key is remembered for the profile."""


class RememberUnavailableError(VaultError):
    """Remembering the unlock key needs the OS keychain; the file vault never stores it."""


class InsecureKeyringError(VaultError):
    """The keyring backend would store data in plaintext or not at all (null, fail, plaintext)."""


class KeyringLockedError(VaultError):
    """The OS keychain is locked or could not be opened; unlock it and retry."""


class VaultStorageError(VaultError):
    """Reading or writing the keychain or the vault file failed (I/O or backend error)."""
