"""The strategy policies a user approved, stored with the vault: each one sealed (encrypted and
authenticated) with a key derived from the wallet's secret (`app/wallet/policy_vault.py`), one
file per policy in the profile's data directory:

    <profile dir>/strategies/policies/<policy id>.policy

    store = StrategyPolicyStore(profile_dir)
    store.approve(keys, policy)          # when the user starts a strategy (keys: unlocked)
    policy = store.load(keys, policy_id)  # PolicyTamperedError if the file was touched

Only an unlocked wallet can write a policy that `load` accepts: a file edited on disk (a cap
raised, a pool added, the validity extended), copied from another policy's name or another
profile, or forged, fails authentication and is refused, never obeyed. A policy is immutable:
approving a changed one means a new policy id (`approve` refuses to overwrite), and the user
stops a strategy by revoking its policy (`revoke` deletes the file).

What authentication cannot tell: an older file of the same wallet put back (a backup of a
policy since revoked). It is still a policy the user approved, and it ends at its own
`valid_until_ms`: keep validity short. Call these from an executor (file I/O, HKDF).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from app.core.strategy_policy import BidderIdentity, StrategyPolicy, StrategyPolicyError
from app.core.strategy_policy_json import policy_from_json, policy_to_json
from app.services.errors import ServiceError
from app.wallet.keys import WalletKeys
from app.wallet.policy_vault import PolicySealError, PolicySealKey, read_sealed, write_sealed

POLICIES_DIR: Final = Path("strategies") / "policies"
SUFFIX: Final = ".policy"
_CONTEXT: Final = b"bidwallet strategy policy v1"


class StrategyPolicyStoreError(ServiceError):
    """A policy that cannot be approved or loaded; the sentence says why."""


class PolicyNotFoundError(StrategyPolicyStoreError):
    """No approved policy of that id (never approved, or revoked)."""


class PolicyTamperedError(StrategyPolicyStoreError):
    """The stored policy does not open with this wallet's key, or is not the policy its name
    says: it was edited, damaged, moved or forged. It is refused, never obeyed."""


def identity_of(keys: WalletKeys) -> BidderIdentity:
    """The bidder a policy of these keys names: payment address and its compressed public key
    (as bid requests send it), and the ordinals address that receives won items."""
    return BidderIdentity(
        keys.payment.address, keys.payment.public.public_key.hex(), keys.ordinals.address
    )


@dataclass(frozen=True)
class ApprovedPolicy:
    """A policy as loaded and authenticated, with the sealed bytes it came from."""

    policy: StrategyPolicy
    sealed: bytes


class StrategyPolicyStore:
    """The approved policies of one profile (its data directory)."""

    def __init__(self, profile_dir: Path) -> None:
        self.directory = profile_dir / POLICIES_DIR

    def approve(self, keys: WalletKeys, policy: StrategyPolicy) -> None:
        """Seal and store `policy`, approved by the user holding `keys` (unlocked)."""
        if policy.bidder != identity_of(keys):
            raise StrategyPolicyStoreError(
                f"Policy {policy.policy_id} names bidder {policy.bidder.payment_address} and "
                f"receive address {policy.bidder.receive_address}, not this wallet's: it was "
                "not stored."
            )
        path = self._path(policy.policy_id)
        if path.exists():
            raise StrategyPolicyStoreError(
                f"A policy {policy.policy_id} is already approved; a changed policy is a new "
                "one: give it a new id."
            )
        plaintext = json.dumps(policy_to_json(policy), sort_keys=True).encode()
        key = PolicySealKey(keys.payment)
        write_sealed(path, key.seal(plaintext, _context(policy.policy_id, keys)))

    def load(self, keys: WalletKeys, policy_id: str) -> StrategyPolicy:
        """The approved policy, authenticated with `keys`; `PolicyNotFoundError` or
        `PolicyTamperedError` otherwise."""
        return self.load_approved(keys, policy_id).policy

    def load_approved(self, keys: WalletKeys, policy_id: str) -> ApprovedPolicy:
        """`load`, with the stored bytes it was read from (for `still_approved`)."""
        path = self._path(policy_id)
        try:
            sealed = read_sealed(path)
        except FileNotFoundError:
            raise PolicyNotFoundError(f"No approved policy {policy_id}.") from None
        except OSError as exc:
            raise StrategyPolicyStoreError(
                f"Cannot read policy {policy_id}: {exc.strerror}."
            ) from None
        try:
            plaintext = PolicySealKey(keys.payment).open(sealed, _context(policy_id, keys))
            policy = policy_from_json(json.loads(plaintext))
        except (PolicySealError, StrategyPolicyError, ValueError) as exc:
            raise PolicyTamperedError(
                f"Policy {policy_id} was refused: {exc}. Approve the strategy again."
            ) from None
        if policy.policy_id != policy_id or policy.bidder != identity_of(keys):
            raise PolicyTamperedError(
                f"Policy {policy_id} was refused: it is not the policy its name says, or not "
                "this wallet's. Approve the strategy again."
            )
        return ApprovedPolicy(policy, sealed)

    def still_approved(self, approved: ApprovedPolicy) -> bool:
        """Whether the policy's file still holds exactly what it was loaded from: False once
        it was revoked (deleted) or replaced. A file read and a comparison, no cryptography:
        cheap enough before every signature."""
        try:
            return read_sealed(self._path(approved.policy.policy_id)) == approved.sealed
        except (OSError, PolicySealError):
            return False

    def policy_ids(self) -> list[str]:
        """The ids of the stored policies (whether each one opens is `load`'s to say)."""
        if not self.directory.is_dir():
            return []
        return sorted(p.name.removesuffix(SUFFIX) for p in self.directory.glob(f"*{SUFFIX}"))

    def revoke(self, policy_id: str) -> bool:
        """Delete the policy: nothing is signed under it any more. False when absent."""
        path = self._path(policy_id)
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        return True

    def _path(self, policy_id: str) -> Path:
        try:
            # The policy's own rule for ids (no separators, no dots): never a path elsewhere.
            StrategyPolicy.check_id(policy_id)
        except StrategyPolicyError as exc:
            raise StrategyPolicyStoreError(f"{policy_id!r} is not a policy id: {exc}.") from None
        return self.directory / f"{policy_id}{SUFFIX}"


def _context(policy_id: str, keys: WalletKeys) -> bytes:
    return b"\n".join((_CONTEXT, policy_id.encode(), keys.payment.address.encode()))
