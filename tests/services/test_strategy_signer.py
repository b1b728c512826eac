"""The strategy signer: a bid inside the policy is signed (and verifies with the Rust BIP-322
verifier), anything outside is refused and journaled without a signature, exposure comes from
the journal, a revoked policy stops it, and it holds nothing that could sign a PSBT."""

from __future__ import annotations

import dataclasses
import gc
import threading
from pathlib import Path
from typing import Any

import bip322
import pytest

from app.core.bid_message import bid_message
from app.core.bid_request import CollectionBidRequest, Trait
from app.core.strategy_policy import StrategyRefusalCode
from app.services import strategy_signer
from app.services.bids import BidSpec
from app.services.strategy_journal import EntryState, StrategyJournal, message_digest
from app.services.strategy_policies import StrategyPolicyStore
from app.services.strategy_signer import SignerClosedError, StrategyRefusedError, StrategySigner
from app.wallet.addresses import AddressType
from app.wallet.keys import RoleKey, WalletKeys
from app.wallet.message import MessageScheme, verify_message
from tests.services.conftest import KeysFactory
from tests.support.strategies import GOLD, HOUR_MS, MINUTE_MS, ManualClock, policy_for, unsigned_bid

C = StrategyRefusalCode
S = EntryState


class Setup:
    def __init__(self, keys: WalletKeys, tmp_path: Path, **policy: Any) -> None:
        self.keys = keys
        self.clock = ManualClock()
        self.store = StrategyPolicyStore(tmp_path)
        self.journal = StrategyJournal.in_profile(tmp_path)
        self.store.approve(keys, policy_for(keys, **policy))
        self.signer = StrategySigner(keys, self.store, "pol-1", self.journal, self.clock)

    def bid(self, spec: BidSpec | None = None, **changes: Any) -> CollectionBidRequest:
        return unsigned_bid(self.keys, self.clock, spec, **changes)

    def refused(self, request: CollectionBidRequest) -> StrategyRefusedError:
        with pytest.raises(StrategyRefusedError) as caught:
            self.signer.sign_bid(request, "test")
        entry = self.journal.entry(caught.value.entry_id)
        assert entry.state is S.REFUSED and entry.message_sha256 is None
        return caught.value


@pytest.fixture
def setup(keys: WalletKeys, tmp_path: Path) -> Setup:
    return Setup(keys, tmp_path)


# Payment keys: P2WPKH, P2TR and P2SH-P2WPKH (BIP-322), P2PKH (BIP-137).
@pytest.mark.parametrize("preset", ["leather", "unisat-p2tr", "xverse", "unisat-p2pkh"])
def test_a_bid_inside_the_policy_is_signed_and_verifies(
    make_keys: KeysFactory, tmp_path: Path, preset: str
) -> None:
    s = Setup(make_keys(preset), tmp_path)
    address = s.keys.payment.address
    expiry = s.clock.now_ms() + HOUR_MS
    for spec in (
        BidSpec.collection("puppets", 40_000, 2, expiry),
        BidSpec.trait("pals", [GOLD], 30_000, 1, expiry),
        BidSpec.rune("DOGGOTOTHEMOON", 20_000, 40_000, expiry),
    ):
        signed = s.signer.sign_bid(s.bid(spec), reason="keep the floor")
        request = signed.request
        message = bid_message(request)
        signature = request.signed_bidding_message
        if s.keys.payment.address_type is AddressType.P2PKH:
            assert verify_message(address, message, signature).scheme is MessageScheme.BIP137
        else:
            bip322.verify_simple_encoded(address, message, signature)  # the Rust verifier
        entry = s.journal.entry(signed.entry_id)
        assert (entry.state, entry.reason) == (S.SIGNED, "keep the floor")
        assert entry.message_sha256 == message_digest(message)
        with pytest.raises(bip322.VerificationError):
            bip322.verify_simple_encoded(address, message + " ", signature)


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"collection_slug": "nodemonkes"}, C.POOL_NOT_ALLOWED),
        ({"price": 51_000}, C.PRICE_ABOVE_CAP),
        ({"bidder_token_receive_address": "bcrt1pthief"}, C.WRONG_RECEIVE_ADDRESS),
        ({"bid_expiry": 1_800_000_000_000 + 7 * HOUR_MS}, C.BID_OUTLIVES_POLICY),
        ({"timestamp": 1_800_000_000_000 + 10 * MINUTE_MS}, C.INVALID_REQUEST),
    ],
)
def test_a_bid_outside_the_policy_is_refused_and_journaled_unsigned(
    setup: Setup, changes: dict[str, Any], code: StrategyRefusalCode
) -> None:
    refused = setup.refused(setup.bid(**changes))
    assert code in refused.verdict.codes
    entry = setup.journal.entry(refused.entry_id)
    assert code.value in (entry.refusal or "")


def test_the_signer_counts_its_own_signatures_not_the_callers_word(setup: Setup) -> None:
    """200,000 sats of exposure, 41,000 per bid (1,000 maker fee): four fit, the fifth not,
    whatever the engine believes; a fill (ended) frees its share."""
    signed = [setup.signer.sign_bid(setup.bid(), "ladder") for _ in range(4)]
    refused = setup.refused(setup.bid())
    assert refused.verdict.codes == (C.EXPOSURE_ABOVE_CAP,)
    first = signed[0].entry_id
    setup.journal.mark_placed(first, setup.clock.now_ms())
    setup.journal.mark_ended(first, setup.clock.now_ms(), "filled")
    setup.signer.sign_bid(setup.bid(), "re-bid after a fill")


def test_the_policy_expires_and_its_bids_with_it(setup: Setup) -> None:
    setup.clock.advance(6 * HOUR_MS)  # the policy's end
    refused = setup.refused(setup.bid(bid_expiry=setup.clock.now_ms() + 20 * MINUTE_MS))
    assert C.POLICY_EXPIRED in refused.verdict.codes


def test_a_revoked_or_replaced_policy_signs_nothing_more(setup: Setup) -> None:
    setup.signer.sign_bid(setup.bid(), "before")
    setup.store.revoke("pol-1")
    assert setup.refused(setup.bid()).verdict.codes == (C.POLICY_REVOKED,)
    # Approved again, wider: a new approval, not this signer's (it loaded the old one).
    setup.store.approve(setup.keys, policy_for(setup.keys, max_exposure=10**9))
    assert setup.refused(setup.bid()).verdict.codes == (C.POLICY_REVOKED,)


def test_a_tampered_policy_never_makes_a_signer(keys: WalletKeys, tmp_path: Path) -> None:
    from app.services.strategy_policies import PolicyTamperedError

    store = StrategyPolicyStore(tmp_path)
    store.approve(keys, policy_for(keys))
    path = store.directory / "pol-1.policy"
    path.write_bytes(path.read_bytes().replace(b'"ciphertext":"', b'"ciphertext":"AAAA'))
    with pytest.raises(PolicyTamperedError):
        StrategySigner(keys, store, "pol-1", StrategyJournal.in_profile(tmp_path), ManualClock())


def test_the_intent_is_committed_before_the_signature(
    setup: Setup, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """While the message is being signed, another connection (a restart) already sees the
    entry: a crash at that moment loses no intent."""
    seen: list[EntryState] = []
    real_sign = strategy_signer.sign_bid

    def spying_sign(*args: Any) -> CollectionBidRequest:
        other = StrategyJournal.in_profile(tmp_path)
        seen.extend(e.state for e in other.entries("pol-1"))
        other.close()
        return real_sign(*args)

    monkeypatch.setattr(strategy_signer, "sign_bid", spying_sign)
    signed = setup.signer.sign_bid(setup.bid(), "spied")
    assert seen == [S.INTENT]
    assert setup.journal.entry(signed.entry_id).state is S.SIGNED


def test_a_failed_signature_is_abandoned(setup: Setup, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_sign(*args: Any) -> CollectionBidRequest:
        raise RuntimeError("the signer broke")

    monkeypatch.setattr(strategy_signer, "sign_bid", failing_sign)
    with pytest.raises(RuntimeError):
        setup.signer.sign_bid(setup.bid(), "doomed")
    (entry,) = setup.journal.entries("pol-1")
    assert entry.state is S.ABANDONED and entry.outcome == "RuntimeError"
    assert setup.journal.open_exposure("pol-1", setup.clock.now_ms()).sats == 0


def test_two_threads_cannot_spend_the_same_exposure(keys: WalletKeys, tmp_path: Path) -> None:
    s = Setup(keys, tmp_path, max_exposure=41_000)  # room for one bid
    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def attempt() -> None:
        barrier.wait()
        try:
            s.signer.sign_bid(s.bid(), "race")
            outcomes.append("signed")
        except StrategyRefusedError:
            outcomes.append("refused")

    threads = [threading.Thread(target=attempt) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["refused", "refused", "refused", "signed"]


# --- what it cannot do -----------------------------------------------------------------------


def test_it_offers_bid_signatures_and_nothing_else(setup: Setup) -> None:
    public = {name for name in dir(setup.signer) if not name.startswith("_")}
    assert public == {"policy", "sign_bid", "close"}  # close: sign nothing more
    with pytest.raises(AttributeError):
        setup.signer.keys = setup.keys  # type: ignore[attr-defined]
    with pytest.raises(Exception):  # noqa: B017 - frozen: a policy cannot be widened in place
        setup.signer.policy.max_exposure = 10**9  # type: ignore[misc]


def test_a_closed_signer_signs_nothing_and_drops_its_key(setup: Setup) -> None:
    # The wallet locked, or the strategy stopped, while a step was still waiting on the
    # service: its next attempt must not be signed.
    setup.signer.close()
    with pytest.raises(SignerClosedError):
        setup.signer.sign_bid(unsigned_bid(setup.keys, setup.clock), "after the lock")
    assert not [o for o in _reachable(setup.signer) if isinstance(o, RoleKey)]
    assert setup.journal.entries("pol-1") == []  # not even an intent


def _reachable(root: object, depth: int = 4) -> list[object]:
    seen: dict[int, object] = {}
    frontier = [root]
    for _ in range(depth):
        following = []
        for obj in frontier:
            for ref in gc.get_referents(obj):
                if id(ref) not in seen and not isinstance(ref, type):
                    seen[id(ref)] = ref
                    following.append(ref)
        frontier = following
    return list(seen.values())


def test_it_holds_no_key_but_the_payment_key_and_nothing_of_psbt_signing(setup: Setup) -> None:
    held = _reachable(setup.signer)
    role_keys = [o for o in held if isinstance(o, RoleKey)]
    assert role_keys == [setup.keys.payment]
    assert not any(isinstance(o, WalletKeys) for o in held)
    assert setup.keys.ordinals not in role_keys
    modules = {getattr(o, "__module__", "") for o in held if callable(o)}
    assert not {m for m in modules if "psbt" in m or "signing_gate" in m or "sighash" in m}
    source = Path(strategy_signer.__file__).read_text()
    for name in ("psbt_signer", "signing_gate", "sighash", "finalize", "acp_ledger"):
        assert name not in source.split('"""', 2)[2], name


class _Shifty(CollectionBidRequest):
    """Says it bids on an allowed trait when asked, sends another one."""

    def traits(self) -> list[Trait]:
        return [GOLD]


def test_what_is_judged_is_what_is_signed(setup: Setup) -> None:
    spec = BidSpec.trait("pals", [Trait("hat", "red")], 30_000, 1, setup.clock.now_ms() + HOUR_MS)
    honest = setup.bid(spec)
    shifty = _Shifty(**{f.name: getattr(honest, f.name) for f in dataclasses.fields(honest)})
    assert shifty.traits() == [GOLD]  # what a naive check would judge
    assert setup.refused(shifty).verdict.codes == (C.TRAIT_NOT_ALLOWED,)
    with pytest.raises(TypeError):
        setup.signer.sign_bid("bidderAddress:...", "not a request")  # type: ignore[arg-type]


def test_two_processes_cannot_spend_the_same_exposure(keys: WalletKeys, tmp_path: Path) -> None:
    """Two signers on one profile, each with its own journal connection (as a window and a
    headless run would have): the database's write lock, not a thread lock, keeps them apart."""
    first = Setup(keys, tmp_path, max_exposure=41_000)
    second_journal = StrategyJournal.in_profile(tmp_path)
    second = StrategySigner(keys, first.store, "pol-1", second_journal, first.clock)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def attempt(signer: StrategySigner) -> None:
        barrier.wait()
        try:
            signer.sign_bid(first.bid(), "race")
            outcomes.append("signed")
        except StrategyRefusedError:
            outcomes.append("refused")

    threads = [threading.Thread(target=attempt, args=(s,)) for s in (first.signer, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["refused", "signed"]
