"""BIP-137 against the bitcoinjs-message and Bitcoin Core vectors, plus header leniency."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import coincurve
import pytest
from embit.ec import PrivateKey

from app.wallet.addresses import AddressType, InvalidAddressError, Network
from app.wallet.bip137 import Bip137Mode, message_hash, sign_bip137, verify_bip137
from app.wallet.keys import MnemonicSeed, RoleKey, derive_wallet_keys, role_key_from_private
from app.wallet.keys import role_key_from_wif as from_wif
from app.wallet.presets import UNISAT_P2TR, XVERSE_NATIVE
from app.wallet.secp import (
    SignatureError,
    SignatureFormatError,
    SignatureInvalidError,
    SignatureUnsupportedError,
)

VECTORS = Path(__file__).parent / "vectors"


def _load(name: str) -> Any:
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))


JS = _load("bitcoinjs_message_fixtures.json")
CORE = _load("core_message_sign.json")
SEED = MnemonicSeed(" ".join(["abandon"] * 11 + ["about"]))


def _js(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [entry for entry in entries if entry["network"] == "bitcoin"]  # dogecoin: not ours


@pytest.mark.parametrize("vector", _js(JS["valid"]["magicHash"]), ids=lambda v: v["message"])
def test_magic_hashes(vector: dict[str, str]) -> None:
    assert message_hash(vector["message"]).hex() == vector["magicHash"]


def _key(secret_hex: str, address_type: AddressType, compressed: bool = True) -> RoleKey:
    private = PrivateKey(bytes.fromhex(secret_hex), compressed=compressed)
    return role_key_from_private(private, address_type, Network.MAINNET)


def test_bitcoinjs_signatures_are_byte_identical() -> None:
    vector = _js(JS["valid"]["sign"])[0]
    d, message = vector["d"], vector["message"]
    segwit = vector["segwit"]
    cases = [
        (_key(d, AddressType.P2PKH, compressed=False), vector["signature"]),
        (_key(d, AddressType.P2PKH), vector["compressed"]["signature"]),
        (_key(d, AddressType.P2SH_P2WPKH), segwit["P2SH_P2WPKH"]["signature"]),
        (_key(d, AddressType.P2WPKH), segwit["P2WPKH"]["signature"]),
    ]
    for key, expected in cases:
        assert sign_bip137(key, message) == expected
        assert verify_bip137(key.address, message, expected).header_matches_type


def test_bitcoinjs_verify_vectors() -> None:
    vector = _js(JS["valid"]["verify"])[0]
    segwit = vector["segwit"]
    pairs = [
        (vector["address"], vector["signature"], AddressType.P2PKH),
        (vector["compressed"]["address"], vector["compressed"]["signature"], AddressType.P2PKH),
        (
            segwit["P2SH_P2WPKH"]["address"],
            segwit["P2SH_P2WPKH"]["signature"],
            AddressType.P2SH_P2WPKH,
        ),
        (segwit["P2WPKH"]["address"], segwit["P2WPKH"]["signature"], AddressType.P2WPKH),
    ]
    for address, signature, address_type in pairs:
        for mode in Bip137Mode:
            result = verify_bip137(address, vector["message"], signature, mode=mode)
            assert result.address_type is address_type


@pytest.mark.parametrize("vector", JS["invalid"]["verify"], ids=lambda v: v["description"])
def test_bitcoinjs_invalid_verifications(vector: dict[str, str]) -> None:
    with pytest.raises(SignatureInvalidError):
        verify_bip137(vector["address"], vector["message"], vector["signature"])


@pytest.mark.parametrize("vector", JS["invalid"]["signature"], ids=lambda v: v["exception"])
def test_bitcoinjs_malformed_signatures(vector: dict[str, str]) -> None:
    signature = base64.b64encode(bytes.fromhex(vector["hex"])).decode()
    with pytest.raises(SignatureFormatError):
        verify_bip137("1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs", "vires is numeris", signature)


def test_bitcoinjs_signatures_made_with_extra_entropy_verify() -> None:
    vector = JS["randomSig"][0]
    address = from_wif(vector["wif"], AddressType.P2PKH, Network.MAINNET).address
    for entry in vector["signatures"]:
        assert verify_bip137(address, vector["message"], entry["signature"]).header < 31


def test_bitcoin_core_message_sign_vector_is_byte_identical() -> None:
    sign = CORE["sign"]
    key = _key(sign["private_key_hex"], AddressType.P2PKH)
    assert key.address == sign["address"]
    assert sign_bip137(key, sign["message"]) == sign["signature"]


EXPECTED_CORE_ERRORS: dict[str, type[Exception]] = {
    "ERR_INVALID_ADDRESS": InvalidAddressError,
    "ERR_ADDRESS_NO_KEY": SignatureFormatError,  # we accept P2SH-P2WPKH, the sig is not base64
    "ERR_MALFORMED_SIGNATURE": SignatureFormatError,
    "ERR_PUBKEY_NOT_RECOVERED": SignatureError,
    "ERR_NOT_SIGNED": SignatureInvalidError,
}


@pytest.mark.parametrize("vector", CORE["verify"], ids=lambda v: v["result"])
def test_bitcoin_core_message_verify_vectors(vector: dict[str, str]) -> None:
    if vector["result"] == "OK":
        assert verify_bip137(vector["address"], vector["message"], vector["signature"])
        return
    with pytest.raises(EXPECTED_CORE_ERRORS[vector["result"]]):
        verify_bip137(vector["address"], vector["message"], vector["signature"])


@pytest.mark.parametrize("address_type", [AddressType.P2WPKH, AddressType.P2SH_P2WPKH])
def test_electrum_style_headers_pass_only_the_lenient_check(address_type: AddressType) -> None:
    keys = derive_wallet_keys(SEED, XVERSE_NATIVE, Network.REGTEST, 0)
    legacy = role_key_from_private(keys.payment.private_key, AddressType.P2PKH, Network.REGTEST)
    segwit = role_key_from_private(keys.payment.private_key, address_type, Network.REGTEST)
    signature = sign_bip137(legacy, "electrum")  # header 31-34
    result = verify_bip137(segwit.address, "electrum", signature, network=Network.REGTEST)
    assert not result.header_matches_type and result.address_type is address_type
    with pytest.raises(SignatureInvalidError):
        verify_bip137(segwit.address, "electrum", signature, mode=Bip137Mode.STRICT)
    uncompressed = PrivateKey(keys.payment.private_key.secret, compressed=False)
    old = role_key_from_private(uncompressed, AddressType.P2PKH, Network.REGTEST)
    with pytest.raises(SignatureInvalidError):  # 27-30 says uncompressed: never segwit
        verify_bip137(segwit.address, "electrum", sign_bip137(old, "electrum"))


@pytest.mark.parametrize(
    "address_type", [AddressType.P2PKH, AddressType.P2SH_P2WPKH, AddressType.P2WPKH]
)
@pytest.mark.parametrize("network", list(Network))
def test_our_signatures_recover_to_our_key_in_coincurve(
    address_type: AddressType, network: Network
) -> None:
    keys = derive_wallet_keys(SEED, XVERSE_NATIVE, network, 1)
    key = role_key_from_private(keys.payment.private_key, address_type, network)
    signature = base64.b64decode(sign_bip137(key, "bid 0.01 BTC"))
    recoverable = signature[1:] + bytes([(signature[0] - 27) & 3])
    recovered = coincurve.PublicKey.from_signature_and_message(
        recoverable, message_hash("bid 0.01 BTC"), hasher=None
    )
    assert recovered.format() == key.public.public_key
    encoded = base64.b64encode(signature).decode()
    assert verify_bip137(key.address, "bid 0.01 BTC", encoded, network=network).header_matches_type
    with pytest.raises(SignatureInvalidError):
        verify_bip137(key.address, "bid 0.02 BTC", encoded)


def test_taproot_has_no_bip137_form() -> None:
    taproot = derive_wallet_keys(SEED, UNISAT_P2TR, Network.MAINNET).payment
    with pytest.raises(SignatureUnsupportedError, match="BIP-322"):
        sign_bip137(taproot, "m")
    with pytest.raises(SignatureUnsupportedError, match="BIP-322"):
        verify_bip137(taproot.address, "m", CORE["sign"]["signature"])
