"""The unlocked keys of the running app, and the idle lock that drops them.

`WalletLock` holds a `WalletKeys` only between `unlock` and `lock`. Locking drops the only
reference the app keeps (callers borrow `keys` for one operation and never store them); the key
objects hold no reference cycles, so reference counting frees them at once (no gc.collect(),
which would pause the GUI thread). Python offers no way to wipe the bytes themselves, so that is
"as far as Python allows". The idle rule is pure:
the UI calls `touch()` on user input and `lock_if_idle()` from a timer, with an injectable clock
so tests drive time instead of waiting for it.

Vault layouts: a preset is stored by id ("xverse"); a custom layout as
"custom:<payment type>:<ordinals type>" with concrete paths; a WIF as "wif:<payment type>".
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    # The wallet layer (embit) loads on first use, in an executor: importing it with the
    # window would delay the first paint.
    from app.wallet.addresses import AddressType, Network
    from app.wallet.keys import WalletKeys
    from app.wallet.vault_models import DerivationLayout, ProfileMeta, WalletSecret

log = logging.getLogger(__name__)

NETWORK_NAMES: Final = {
    "mainnet": "main",
    "testnet": "test",
    "signet": "signet",
    "regtest": "regtest",
}
_CUSTOM: Final = "custom"
_WIF: Final = "wif"


class SessionLockedError(Exception):
    """The wallet is locked: unlock it with the password first."""


class UnsupportedLayoutError(ValueError):
    """A stored layout this build cannot turn into keys."""


def network_named(name: str) -> Network:
    """The wallet layer's network for a profile's network name ("mainnet", "regtest", ...)."""
    from app.wallet.addresses import Network

    return Network(NETWORK_NAMES[name])


def layout_for_preset(preset_id: str, account: int = 0) -> DerivationLayout:
    from app.wallet.presets import get_preset
    from app.wallet.vault_models import DerivationLayout

    get_preset(preset_id)  # refuse unknown ids now rather than at unlock
    return DerivationLayout(preset_id, account)


def layout_for_custom(
    payment_path: str,
    payment_type: AddressType,
    ordinals_path: str,
    ordinals_type: AddressType | None = None,
) -> DerivationLayout:
    from app.wallet.addresses import AddressType
    from app.wallet.presets import custom_preset
    from app.wallet.vault_models import DerivationLayout

    ordinals_type = ordinals_type or AddressType.P2TR
    custom_preset(payment_path, payment_type, ordinals_path, ordinals_type)  # validates
    return DerivationLayout(
        f"{_CUSTOM}:{payment_type.value}:{ordinals_type.value}",
        0,
        {"payment": payment_path, "ordinals": ordinals_path},
    )


def layout_for_wif(payment_type: AddressType | None = None) -> DerivationLayout:
    from app.wallet.vault_models import DerivationLayout

    return DerivationLayout(f"{_WIF}:{payment_type.value if payment_type else 'p2wpkh'}")


def keys_from_secret(secret: WalletSecret, meta: ProfileMeta) -> WalletKeys:
    """Derive the profile's keys (CPU work: call from an executor)."""
    from app.wallet.addresses import AddressType
    from app.wallet.keys import MnemonicSeed, derive_wallet_keys, keys_from_wif
    from app.wallet.presets import custom_preset, get_preset
    from app.wallet.vault_models import MnemonicSecret

    network = network_named(meta.network)
    kind, _, types = meta.layout.preset.partition(":")
    try:
        if kind == _WIF:
            if isinstance(secret, MnemonicSecret):
                raise UnsupportedLayoutError("a WIF layout needs a WIF secret")
            return keys_from_wif(secret.wif, network, AddressType(types or "p2wpkh"))
        if not isinstance(secret, MnemonicSecret):
            raise UnsupportedLayoutError(f"layout {kind!r} needs a mnemonic")
        if kind == _CUSTOM:
            payment_type, ordinals_type = (AddressType(t) for t in types.split(":"))
            paths = meta.layout.custom_paths
            preset = custom_preset(paths["payment"], payment_type, paths["ordinals"], ordinals_type)
        else:
            preset = get_preset(meta.layout.preset)
    except (KeyError, ValueError) as exc:
        if isinstance(exc, UnsupportedLayoutError):
            raise
        raise UnsupportedLayoutError(
            f"stored layout {meta.layout.preset!r} is not usable: {type(exc).__name__}"
        ) from None
    seed = MnemonicSeed(secret.mnemonic, secret.passphrase)
    return derive_wallet_keys(seed, preset, network, meta.layout.account)


Listener = Callable[[bool], None]


class WalletLock:
    """Unlocked keys plus the idle rule. Listeners get True on unlock, False on lock."""

    def __init__(self, timeout_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._timeout_s = timeout_s
        self._clock = clock
        self._keys: WalletKeys | None = None
        self._profile: str | None = None
        self._last_activity = clock()
        self._listeners: list[Listener] = []

    @property
    def timeout_s(self) -> float:
        return self._timeout_s

    @timeout_s.setter
    def timeout_s(self, value: float) -> None:
        if value <= 0:
            raise ValueError("the lock timeout must be positive")
        self._timeout_s = value

    @property
    def unlocked(self) -> bool:
        return self._keys is not None

    @property
    def profile_name(self) -> str | None:
        return self._profile

    @property
    def keys(self) -> WalletKeys:
        if self._keys is None:
            raise SessionLockedError("the wallet is locked")
        self.touch()
        return self._keys

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def unlock(self, keys: WalletKeys, profile_name: str) -> None:
        self._keys = keys
        self._profile = profile_name
        self.touch()
        log.info("unlocked profile %r", profile_name)
        self._notify(True)

    def lock(self) -> bool:
        """Drop the keys; False when already locked."""
        if self._keys is None:
            return False
        self._keys = None
        log.info("locked profile %r", self._profile)
        self._notify(False)
        return True

    def touch(self) -> None:
        self._last_activity = self._clock()

    def idle_s(self) -> float:
        return self._clock() - self._last_activity

    def lock_if_idle(self) -> bool:
        """Lock when idle for the timeout or longer; True when this call locked."""
        if self._keys is not None and self.idle_s() >= self._timeout_s:
            return self.lock()
        return False

    def _notify(self, unlocked: bool) -> None:
        for listener in list(self._listeners):
            listener(unlocked)

    def __repr__(self) -> str:
        state = "unlocked" if self._keys is not None else "locked"
        return f"WalletLock({state}, profile={self._profile!r})"
