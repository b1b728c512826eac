"""Shared helpers of the single-inscription bid and secure listing tests: user keys from
`app.wallet.keys` on regtest, PSBT signing with `app.wallet.psbt_signer`, and HTTP shortcuts."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import httpx
from embit.script import Script

from app.sandbox.chain.node import Node
from app.wallet.addresses import AddressType, Network
from app.wallet.keys import MnemonicSeed, RoleKey, WalletKeys, derive_wallet_keys
from app.wallet.presets import get_preset
from app.wallet.psbt_io import parse_psbt, psbt_to_base64
from app.wallet.psbt_signer import SigningKey, requests_for, sign_psbt
from tests.sandbox.txbuild import Coin as TxCoin
from tests.sandbox.txbuild import P2trKey, P2wpkhKey, spend

# The BIP-39 test mnemonic: these keys are public, for regtest tests only.
TEST_MNEMONIC = " ".join(["abandon"] * 11 + ["about"])
SIGHASH_ALL = 0x01
SIGHASH_ALL_ANYONECANPAY = 0x81


@cache
def _seed() -> MnemonicSeed:
    return MnemonicSeed(TEST_MNEMONIC)


@cache
def user(account: int, preset_id: str = "xverse-native") -> WalletKeys:
    """Payment and ordinals keys of test user number `account` (distinct per account)."""
    return derive_wallet_keys(_seed(), get_preset(preset_id), Network.REGTEST, account)


def sign(psbt_text: str, key: RoleKey, indices: Sequence[int], sighash: int) -> str:
    """Sign `indices` of a base64/hex PSBT with `key` and `sighash`; returns base64."""
    psbt = parse_psbt(psbt_text)
    sign_psbt(psbt, SigningKey(key.private_key), requests_for(indices, sighash))
    return psbt_to_base64(psbt)


async def ok(response: httpx.Response, status: int = 200) -> Any:
    """The `data` of a successful response (or the body when it has none)."""
    assert response.status_code == status, response.text
    body = response.json()
    return body.get("data", body) if isinstance(body, dict) else body


def error_code(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    code: str = response.json()["errorCode"]
    return code


def txbuild_key(key: RoleKey) -> P2wpkhKey | P2trKey:
    """The same key as the test transaction builder's key type (to spend the user's coins)."""
    spk = Script(key.script_pubkey)
    if key.address_type is AddressType.P2TR:
        return P2trKey(key.private_key, key.address, spk)
    return P2wpkhKey(key.private_key, key.address, spk)


def spend_outpoint(node: Node, key: RoleKey, outpoint: str, to_address: str) -> str:
    """Spend `outpoint` (held by `key`) to `to_address` with a real transaction; its txid."""
    txid, vout = outpoint.split(":")
    value = output_info(node, outpoint)["value"]
    coin = TxCoin(txid, int(vout), value, txbuild_key(key))
    return node.broadcast(spend([coin], [(to_address, value - 500)]).raw)


def inscription_info(node: Node, inscription_id: str) -> dict[str, Any]:
    info = node.ord_inscription(inscription_id)
    assert info is not None, inscription_id
    return info


def output_info(node: Node, outpoint: str) -> dict[str, Any]:
    out = node.ord_output(outpoint)
    assert out is not None, outpoint
    return out
