"""Approved strategy policies stored with the vault: sealed with a key of the wallet's secret,
so a policy edited, moved, forged or sealed by another wallet is refused, never obeyed."""

from __future__ import annotations

import base64
import dataclasses
import json
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.strategy_policy import AllowedPool
from app.core.strategy_policy_json import policy_to_json
from app.services.strategy_policies import (
    POLICIES_DIR,
    PolicyNotFoundError,
    PolicyTamperedError,
    StrategyPolicyStore,
    StrategyPolicyStoreError,
)
from app.wallet.keys import WalletKeys
from app.wallet.policy_vault import PolicySealKey
from tests.services.conftest import KeysFactory
from tests.support.strategies import policy_for


@pytest.fixture
def store(tmp_path: Path) -> StrategyPolicyStore:
    return StrategyPolicyStore(tmp_path / "profile")


def _file(store: StrategyPolicyStore, policy_id: str = "pol-1") -> Path:
    return store.directory / f"{policy_id}.policy"


def test_an_approved_policy_loads_back_exactly(
    store: StrategyPolicyStore, keys: WalletKeys
) -> None:
    policy = policy_for(keys)
    store.approve(keys, policy)
    assert store.load(keys, "pol-1") == policy
    assert store.policy_ids() == ["pol-1"]
    path = _file(store)
    assert path.parent == store.directory and str(POLICIES_DIR) in str(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # Encrypted: neither the caps nor the pools can be read from the file.
    text = path.read_text()
    assert "puppets" not in text and "200000" not in text


def _edit_ciphertext(path: Path) -> None:
    sealed = json.loads(path.read_text())
    raw = bytearray(base64.b64decode(sealed["ciphertext"]))
    raw[5] ^= 0x01
    sealed["ciphertext"] = base64.b64encode(bytes(raw)).decode()
    path.write_text(json.dumps(sealed))


def _edit_nonce(path: Path) -> None:
    sealed = json.loads(path.read_text())
    sealed["nonce"] = base64.b64encode(b"\x00" * 12).decode()
    path.write_text(json.dumps(sealed))


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-10])


@pytest.mark.parametrize("tamper", [_edit_ciphertext, _edit_nonce, _truncate])
def test_a_policy_edited_on_disk_is_refused(
    store: StrategyPolicyStore, keys: WalletKeys, tamper: Callable[[Path], None]
) -> None:
    store.approve(keys, policy_for(keys))
    tamper(_file(store))
    with pytest.raises(PolicyTamperedError, match="refused"):
        store.load(keys, "pol-1")


def test_a_wider_policy_written_in_the_clear_is_refused(
    store: StrategyPolicyStore, keys: WalletKeys
) -> None:
    store.approve(keys, policy_for(keys))
    wider = policy_for(keys, max_exposure=10**12)
    _file(store).write_text(json.dumps(policy_to_json(wider)))
    with pytest.raises(PolicyTamperedError):
        store.load(keys, "pol-1")


def test_a_policy_sealed_by_another_wallet_is_refused(
    store: StrategyPolicyStore, keys: WalletKeys, make_keys: KeysFactory
) -> None:
    """An attacker seals a wider policy naming OUR addresses with THEIR wallet's key."""
    store.approve(keys, policy_for(keys))
    attacker = make_keys()
    wider = policy_for(keys, pools=(AllowedPool.collection("anything", 10**9),))
    plaintext = json.dumps(policy_to_json(wider)).encode()
    context = b"\n".join((b"bidwallet strategy policy v1", b"pol-1", keys.payment.address.encode()))
    _file(store).write_bytes(PolicySealKey(attacker.payment).seal(plaintext, context))
    with pytest.raises(PolicyTamperedError):
        store.load(keys, "pol-1")


def test_a_policy_moved_under_another_name_is_refused(
    store: StrategyPolicyStore, keys: WalletKeys
) -> None:
    store.approve(keys, policy_for(keys, "narrow", max_exposure=10_000))
    store.approve(keys, policy_for(keys, "wide", max_exposure=1_000_000))
    _file(store, "narrow").write_bytes(_file(store, "wide").read_bytes())
    with pytest.raises(PolicyTamperedError):
        store.load(keys, "narrow")
    assert store.load(keys, "wide").max_exposure == 1_000_000


def test_another_wallet_cannot_load_or_approve_for_us(
    store: StrategyPolicyStore, keys: WalletKeys, make_keys: KeysFactory
) -> None:
    other = make_keys()
    store.approve(keys, policy_for(keys))
    with pytest.raises(PolicyTamperedError):
        store.load(other, "pol-1")
    with pytest.raises(StrategyPolicyStoreError, match="not this wallet's"):
        store.approve(other, policy_for(keys, "pol-2"))
    # Receive address of someone else: not this wallet's either.
    thief = dataclasses.replace(policy_for(keys, "pol-3").bidder, receive_address="bcrt1pthief")
    with pytest.raises(StrategyPolicyStoreError):
        store.approve(keys, policy_for(keys, "pol-3", bidder=thief))


def test_a_policy_is_immutable_and_revocable(store: StrategyPolicyStore, keys: WalletKeys) -> None:
    store.approve(keys, policy_for(keys))
    with pytest.raises(StrategyPolicyStoreError, match="new id"):
        store.approve(keys, policy_for(keys, max_exposure=999_999))
    assert store.revoke("pol-1") is True
    assert store.revoke("pol-1") is False
    with pytest.raises(PolicyNotFoundError):
        store.load(keys, "pol-1")
    assert store.policy_ids() == []


@pytest.mark.parametrize("bad_id", ["../vault", "a/b", "", "x" * 65, "pol.1"])
def test_ids_never_name_a_path_elsewhere(
    store: StrategyPolicyStore, keys: WalletKeys, bad_id: str
) -> None:
    with pytest.raises(StrategyPolicyStoreError, match="not a policy id"):
        store.load(keys, bad_id)
    with pytest.raises(StrategyPolicyStoreError):
        store.revoke(bad_id)


def test_still_approved_sees_a_revoked_or_replaced_file(
    store: StrategyPolicyStore, keys: WalletKeys
) -> None:
    store.approve(keys, policy_for(keys))
    approved = store.load_approved(keys, "pol-1")
    assert store.still_approved(approved)
    store.revoke("pol-1")
    assert not store.still_approved(approved)
    store.approve(keys, policy_for(keys))  # the same policy sealed again: other bytes
    assert not store.still_approved(approved)
