"""The watch-only form, and that no repr or error shows a secret."""

from __future__ import annotations

import json

import pytest

from app.wallet.addresses import AddressType, InvalidAddressError, Network, PublicRoleKey
from app.wallet.keys import (
    KeyDerivationError,
    MnemonicSeed,
    WatchOnlyKeys,
    derive_wallet_keys,
    keys_from_wif,
)
from app.wallet.presets import XVERSE

ABANDON = " ".join(["abandon"] * 11 + ["about"])
SEED = MnemonicSeed(ABANDON)
KEYS = derive_wallet_keys(SEED, XVERSE, Network.MAINNET, 0)


def _secrets() -> list[str]:
    out = []
    for role in (KEYS.payment, KEYS.ordinals):
        secret = role.private_key.secret
        out += [secret.hex(), role.private_key.wif(), secret.hex().upper()]
    return out


def test_watch_only_round_trips_through_json_without_secrets() -> None:
    watch = KEYS.watch_only()
    text = json.dumps(watch.to_dict())
    for secret in _secrets():
        assert secret not in text
    assert "abandon" not in text
    again = WatchOnlyKeys.from_dict(json.loads(text))
    assert again == watch
    assert again.payment.address == KEYS.payment.address
    assert again.payment.redeem_script == KEYS.payment.public.redeem_script
    assert again.ordinals.output_key == KEYS.ordinals.public.output_key
    assert again.ordinals.master_fingerprint == bytes.fromhex("73c5da0a")


def test_a_tampered_watch_only_entry_is_refused() -> None:
    data = KEYS.watch_only().to_dict()
    other = derive_wallet_keys(SEED, XVERSE, Network.MAINNET, 1)
    data["payment"]["address"] = other.payment.address
    with pytest.raises(KeyDerivationError, match="does not match its public key"):
        WatchOnlyKeys.from_dict(data)
    data = KEYS.watch_only().to_dict()
    data["ordinals"]["network"] = "test"
    with pytest.raises(InvalidAddressError, match="does not match"):
        PublicRoleKey.from_dict(data["ordinals"])
    del data["payment"]["public_key"]
    with pytest.raises(KeyDerivationError, match="malformed"):
        WatchOnlyKeys.from_dict(data)


def test_public_fields_of_each_role() -> None:
    payment, ordinals = KEYS.payment.public, KEYS.ordinals.public
    assert len(payment.public_key) == 33 and payment.xonly_public_key is None
    assert payment.output_key is None
    assert ordinals.xonly_public_key == ordinals.public_key[1:]
    assert ordinals.output_key == ordinals.script_pubkey[2:]
    assert ordinals.redeem_script is None
    assert KEYS.payment.address_type is AddressType.P2SH_P2WPKH


def test_reprs_show_addresses_and_paths_but_no_secret() -> None:
    wif_keys = keys_from_wif(KEYS.payment.private_key.wif(), Network.MAINNET)
    texts = [
        repr(KEYS),
        str(KEYS),
        repr(KEYS.payment),
        repr(KEYS.ordinals),
        repr(SEED),
        repr(KEYS.watch_only()),
        repr(wif_keys),
        repr(KEYS.payment.public),
    ]
    for text in texts:
        for secret in _secrets():
            assert secret not in text
        assert "abandon" not in text
    assert KEYS.payment.address in repr(KEYS)
    assert "m/49'/0'/0'/0/0" in repr(KEYS.payment)
    assert "73c5da0a" in repr(SEED)
