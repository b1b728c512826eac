"""Service-level exceptions: each carries a plain sentence a user can act on.

`ServiceError.user_message` is what the GUI shows; `str(exc)` is the same sentence. None of
these ever quote a signature, a PSBT or key material: only addresses, amounts, bid ids and the
service's own error message.

The use cases also let the network clients' errors through unchanged where the service or the
connection is the cause (a refusal with its `errorCode`, no answer, an answer of the wrong
shape). They are not wrapped in a second hierarchy: the classes a caller tells apart are listed
here too (`NetError`, the base of them all; `HttpError`, a non-2xx answer with its status,
message and code; `TransportError`, no answer at all), so the window catches and words them
without importing `app.net`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.core.errors import RuleViolation
from app.core.pools import PoolUsage
from app.core.psbt_review import Review
from app.core.signing_policy import Refusal, Verdict
from app.net.errors import HttpError, NetError, TransportError

__all__ = [
    "BidNotPlacedError",
    "BidRejectedError",
    "BidRequestRefusedError",
    "BiddingWalletIdentityError",
    "BroadcastError",
    "ChallengeError",
    "CoinChoiceError",
    "CredentialRefusedError",
    "HttpError",
    "InsufficientFundsError",
    "NetError",
    "OrdUnavailableError",
    "OwnSignatureInvalidError",
    "PolicyRefusedError",
    "PoolDoesNotFitError",
    "PoolShortfall",
    "ServiceError",
    "TransportError",
    "UnknownRuneError",
    "WatchOnlyError",
]


class ServiceError(Exception):
    """Base of every use-case error; `user_message` is shown as is."""

    def __init__(self, user_message: str) -> None:
        self.user_message = user_message
        super().__init__(user_message)


class WatchOnlyError(ServiceError):
    """The profile has no private keys, so nothing can be signed here."""


class BiddingWalletIdentityError(ServiceError):
    """The service tied the bidding wallet to another (ordinals, payment, pubkey) triple."""

    def __init__(self, service_message: str) -> None:
        self.service_message = service_message
        super().__init__(
            "The marketplace already tied your bidding wallet to another combination of "
            f"ordinals address, payment address and payment key. The service says: "
            f"{service_message} Fix: open this profile with the same wallet layout (the "
            "same payment address type and the same ordinals address) you first used with "
            "this service, or use a new ordinals address to get a new bidding wallet."
        )


class OrdUnavailableError(ServiceError):
    """ord could not say what an output carries: nothing is spent rather than guessing."""


class InsufficientFundsError(ServiceError):
    """Not enough spendable (cardinal) coins at the payment address, or among the coins the
    user chose (`chosen`). `skipped`: coins left untouched for what they carry; `waiting` coins
    holding `waiting_sats` were left aside because ord has not indexed them yet."""

    def __init__(
        self,
        needed: int,
        available: int,
        skipped: int,
        *,
        waiting: int = 0,
        waiting_sats: int = 0,
        chosen: bool = False,
    ) -> None:
        self.needed = needed
        self.available = available
        self.skipped = skipped
        self.waiting = waiting
        self.waiting_sats = waiting_sats
        self.chosen = chosen
        if chosen:
            super().__init__(
                f"The coins you chose hold {available:,} sats, but this needs {needed:,} sats "
                "including the network fee: choose more coins, or let the wallet choose."
            )
            return
        extra = ""
        if skipped == 1:
            extra = " (1 coin carrying inscriptions or runes was left untouched)"
        elif skipped:
            extra = f" ({skipped} coins carrying inscriptions or runes were left untouched)"
        text = (
            f"The payment address has {available:,} spendable sats{extra}, but this needs "
            f"{needed:,} sats including the network fee."
        )
        if waiting == 1:
            text += (
                f" 1 coin ({waiting_sats:,} sats) is waiting for the indexer: ord has not "
                "indexed it yet, usually until its transaction confirms; try again then."
            )
        elif waiting:
            text += (
                f" {waiting} coins ({waiting_sats:,} sats) are waiting for the indexer: ord "
                "has not indexed them yet, usually until their transactions confirm; try "
                "again then."
            )
        super().__init__(text)


class CoinChoiceError(ServiceError):
    """Coins the user chose cannot fund: `refused` says why, by outpoint. Nothing was built."""

    def __init__(self, refused: dict[str, str]) -> None:
        self.refused = dict(refused)
        reasons = "; ".join(f"{outpoint} {why}" for outpoint, why in self.refused.items())
        super().__init__(
            f"The coins you chose cannot all fund the bidding wallet: {reasons}. Choose "
            "others, or let the wallet choose."
        )


class PolicyRefusedError(ServiceError):
    """The PSBT guard refused to sign: nothing was signed or sent. `reasons` say why."""

    def __init__(self, verdict: Verdict, review: Review | None = None, label: str = "") -> None:
        self.verdict = verdict
        self.review = review
        self.label = label  # what the user asked, e.g. "Withdraw 50,000 sats to bc1q..."
        self.refusals: tuple[Refusal, ...] = verdict.refusals
        reasons = " ".join(verdict.reasons())
        super().__init__(f"The {verdict.flow} was refused and nothing was signed: {reasons}")


class BidRejectedError(ServiceError):
    """The bid request breaks a rule before it is sent; `violations` list every one."""

    def __init__(self, violations: Sequence[RuleViolation]) -> None:
        self.violations = tuple(violations)
        super().__init__(" ".join(v.message for v in self.violations))


@dataclass(frozen=True)
class PoolShortfall:
    """One pool that would not fit: which, and by how many sats."""

    pool: str
    needed: int
    available: int
    shortfall: int

    @classmethod
    def of(cls, usage: PoolUsage) -> PoolShortfall:
        return cls(str(usage.pool), usage.needed, usage.available, usage.shortfall)


class PoolDoesNotFitError(ServiceError):
    """The bids would over-commit at least one pool of the bidding wallet."""

    def __init__(self, shortfalls: Sequence[PoolShortfall]) -> None:
        self.shortfalls = tuple(shortfalls)
        parts = [
            f"pool {s.pool} would need {s.needed:,} sats (open bids and maker fee included) "
            f"but the bidding wallet holds {s.available:,}: {s.shortfall:,} sats short"
            for s in self.shortfalls
        ]
        super().__init__(
            "These bids do not fit your bidding wallet: "
            + "; ".join(parts)
            + ". Fund the bidding wallet, or lower the price or quantity."
        )


class OwnSignatureInvalidError(ServiceError):
    """Our own signature did not pass the independent verifier: nothing was sent."""


class BidNotPlacedError(ServiceError):
    """The service refused the bid (or it could not be placed after the allowed retries)."""

    def __init__(self, user_message: str, error_code: str | None = None) -> None:
        self.error_code = error_code
        super().__init__(user_message)


class BidRequestRefusedError(BidNotPlacedError):
    """The marketplace answered the bid request with a refusal (an answer other than a 429 or
    a 5xx): it did not place it."""


class ChallengeError(ServiceError):
    """The cancel credential (a signed challenge) could not be obtained or was refused."""


class CredentialRefusedError(ChallengeError):
    """The service refused a challenge it had just issued, signed by the address's own key:
    not an expired challenge but a credential it does not accept for these bids (the service
    may keep them under our other address, or not at all)."""

    def __init__(self, address: str, service_message: str) -> None:
        self.address = address
        self.service_message = service_message
        super().__init__(
            f"The marketplace refused the cancel credential of {address} (a challenge it had "
            f"just issued, signed by that address's key), so it is not an expired challenge: "
            f"the service says {service_message!r}. That address is not allowed to cancel "
            "these bids; nothing was cancelled."
        )


class UnknownRuneError(ServiceError):
    """The rune the user named is not a rune name, or no such rune is etched: nothing signed."""


class BroadcastError(ServiceError):
    """The network refused the transaction."""
