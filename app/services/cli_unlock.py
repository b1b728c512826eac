"""Unlocking a profile's keys for a command without a window (`bidwallet strategies run`,
`bidwallet psbt sign`): the unlock key the OS keyring remembers, else the password typed at
the terminal (`getpass`, three tries). Never from an environment variable or an argument,
where other processes and the shell's history could read it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.services.errors import ServiceError

if TYPE_CHECKING:
    from app.wallet.keys import WalletKeys

PASSWORD_TRIES = 3


class UnlockError(ServiceError):
    """The keys cannot be unlocked here; the message says why in one line."""


def unlock_keys_at_terminal(data_dir: Path, key_name: str, signs: str) -> WalletKeys:
    """The keys of vault entry `key_name` (`signs`: what they would sign, for the watch-only
    refusal, e.g. "bids"). Raises `UnlockError`."""
    from app.services.key_vault import has_secret, open_vault, unlock_keys, unlock_remembered
    from app.wallet.vault_errors import WrongPasswordError

    vault = open_vault(data_dir)
    if not has_secret(vault, key_name):
        raise UnlockError(f"a watch-only profile cannot sign {signs}")
    keys = unlock_remembered(vault, key_name)
    if keys is not None:
        return keys
    if not sys.stdin.isatty():
        raise UnlockError(
            "no unlock key in the OS keyring and no terminal to ask the password on (tick "
            "'Remember' when unlocking in the window)"
        )
    import getpass

    for _ in range(PASSWORD_TRIES):
        password = getpass.getpass(f"Password of {key_name}: ")
        try:
            return unlock_keys(vault, key_name, password, False)
        except WrongPasswordError:
            print("Wrong password.", file=sys.stderr)
    raise UnlockError(f"wrong password ({PASSWORD_TRIES} tries): the wallet stays locked")
