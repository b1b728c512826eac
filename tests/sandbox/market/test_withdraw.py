"""POST /v1/intent/withdraw and POST /v1/withdraw: PSBTs signed by `app.wallet`, by coincurve,
and broken ones; Core's interpreter judges what is broadcast."""

from __future__ import annotations

from typing import Any

import coincurve
import httpx
from embit.ec import PublicKey
from embit.networks import NETWORKS
from embit.script import Script

from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import parse_psbt, psbt_to_base64, psbt_to_hex
from app.wallet.psbt_signer import requests_for, sign_psbt, spent_output
from app.wallet.scripts import NUMS_H, bidding_taproot_1of2, tapleaf_hash
from app.wallet.sighash import SIGHASH_ALL, SIGHASH_DEFAULT, TaprootSigContext
from tests.sandbox.market.conftest import ClientFactory
from tests.sandbox.market.helpers import (
    User,
    bid_body,
    error,
    funded_user,
    key_for_label,
    now_ms,
    ok,
    open_bids,
    place,
)
from tests.sandbox.market.test_fill import balance, check_with_core


async def intent(client: httpx.AsyncClient, user: User, amount: int) -> tuple[FixedPSBT, Any]:
    body = {"userAddress": user.payment.address, "amount": amount}
    data = ok(await client.post("/v1/intent/withdraw", json=body))
    psbt = parse_psbt(data["unsignedPSBTBase64"])
    assert psbt_to_hex(psbt) == data["unsignedPSBTHex"]
    return psbt, data


def user_signs(psbt: FixedPSBT, user: User, sighash: int = SIGHASH_DEFAULT) -> str:
    sign_psbt(psbt, user.payment.private_key, requests_for(range(len(psbt.inputs)), sighash))
    return psbt_to_base64(psbt)


async def submit(client: httpx.AsyncClient, psbt_text: str) -> httpx.Response:
    return await client.post("/v1/withdraw", json={"signedWithdrawPSBT": psbt_text})


async def test_intent_has_every_field_a_signer_needs(client: httpx.AsyncClient) -> None:
    user, wallet = await funded_user(client, "wd-fields", 60_000)
    psbt, data = await intent(client, user, 25_000)
    assert data["paymentUtxoCount"] == len(psbt.inputs) == 1
    payment = psbt.outputs[0]
    assert (payment.script_pubkey.data, payment.value) == (user.payment.script_pubkey, 25_000)
    assert psbt.outputs[1].value == 60_000 - 25_000 - data["fee"]
    assert psbt.outputs[1].script_pubkey.address(NETWORKS["regtest"]) == wallet
    inp = psbt.inputs[0]
    assert inp.witness_utxo.value == 60_000
    assert inp.taproot_internal_key.xonly() == NUMS_H
    service = bytes.fromhex(ok(await client.get("/sandbox/info"))["servicePublicKey"])
    leaf = bidding_taproot_1of2(user.payment.public.public_key[1:], service[1:]).leaves[0]
    assert inp.taproot_merkle_root == leaf.leaf_hash
    assert inp.taproot_scripts == {leaf.control_block: leaf.script + b"\xc0"}
    [(hint_key, (leaves, _))] = inp.taproot_bip32_derivations.items()
    assert hint_key.xonly() == user.payment.public.public_key[1:] and leaves == [leaf.leaf_hash]


async def test_signed_withdrawal_is_broadcast_and_cancels_uncovered_bids(
    client: httpx.AsyncClient,
) -> None:
    user, wallet = await funded_user(client, "wd-basic", 50_000)
    ok(await place(client, bid_body(user, await now_ms(client), price=20_000, quantity=2)))
    psbt, data = await intent(client, user, 20_000)
    txid = ok(await submit(client, user_signs(psbt, user)))["txid"]
    tx = await check_with_core(client, txid)
    assert (tx["vout"][0]["scriptpubkey_address"], tx["vout"][0]["value"]) == (
        user.payment.address,
        20_000,
    )
    assert await balance(client, wallet) == 30_000 - data["fee"]
    assert len(await open_bids(client, user)) == 1  # 2 x 21,000 no longer fit


async def test_sweep_takes_the_fee_from_the_whole_balance(client: httpx.AsyncClient) -> None:
    user, wallet = await funded_user(client, "wd-sweep", 30_000)
    await funded_user(client, "wd-sweep", 0)  # same triple again: same wallet
    ok(await client.post("/sandbox/faucet", json={"address": wallet, "sats": 5_000}))
    psbt, data = await intent(client, user, 35_000)
    assert data["paymentUtxoCount"] == 2 and len(psbt.outputs) == 1
    assert psbt.outputs[0].value == 35_000 - data["fee"] == data["amount"]
    ok(await submit(client, user_signs(psbt, user, SIGHASH_ALL)))
    assert await balance(client, wallet) == 0


async def test_fee_rate_asked_is_paid_on_chain(client: httpx.AsyncClient) -> None:
    """`feeRate` (sat/vB, as POST /intent/bid takes it) sets the fee; without it 2 sat/vB;
    a value POST /intent/bid refuses is refused here too."""
    user, _ = await funded_user(client, "wd-rate", 80_000)
    body = {"userAddress": user.payment.address, "amount": 20_000}
    url = "/v1/intent/withdraw"
    default = ok(await client.post(url, json=body))
    asked = ok(await client.post(url, json={**body, "feeRate": 12}))
    assert asked["fee"] >= 5 * default["fee"]
    psbt = parse_psbt(asked["unsignedPSBTBase64"])
    txid = ok(await submit(client, user_signs(psbt, user)))["txid"]
    tx = await check_with_core(client, txid)
    rate = tx["fee"] / -(-tx["weight"] // 4)
    assert tx["fee"] == asked["fee"] and 12 <= rate <= 12 * 1.05, rate
    for bad in (0.5, "fast", True):
        error(await client.post(url, json={**body, "feeRate": bad}), 400, "INVALID_FIELD")


async def test_amount_rules(client: httpx.AsyncClient) -> None:
    user, _ = await funded_user(client, "wd-amounts", 30_000)
    url = "/v1/intent/withdraw"
    body = {"userAddress": user.payment.address}
    error(
        await client.post(url, json={**body, "amount": 29_999}),
        400,
        "WITHDRAW_INSUFFICIENT_BALANCE",
    )
    error(
        await client.post(url, json={**body, "amount": 30_001}),
        400,
        "WITHDRAW_INSUFFICIENT_BALANCE",
    )
    error(await client.post(url, json={**body, "amount": 293}), 400, "WITHDRAW_AMOUNT_INVALID")
    ok(await client.post(url, json={**body, "amount": 294}))  # the P2WPKH dust threshold
    error(await client.post(url, json={**body, "amount": "5"}), 400, "INVALID_FIELD")
    stranger = User.make("wd-nobody").payment.address
    error(
        await client.post(url, json={"userAddress": stranger, "amount": 1_000}),
        400,
        "BIDDING_WALLET_NOT_FOUND",
    )


async def test_tampered_unsigned_or_foreign_signed_psbts_are_refused(
    client: httpx.AsyncClient,
) -> None:
    user, wallet = await funded_user(client, "wd-bad", 40_000)
    psbt, _ = await intent(client, user, 10_000)
    mempool = ok(await client.get("/sandbox/info"))["mempoolSize"]
    error(await submit(client, psbt_to_base64(psbt)), 400, "WITHDRAW_SIGNATURE_MISSING")
    tampered = parse_psbt(psbt_to_base64(psbt))
    tampered.outputs[0].script_pubkey = Script(User.make("wd-thief").payment.script_pubkey)
    error(await submit(client, user_signs(tampered, user)), 400, "WITHDRAW_INTENT_NOT_FOUND")
    foreign = parse_psbt(psbt_to_base64(psbt))
    other = coincurve.PrivateKey(key_for_label("wd-other").secret)
    _schnorr_sign_all(foreign, other, as_key=other.public_key_xonly.format())
    error(await submit(client, psbt_to_base64(foreign)), 400, "WITHDRAW_SIGNATURE_INVALID")
    wrong_message = parse_psbt(psbt_to_base64(psbt))
    _schnorr_sign_all(wrong_message, _coincurve_key(user), digest=b"\x11" * 32)
    error(await submit(client, psbt_to_base64(wrong_message)), 400, "WITHDRAW_SIGNATURE_INVALID")
    error(await submit(client, "cHNidP8="), 400, "INVALID_PSBT")
    assert ok(await client.get("/sandbox/info"))["mempoolSize"] == mempool
    assert await balance(client, wallet) == 40_000


def _coincurve_key(user: User) -> coincurve.PrivateKey:
    return coincurve.PrivateKey(user.payment.private_key.secret)


def _schnorr_sign_all(
    psbt: FixedPSBT,
    key: coincurve.PrivateKey,
    as_key: bytes | None = None,
    digest: bytes | None = None,
) -> None:
    """Sign every input's leaf with coincurve over the BIP-341 script-path sighash."""
    spent = [spent_output(psbt, i) for i in range(len(psbt.inputs))]
    context = TaprootSigContext(psbt.tx, spent)
    xonly = as_key or key.public_key_xonly.format()
    for i, inp in enumerate(psbt.inputs):
        script = next(iter(inp.taproot_scripts.values()))
        leaf = tapleaf_hash(bytes(script[:-1]), script[-1])
        msg = digest or context.sighash(i, SIGHASH_DEFAULT, leaf_hash=leaf)
        inp.taproot_sigs[(PublicKey.from_xonly(xonly), leaf)] = key.sign_schnorr(msg, b"\x07" * 32)


async def test_input_signed_by_coincurve_over_the_bip341_sighash(client: httpx.AsyncClient) -> None:
    user, _ = await funded_user(client, "wd-coincurve", 40_000)
    psbt, _ = await intent(client, user, 15_000)
    _schnorr_sign_all(psbt, _coincurve_key(user))
    txid = ok(await submit(client, psbt_to_hex(psbt)))["txid"]  # hex is accepted too
    await check_with_core(client, txid)


async def test_a_psbt_the_signer_finalised_itself(client: httpx.AsyncClient) -> None:
    user, _ = await funded_user(client, "wd-final", 40_000)
    psbt, _ = await intent(client, user, 15_000)
    user_signs(psbt, user)
    finalize_psbt(psbt)
    ok(await submit(client, psbt_to_base64(psbt)))


async def test_a_spend_outside_the_service_also_cancels_bids(client: httpx.AsyncClient) -> None:
    """1-of-2: the user alone can spend the wallet; the chain watcher sees it."""
    user, _ = await funded_user(client, "wd-outside", 30_000)
    ok(await place(client, bid_body(user, await now_ms(client), price=14_000, quantity=2)))
    psbt, _ = await intent(client, user, 20_000)
    user_signs(psbt, user)
    finalize_psbt(psbt)
    raw = extract_transaction(psbt).serialize().hex()
    response = await client.post("/esplora/tx", content=raw, headers={"content-type": "text/plain"})
    assert response.status_code == 200, response.text
    assert await open_bids(client, user) == []  # 10,000 - fee covers no 15,000 bid


async def test_p2wsh_withdrawal(make_client: ClientFactory) -> None:
    client = await make_client(bidding_wallet="p2wsh")
    user, wallet = await funded_user(client, "wd-p2wsh", 40_000)
    psbt, data = await intent(client, user, 12_000)
    assert psbt.inputs[0].witness_script is not None
    txid = ok(await submit(client, user_signs(psbt, user, SIGHASH_ALL)))["txid"]
    await check_with_core(client, txid)
    assert await balance(client, wallet) == 40_000 - 12_000 - data["fee"]
