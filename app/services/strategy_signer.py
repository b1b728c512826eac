"""The strategy signer: the one object a bid strategy signs with. It signs bid messages
(spec 5.1) inside one policy the user approved, and nothing else (docs/strategies.md).

    signer = StrategySigner(keys, StrategyPolicyStore(profile_dir), policy_id, journal, clock)
    signed = signer.sign_bid(unsigned_request, reason="renew: expires in 2 min")
    # place signed.request, then complete signed.entry_id with the service's answer
    # (journal.mark_placed / mark_rejected / mark_not_placed / mark_unknown); or let
    # strategy_placement.place_strategy_bid do both by the spec's retry rules

Before EVERY signature, in this order:
1. the policy's file must still hold exactly what was loaded (`still_approved`): a revoked
   (deleted) or replaced policy signs nothing more, even in another process;
2. in one journal transaction: the open exposure of the policy's entries (from the journal,
   never from the caller), `strategy_policy.authorize` on it with the signer's own clock, and
   the entry (`intent`, or `refused` with the reasons);
3. only then the signature over exactly `verdict.message`, checked by the independent
   verifier (`bids.sign_bid`), and the entry moved to `signed`.
A refusal raises `StrategyRefusedError` (its verdict lists every reason); nothing is signed.
The request is first rebuilt from plain JSON values (`_plain_copy`), so an object that would
answer one way when judged and another when signed is judged as what it sends.

What it cannot do, and how that is guaranteed:
- It is built from the unlocked `WalletKeys`, an authenticated policy loaded from the store
  (never a policy object handed in: a compromised engine cannot bring its own), and keeps
  only the payment `RoleKey`: no `WalletKeys`, no ordinals key, nothing of the PSBT signer,
  the signing gate or the ledger. This module imports none of them (an import-linter
  contract in pyproject.toml forbids it, directly or not), and `__slots__` leaves it no place
  to keep anything else.
- Its one signing method takes a bid request and signs `bid_message(request)`; a message
  signature (BIP-322's tagged hash over a virtual transaction, or BIP-137's prefixed hash)
  commits to the message's text and can never be a signature of a real transaction.
- Python offers no memory isolation: code running in the same process could reach into the
  private attribute. The guarantee is that nothing the engine is given offers another
  signature, not that the process is a sandbox; the engine gets this object, never the keys.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Protocol

from app.core.bid_message import bid_message
from app.core.bid_request import CollectionBidRequest
from app.core.strategy_policy import (
    BidVerdict,
    OpenExposure,
    StrategyPolicy,
    StrategyRefusal,
    StrategyRefusalCode,
    authorize,
)
from app.services.bids import scheme_for, sign_bid
from app.services.errors import ServiceError
from app.services.pacing import Clock
from app.services.strategy_journal import StrategyJournal
from app.services.strategy_policies import ApprovedPolicy, StrategyPolicyStore
from app.wallet.keys import RoleKey, WalletKeys


class StrategyRefusedError(ServiceError):
    """The policy refused the request: nothing was signed. `verdict` lists every reason;
    `entry_id` is its journal entry (state `refused`)."""

    def __init__(self, verdict: BidVerdict, entry_id: int) -> None:
        self.verdict = verdict
        self.entry_id = entry_id
        reasons = " ".join(verdict.reasons())
        super().__init__(f"The strategy's policy {verdict.policy_id} refused the bid: {reasons}")


@dataclass(frozen=True)
class SignedBid:
    """A signed request and its journal entry (state `signed`), to be completed with the
    service's answer."""

    entry_id: int
    request: CollectionBidRequest


class SignerClosedError(ServiceError):
    """The signer was closed (the strategy stopped, the wallet locked): nothing signed."""


class BidMessageSigner(Protocol):
    """What the engine signs with: a policy, and bid messages within it."""

    @property
    def policy(self) -> StrategyPolicy: ...

    def sign_bid(self, unsigned: CollectionBidRequest, reason: str) -> SignedBid: ...


class UnsignedPreview:
    """A policy drawn up but not approved: the engine's dry run before the user approves,
    and the cancel of a stopped strategy's bids. It holds no key and signs nothing."""

    __slots__ = ("_policy",)

    def __init__(self, policy: StrategyPolicy) -> None:
        self._policy = policy

    @property
    def policy(self) -> StrategyPolicy:
        return self._policy

    def sign_bid(self, unsigned: CollectionBidRequest, reason: str) -> SignedBid:
        raise ServiceError("A preview signs nothing: approve the strategy to run it.")


class StrategySigner:
    """Signs bid messages inside one approved policy; nothing else (module docstring)."""

    __slots__ = ("_approved", "_clock", "_journal", "_key", "_store")

    def __init__(
        self,
        keys: WalletKeys,
        store: StrategyPolicyStore,
        policy_id: str,
        journal: StrategyJournal,
        clock: Clock,
    ) -> None:
        self._approved: ApprovedPolicy = store.load_approved(keys, policy_id)
        # The only key kept: the one bid messages need; None once closed.
        self._key: RoleKey | None = keys.payment
        self._store = store
        self._journal = journal
        self._clock = clock

    @property
    def policy(self) -> StrategyPolicy:
        return self._approved.policy

    def close(self) -> None:
        """Sign nothing more, from now (the wallet locked, the strategy stopped): the key is
        dropped before any step in progress ends, which may still be waiting on the service."""
        self._key = None

    def sign_bid(self, unsigned: CollectionBidRequest, reason: str) -> SignedBid:
        """Sign `unsigned`'s bid message if the policy allows it now; `StrategyRefusedError`
        otherwise. CPU and file work: call from an executor (`ctx.run_cpu`)."""
        key = self._key
        if key is None:
            raise SignerClosedError("The strategy was stopped: it signs nothing more.")
        request = _plain_copy(unsigned)
        policy = self._approved.policy
        now = self._clock.now_ms()
        revoked = not self._store.still_approved(self._approved)

        def decide(open_exposure: OpenExposure) -> BidVerdict:
            if revoked:
                return _revoked(policy)
            return authorize(policy, request, open_exposure, now)

        entry_id, verdict = self._journal.record_decision(
            policy.policy_id, request, reason, now, decide
        )
        if not verdict.approved:
            raise StrategyRefusedError(verdict, entry_id)
        try:
            scheme = scheme_for(key.address_type, None)
            signed = sign_bid(request, key, scheme, key.public.network)
            if bid_message(signed) != verdict.message:  # the request changed under us
                raise ServiceError("The signed message is not the one the policy authorized.")
        except BaseException as exc:
            self._journal.mark_abandoned(entry_id, self._clock.now_ms(), type(exc).__name__)
            raise
        self._journal.mark_signed(entry_id, verdict.message, self._clock.now_ms())
        return SignedBid(entry_id, signed)

    def __repr__(self) -> str:
        address = "closed" if self._key is None else self._key.address
        return f"StrategySigner({self._approved.policy.policy_id}, {address})"


def _plain_copy(unsigned: CollectionBidRequest) -> CollectionBidRequest:
    """The request rebuilt from plain JSON values: what `authorize` judges is exactly what is
    signed, even if the caller handed in an object (a subclass, a str or int subclass) that
    would answer differently the second time it is asked."""
    if not isinstance(unsigned, CollectionBidRequest):
        raise TypeError("a strategy signs collection, trait and rune bid requests only")
    return CollectionBidRequest.from_json(json.loads(json.dumps(unsigned.to_json())))


def _revoked(policy: StrategyPolicy) -> BidVerdict:
    refusal = StrategyRefusal(
        StrategyRefusalCode.POLICY_REVOKED,
        f"Policy {policy.policy_id} was revoked or replaced since this strategy started: "
        "nothing more is signed under it.",
    )
    return BidVerdict(policy.policy_id, "", 0, 0, (refusal,))
