"""Key derivation: BIP-39/84/86/49 published vectors, networks, normalisation, WIF import."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import coincurve
import pytest
from embit.networks import NETWORKS

from app.wallet.addresses import AddressType, Network
from app.wallet.keys import (
    InvalidMnemonicError,
    InvalidWifError,
    KeyRole,
    MnemonicSeed,
    derive_wallet_keys,
    keys_from_wif,
    normalize_mnemonic,
    role_key_from_wif,
)
from app.wallet.presets import LEATHER, OKX, UNISAT_M44_P2TR, XVERSE, XVERSE_NATIVE

VECTORS = Path(__file__).parent / "vectors"


def _load(name: str) -> Any:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))


BIPS = _load("derivation_bips.json")
ABANDON: str = BIPS["mnemonic"]
SEED = MnemonicSeed(ABANDON)


@pytest.mark.parametrize("entry", _load("bip39_trezor_english.json")["english"], ids=lambda e: e[0])
def test_bip39_trezor_vectors_give_the_published_root(entry: list[str]) -> None:
    _entropy, mnemonic, _seed, root_xprv = entry
    assert MnemonicSeed(mnemonic, "TREZOR").derive("m").to_base58() == root_xprv


def test_bip84_root_and_account_keys() -> None:
    main = NETWORKS["main"]
    assert SEED.derive("m").to_base58(main["zprv"]) == BIPS["bip84"]["rootnode"]
    account = SEED.derive(BIPS["bip84"]["account_path"])
    assert account.to_base58(main["zprv"]) == BIPS["bip84"]["account_xprv"]


@pytest.mark.parametrize("vector", BIPS["bip84"]["addresses"], ids=lambda v: v["path"])
def test_bip84_addresses_keys_and_wifs(vector: dict[str, str]) -> None:
    node = SEED.derive(vector["path"])
    assert node.key.wif() == vector["privkey"]
    assert node.key.sec().hex() == vector["pubkey"]
    key = role_key_from_wif(vector["privkey"], AddressType.P2WPKH, Network.MAINNET)
    assert key.address == vector["address"]
    assert key.public.public_key.hex() == vector["pubkey"]


def test_bip86_root_and_account_keys() -> None:
    bip86 = BIPS["bip86"]
    assert SEED.derive("m").to_base58() == bip86["rootpriv"]
    assert SEED.derive("m").to_public().to_base58() == bip86["rootpub"]
    account = SEED.derive(bip86["account_path"])
    assert account.to_base58() == bip86["account_xprv"]
    assert account.to_public().to_base58() == bip86["account_xpub"]


@pytest.mark.parametrize("vector", BIPS["bip86"]["addresses"], ids=lambda v: v["path"])
def test_bip86_taproot_keys_and_addresses(vector: dict[str, str]) -> None:
    node = SEED.derive(vector["path"])
    assert node.to_base58() == vector["xprv"]
    assert node.to_public().to_base58() == vector["xpub"]
    change, index = (int(part) for part in vector["path"].split("/")[-2:])
    if change == 0:  # receive addresses are what a preset derives (index = account number)
        keys = derive_wallet_keys(SEED, OKX, Network.MAINNET, index)
        ordinals = keys.ordinals.public
        assert ordinals.xonly_public_key is not None
        assert ordinals.xonly_public_key.hex() == vector["internal_key"]
        assert ordinals.output_key is not None
        assert ordinals.output_key.hex() == vector["output_key"]
        assert ordinals.script_pubkey.hex() == vector["script_pubkey"]
        assert ordinals.address == vector["address"]
        assert ordinals.derivation_path == vector["path"]


def test_bip49_testnet_vector() -> None:
    bip49 = BIPS["bip49_testnet"]
    test = NETWORKS["test"]
    assert SEED.derive("m").to_base58(test["yprv"]) == bip49["masterseed"]
    account = SEED.derive(bip49["account_path"])
    assert account.to_base58(test["yprv"]) == bip49["account_xprv"]
    assert account.to_public().to_base58(test["ypub"]) == bip49["account_xpub"]
    keys = derive_wallet_keys(SEED, XVERSE, Network.TESTNET, 0)
    payment = keys.payment
    assert payment.public.derivation_path == bip49["path"]
    assert payment.private_key.secret.hex() == bip49["privkey_hex"]
    assert payment.private_key.wif(test) == bip49["privkey_wif"]
    assert payment.public.public_key.hex() == bip49["pubkey"]
    assert payment.public.redeem_script is not None
    assert payment.public.redeem_script.hex() == bip49["redeem_script"]
    assert payment.script_pubkey.hex() == "a914" + bip49["address_bytes"] + "87"
    assert payment.address == bip49["address"]


def test_the_two_account_layouts_give_the_addresses_the_notes_list() -> None:
    xverse_second = derive_wallet_keys(SEED, XVERSE_NATIVE, Network.MAINNET, 1)
    leather_second = derive_wallet_keys(SEED, LEATHER, Network.MAINNET, 1)
    assert xverse_second.ordinals.public.derivation_path == "m/86'/0'/0'/0/1"
    assert xverse_second.ordinals.address.startswith("bc1p4qhj")
    assert leather_second.ordinals.public.derivation_path == "m/86'/0'/1'/0/0"
    assert leather_second.ordinals.address.startswith("bc1pkq6a")
    assert leather_second.payment.public.derivation_path == "m/84'/0'/1'/0/0"
    unisat_m44 = derive_wallet_keys(SEED, UNISAT_M44_P2TR, Network.MAINNET, 0)
    assert unisat_m44.ordinals.address.startswith("bc1plguu")
    assert unisat_m44.payment.address == unisat_m44.ordinals.address


@pytest.mark.parametrize(
    ("network", "coin", "bech32", "nested"),
    [
        (Network.MAINNET, 0, "bc1", "3"),
        (Network.TESTNET, 1, "tb1", "2"),
        (Network.SIGNET, 1, "tb1", "2"),
        (Network.REGTEST, 1, "bcrt1", "2"),
    ],
)
def test_every_network_derives_its_own_addresses(
    network: Network, coin: int, bech32: str, nested: str
) -> None:
    keys = derive_wallet_keys(SEED, XVERSE, network, 2)
    assert keys.payment.public.derivation_path == f"m/49'/{coin}'/0'/0/2"
    assert keys.ordinals.public.derivation_path == f"m/86'/{coin}'/0'/0/2"
    assert keys.payment.address.startswith(nested)
    assert keys.ordinals.address.startswith(bech32 + "p")
    assert keys.network is network
    native = derive_wallet_keys(SEED, XVERSE_NATIVE, network, 0)
    assert native.payment.address.startswith(bech32 + "q")


def test_mnemonic_whitespace_and_case_are_normalised() -> None:
    messy = "  " + ABANDON.upper().replace(" ", " \n\t ") + "\n"
    assert normalize_mnemonic(messy) == ABANDON
    assert MnemonicSeed(messy).fingerprint == SEED.fingerprint == bytes.fromhex("73c5da0a")


def test_passphrase_is_nfkd_normalised() -> None:
    composed = unicodedata.normalize("NFC", "pässphrase ﬁ")
    decomposed = unicodedata.normalize("NFD", "pässphrase ﬁ")
    assert composed != decomposed
    assert (
        MnemonicSeed(ABANDON, composed).fingerprint == MnemonicSeed(ABANDON, decomposed).fingerprint
    )
    assert MnemonicSeed(ABANDON, composed).fingerprint != SEED.fingerprint


@pytest.mark.parametrize(
    ("mnemonic", "expected"),
    [
        ("abandon " * 10 + "about", "not 11"),
        ("abandon " * 11 + "bitcoinz", "word 12 is not"),
        ("abandon " * 12, "checksum"),
    ],
)
def test_invalid_mnemonics_are_refused_without_quoting_words(mnemonic: str, expected: str) -> None:
    with pytest.raises(InvalidMnemonicError, match=expected) as caught:
        MnemonicSeed(mnemonic)
    assert "abandon" not in str(caught.value)
    assert "bitcoinz" not in str(caught.value)


WIF = BIPS["bip84"]["addresses"][0]["privkey"]
TESTNET_WIF = BIPS["bip49_testnet"]["privkey_wif"]


def test_a_single_wif_gives_payment_and_ordinals_keys() -> None:
    keys = keys_from_wif(WIF, Network.MAINNET)
    assert keys.payment.address == BIPS["bip84"]["addresses"][0]["address"]
    assert keys.payment.public.role is KeyRole.PAYMENT
    assert keys.ordinals.address_type is AddressType.P2TR
    assert keys.ordinals.public.role is KeyRole.ORDINALS
    assert keys.payment.public.derivation_path is None
    assert keys.ordinals.address.startswith("bc1p")
    nested = keys_from_wif(TESTNET_WIF, Network.REGTEST, AddressType.P2SH_P2WPKH)
    assert nested.payment.address == BIPS["bip49_testnet"]["address"]


def test_wif_network_and_validity_are_checked_without_echoing_the_key() -> None:
    with pytest.raises(InvalidWifError, match="not for testnet") as caught:
        keys_from_wif(WIF, Network.TESTNET)
    assert WIF not in str(caught.value)
    broken = WIF[:-1] + ("a" if WIF[-1] != "a" else "b")
    with pytest.raises(InvalidWifError, match="not a valid WIF") as caught:
        keys_from_wif(broken, Network.MAINNET)
    assert broken not in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_uncompressed_wif_keys_only_make_p2pkh_addresses() -> None:
    uncompressed = "5HpHagT65TZzG1PH3CSu63k8DbpvD8s5ip4nEB3kEsreAnchuDf"  # rust-bitcoin/bip322
    legacy = role_key_from_wif(uncompressed, AddressType.P2PKH, Network.MAINNET)
    expected = coincurve.PrivateKey(legacy.private_key.secret).public_key.format(compressed=False)
    assert legacy.public.public_key == expected
    assert legacy.address.startswith("1")
    with pytest.raises(InvalidWifError, match="uncompressed"):
        role_key_from_wif(uncompressed, AddressType.P2WPKH, Network.MAINNET)
