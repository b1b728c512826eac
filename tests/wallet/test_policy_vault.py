"""Sealed policy files: what the wallet's key seals opens only with that key and that context;
anything else is a `PolicySealError` saying so, never a crash or a wrong plaintext."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from app.wallet.addresses import Network
from app.wallet.keys import MnemonicSeed, WalletKeys, derive_wallet_keys
from app.wallet.policy_vault import (
    MAX_SEALED_BYTES,
    PolicySealError,
    PolicySealKey,
    read_sealed,
    write_sealed,
)
from app.wallet.presets import LEATHER, UNISAT_P2TR

SEED = MnemonicSeed(" ".join(["abandon"] * 11 + ["about"]))
OTHER = MnemonicSeed(" ".join(["zoo"] * 11 + ["wrong"]))


def _keys(seed: MnemonicSeed = SEED, account: int = 0) -> WalletKeys:
    return derive_wallet_keys(seed, LEATHER, Network.REGTEST, account)


def test_seal_and_open() -> None:
    key = PolicySealKey(_keys().payment)
    sealed = key.seal(b'{"policy": 1}', b"ctx")
    assert PolicySealKey(_keys().payment).open(sealed, b"ctx") == b'{"policy": 1}'
    assert b"policy" not in sealed
    assert key.seal(b"same", b"ctx") != key.seal(b"same", b"ctx")  # a fresh nonce each time
    assert "hidden" in repr(key)


@pytest.mark.parametrize(
    "other_key",
    [
        lambda: PolicySealKey(_keys(OTHER).payment),  # another wallet
        lambda: PolicySealKey(_keys(account=1).payment),  # another account of ours
        lambda: PolicySealKey(_keys().ordinals),  # our other key
        lambda: PolicySealKey(derive_wallet_keys(SEED, UNISAT_P2TR, Network.REGTEST, 0).payment),
    ],
)
def test_only_the_sealing_key_opens(other_key: Callable[[], PolicySealKey]) -> None:
    sealed = PolicySealKey(_keys().payment).seal(b"x", b"ctx")
    with pytest.raises(PolicySealError, match="failed authentication"):
        other_key().open(sealed, b"ctx")


def test_another_context_does_not_open() -> None:
    key = PolicySealKey(_keys().payment)
    with pytest.raises(PolicySealError):
        key.open(key.seal(b"x", b"policy a"), b"policy b")


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: b"not json",
        lambda d: json.dumps([1]).encode(),
        lambda d: json.dumps({**json.loads(d), "extra": 1}).encode(),
        lambda d: json.dumps({**json.loads(d), "version": 2}).encode(),
        lambda d: json.dumps({**json.loads(d), "cipher": "rot13"}).encode(),
        lambda d: json.dumps({**json.loads(d), "cipher": 5}).encode(),
        lambda d: json.dumps({**json.loads(d), "nonce": "!!"}).encode(),
        lambda d: json.dumps({**json.loads(d), "nonce": base64.b64encode(b"1").decode()}).encode(),
        lambda d: json.dumps({**json.loads(d), "ciphertext": 7}).encode(),
    ],
)
def test_a_damaged_file_is_refused(damage: Callable[[bytes], bytes]) -> None:
    key = PolicySealKey(_keys().payment)
    with pytest.raises(PolicySealError):
        key.open(damage(key.seal(b"x", b"ctx")), b"ctx")


def test_files_are_private_and_bounded(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "p.policy"
    write_sealed(path, b"sealed")
    assert read_sealed(path) == b"sealed"
    assert path.stat().st_mode & 0o777 == 0o600
    path.write_bytes(b"x" * (MAX_SEALED_BYTES + 1))
    with pytest.raises(PolicySealError, match="larger"):
        read_sealed(path)
