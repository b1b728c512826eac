"""Layout presets, custom paths and the import check (preview_presets)."""

from __future__ import annotations

import pytest

from app.wallet.addresses import AddressType, Network
from app.wallet.keys import MnemonicSeed, derive_wallet_keys, preview_presets
from app.wallet.presets import (
    LEATHER,
    MAGIC_EDEN,
    OKX,
    PRESETS,
    UNISAT_M44_P2WPKH,
    UNISAT_P2PKH,
    XVERSE,
    PresetError,
    custom_preset,
    get_preset,
)

ABANDON = " ".join(["abandon"] * 11 + ["about"])
SEED = MnemonicSeed(ABANDON)
BIP86_RECEIVE = (
    "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr",
    "bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh",
)
BIP84_RECEIVE = (
    "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
    "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g",
)


def _paths(preset_id: str, n: int, network: Network = Network.MAINNET) -> tuple[str, str]:
    keys = derive_wallet_keys(SEED, get_preset(preset_id), network, n)
    return str(keys.payment.public.derivation_path), str(keys.ordinals.public.derivation_path)


@pytest.mark.parametrize(
    ("preset_id", "payment", "ordinals"),
    [
        ("xverse", "m/49'/0'/0'/0/3", "m/86'/0'/0'/0/3"),
        ("xverse-native", "m/84'/0'/0'/0/3", "m/86'/0'/0'/0/3"),
        ("leather", "m/84'/0'/3'/0/0", "m/86'/0'/3'/0/0"),
        ("magic-eden", "m/84'/0'/3'/0/0", "m/86'/0'/3'/0/0"),
        ("okx", "m/84'/0'/0'/0/3", "m/86'/0'/0'/0/3"),
        ("unisat-p2wpkh", "m/84'/0'/0'/0/3", "m/84'/0'/0'/0/3"),
        ("unisat-p2tr", "m/86'/0'/0'/0/3", "m/86'/0'/0'/0/3"),
        ("unisat-p2sh-p2wpkh", "m/49'/0'/0'/0/3", "m/49'/0'/0'/0/3"),
        ("unisat-p2pkh", "m/44'/0'/0'/0/3", "m/44'/0'/0'/0/3"),
        ("unisat-m44-p2wpkh", "m/44'/0'/0'/0/3", "m/44'/0'/0'/0/3"),
        ("unisat-m44-p2tr", "m/44'/0'/0'/0/3", "m/44'/0'/0'/0/3"),
    ],
)
def test_account_number_sits_where_each_wallet_puts_it(
    preset_id: str, payment: str, ordinals: str
) -> None:
    assert _paths(preset_id, 3) == (payment, ordinals)


def test_test_networks_use_coin_type_one() -> None:
    assert _paths("leather", 2, Network.SIGNET) == ("m/84'/1'/2'/0/0", "m/86'/1'/2'/0/0")


def test_address_types_of_the_presets() -> None:
    assert XVERSE.payment.address_type is AddressType.P2SH_P2WPKH
    assert LEATHER.payment.address_type is AddressType.P2WPKH
    assert all(p.ordinals.address_type is AddressType.P2TR for p in (XVERSE, LEATHER, OKX))
    unisat_legacy = derive_wallet_keys(SEED, UNISAT_P2PKH, Network.MAINNET, 0)
    assert unisat_legacy.payment.address == unisat_legacy.ordinals.address
    assert unisat_legacy.payment.address.startswith("1")
    m44_segwit = derive_wallet_keys(SEED, UNISAT_M44_P2WPKH, Network.MAINNET, 0)
    assert m44_segwit.payment.address.startswith("bc1q")
    assert m44_segwit.payment.address != BIP84_RECEIVE[0]


def test_preview_lists_the_first_addresses_of_every_preset() -> None:
    previews = preview_presets(ABANDON, "", Network.MAINNET, count=3)
    assert [p.preset.id for p in previews] == [p.id for p in PRESETS]
    assert all(len(p.payment_addresses) == len(p.ordinals_addresses) == 3 for p in previews)
    by_id = {p.preset.id: p for p in previews}
    assert by_id["okx"].payment_addresses[:2] == BIP84_RECEIVE
    assert by_id["okx"].ordinals_addresses[:2] == BIP86_RECEIVE
    assert by_id["xverse"].ordinals_addresses[:2] == BIP86_RECEIVE
    assert by_id["leather"].ordinals_addresses[0] == BIP86_RECEIVE[0]
    assert by_id["leather"].ordinals_addresses[1].startswith("bc1pkq6a")
    assert by_id["unisat-m44-p2tr"].payment_addresses[0].startswith("bc1plguu")
    assert len({a for p in previews for a in p.payment_addresses + p.ordinals_addresses}) > 20


def test_preview_respects_passphrase_network_and_count() -> None:
    plain = preview_presets(ABANDON, "", Network.REGTEST, count=1, presets=(MAGIC_EDEN,))
    secret = preview_presets(
        ABANDON, "extra words", Network.REGTEST, count=1, presets=(MAGIC_EDEN,)
    )
    assert plain[0].payment_addresses[0].startswith("bcrt1q")
    assert plain[0].payment_addresses != secret[0].payment_addresses
    with pytest.raises(ValueError, match="at least 1"):
        preview_presets(ABANDON, count=0)


def test_custom_preset_uses_the_given_paths_and_types() -> None:
    preset = custom_preset("m/84'/{coin}'/7'/1/{n}", AddressType.P2WPKH, "m/86'/{coin}'/7'/0/0")
    keys = derive_wallet_keys(SEED, preset, Network.TESTNET, 5)
    assert keys.payment.public.derivation_path == "m/84'/1'/7'/1/5"
    assert keys.ordinals.public.derivation_path == "m/86'/1'/7'/0/0"
    assert keys.payment.address.startswith("tb1q")
    fixed = custom_preset(
        "m/44'/0'/0'/0/0", AddressType.P2PKH, "m/44'/0'/0'/0/0", AddressType.P2PKH
    )
    legacy = derive_wallet_keys(SEED, fixed, Network.MAINNET)
    assert legacy.payment.address == legacy.ordinals.address


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("84'/0'/0'", "not a derivation path"),
        ("m/84'/0'/x", "not a derivation path"),
        ("m/2147483648", "out of range"),
        ("m/84'/{account}'", "placeholders"),
        ("m/84'/{", "placeholders"),
    ],
)
def test_custom_paths_are_validated(path: str, message: str) -> None:
    with pytest.raises(PresetError, match=message):
        custom_preset(path, AddressType.P2WPKH, "m/86'/0'/0'/0/0")


def test_unknown_preset_and_bad_account_numbers_are_refused() -> None:
    with pytest.raises(PresetError, match="unknown preset 'phantom'"):
        get_preset("phantom")
    with pytest.raises(PresetError, match="out of range"):
        derive_wallet_keys(SEED, OKX, Network.MAINNET, -1)
