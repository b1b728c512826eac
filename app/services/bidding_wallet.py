"""The bidding wallet: which address the service gave us, what it holds, how to pay into it.

`get_bidding_wallet` asks the service (spec 4.1) with our (ordinals, payment, payment key)
triple and remembers the address in the context; `BIDDING_WALLET_IDENTITY_MISMATCH` becomes a
`BiddingWalletIdentityError` saying how to fix it. The address is checked before it is used
anywhere: it is never one of our own addresses (a "bidding wallet" that is our ordinals address
would make a withdrawal spend our inscriptions), and where the service's key is known (the
sandbox publishes it) it must be the 1-of-2 of our payment key and that key, recomputed here.
The balance is the Esplora view of that address, confirmed plus unconfirmed (spec section 1).
`bip21_uri` is for paying into it from another wallet.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import quote

from app.core.psbt_view import normalize_address
from app.net.errors import WalletIdentityMismatch
from app.net.esplora import Balance
from app.services.context import ServiceContext
from app.services.errors import BiddingWalletIdentityError, ServiceError
from app.wallet.scripts import ScriptError, bidding_p2wsh_1of2, bidding_taproot_1of2

SATS_PER_BTC = 100_000_000


class BiddingWalletSuspectError(ServiceError):
    """The service named a bidding wallet this app must not use: nothing is paid or signed."""


@dataclass(frozen=True)
class BiddingWalletInfo:
    address: str
    user_payment_address: str | None = None


@dataclass(frozen=True)
class BiddingWalletBalance:
    address: str
    confirmed: int
    unconfirmed: int

    @property
    def total(self) -> int:
        """What the service counts: confirmed and unconfirmed funds both (spec section 1)."""
        return max(0, self.confirmed + self.unconfirmed)


async def get_bidding_wallet(ctx: ServiceContext) -> BiddingWalletInfo:
    """The bidding wallet of our triple; remembered in `ctx` for reviews and balances."""
    try:
        wallet = await ctx.clients.marketplace.get_bidding_wallet(
            ctx.ordinals_address, ctx.payment_address, ctx.payment_public_key_hex
        )
    except WalletIdentityMismatch as exc:
        raise BiddingWalletIdentityError(exc.message) from exc
    check_bidding_wallet(ctx, wallet.address)
    ctx.remember_bidding_wallet(wallet.address)
    return BiddingWalletInfo(wallet.address, wallet.user_payment_address)


def check_bidding_wallet(ctx: ServiceContext, address: str) -> None:
    """Refuse a bidding wallet that is one of our own addresses, or (the service's key known)
    that is not the 1-of-2 of our payment key and the service's."""
    served = normalize_address(address)
    for role, ours in (("payment", ctx.payment_address), ("ordinals", ctx.ordinals_address)):
        if served == normalize_address(ours):
            raise BiddingWalletSuspectError(
                f"The service names your own {role} address {address} as your bidding wallet. "
                "A bidding wallet is a 1-of-2 address of your payment key and the service's; "
                "this one would let the service's PSBTs spend what that address holds. Nothing "
                "is funded, withdrawn or signed with it."
            )
    service_key = ctx.service_public_key
    if service_key is None:
        return
    expected = expected_bidding_wallets(
        ctx.payment_public.public_key, service_key, ctx.network.value
    )
    if served not in {normalize_address(a) for a in expected}:
        raise BiddingWalletSuspectError(
            f"The service names {address} as your bidding wallet, but the 1-of-2 of your "
            f"payment key and the service's published key is {' or '.join(expected)}. Nothing "
            "is funded, withdrawn or signed with it."
        )


def expected_bidding_wallets(payment_key: bytes, service_key: bytes, network: str) -> list[str]:
    """The two forms the spec's 1-of-2 takes (taproot multi_a, P2WSH multisig)."""
    try:
        return [
            bidding_taproot_1of2(payment_key[-32:], service_key[-32:]).address(network),
            bidding_p2wsh_1of2(payment_key, service_key).address(network),
        ]
    except ScriptError as exc:
        raise BiddingWalletSuspectError(
            f"The service's published key cannot form a bidding wallet ({exc})."
        ) from None


async def bidding_wallet_address(ctx: ServiceContext) -> str:
    """The remembered address, or ask the service once."""
    known = ctx.bidding_wallet_address
    if known is not None:
        return known
    return (await get_bidding_wallet(ctx)).address


async def bidding_wallet_balance(ctx: ServiceContext) -> BiddingWalletBalance:
    address = await bidding_wallet_address(ctx)
    balance: Balance = await ctx.clients.esplora.address_balance(address)
    return BiddingWalletBalance(address, balance.confirmed, balance.unconfirmed)


def format_btc(sats: int) -> str:
    """Sats as a BTC decimal without exponent or trailing zeros: 150000 -> "0.0015"."""
    if sats < 0:
        raise ValueError("an amount cannot be negative")
    text = format(Decimal(sats) / SATS_PER_BTC, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def bip21_uri(
    address: str,
    amount_sats: int | None = None,
    label: str | None = None,
    message: str | None = None,
) -> str:
    """A BIP-21 payment URI: `bitcoin:<address>?amount=<btc>&label=<text>&message=<text>`."""
    if not address or any(c in address for c in "?&=# "):
        raise ServiceError(f"{address!r} is not an address that can go in a payment link")
    params = []
    if amount_sats is not None:
        if amount_sats <= 0:
            raise ServiceError("a payment link's amount must be positive")
        params.append(f"amount={format_btc(amount_sats)}")
    if label:
        params.append(f"label={quote(label, safe='')}")
    if message:
        params.append(f"message={quote(message, safe='')}")
    return f"bitcoin:{address}" + (f"?{'&'.join(params)}" if params else "")


async def funding_uri(ctx: ServiceContext, amount_sats: int | None = None) -> str:
    """The link (and QR text) to fund our bidding wallet from any other wallet."""
    address = await bidding_wallet_address(ctx)
    return bip21_uri(address, amount_sats, label="Bidwallet bidding wallet")
