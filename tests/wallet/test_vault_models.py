"""The stored types: secret validation and hiding, profile metadata and watch-only checks."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import pytest
from embit import ec
from embit.networks import NETWORKS

from app.wallet.vault_errors import InvalidProfileError, InvalidSecretError
from app.wallet.vault_models import (
    DerivationLayout,
    MnemonicSecret,
    ProfileMeta,
    WatchOnlyAddresses,
    WifSecret,
    address_matches_network,
)

if TYPE_CHECKING:
    from conftest import Samples


def test_mnemonic_whitespace_is_folded(samples: Samples) -> None:
    messy = "  " + samples.mnemonic.replace(" ", " \t\n ") + "\n"
    assert MnemonicSecret(messy).mnemonic == samples.mnemonic


def test_passphrase_is_kept_as_typed() -> None:
    secret = MnemonicSecret(" ".join(["abandon"] * 11 + ["about"]), passphrase="  Spaced  ")
    assert secret.passphrase == "  Spaced  "


@pytest.mark.parametrize(
    "bad",
    [
        "ozone drill grab fiber curtain grace pudding thank cruise elder eight ozone",  # checksum
        "ozone drill grab fiber curtain grace pudding thank cruise elder eight zzzzq",  # word
        "ozone drill grab",
        "",
    ],
)
def test_invalid_mnemonics_are_refused_without_quoting(bad: str) -> None:
    with pytest.raises(InvalidSecretError) as caught:
        MnemonicSecret(bad)
    assert "zzzzq" not in str(caught.value) and "ozone" not in str(caught.value)


@pytest.mark.parametrize(
    "bad", ["", "notawif", "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTX"]
)
def test_invalid_wifs_are_refused(bad: str) -> None:
    with pytest.raises(InvalidSecretError, match="not a valid WIF"):
        WifSecret(bad)


def test_wif_network(samples: Samples) -> None:
    assert not samples.wif_secret.is_mainnet
    mainnet = ec.PrivateKey(bytes(range(1, 33)), network=NETWORKS["main"]).wif()
    assert WifSecret(mainnet).is_mainnet


def test_secret_reprs_hide_the_secret(samples: Samples) -> None:
    mnemonic = samples.mnemonic_secret
    assert repr(mnemonic) == "MnemonicSecret(<12 words hidden>, passphrase=yes)"
    assert str(mnemonic) == repr(mnemonic) and f"{mnemonic}" == repr(mnemonic)
    assert repr(samples.wif_secret) == "WifSecret(<hidden>)"


def test_layout_checks() -> None:
    layout = DerivationLayout(
        "custom", 3, {"payment": "m/84'/1'/3'/0/0", "ordinals": "m/86h/1h/0h"}
    )
    assert layout.custom_paths["payment"] == "m/84'/1'/3'/0/0"
    with pytest.raises(InvalidProfileError, match="account"):
        DerivationLayout("xverse", -1)
    with pytest.raises(InvalidProfileError, match="account"):
        DerivationLayout("xverse", 2**31)
    with pytest.raises(InvalidProfileError, match="preset"):
        DerivationLayout("")
    with pytest.raises(InvalidProfileError, match="payment"):
        DerivationLayout("custom", 0, {"payment": "84'/0'"})


def test_layout_is_not_changed_through_the_callers_dict() -> None:
    paths = {"payment": "m/84'/0'/0'/0/0"}
    layout = DerivationLayout("custom", 0, paths)
    paths["payment"] = "m/44'/0'/0'/0/0"
    assert layout.custom_paths["payment"] == "m/84'/0'/0'/0/0"


def test_meta_checks() -> None:
    layout = DerivationLayout("unisat")
    with pytest.raises(InvalidProfileError, match="network"):
        ProfileMeta("A", "litecoin", layout)
    with pytest.raises(InvalidProfileError, match="time zone"):
        ProfileMeta("A", "mainnet", layout, created_at=datetime(2024, 1, 1))
    assert ProfileMeta("A", "signet", layout).created_at.tzinfo is not None


@pytest.mark.parametrize(
    ("address", "network", "expected"),
    [
        ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "mainnet", True),
        ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "testnet", False),
        ("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "signet", True),
        ("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", "regtest", True),
        ("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", "mainnet", False),  # checksum
        ("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "mainnet", True),
        ("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "mainnet", True),
        ("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", "regtest", False),
        ("2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc", "testnet", True),
        ("not an address", "mainnet", False),
    ],
)
def test_address_network(address: str, network: str, expected: bool) -> None:
    assert address_matches_network(address, network) is expected


def test_watch_only_public_keys_are_checked(samples: Samples) -> None:
    keys = samples.watch_only()
    keys.check_network("regtest")
    bad = WatchOnlyAddresses(keys.payment_address, keys.ordinals_address, "02" + "00" * 32)
    with pytest.raises(InvalidProfileError, match="payment public key"):
        bad.check_network("regtest")
