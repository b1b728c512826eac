"""The bidding wallet use cases against a real sandbox process: get (and the identity rule),
balance (confirmed + unconfirmed), and the BIP-21 payment link to it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from app.services.bidding_wallet import (
    BiddingWalletSuspectError,
    bidding_wallet_balance,
    expected_bidding_wallets,
    funding_uri,
    get_bidding_wallet,
)
from app.services.context import ServiceContext
from app.services.errors import BiddingWalletIdentityError
from app.services.withdraw import prepare_withdraw
from app.wallet.addresses import Network, ScriptKind, decode_address
from app.wallet.keys import WalletKeys
from tests.services.conftest import (
    ContextFactory,
    KeysFactory,
    SandboxControl,
    SandboxFaults,
    new_mnemonic,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

WALLET_PATH = "/v1/address/bidding-wallet"


async def test_get_bidding_wallet_is_stable_and_remembered(ctx: ServiceContext) -> None:
    first = await get_bidding_wallet(ctx)
    again = await get_bidding_wallet(ctx)
    assert first.address == again.address
    assert ctx.bidding_wallet_address == first.address
    decoded = decode_address(first.address, Network.REGTEST)
    assert decoded.kind in (ScriptKind.P2TR, ScriptKind.P2WSH)
    assert first.address not in (ctx.payment_address, ctx.ordinals_address)


async def test_identity_mismatch_is_surfaced_with_the_fix(
    make_keys: KeysFactory, make_context: ContextFactory
) -> None:
    mnemonic = new_mnemonic()
    # Leather and Xverse share the ordinals address of account 0 but not the payment address
    # type (P2WPKH vs P2SH-P2WPKH): the second request is another identity for that wallet.
    leather = make_context(make_keys("leather", mnemonic))
    xverse = make_context(make_keys("xverse", mnemonic))
    assert leather.ordinals_address == xverse.ordinals_address
    assert leather.payment_address != xverse.payment_address
    await get_bidding_wallet(leather)
    with pytest.raises(BiddingWalletIdentityError) as caught:
        await get_bidding_wallet(xverse)
    message = caught.value.user_message
    assert caught.value.service_message in message
    assert "same payment address type" in message
    assert "new ordinals address" in message
    assert xverse.bidding_wallet_address is None
    # The first identity still works.
    assert (await get_bidding_wallet(leather)).address == leather.bidding_wallet_address


async def test_balance_counts_unconfirmed_then_confirmed(
    ctx: ServiceContext, sandbox: SandboxControl
) -> None:
    wallet = await get_bidding_wallet(ctx)
    empty = await bidding_wallet_balance(ctx)
    assert (empty.confirmed, empty.unconfirmed, empty.total) == (0, 0, 0)
    await sandbox.faucet(wallet.address, 120_000, mine=False)
    pending = await bidding_wallet_balance(ctx)
    assert (pending.confirmed, pending.unconfirmed, pending.total) == (0, 120_000, 120_000)
    await sandbox.mine()
    mined = await bidding_wallet_balance(ctx)
    assert (mined.confirmed, mined.unconfirmed, mined.total) == (120_000, 0, 120_000)


async def test_funding_uri_pays_the_bidding_wallet(ctx: ServiceContext) -> None:
    uri = await funding_uri(ctx, 250_000)
    parts = urlsplit(uri)
    assert parts.scheme == "bitcoin"
    assert parts.path == ctx.bidding_wallet_address
    query = parse_qs(parts.query)
    assert query["amount"] == ["0.0025"]
    assert query["label"] == ["Bidwallet bidding wallet"]


async def _serve_bidding_wallet(
    sandbox: SandboxControl, faults: SandboxFaults, ctx: ServiceContext, address: str
) -> None:
    """A hostile service: `GET /v1/address/bidding-wallet` names `address` (the sandbox's
    honest answer for ctx, its addresses replaced, answered in its place from now on)."""
    params = {
        "ordinalsAddress": ctx.ordinals_address,
        "paymentAddress": ctx.payment_address,
        "paymentPubkey": ctx.payment_public_key_hex,
    }
    honest = await sandbox.http.get(WALLET_PATH, params=params)
    assert honest.status_code == 200, honest.text
    answer = honest.json()
    data = answer["data"]
    data["address"] = address
    if isinstance(data.get("multiSig"), dict):
        data["multiSig"]["address"] = address
    await faults.arm("reply", WALLET_PATH, method="GET", status=200, body=answer, times=None)


async def test_a_bidding_wallet_that_is_our_own_address_is_refused(
    make_context: ContextFactory,
    funded_keys: WalletKeys,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
) -> None:
    """Issue 12, class 4: a "withdrawal" from our ordinals address would spend inscriptions."""
    ctx = make_context(funded_keys)
    ctx.service_public_key = None  # even where the service's key is not known
    await _serve_bidding_wallet(sandbox, sandbox_faults, ctx, ctx.ordinals_address)
    with pytest.raises(BiddingWalletSuspectError, match="your own ordinals address"):
        await get_bidding_wallet(ctx)
    assert ctx.bidding_wallet_address is None
    with pytest.raises(BiddingWalletSuspectError):
        await prepare_withdraw(ctx, 10_000)
    asked = await sandbox_faults.requests("POST", "/v1/intent/withdraw")
    assert [r for r in asked if r.body["userAddress"] == ctx.payment_address] == []


async def test_a_bidding_wallet_other_than_the_recomputed_one_is_refused(
    make_context: ContextFactory,
    funded_keys: WalletKeys,
    make_keys: KeysFactory,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
    sandbox_service_key: bytes,
) -> None:
    """The sandbox publishes its key: the 1-of-2 is recomputed; a well-formed 1-of-2 of some
    other key (the service's own wallet, say) is not ours to fund."""
    ctx = make_context(funded_keys)
    stranger = make_keys().payment.public.public_key
    other = expected_bidding_wallets(stranger, sandbox_service_key, "regtest")[0]
    await _serve_bidding_wallet(sandbox, sandbox_faults, ctx, other)
    with pytest.raises(BiddingWalletSuspectError, match="published key is"):
        await get_bidding_wallet(ctx)
    await sandbox_faults.clear()  # the service honest again
    honest = make_context(funded_keys)
    served = (await get_bidding_wallet(honest)).address
    mine = funded_keys.payment.public.public_key
    assert served in expected_bidding_wallets(mine, sandbox_service_key, "regtest")
