"""The sign/verify facade: scheme choice per address type, and detection when verifying."""

from __future__ import annotations

import json
from pathlib import Path

import bip322
import pytest

from app.wallet.addresses import AddressType, InvalidAddressError, Network
from app.wallet.bip137 import sign_bip137
from app.wallet.keys import MnemonicSeed, RoleKey, derive_wallet_keys, role_key_from_private
from app.wallet.message import (
    MessageScheme,
    default_scheme,
    sign_message,
    verify_message,
)
from app.wallet.presets import (
    UNISAT_P2PKH,
    UNISAT_P2SH_P2WPKH,
    UNISAT_P2TR,
    UNISAT_P2WPKH,
    Preset,
)
from app.wallet.secp import SignatureFormatError, SignatureInvalidError

VECTORS = Path(__file__).parent / "vectors"
SEED = MnemonicSeed(" ".join(["abandon"] * 11 + ["about"]))
PRESET_OF = {
    AddressType.P2PKH: UNISAT_P2PKH,
    AddressType.P2SH_P2WPKH: UNISAT_P2SH_P2WPKH,
    AddressType.P2WPKH: UNISAT_P2WPKH,
    AddressType.P2TR: UNISAT_P2TR,
}


def _key(address_type: AddressType, network: Network = Network.SIGNET) -> RoleKey:
    preset: Preset = PRESET_OF[address_type]
    return derive_wallet_keys(SEED, preset, network, 0).payment


@pytest.mark.parametrize("address_type", list(AddressType))
def test_default_scheme_signs_and_verifies(address_type: AddressType) -> None:
    key = _key(address_type)
    signed = sign_message(key, "collection bid #42")
    assert signed.scheme is default_scheme(address_type)
    assert signed.address == key.address
    verified = verify_message(key.address, "collection bid #42", signed.signature)
    assert verified.scheme is signed.scheme
    if signed.scheme is MessageScheme.BIP322_SIMPLE:
        bip322.verify_simple_encoded(key.address, "collection bid #42", signed.signature)
        assert verified.detail == "bip322-rust+own-script-check"
    with pytest.raises(SignatureInvalidError):
        verify_message(key.address, "collection bid #43", signed.signature)


def test_p2pkh_defaults_to_bip137_and_can_use_bip322_full() -> None:
    key = _key(AddressType.P2PKH)
    assert default_scheme(AddressType.P2PKH) is MessageScheme.BIP137
    full = sign_message(key, "legacy", MessageScheme.BIP322_FULL, prefix=True)
    assert full.signature.startswith("ful")
    verified = verify_message(key.address, "legacy", full.signature)
    assert verified.scheme is MessageScheme.BIP322_FULL
    assert verified.detail == "own-script-check"


def test_bip137_can_be_asked_for_segwit_keys_and_electrum_headers_pass() -> None:
    segwit = _key(AddressType.P2WPKH)
    signed = sign_message(segwit, "hello", MessageScheme.BIP137)
    assert verify_message(segwit.address, "hello", signed.signature).scheme is MessageScheme.BIP137
    legacy = role_key_from_private(segwit.private_key, AddressType.P2PKH, Network.SIGNET)
    electrum = sign_bip137(legacy, "hello")
    verified = verify_message(segwit.address, "hello", electrum)
    assert verified.scheme is MessageScheme.BIP137
    assert verified.detail.startswith("lenient header")


def test_published_vectors_through_the_facade() -> None:
    basic = json.loads((VECTORS / "bip322_basic.json").read_text(encoding="utf-8"))
    entry = basic["simple"][1]
    verified = verify_message(entry["address"], entry["message"], entry["bip322_signatures"][0])
    assert verified.scheme is MessageScheme.BIP322_SIMPLE
    core = json.loads((VECTORS / "core_message_sign.json").read_text(encoding="utf-8"))["sign"]
    verified = verify_message(core["address"], core["message"], core["signature"])
    assert verified.scheme is MessageScheme.BIP137


def test_errors_from_the_facade() -> None:
    key = _key(AddressType.P2WPKH)
    with pytest.raises(InvalidAddressError):
        verify_message("not-an-address", "m", "AA==")
    with pytest.raises(InvalidAddressError, match="not a mainnet address"):
        verify_message(key.address, "m", "AA==", network=Network.MAINNET)
    with pytest.raises(SignatureFormatError):
        verify_message(key.address, "m", "%%%")
    bip137_for_other_key = sign_bip137(_key(AddressType.P2PKH), "m")
    with pytest.raises(SignatureInvalidError, match="not made by the key"):
        verify_message(key.address, "m", bip137_for_other_key)
