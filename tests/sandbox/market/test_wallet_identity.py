"""GET /v1/address/bidding-wallet: the 1-of-2 multisig and the identity binding (spec 2.1, 4.1)."""

from __future__ import annotations

import httpx

from app.wallet.addresses import AddressType, KeyRole, Network
from app.wallet.keys import role_key_from_private
from app.wallet.scripts import bidding_p2wsh_1of2, bidding_taproot_1of2
from tests.sandbox.market.conftest import ClientFactory
from tests.sandbox.market.helpers import User, error, key_for_label, ok, tie

WALLET = "/v1/address/bidding-wallet"


def params(ordinals: str, payment: str, pubkey: str) -> dict[str, str]:
    return {"ordinalsAddress": ordinals, "paymentAddress": payment, "paymentPubkey": pubkey}


async def service_pubkey(client: httpx.AsyncClient) -> bytes:
    return bytes.fromhex(ok(await client.get("/sandbox/info"))["servicePublicKey"])


async def test_taproot_wallet_is_the_sorted_multi_a_leaf_under_nums(
    client: httpx.AsyncClient,
) -> None:
    user = User.make("wallet-taproot")
    address = await tie(client, user)
    service = await service_pubkey(client)
    user_xonly = user.payment.public.public_key[1:]
    assert address == bidding_taproot_1of2(user_xonly, service[1:]).address("regtest")
    # The first request ties it; the same triple gets the same wallet again.
    assert await tie(client, user) == address


async def test_p2wsh_wallet_when_configured(make_client: ClientFactory) -> None:
    client = await make_client(bidding_wallet="p2wsh")
    user = User.make("wallet-p2wsh")
    data = ok(
        await client.get(
            WALLET, params=params(user.ordinals.address, user.payment.address, user.pubkey_hex)
        )
    )
    service = await service_pubkey(client)
    expected = bidding_p2wsh_1of2(user.payment.public.public_key, service).address("regtest")
    assert data["multiSig"] == {"address": expected, "type": "p2wsh"}
    assert data["address"] == expected and data["userPaymentAddress"] == user.payment.address


async def test_taproot_payment_key_compressed_or_xonly_is_one_identity(
    client: httpx.AsyncClient,
) -> None:
    user = User.make("wallet-p2tr-payment", AddressType.P2TR)
    compressed = user.pubkey_hex
    first = await tie(client, user, compressed)
    assert await tie(client, user, compressed[2:]) == first  # 32-byte x-only form
    other_parity = ("03" if compressed[:2] == "02" else "02") + compressed[2:]
    assert await tie(client, user, other_parity) == first  # same x-only key, same output key


async def test_another_payment_address_type_is_a_mismatch_that_says_how_to_fix_it(
    client: httpx.AsyncClient,
) -> None:
    user = User.make("wallet-type")
    await tie(client, user)
    nested = role_key_from_private(
        key_for_label("wallet-type:payment"),
        AddressType.P2SH_P2WPKH,
        Network.REGTEST,
        KeyRole.PAYMENT,
    )
    response = await client.get(
        WALLET, params=params(user.ordinals.address, nested.address, user.pubkey_hex)
    )
    body = error(response, 400, "BIDDING_WALLET_IDENTITY_MISMATCH")
    assert "tied to a P2WPKH payment address" in body["message"]
    assert (
        "select that address type in your wallet or use a new ordinals address" in (body["message"])
    )


async def test_another_ordinals_address_is_a_mismatch_naming_the_tied_one(
    client: httpx.AsyncClient,
) -> None:
    user = User.make("wallet-ordinals")
    await tie(client, user)
    stranger = User.make("wallet-ordinals-other")
    response = await client.get(
        WALLET, params=params(stranger.ordinals.address, user.payment.address, user.pubkey_hex)
    )
    body = error(response, 400, "BIDDING_WALLET_IDENTITY_MISMATCH")
    assert user.ordinals.address in body["message"]
    assert "use that ordinals address" in body["message"]


async def test_another_payment_account_for_a_tied_ordinals_address_is_a_mismatch(
    client: httpx.AsyncClient,
) -> None:
    user = User.make("wallet-account")
    await tie(client, user)
    other = User.make("wallet-account-2")
    response = await client.get(
        WALLET, params=params(user.ordinals.address, other.payment.address, other.pubkey_hex)
    )
    body = error(response, 400, "BIDDING_WALLET_IDENTITY_MISMATCH")
    assert user.payment.address in body["message"]
    # The other user's own triple is still free.
    assert await tie(client, other)


async def test_same_key_behind_another_payment_address_is_a_mismatch(
    client: httpx.AsyncClient,
) -> None:
    user = User.make("wallet-key")
    await tie(client, user)
    legacy = role_key_from_private(
        key_for_label("wallet-key:payment"), AddressType.P2PKH, Network.REGTEST, KeyRole.PAYMENT
    )
    fresh_ordinals = User.make("wallet-key-fresh").ordinals.address
    response = await client.get(
        WALLET, params=params(fresh_ordinals, legacy.address, user.pubkey_hex)
    )
    body = error(response, 400, "BIDDING_WALLET_IDENTITY_MISMATCH")
    assert "payment key already backs" in body["message"]


async def test_pubkey_must_belong_to_the_payment_address(client: httpx.AsyncClient) -> None:
    user, other = User.make("wallet-pub"), User.make("wallet-pub-other")
    response = await client.get(
        WALLET, params=params(user.ordinals.address, user.payment.address, other.pubkey_hex)
    )
    error(response, 400, "PUBKEY_ADDRESS_MISMATCH")
    taproot = User.make("wallet-pub-p2tr", AddressType.P2TR)
    response = await client.get(
        WALLET,
        params=params(taproot.ordinals.address, taproot.payment.address, other.pubkey_hex[2:]),
    )
    error(response, 400, "PUBKEY_ADDRESS_MISMATCH")
    # x-only is for Taproot payment addresses only.
    response = await client.get(
        WALLET, params=params(user.ordinals.address, user.payment.address, user.pubkey_hex[2:])
    )
    error(response, 400, "INVALID_FIELD")
    # Nothing was tied by the refused requests: the right key still works.
    assert await tie(client, user)


async def test_bad_addresses_and_missing_parameters_are_400(client: httpx.AsyncClient) -> None:
    user = User.make("wallet-bad")
    mainnet = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"
    response = await client.get(
        WALLET, params=params(user.ordinals.address, mainnet, user.pubkey_hex)
    )
    assert error(response, 400, "INVALID_ADDRESS")["field"] == "paymentAddress"
    response = await client.get(
        WALLET, params={"ordinalsAddress": user.ordinals.address, "paymentAddress": mainnet}
    )
    error(response, 400, "INVALID_REQUEST")
    response = await client.get(
        WALLET, params=params(user.ordinals.address, user.payment.address, "02" + "zz" * 32)
    )
    assert response.status_code == 400
