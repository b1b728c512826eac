"""Address decoding and encoding: kinds, networks, and refusals."""

from __future__ import annotations

import pytest

from app.wallet.addresses import (
    InvalidAddressError,
    Network,
    ScriptKind,
    address_from_script_pubkey,
    decode_address,
)

# Addresses taken from the vector files (BIP-84/86/49, bitcoinjs-message, BIP-322).
P2WPKH = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
P2TR = "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr"
P2WSH = "bc1qp0ahvfh83088w49k405szqgg4f3pptr7p2g06tdxfjcd40z4lh4q95lsz9"
P2PKH = "1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs"
P2SH = "3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN"
TESTNET_P2SH = "2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2"
TESTNET_P2TR = "tb1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5s3g3s37"
TESTNET_P2PKH = "mjSSLdHFzft9NC5NNMik7WrMQ9rRhMhNpT"


@pytest.mark.parametrize(
    ("address", "kind", "spk_prefix", "networks"),
    [
        (P2WPKH, ScriptKind.P2WPKH, "0014", {Network.MAINNET}),
        (P2TR, ScriptKind.P2TR, "5120", {Network.MAINNET}),
        (P2WSH, ScriptKind.P2WSH, "0020", {Network.MAINNET}),
        (P2PKH, ScriptKind.P2PKH, "76a914", {Network.MAINNET}),
        (P2SH, ScriptKind.P2SH, "a914", {Network.MAINNET}),
        (TESTNET_P2SH, ScriptKind.P2SH, "a914", {Network.TESTNET, Network.SIGNET, Network.REGTEST}),
        (TESTNET_P2TR, ScriptKind.P2TR, "5120", {Network.TESTNET, Network.SIGNET}),
        (
            TESTNET_P2PKH,
            ScriptKind.P2PKH,
            "76a914",
            {Network.TESTNET, Network.SIGNET, Network.REGTEST},
        ),
    ],
)
def test_decoding_and_reencoding(
    address: str, kind: ScriptKind, spk_prefix: str, networks: set[Network]
) -> None:
    decoded = decode_address(address)
    assert decoded.kind is kind
    assert decoded.networks == networks
    assert decoded.script_pubkey.hex().startswith(spk_prefix)
    assert decoded.program in decoded.script_pubkey
    for network in networks:
        assert address_from_script_pubkey(decoded.script_pubkey, network) == address


def test_regtest_bech32_and_uppercase() -> None:
    spk = decode_address(P2WPKH).script_pubkey
    regtest = address_from_script_pubkey(spk, Network.REGTEST)
    assert regtest.startswith("bcrt1q")
    assert decode_address(regtest, Network.REGTEST).networks == {Network.REGTEST}
    assert decode_address(P2WPKH.upper()).script_pubkey == spk


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not an address",
        P2WPKH[:-1] + ("q" if P2WPKH[-1] != "q" else "p"),  # bad checksum
        P2WPKH[:10] + P2WPKH[10:].upper(),  # mixed case
        P2PKH[:-1] + "z",
        "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs",  # witness v2 (BIP-350 vector): not supported
        "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",  # BIP-350: v0 encoded with bech32m
    ],
)
def test_invalid_addresses_are_refused_without_being_echoed(text: str) -> None:
    with pytest.raises(InvalidAddressError, match="not a valid Bitcoin address") as caught:
        decode_address(text)
    if text:
        assert text not in str(caught.value)


def test_network_mismatch_is_named() -> None:
    with pytest.raises(InvalidAddressError, match="not a testnet address"):
        decode_address(P2WPKH, Network.TESTNET)
    with pytest.raises(InvalidAddressError, match="not a regtest address"):
        decode_address(TESTNET_P2TR, Network.REGTEST)
    assert decode_address(TESTNET_P2SH, Network.REGTEST).kind is ScriptKind.P2SH


def test_a_script_without_address_form_is_refused() -> None:
    with pytest.raises(InvalidAddressError, match="no address form"):
        address_from_script_pubkey(b"\x6a", Network.MAINNET)
