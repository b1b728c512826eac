"""Why a pasted message signature does not verify (app/wallet/message_mismatch): each mistake
a user makes with a signer, made here with real signatures of the "abandon ... about" keys."""

from __future__ import annotations

import base64

import pytest

from app.wallet.addresses import AddressType, Network
from app.wallet.keys import MnemonicSeed, RoleKey, derive_wallet_keys
from app.wallet.message import MessageScheme, sign_message
from app.wallet.message_mismatch import SignatureMismatch, why_not_verified
from app.wallet.presets import (
    UNISAT_P2PKH,
    UNISAT_P2SH_P2WPKH,
    UNISAT_P2TR,
    UNISAT_P2WPKH,
    Preset,
)

SEED = MnemonicSeed(" ".join(["abandon"] * 11 + ["about"]))
OTHER_SEED = MnemonicSeed(" ".join(["zoo"] * 11 + ["wrong"]))
NET = Network.REGTEST
MESSAGE = "bcrt1q...:02ab...:collection:pixel-pals:20000:1:1795629318353:1795629200000"
PRESET_OF: dict[AddressType, Preset] = {
    AddressType.P2PKH: UNISAT_P2PKH,
    AddressType.P2SH_P2WPKH: UNISAT_P2SH_P2WPKH,
    AddressType.P2WPKH: UNISAT_P2WPKH,
    AddressType.P2TR: UNISAT_P2TR,
}


def _key(address_type: AddressType, seed: MnemonicSeed = SEED) -> RoleKey:
    return derive_wallet_keys(seed, PRESET_OF[address_type], NET, 0).payment


def _why(key: RoleKey, signature: str) -> SignatureMismatch:
    return why_not_verified(key.address, MESSAGE, signature, NET)


@pytest.mark.parametrize("text", ["not a signature", "AAAAA", "", "%%%"])
def test_text_that_is_not_base64(text: str) -> None:
    assert _why(_key(AddressType.P2WPKH), text) is SignatureMismatch.NOT_BASE64


def test_base64_that_is_no_signature() -> None:
    junk = base64.b64encode(b"\xff" * 40).decode()
    assert _why(_key(AddressType.P2WPKH), junk) is SignatureMismatch.NOT_A_SIGNATURE


@pytest.mark.parametrize("address_type", list(AddressType))
@pytest.mark.parametrize("edit", ["\n", "\r\n"])
def test_a_line_ending_added_by_the_signer(address_type: AddressType, edit: str) -> None:
    key = _key(address_type)
    signed = sign_message(key, MESSAGE + edit).signature
    assert _why(key, signed) is SignatureMismatch.LINE_ADDED


def test_crlf_line_endings_in_a_message_of_several_lines() -> None:
    key = _key(AddressType.P2WPKH)
    message = "first line\nsecond line"
    signed = sign_message(key, message.replace("\n", "\r\n")).signature
    assert why_not_verified(key.address, message, signed, NET) is SignatureMismatch.LINE_ADDED


@pytest.mark.parametrize(
    ("address_type", "signer_type"),
    [
        (AddressType.P2WPKH, AddressType.P2WPKH),  # the same type, another wallet's key
        (AddressType.P2WPKH, AddressType.P2TR),  # the taproot (ordinals) key instead
        (AddressType.P2SH_P2WPKH, AddressType.P2SH_P2WPKH),
        (AddressType.P2TR, AddressType.P2WPKH),  # a segwit v0 key for a taproot address
    ],
)
def test_another_key(address_type: AddressType, signer_type: AddressType) -> None:
    signed = sign_message(_key(signer_type, OTHER_SEED), MESSAGE).signature
    assert _why(_key(address_type), signed) is SignatureMismatch.OTHER_KEY


@pytest.mark.parametrize("address_type", [AddressType.P2WPKH, AddressType.P2SH_P2WPKH])
def test_the_right_key_signed_other_text(address_type: AddressType) -> None:
    key = _key(address_type)
    signed = sign_message(key, MESSAGE.replace("20000", "21000")).signature
    assert _why(key, signed) is SignatureMismatch.OTHER_MESSAGE


def test_what_taproot_and_bip137_signatures_cannot_say() -> None:
    taproot = _key(AddressType.P2TR)
    other_text = sign_message(taproot, "other text").signature
    other_key = sign_message(_key(AddressType.P2TR, OTHER_SEED), MESSAGE).signature
    assert _why(taproot, other_text) is _why(taproot, other_key) is SignatureMismatch.UNKNOWN
    legacy = _key(AddressType.P2PKH)
    signed = sign_message(legacy, "other text", MessageScheme.BIP137).signature
    assert _why(legacy, signed) is SignatureMismatch.UNKNOWN
