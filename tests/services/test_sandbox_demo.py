"""The sandbox demo wallet: a regtest key in the vault under a generated password, funded,
inscribed and given runes through the real sandbox's /sandbox API, each request logged."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from app.services.activity import ActivityLog
from app.services.qa_vault import QA_KDF
from app.services.sandbox_demo import (
    DEMO_FAUCET_SATS,
    DEMO_INSCRIPTIONS,
    DEMO_KDF_COST,
    DEMO_LIGHT_ENTRY,
    DEMO_PASSWORD_ENTRY,
    DEMO_RUNE,
    SandboxDemoError,
    create_demo_key,
    provision_demo_wallet,
    unlock_demo_key,
)
from app.services.sandbox_process import start_sandbox
from app.services.session import layout_for_preset
from app.wallet.vault import Vault, record_entry
from app.wallet.vault_crypto import Argon2idParams
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import MnemonicSecret, ProfileMeta


def test_demo_key_lives_in_the_vault_and_unlocks_with_its_stored_password(tmp_path: Path) -> None:
    vault = Vault(FileStore(tmp_path), QA_KDF)
    keys = create_demo_key(vault, "Sandbox (sandbox only)")
    assert keys.payment.address.startswith("bcrt1q") and keys.ordinals.address.startswith("bcrt1p")
    password = vault.store.get(DEMO_PASSWORD_ENTRY.format(name="Sandbox (sandbox only)"))
    assert password is not None and len(password) >= 24
    again = unlock_demo_key(vault, "Sandbox (sandbox only)")
    assert again.ordinals.address == keys.ordinals.address
    replaced = create_demo_key(vault, "Sandbox (sandbox only)")  # a half-done setup: redone
    assert replaced.ordinals.address != keys.ordinals.address


def _kdf_cost(vault: Vault, name: str) -> tuple[int, int, int]:
    text = vault.store.get(record_entry(name))
    assert text is not None
    kdf = json.loads(text)["secret"]["kdf"]
    return kdf["time_cost"], kdf["memory_kib"], kdf["parallelism"]


def test_the_demo_key_takes_the_light_cost_and_an_older_one_is_sealed_again_once(
    tmp_path: Path,
) -> None:
    vault = Vault(FileStore(tmp_path), QA_KDF)
    create_demo_key(vault, "new")
    assert _kdf_cost(vault, "new") == DEMO_KDF_COST  # not the vault's own cost
    # A demo key made before the light cost: the vault's cost, no marker.
    older = Vault(FileStore(tmp_path), Argon2idParams(time_cost=2, memory_kib=512, parallelism=1))
    meta = ProfileMeta(name="old", network="regtest", layout=layout_for_preset("xverse-native"))
    older.create(meta, MnemonicSecret("abandon " * 11 + "about"), "stored-password")
    vault.store.set(DEMO_PASSWORD_ENTRY.format(name="old"), "stored-password")
    assert _kdf_cost(vault, "old") == (2, 512, 1)
    keys = unlock_demo_key(vault, "old")
    assert _kdf_cost(vault, "old") == DEMO_KDF_COST
    assert vault.store.get(DEMO_LIGHT_ENTRY.format(name="old")) == "1"
    assert unlock_demo_key(vault, "old").ordinals.address == keys.ordinals.address


def test_a_real_wallet_is_never_replaced_by_a_demo_key(tmp_path: Path) -> None:
    vault = Vault(FileStore(tmp_path), QA_KDF)
    meta = ProfileMeta(name="Mine", network="mainnet", layout=layout_for_preset("okx"))
    vault.create(meta, MnemonicSecret("abandon " * 11 + "about"), "pw")
    with pytest.raises(SandboxDemoError, match="real wallet"):
        create_demo_key(vault, "Mine")


def test_a_real_wallet_never_takes_the_light_cost(tmp_path: Path) -> None:
    # Security review: the light cost is for a sandbox-only regtest demo key. A mainnet key
    # opened as a demo key (a profile marked sandbox-only by hand, a password entry left under
    # its name that happens to open it) is refused, its cost untouched, nothing unlocked.
    vault = Vault(FileStore(tmp_path), QA_KDF)
    meta = ProfileMeta(name="Mine", network="mainnet", layout=layout_for_preset("okx"))
    vault.create(meta, MnemonicSecret("abandon " * 11 + "about"), "pw")
    vault.store.set(DEMO_PASSWORD_ENTRY.format(name="Mine"), "pw")
    before = _kdf_cost(vault, "Mine")
    with pytest.raises(SandboxDemoError, match="not a sandbox demo key"):
        unlock_demo_key(vault, "Mine")
    assert _kdf_cost(vault, "Mine") == before != DEMO_KDF_COST
    assert vault.store.get(DEMO_LIGHT_ENTRY.format(name="Mine")) is None


def test_a_regtest_key_of_the_user_is_not_replaced_by_a_demo_key(tmp_path: Path) -> None:
    # A key the user made on regtest under the demo key's name (no demo password stored for
    # it) is the user's: never replaced (a half-done demo setup, password stored, still is).
    vault = Vault(FileStore(tmp_path), QA_KDF)
    name = "Sandbox (sandbox only)"
    meta = ProfileMeta(name=name, network="regtest", layout=layout_for_preset("okx"))
    vault.create(meta, MnemonicSecret("abandon " * 11 + "about"), "pw")
    with pytest.raises(SandboxDemoError, match="not a sandbox demo key"):
        create_demo_key(vault, name)
    assert vault.unlock(name, "pw") == MnemonicSecret("abandon " * 11 + "about")
    assert _kdf_cost(vault, name) != DEMO_KDF_COST


async def test_provisioning_funds_inscribes_and_logs_each_request(tmp_path: Path) -> None:
    vault = Vault(FileStore(tmp_path), QA_KDF)
    keys = create_demo_key(vault, "demo")
    activity = ActivityLog.in_dir(tmp_path)
    sandbox = await start_sandbox(tmp_path / "sandbox")
    try:
        assets = await provision_demo_wallet(
            sandbox.url, keys.payment.address, keys.ordinals.address, activity=activity
        )
        async with httpx.AsyncClient(base_url=sandbox.url, timeout=30) as http:
            ordinals = (await http.get(f"/ord/address/{keys.ordinals.address}")).json()
            payment = (await http.get(f"/esplora/address/{keys.payment.address}")).json()
            collection = (await http.get(f"/sandbox/collections/{assets.collection_slug}")).json()
            with pytest.raises(SandboxDemoError) as refused:
                await provision_demo_wallet(sandbox.url, "not-an-address", "x", activity=activity)
    finally:
        await sandbox.stop()
    assert sorted(ordinals["inscriptions"]) == sorted(assets.inscription_ids)
    assert len(assets.inscription_ids) == DEMO_INSCRIPTIONS
    assert ordinals["runes_balances"][0][0] == DEMO_RUNE == assets.rune
    assert payment["chain_stats"]["funded_txo_sum"] == DEMO_FAUCET_SATS
    assert collection["inscriptionCount"] >= DEMO_INSCRIPTIONS
    entries = activity.entries()
    faucet = entries[0]
    assert faucet.action == "sandbox.faucet" and faucet.ok and faucet.txid == assets.faucet_txid
    assert [e.action for e in entries[:7]] == [
        "sandbox.faucet",
        "sandbox.collections",
        *["sandbox.inscribe"] * DEMO_INSCRIPTIONS,
        "sandbox.runes",
        "sandbox.mine",
    ]
    assert str(refused.value).startswith("sandbox.faucet: HTTP 4")
    assert refused.value.error_code is not None
    failed = entries[-1]
    assert failed.action == "sandbox.faucet" and not failed.ok
    assert failed.error_code == refused.value.error_code
