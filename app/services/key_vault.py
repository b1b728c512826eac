"""The key vault as the window uses it: open it, list its keys, tell a key holding a secret
from a watch-only one, unlock a key (with its password, or with the unlock key remembered in
the system keychain), and a watch-only key's public keys.

Each function may touch the keychain, run Argon2id or derive keys: call them from an executor,
never on a GUI thread (`can_remember_unlock` alone only looks at the vault's store).

The window holds three of the wallet's types without looking inside them: `Vault` (opened once
by `open_vault`, then handed back to these functions and to `key_setup`'s), `WalletKeys` (a
profile's unlocked keys, kept by the `WalletLock`) and `WatchOnlyKeys` (public keys only). The
vault errors the unlock dialog tells apart are listed here too: `WrongPasswordError`, and
`VaultError`, the base of every vault error.
"""

from __future__ import annotations

from pathlib import Path

from app.services.session import keys_from_secret, network_named
from app.wallet.addresses import AddressType, InvalidAddressError, KeyRole, public_role_key
from app.wallet.keys import WalletKeys, WatchOnlyKeys
from app.wallet.vault import Vault, open_default_vault
from app.wallet.vault_errors import NoRememberedKeyError, VaultError, WrongPasswordError
from app.wallet.vault_models import WatchOnlyAddresses

__all__ = [
    "WATCH_ONLY_LAYOUT",
    "Vault",
    "VaultError",
    "WalletKeys",
    "WatchOnlyKeys",
    "WrongPasswordError",
    "can_remember_unlock",
    "has_secret",
    "key_names",
    "open_vault",
    "unlock_keys",
    "unlock_remembered",
    "watch_only_public_keys",
]

WATCH_ONLY_LAYOUT = "watch-only"  # the layout a watch-only key is stored with


def open_vault(data_dir: Path) -> Vault:
    """The system keychain's vault when it is a real keychain, else the vault file in
    `data_dir` (the reason is logged)."""
    return open_default_vault(data_dir).vault


def key_names(vault: Vault) -> list[str]:
    """The names of the keys `vault` holds."""
    return vault.profile_names()


def has_secret(vault: Vault, key_name: str) -> bool:
    """Whether `key_name` holds a secret; False for a watch-only key (nothing to unlock)."""
    return vault.info(key_name).has_secret


def can_remember_unlock(vault: Vault) -> bool:
    """Whether `vault` can remember an unlock key (only the system keychain may hold one)."""
    return vault.store.holds_unlock_keys


def unlock_keys(vault: Vault, key_name: str, password: str | None, remember: bool) -> WalletKeys:
    """Open the vault profile (password, or the remembered key when None) and derive its keys.
    With `remember`, also keep the unlock key in the system keychain."""
    secret = vault.unlock(key_name, password)
    if remember and password is not None:
        vault.remember_unlock_key(key_name, password)
    return keys_from_secret(secret, vault.info(key_name).meta)


def unlock_remembered(vault: Vault, key_name: str) -> WalletKeys | None:
    """The keys when an unlock key is remembered and still works, else None."""
    if not vault.info(key_name).unlock_key_remembered:
        return None
    try:
        return unlock_keys(vault, key_name, None, False)
    except (NoRememberedKeyError, WrongPasswordError):
        return None


def watch_only_public_keys(vault: Vault, key_name: str, network_name: str) -> WatchOnlyKeys | None:
    """The addresses `key_name` watches, as the use cases' public keys (with each key's origin
    when it came from an extended key or a descriptor); None when it stores no addresses, or a
    public key is missing or gives none of them (addresses alone cannot build requests)."""
    stored = vault.info(key_name).watch_only
    return None if stored is None else _public_keys(stored, network_name)


def _public_keys(stored: WatchOnlyAddresses, network_name: str) -> WatchOnlyKeys | None:
    """Each public key tried with each address type until it gives the stored address."""
    network = network_named(network_name)
    roles = []
    for role, address, key_hex, origin in (
        (
            KeyRole.PAYMENT,
            stored.payment_address,
            stored.payment_public_key,
            stored.payment_key_origin,
        ),
        (
            KeyRole.ORDINALS,
            stored.ordinals_address,
            stored.ordinals_public_key,
            stored.ordinals_key_origin,
        ),
    ):
        if not key_hex:
            return None
        raw = bytes.fromhex(key_hex)
        sec = b"\x02" + raw if len(raw) == 32 else raw
        fingerprint, path = _origin_parts(origin)
        found = None
        for kind in AddressType:
            try:
                key = public_role_key(role, sec, kind, network, path, fingerprint)
            except InvalidAddressError:
                continue
            if key.address == address:
                found = key
                break
        if found is None:
            return None
        roles.append(found)
    return WatchOnlyKeys(roles[0], roles[1], WATCH_ONLY_LAYOUT, 0)


def _origin_parts(origin: str | None) -> tuple[bytes | None, str | None]:
    """ "73c5da0a/84'/0'/0'/0/0" -> (fingerprint, "m/84'/0'/0'/0/0"); (None, None) without one."""
    if origin is None:
        return None, None
    fingerprint, _, path = origin.partition("/")
    return bytes.fromhex(fingerprint), "m/" + path if path else "m"
