"""The credential of `POST /cancel`: the service's challenge for an address (`GET /challenge`),
signed by that address's own key (BIP-322; BIP-137 for a legacy P2PKH address) and checked
before it is sent.

The maker may be the ordinals address or the payment address, whichever the service lists
the bids under (`cancel.py`), so a `ChallengeCache` keeps one signed challenge per address,
reused until shortly before it expires.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from app.core.cancel_challenge import ChallengeShapeError, check_challenge
from app.net.errors import NetError
from app.net.marketplace_responses import Challenge
from app.services.context import ServiceContext
from app.services.errors import ChallengeError
from app.wallet.addresses import Network
from app.wallet.keys import RoleKey
from app.wallet.message import SignatureError, sign_message, verify_message

# Stop reusing a signed challenge this long before the service says it expires (clock skew
# and the request's own travel time).
EXPIRY_MARGIN_MS = 30_000
# A challenge without an announced expiry is reused this long (the public service's own
# client re-signs every 15 s).
UNKNOWN_EXPIRY_REUSE_MS = 15_000


@dataclass(frozen=True)
class SignedChallenge:
    challenge: str
    signature: str
    reuse_until_ms: int


class ChallengeCache:
    """The signed challenge of each of our addresses, reused until it is about to expire;
    `fetches` counts the challenges fetched (and signed) over all addresses."""

    def __init__(self) -> None:
        self._current: dict[str, SignedChallenge] = {}
        self.fetches = 0

    def invalidate(self, address: str | None = None) -> None:
        """Forget the signed challenge of `address` (of every address when None)."""
        if address is None:
            self._current.clear()
        else:
            self._current.pop(address, None)

    async def credential(self, ctx: ServiceContext, address: str | None = None) -> str:
        """A signature of a live challenge of `address` (default: the ordinals address)."""
        address = address or ctx.ordinals_address
        current = self._current.get(address)
        if current is not None and ctx.clock.now_ms() < current.reuse_until_ms:
            return current.signature
        return (await self._fresh(ctx, address)).signature

    async def _fresh(self, ctx: ServiceContext, address: str) -> SignedChallenge:
        key = signing_key_of(ctx, address)
        challenge = await fetch_challenge(ctx, address)
        self.fetches += 1
        now = ctx.clock.now_ms()
        if challenge.expires_at_ms is None:
            reuse_until = now + UNKNOWN_EXPIRY_REUSE_MS
        else:
            reuse_until = challenge.expires_at_ms - EXPIRY_MARGIN_MS
        signature = await ctx.run_cpu(_sign_challenge, key, challenge.challenge, ctx.network)
        signed = SignedChallenge(challenge.challenge, signature, reuse_until)
        self._current[address] = signed
        return signed


async def fetch_challenge(ctx: ServiceContext, address: str) -> Challenge:
    """The service's challenge for `address` (`GET /challenge`), checked safe to sign
    (`app/core/cancel_challenge.py`); `ChallengeError` when it cannot be had or is refused."""
    try:
        challenge = await ctx.clients.marketplace.get_challenge(address)
    except NetError as exc:
        raise ChallengeError(
            f"Could not get a challenge to sign for cancelling ({type(exc).__name__})."
        ) from exc
    keys = (ctx.payment_public.public_key, ctx.ordinals_public.public_key)
    try:
        check_challenge(challenge.challenge, keys)
    except ChallengeShapeError as exc:
        raise ChallengeError(
            f"The marketplace's cancel challenge was not signed: {exc}. A challenge that could "
            "pass for a bid message or name our keys might authorise something else; nothing "
            "was cancelled."
        ) from None
    return challenge


def signing_key_of(ctx: ServiceContext, address: str) -> RoleKey:
    """Our key of `address` (the ordinals or the payment key)."""
    keys = ctx.signing_keys()
    for key in (keys.ordinals, keys.payment):
        if key.address == address:
            return key
    raise ChallengeError(f"{address} is not an address of this wallet: it cannot sign for it.")


def _sign_challenge(key: RoleKey, challenge: str, network: Network) -> str:
    signed = sign_message(key, challenge)
    try:
        verify_message(key.address, challenge, signed.signature, network=network)
    except SignatureError as exc:
        raise ChallengeError(
            f"Our own signature of the challenge did not verify ({type(exc).__name__})."
        ) from None
    return signed.signature


_caches: weakref.WeakKeyDictionary[ServiceContext, ChallengeCache] = weakref.WeakKeyDictionary()


def challenge_cache(ctx: ServiceContext) -> ChallengeCache:
    """The context's cache (one per connected profile)."""
    cache = _caches.get(ctx)
    if cache is None:
        cache = _caches[ctx] = ChallengeCache()
    return cache
