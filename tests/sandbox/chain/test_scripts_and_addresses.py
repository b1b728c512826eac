"""Addresses, Core's dust thresholds and Esplora's script descriptions."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.sandbox.chain.addresses import address_for_script, script_for_address
from app.sandbox.chain.consensus import dust_threshold
from app.sandbox.chain.errors import InvalidRequest
from app.sandbox.chain.script_info import script_asm, script_type

P2PKH = bytes.fromhex("76a914" + "11" * 20 + "88ac")
P2SH = bytes.fromhex("a914" + "22" * 20 + "87")
P2WPKH = bytes.fromhex("0014" + "33" * 20)
P2WSH = bytes.fromhex("0020" + "44" * 32)
P2TR = bytes.fromhex("5120" + "55" * 32)


@pytest.mark.parametrize(
    ("spk", "dust", "kind"),
    [(P2PKH, 546, "p2pkh"), (P2SH, 540, "p2sh"), (P2WPKH, 294, "v0_p2wpkh"),
     (P2WSH, 330, "v0_p2wsh"), (P2TR, 330, "v1_p2tr"), (bytes.fromhex("6a00"), 0, "op_return")],
)  # fmt: skip
def test_core_dust_thresholds_and_types(spk: bytes, dust: int, kind: str) -> None:
    assert dust_threshold(spk) == dust
    assert script_type(spk) == kind


@pytest.mark.parametrize("spk", [P2PKH, P2SH, P2WPKH, P2WSH, P2TR])
def test_addresses_round_trip(spk: bytes) -> None:
    address = address_for_script(spk)
    assert address is not None
    assert script_for_address(address) == spk
    assert address.startswith(("bcrt1", "m", "n", "2"))


@pytest.mark.parametrize(
    ("address", "code"),
    [
        ("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "WRONG_NETWORK"),
        ("1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "WRONG_NETWORK"),
        ("bcrt1qqqqqqq", "INVALID_ADDRESS"),
        ("not an address", "INVALID_ADDRESS"),
        ("", "INVALID_ADDRESS"),
        ("x" * 200, "INVALID_ADDRESS"),
    ],
)
def test_bad_addresses(address: str, code: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        script_for_address(address)
    assert caught.value.code == code


def test_invalid_input_is_not_echoed() -> None:
    secret_like = "cVt4o7BGAig1UXywgGSmARhxMdzP5qvQsxKkSsc1XEkw3tDTQFpy"
    with pytest.raises(InvalidRequest) as caught:
        script_for_address(secret_like)
    assert secret_like not in caught.value.message


@given(st.text(max_size=120))
def test_any_text_is_an_address_or_an_invalid_request(text: str) -> None:
    with contextlib.suppress(InvalidRequest):
        script_for_address(text)


def test_asm_in_rust_bitcoin_format() -> None:
    assert script_asm(P2PKH) == (
        f"OP_DUP OP_HASH160 OP_PUSHBYTES_20 {'11' * 20} OP_EQUALVERIFY OP_CHECKSIG"
    )
    assert script_asm(P2TR) == f"OP_PUSHNUM_1 OP_PUSHBYTES_32 {'55' * 32}"
    assert script_asm(bytes.fromhex("4c0201ff")) == "OP_PUSHDATA1 01ff"
    assert script_asm(bytes.fromhex("4c05ff")) == "<push past end>"
