"""Signatures we make are accepted by verifiers we did not write; forgeries are refused.

Independent checks: the `bip322` package (rust-bitcoin), Bitcoin Core's script interpreter
(py-bitcoinkernel) on the assembled to_sign transaction, and coincurve on the signature.
"""

from __future__ import annotations

import base64
from typing import Any

import bip322
import coincurve
import pbk
import pytest
from embit import hashes
from embit.script import Script, Witness
from embit.transaction import SIGHASH, Transaction

from app.wallet.addresses import AddressType, Network
from app.wallet.bip322 import (
    Bip322Format,
    build_to_sign,
    build_to_spend,
    sign_bip322,
    verify_bip322,
)
from app.wallet.keys import MnemonicSeed, RoleKey, derive_wallet_keys
from app.wallet.presets import custom_preset
from app.wallet.secp import (
    SignatureFormatError,
    SignatureInvalidError,
    SignatureUnsupportedError,
)

N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
SEED = MnemonicSeed(" ".join(["abandon"] * 11 + ["about"]))
MESSAGES = ["", "Hello World", "UTF-8 support: öäüéàè 测试文本 \U0001f604", "bid " * 1280]
TYPES = [AddressType.P2WPKH, AddressType.P2SH_P2WPKH, AddressType.P2TR]
PURPOSE = {AddressType.P2WPKH: 84, AddressType.P2SH_P2WPKH: 49, AddressType.P2TR: 86}
PURPOSE[AddressType.P2PKH] = 44


def _key(address_type: AddressType, network: Network = Network.MAINNET, n: int = 0) -> RoleKey:
    path = f"m/{PURPOSE[address_type]}'/{{coin}}'/0'/0/{{n}}"
    preset = custom_preset(path, address_type, path, address_type)
    return derive_wallet_keys(SEED, preset, network, n).payment


def _rust_accepts(address: str, message: str, signature: str) -> None:
    """The package returns None on success and raises otherwise: success = no exception."""
    bip322.verify_simple_encoded(address, message, signature)


def _to_sign_with(key: RoleKey, message: str, signature: str) -> tuple[Transaction, bytes]:
    """The complete to_sign transaction for a simple signature, and to_spend's output script."""
    to_sign = build_to_sign(build_to_spend(key.script_pubkey, message))
    to_sign.vin[0].witness = Witness.parse(base64.b64decode(signature))
    redeem = key.public.redeem_script
    if redeem is not None:
        to_sign.vin[0].script_sig = Script(bytes([len(redeem)]) + redeem)
    return to_sign, key.script_pubkey


def _core_accepts(script_pubkey: bytes, to_sign: bytes) -> bool:
    spk = pbk.ScriptPubkey(script_pubkey)
    tx = pbk.Transaction(to_sign)
    precomputed = pbk.script.PrecomputedTransactionData(tx, [pbk.TransactionOutput(spk, 0)])
    try:
        return bool(spk.verify(0, tx, precomputed, 0, pbk.ScriptVerificationFlags.ALL))
    except pbk.ScriptVerifyException:
        return False


def _coincurve_accepts(key: RoleKey, to_sign: Transaction, items: list[bytes]) -> bool:
    if key.address_type is AddressType.P2TR:
        hashtype = SIGHASH.DEFAULT if len(items[0]) == 64 else items[0][64]
        digest = to_sign.sighash_taproot(0, [Script(key.script_pubkey)], [0], hashtype)
        output_key = key.public.output_key
        assert output_key is not None
        return bool(coincurve.PublicKeyXOnly(output_key).verify(items[0][:64], digest))
    code = Script(b"\x76\xa9\x14" + hashes.hash160(items[1]) + b"\x88\xac")
    digest = to_sign.sighash_segwit(0, code, 0, SIGHASH.ALL)
    return bool(coincurve.PublicKey(items[1]).verify(items[0][:-1], digest, hasher=None))


@pytest.mark.parametrize("message", MESSAGES, ids=["empty", "hello", "utf8", "5kb"])
@pytest.mark.parametrize("address_type", [*TYPES, "p2tr-all"])
@pytest.mark.parametrize("network", list(Network))
def test_our_simple_signatures_pass_every_independent_verifier(
    network: Network, address_type: Any, message: str
) -> None:
    sighash = SIGHASH.ALL if address_type == "p2tr-all" else None
    kind = AddressType.P2TR if address_type == "p2tr-all" else address_type
    key = _key(kind, network)
    signature = sign_bip322(key, message, sighash=sighash)
    _rust_accepts(key.address, message, signature)
    result = verify_bip322(key.address, message, signature, network=network)
    assert result.checked_by == ("bip322-rust", "own-script-check")
    to_sign, spk = _to_sign_with(key, message, signature)
    assert _core_accepts(spk, to_sign.serialize())
    assert _coincurve_accepts(key, to_sign, list(to_sign.vin[0].witness.items))
    with pytest.raises(bip322.VerificationError):
        _rust_accepts(key.address, message + "!", signature)
    with pytest.raises(SignatureInvalidError):
        verify_bip322(key.address, message + "!", signature)


@pytest.mark.parametrize("address_type", [*TYPES, AddressType.P2PKH])
def test_our_full_signatures_pass_bitcoin_core_and_our_verifier(address_type: AddressType) -> None:
    key = _key(address_type, Network.REGTEST, 3)
    signature = sign_bip322(key, "full format", fmt=Bip322Format.FULL, prefix=True)
    assert signature.startswith("ful")
    raw = base64.b64decode(signature[3:])
    tx = Transaction.parse(raw)
    assert (tx.version, tx.locktime, tx.vin[0].sequence) == (0, 0, 0)
    assert _core_accepts(key.script_pubkey, raw)
    assert verify_bip322(key.address, "full format", signature).checked_by == ("own-script-check",)
    with pytest.raises(SignatureInvalidError):
        verify_bip322(key.address, "another message", signature)
    # Another message's signature moved onto this message's to_sign fails in Core and here.
    other = Transaction.parse(base64.b64decode(sign_bip322(key, "x", fmt=Bip322Format.FULL)))
    tx.vin[0].script_sig = other.vin[0].script_sig
    tx.vin[0].witness = other.vin[0].witness
    assert not _core_accepts(key.script_pubkey, tx.serialize())
    with pytest.raises(SignatureInvalidError):
        verify_bip322(key.address, "full format", base64.b64encode(tx.serialize()).decode())


def _forged(victim: RoleKey, attacker: RoleKey, message: str, code_from_victim: bool) -> str:
    to_sign = build_to_sign(build_to_spend(victim.script_pubkey, message))
    owner = victim if code_from_victim else attacker
    code = Script(b"\x76\xa9\x14" + hashes.hash160(owner.public.public_key) + b"\x88\xac")
    digest = to_sign.sighash_segwit(0, code, 0, SIGHASH.ALL)
    items = [attacker.sign_ecdsa(digest) + b"\x01", attacker.public.public_key]
    return base64.b64encode(Witness(items).serialize()).decode()


@pytest.mark.parametrize("address_type", [AddressType.P2WPKH, AddressType.P2SH_P2WPKH])
@pytest.mark.parametrize("code_from_victim", [False, True])
def test_a_valid_signature_by_the_wrong_key_is_rejected_by_both_verifiers(
    address_type: AddressType, code_from_victim: bool
) -> None:
    victim, attacker = _key(address_type, n=0), _key(address_type, n=1)
    forged = _forged(victim, attacker, "I own this address", code_from_victim)
    with pytest.raises(bip322.VerificationError):
        _rust_accepts(victim.address, "I own this address", forged)
    with pytest.raises(SignatureInvalidError):
        verify_bip322(victim.address, "I own this address", forged)


def _p2wpkh_signature(key: RoleKey, message: str, hashtype: int) -> tuple[bytes, bytes]:
    to_sign = build_to_sign(build_to_spend(key.script_pubkey, message))
    code = Script(b"\x76\xa9\x14" + hashes.hash160(key.public.public_key) + b"\x88\xac")
    return key.sign_ecdsa(to_sign.sighash_segwit(0, code, 0, hashtype)), key.public.public_key


def _encode(items: list[bytes]) -> str:
    return base64.b64encode(Witness(items).serialize()).decode()


def test_policy_rules_are_enforced_by_our_verifier() -> None:
    key = _key(AddressType.P2WPKH)
    der, pub = _p2wpkh_signature(key, "m", SIGHASH.NONE)
    with pytest.raises(SignatureInvalidError):
        verify_bip322(key.address, "m", _encode([der + bytes([SIGHASH.NONE]), pub]))
    der, pub = _p2wpkh_signature(key, "m", SIGHASH.ALL)
    len_r = der[3]
    r = der[4 : 4 + len_r]
    s = (N - int.from_bytes(der[6 + len_r :], "big")).to_bytes(33, "big").lstrip(b"\x00")
    s = b"\x00" + s if s[0] & 0x80 else s
    body = b"\x02" + bytes([len(r)]) + r + b"\x02" + bytes([len(s)]) + s
    high_s = b"\x30" + bytes([len(body)]) + body
    with pytest.raises(bip322.VerificationError):
        _rust_accepts(key.address, "m", _encode([high_s + b"\x01", pub]))
    with pytest.raises(SignatureInvalidError):
        verify_bip322(key.address, "m", _encode([high_s + b"\x01", pub]))


def test_a_taproot_signature_with_an_explicit_default_byte_is_rejected() -> None:
    # BIP-341 forbids a 65-byte signature ending in 0x00; the Rust crate is known to accept
    # it, our own script check is what refuses it.
    key = _key(AddressType.P2TR)
    sig64 = base64.b64decode(sign_bip322(key, "m"))[2:]
    with pytest.raises(SignatureInvalidError, match="65 ending in 0x01"):
        verify_bip322(key.address, "m", _encode([sig64 + b"\x00"]))
    with pytest.raises(SignatureInvalidError):
        verify_bip322(key.address, "m", _encode([sig64 + b"\x81"]))


def test_bytes_messages_that_are_not_utf8_use_our_verifier_alone() -> None:
    key = _key(AddressType.P2TR)
    message = b"\xff\xfe binary"
    signature = sign_bip322(key, message)
    assert verify_bip322(key.address, message, signature).checked_by == ("own-script-check",)
    with pytest.raises(SignatureInvalidError):
        verify_bip322(key.address, b"\xff\xfe other", signature)


def test_signing_refuses_what_bip322_does_not_allow() -> None:
    with pytest.raises(SignatureUnsupportedError, match="full format only"):
        sign_bip322(_key(AddressType.P2PKH), "m")
    with pytest.raises(SignatureUnsupportedError, match="SIGHASH_ALL only"):
        sign_bip322(_key(AddressType.P2WPKH), "m", sighash=SIGHASH.NONE)
    with pytest.raises(SignatureUnsupportedError, match="DEFAULT or ALL"):
        sign_bip322(_key(AddressType.P2TR), "m", sighash=0x83)
    with pytest.raises(ValueError, match="32 bytes"):
        sign_bip322(_key(AddressType.P2TR), "m", aux_rand=b"short")


def test_taproot_signatures_use_fresh_randomness_unless_aux_is_given() -> None:
    key = _key(AddressType.P2TR)
    first, second = sign_bip322(key, "m"), sign_bip322(key, "m")
    assert first != second
    fixed = bytes(range(32))
    assert sign_bip322(key, "m", aux_rand=fixed) == sign_bip322(key, "m", aux_rand=fixed)
    with_all = sign_bip322(key, "m", sighash=SIGHASH.ALL, aux_rand=fixed)
    assert len(base64.b64decode(first)) == 1 + 1 + 64
    assert len(base64.b64decode(with_all)) == 1 + 1 + 65
    for signature in (first, second, with_all, sign_bip322(key, "m", aux_rand=fixed)):
        _rust_accepts(key.address, "m", signature)


def test_malformed_encodings_are_format_errors() -> None:
    key = _key(AddressType.P2WPKH)
    raw = base64.b64decode(sign_bip322(key, "m"))
    trailing = base64.b64encode(raw + b"\x00").decode()
    truncated = base64.b64encode(raw[:-5]).decode()
    for signature in (trailing, truncated, "smp" + trailing, "ful" + trailing, "smp", "==="):
        with pytest.raises(SignatureFormatError):
            verify_bip322(key.address, "m", signature)
    with pytest.raises(SignatureUnsupportedError, match="proof-of-funds"):
        verify_bip322(key.address, "m", "pof" + base64.b64encode(raw).decode())
