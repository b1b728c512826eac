"""Bids and cancels of a profile whose keys sign in another wallet (watch-only): the exact text
to sign is handed out with the address that must sign it, the signature made elsewhere comes
back, is verified here (BIP-322, or BIP-137 for a legacy address) and only then is sent.

    wanted = await prepare_bid_message(ctx, spec)       # pre-flight: every rule and pool
    # the user signs wanted.message with wanted.address in the other wallet, within 2 minutes
    outcome = await place_signed_bid(ctx, wanted, signature)

    wanted = await prepare_cancel(ctx, bid_ids)         # one challenge per address that cancels
    report = await cancel_with_signatures(ctx, wanted, {address: signature, ...})

A bid message carries its timestamp, which the marketplace accepts for less than 2 minutes
(spec section 8): the signature must come back within that time, and a late one is refused
here with the reason rather than sent. One signed message places one bid request, so a
signature is sent once, never again by the retry rules. Unless the marketplace refused it, an
answer that is not a confirmation (a rate limit, a server error, none) is followed by a read of
the open bids under both addresses, and the user is told what it shows: placed, not placed,
or, when the list cannot be read either, unknown (look before signing a new message). A
cancel challenge lives as long as the service says (the sandbox: 10 minutes); a refused one is
final too.

Transactions signed elsewhere (funding, withdrawals, inscription bids, listings) go through
`offline.export_for_signing` and `offline.import_signed`, the same files as offline signing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from app.core.bid_message import bid_message
from app.core.bid_request import CollectionBidRequest
from app.core.limits import TIMESTAMP_MAX_AGE_MS
from app.services.bid_retry import (
    Attempt,
    AttemptResult,
    Placement,
    count_matching,
    place_with_retries,
)
from app.services.bidding_wallet import bidding_wallet_balance
from app.services.bids import BidOutcome, BidSpec, canonical_spec, preflight
from app.services.cancel import CancelReport, cancel_bids, maker_addresses
from app.services.cancel_credentials import (
    EXPIRY_MARGIN_MS,
    ChallengeCache,
    SignedChallenge,
    fetch_challenge,
)
from app.services.context import ServiceContext
from app.services.errors import (
    BidNotPlacedError,
    BidRequestRefusedError,
    ChallengeError,
    NetError,
    ServiceError,
)
from app.services.open_bids import fetch_open_bids
from app.wallet.addresses import InvalidAddressError, Network
from app.wallet.message import MessageScheme, SignatureError, verify_message
from app.wallet.message_mismatch import SignatureMismatch, why_not_verified

# Sent no later than this before the marketplace stops accepting the timestamp (travel time).
SEND_MARGIN_MS: Final = 5_000
MAX_SIGNATURE_FILE_BYTES: Final = 16_384  # a BIP-322 signature is a few hundred characters


class ImportedSignatureError(ServiceError):
    """A signature made elsewhere does not prove the address signed this very text."""


class SignatureTooLateError(ServiceError):
    """The signed message or challenge is too old for the marketplace to accept."""


class SignatureFileError(ServiceError):
    """A message could not be saved, or a signature file could not be read."""


@dataclass(frozen=True)
class BidToSign:
    """A bid request checked against every rule and pool, waiting for its signature."""

    spec: BidSpec
    request: CollectionBidRequest  # unsigned; its timestamp is in the message
    message: str  # exactly what the payment key signs
    address: str  # the payment address that must sign it
    baseline: int  # listed bids matching it before it is sent (the retry rule's reading)

    @property
    def deadline_ms(self) -> int:
        """When the marketplace stops accepting this message's timestamp."""
        return self.request.timestamp + TIMESTAMP_MAX_AGE_MS


async def prepare_bid_message(ctx: ServiceContext, spec: BidSpec) -> BidToSign:
    """The exact message of `spec`'s bid, timestamped now, after the pre-flight checks of
    `bids.place_bid` (`BidRejectedError`, `PoolDoesNotFitError`: nothing to sign)."""
    spec = await canonical_spec(ctx, spec)
    balance = (await bidding_wallet_balance(ctx)).total
    entries = await fetch_open_bids(ctx)
    unsigned = preflight(ctx, spec, entries, balance)
    return BidToSign(
        spec,
        unsigned,
        bid_message(unsigned),
        ctx.payment_address,
        count_matching(entries, unsigned),
    )


async def place_signed_bid(ctx: ServiceContext, wanted: BidToSign, signature: str) -> BidOutcome:
    """Verify `signature` of `wanted.message` by `wanted.address`, then send it once."""
    signature = signature.strip()
    await _verify(ctx, wanted.address, wanted.message, signature, "bid message")
    if ctx.clock.now_ms() >= wanted.deadline_ms - SEND_MARGIN_MS:
        raise SignatureTooLateError(
            "The signature is valid but came back too late: the marketplace accepts a signed "
            "bid for 2 minutes after its message was made. Nothing was sent; make a new "
            "message and sign it again."
        )
    signed = replace(wanted.request, signed_bidding_message=signature)

    async def the_signed_request(_timestamp: int) -> CollectionBidRequest:
        return signed  # signed elsewhere for its own timestamp: sent as it is, once

    try:
        placement = await place_with_retries(
            ctx, the_signed_request, wanted.baseline, max_attempts=1
        )
    except BidRequestRefusedError:
        raise  # the marketplace's own refusal, with its reason: it did not place the bid
    except (BidNotPlacedError, NetError) as exc:
        # A rate limit, a server error, no answer or an unreadable one: the marketplace may
        # have placed it. Only the open bids, read now, say whether it did.
        placement = await _placed_after_all(ctx, wanted, signed, exc)
    return BidOutcome(wanted.spec, placement)


async def _placed_after_all(
    ctx: ServiceContext, wanted: BidToSign, signed: CollectionBidRequest, cause: Exception
) -> Placement:
    """The placement when the open bids (under both addresses) now hold one more bid matching
    `signed` than before it was sent; otherwise raises, saying it is not there, or that the
    list could not be read and so nobody knows."""
    try:
        entries = await fetch_open_bids(ctx)
    except NetError as exc:
        raise BidNotPlacedError(
            "The signed bid was sent once, the marketplace did not confirm it (it was busy or "
            f"did not answer), and then your open bids could not be read ({type(exc).__name__})"
            ": it is unknown whether the bid was placed. Look at your open bids before signing "
            "a new message: signing again may place a second bid."
        ) from exc
    if count_matching(entries, signed) > wanted.baseline:
        label = type(cause.__cause__ or cause).__name__
        return Placement(
            signed, (Attempt(signed.timestamp, AttemptResult.FOUND_AFTER_ERROR, label),)
        )
    raise BidNotPlacedError(
        "The signed bid was sent once and the marketplace did not confirm it (it was busy or "
        "did not answer); your open bids were read since and it is not among them: it was not "
        "placed. A signed message is never sent twice: place the bid again (when the "
        "marketplace accepts bids again) for a new message to sign."
    ) from cause


@dataclass(frozen=True)
class ChallengeToSign:
    address: str
    challenge: str
    expires_at_ms: int | None  # None: the service did not say


@dataclass(frozen=True)
class CancelToSign:
    bid_ids: tuple[str, ...]
    challenges: tuple[ChallengeToSign, ...]  # one per address that may have to cancel


async def prepare_cancel(ctx: ServiceContext, bid_ids: Sequence[str]) -> CancelToSign:
    """The challenge of each address a cancel of `bid_ids` may present (usually one)."""
    ids = tuple(dict.fromkeys(bid_ids))
    if not ids:
        raise ServiceError("Choose the bids to cancel.")
    challenges = []
    for address in await maker_addresses(ctx, ids):
        challenge = await fetch_challenge(ctx, address)
        challenges.append(ChallengeToSign(address, challenge.challenge, challenge.expires_at_ms))
    return CancelToSign(ids, tuple(challenges))


async def cancel_with_signatures(
    ctx: ServiceContext, wanted: CancelToSign, signatures: Mapping[str, str]
) -> CancelReport:
    """Verify each address's signature of its challenge, then cancel with those credentials.
    An address without a signature is skipped when the bids are not its (the service says)."""
    signed: dict[str, SignedChallenge] = {}
    now = ctx.clock.now_ms()
    for item in wanted.challenges:
        signature = signatures.get(item.address, "").strip()
        if not signature:
            continue
        await _verify(ctx, item.address, item.challenge, signature, "challenge")
        if item.expires_at_ms is not None and now >= item.expires_at_ms - SEND_MARGIN_MS:
            raise SignatureTooLateError(
                f"The challenge of {item.address} has expired: nothing was cancelled. Start "
                "the cancel again and sign the new challenge."
            )
        until = now if item.expires_at_ms is None else item.expires_at_ms - EXPIRY_MARGIN_MS
        signed[item.address] = SignedChallenge(item.challenge, signature, until)  # used as is
    if not signed:
        raise ImportedSignatureError("Paste the signature of the challenge before cancelling.")
    return await cancel_bids(ctx, wanted.bid_ids, cache=ImportedChallenges(signed))


class ImportedChallenges(ChallengeCache):
    """Challenges signed elsewhere: used as they are. Nothing fresh can be signed here, so a
    refused one is refused again (the cancel reports it) and an address with none fails."""

    def __init__(self, signed: Mapping[str, SignedChallenge]) -> None:
        super().__init__()
        self._signed = dict(signed)

    def invalidate(self, address: str | None = None) -> None:
        """Kept: a refusal of a challenge signed elsewhere is final for this cancel."""

    async def credential(self, ctx: ServiceContext, address: str | None = None) -> str:
        address = address or ctx.ordinals_address
        signed = self._signed.get(address)
        if signed is None:
            raise ChallengeError(
                f"No signed challenge of {address} was given, and this profile cannot sign "
                "one: nothing more was cancelled."
            )
        return signed.signature


async def _verify(
    ctx: ServiceContext, address: str, message: str, signature: str, what: str
) -> None:
    if not signature:
        raise ImportedSignatureError(f"Paste the signature of the {what}.")
    try:
        independent = await ctx.run_cpu(_verified, address, message, signature, ctx.network)
    except (SignatureError, InvalidAddressError):
        why = await ctx.run_cpu(why_not_verified, address, message, signature, ctx.network)
        raise ImportedSignatureError(
            _REFUSALS[why].format(address=address, what=what) + " Nothing was sent."
        ) from None
    if not independent:
        raise ImportedSignatureError(
            f"The independent BIP-322 verifier did not check the signature of the {what}; "
            "nothing was sent."
        )


# What went wrong, as far as the signature can tell (`why_not_verified`), in the user's words.
_REFUSALS: Final = {
    SignatureMismatch.NOT_BASE64: (
        "This is not a base64 signature: paste the whole signature your wallet made."
    ),
    SignatureMismatch.NOT_A_SIGNATURE: (
        "This is not a message signature (BIP-322 or BIP-137): paste the signature your wallet"
        " made of the {what}."
    ),
    SignatureMismatch.LINE_ADDED: (
        "This signs a different message: a line ending was added or changed. Sign the {what}"
        " exactly as shown, with no line added."
    ),
    SignatureMismatch.OTHER_KEY: (
        "The {what} was signed by another key, not by {address}: sign it with that address."
    ),
    SignatureMismatch.OTHER_MESSAGE: (
        "{address} signed a different message: sign the {what} exactly as shown (check no"
        " line was added or changed)."
    ),
    SignatureMismatch.UNKNOWN: (
        "The signature does not prove that {address} signed this {what}: it signed a different"
        " message (check no line was added) or was made by another key."
    ),
}


def _verified(address: str, message: str, signature: str, network: Network) -> bool:
    """Whether it verifies (raises otherwise) with BIP-137, or BIP-322 checked by the
    independent verifier, as our own signatures are (`bids.sign_bid`)."""
    result = verify_message(address, message, signature, network=network)
    return result.scheme is MessageScheme.BIP137 or "bip322-rust" in result.detail


# --- files -------------------------------------------------------------------------------------


def save_text(path: Path, text: str) -> None:
    """Write `text` exactly (UTF-8, no newline added: a signer signs the bytes as they are)."""
    from app.wallet.vault_file_store import write_atomically

    try:
        write_atomically(path, text.encode("utf-8"))
    except OSError as exc:
        raise SignatureFileError(
            f"{path.name} could not be written ({exc.strerror or type(exc).__name__})."
        ) from None


def read_signature(path: Path) -> str:
    """The signature text in `path` (base64, surrounding whitespace ignored)."""
    try:
        if path.stat().st_size > MAX_SIGNATURE_FILE_BYTES:
            raise SignatureFileError(f"{path.name} is far larger than a signature.")
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise SignatureFileError(
            f"{path.name} could not be read ({exc.strerror or type(exc).__name__})."
        ) from None
    except UnicodeDecodeError:
        raise SignatureFileError(f"{path.name} is not text: a signature is base64 text.") from None
    return text.strip()
