"""The key session: layouts stored in the vault turn back into the right keys; unlock, lock
and the idle rule, driven by a clock the test moves."""

from __future__ import annotations

import gc
import weakref

import pytest

from app.services.session import (
    SessionLockedError,
    UnsupportedLayoutError,
    WalletLock,
    keys_from_secret,
    layout_for_custom,
    layout_for_preset,
    layout_for_wif,
)
from app.wallet.addresses import AddressType
from app.wallet.presets import PresetError
from app.wallet.vault_models import DerivationLayout, MnemonicSecret, ProfileMeta, WifSecret

ABANDON = "abandon " * 11 + "about"
# BIP-84 and BIP-86 test vectors of "abandon ... about", first receive address.
BIP84_FIRST = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
BIP86_FIRST = "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr"
WIF_MAIN = "KwFfpDsaF7yxCELuyrH9gP5XL7TAt5b9HPWC1xCQbmrxvhJgMQHb"


def meta(layout: DerivationLayout, network: str = "mainnet") -> ProfileMeta:
    return ProfileMeta(name="p", network=network, layout=layout)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_preset_layout_derives_the_bip84_and_bip86_vectors() -> None:
    keys = keys_from_secret(MnemonicSecret(ABANDON), meta(layout_for_preset("xverse-native")))
    assert keys.payment.address == BIP84_FIRST
    assert keys.ordinals.address == BIP86_FIRST


def test_custom_layout_stores_types_and_paths() -> None:
    layout = layout_for_custom(
        "m/84'/0'/0'/0/0", AddressType.P2WPKH, "m/86'/0'/0'/0/0", AddressType.P2TR
    )
    assert layout.preset == "custom:p2wpkh:p2tr"
    keys = keys_from_secret(MnemonicSecret(ABANDON), meta(layout))
    assert (keys.payment.address, keys.ordinals.address) == (BIP84_FIRST, BIP86_FIRST)
    with pytest.raises(PresetError):
        layout_for_custom("m/84'/x", AddressType.P2WPKH, "m/86'/0'/0'/0/0")


def test_wif_layout_and_mismatches() -> None:
    keys = keys_from_secret(WifSecret(WIF_MAIN), meta(layout_for_wif(AddressType.P2TR)))
    assert keys.payment.address.startswith("bc1p") and keys.preset_id == "wif"
    with pytest.raises(UnsupportedLayoutError, match="needs a WIF"):
        keys_from_secret(MnemonicSecret(ABANDON), meta(layout_for_wif()))
    with pytest.raises(UnsupportedLayoutError, match="needs a mnemonic"):
        keys_from_secret(WifSecret(WIF_MAIN), meta(layout_for_preset("okx")))
    with pytest.raises(UnsupportedLayoutError, match="not usable"):
        keys_from_secret(MnemonicSecret(ABANDON), meta(DerivationLayout("no-such-preset")))
    with pytest.raises(PresetError):
        layout_for_preset("no-such-preset")


def test_unlock_lock_and_idle_rule() -> None:
    clock = Clock()
    session = WalletLock(60, clock)
    events: list[bool] = []
    session.subscribe(events.append)
    with pytest.raises(SessionLockedError):
        _ = session.keys
    keys = keys_from_secret(MnemonicSecret(ABANDON), meta(layout_for_preset("okx")))
    session.unlock(keys, "p")
    assert session.unlocked and "unlocked" in repr(session) and "about" not in repr(session)
    clock.now = 59
    assert not session.lock_if_idle()
    session.touch()  # activity at t=59 restarts the countdown
    clock.now = 100
    assert not session.lock_if_idle()
    clock.now = 119
    assert session.lock_if_idle()
    assert not session.unlocked and events == [True, False]
    assert not session.lock()  # already locked: no second notification
    assert events == [True, False]
    with pytest.raises(ValueError):
        session.timeout_s = 0


def test_locking_frees_the_keys_at_once_without_a_collection() -> None:
    session = WalletLock(60, Clock())
    keys = keys_from_secret(MnemonicSecret(ABANDON), meta(layout_for_preset("xverse-native")))
    freed = weakref.ref(keys)
    gc.disable()  # prove that reference counting alone frees them (no cycle to collect)
    try:
        session.unlock(keys, "p")
        del keys
        assert freed() is not None
        session.lock()
        assert freed() is None
    finally:
        gc.enable()
