"""No secret (mnemonic words, passphrase, WIF, xprv, password, unlock key) reaches a log record,
an exception's str/repr (or its cause), the repr of a vault object, or the stored data."""

from __future__ import annotations

import base64
import json
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from embit import bip32, bip39
from keyring.errors import KeyringLocked

from app.wallet.keyring_store import KeyringStore
from app.wallet.vault import Vault, record_entry, unlock_key_entry
from app.wallet.vault_crypto import Argon2idParams
from app.wallet.vault_errors import VaultError
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import MnemonicSecret, WifSecret

if TYPE_CHECKING:
    from conftest import MemoryKeyring, Samples

WRONG_PASSWORD = "wrong-but-also-secret-pw"
BAD_MNEMONIC_WORD = "qwxyzzy"


def secret_needles(samples: Samples, unlock_key: str) -> list[str]:
    words = samples.mnemonic.split()
    seed = bip39.mnemonic_to_seed(samples.mnemonic, samples.passphrase)
    raw_key = base64.b64decode(unlock_key)
    return [
        samples.mnemonic,
        *words,  # checked as whole words below
        *(" ".join(words[i : i + 2]) for i in range(len(words) - 1)),
        samples.passphrase,
        samples.wif,
        samples.regtest_key.secret.hex(),
        bip32.HDKey.from_seed(seed).to_base58(),
        samples.password,
        samples.other_password,
        WRONG_PASSWORD,
        BAD_MNEMONIC_WORD,
        unlock_key,
        raw_key.hex(),
    ]


def leaks_in(text: str, needles: list[str]) -> list[str]:
    return [
        n for n in needles if re.search(rf"(?<![A-Za-z0-9]){re.escape(n)}(?![A-Za-z0-9])", text)
    ]


def exception_texts(exc: BaseException) -> Iterator[str]:
    seen: BaseException | None = exc
    while seen is not None:
        yield str(seen)
        yield repr(seen)
        seen = seen.__cause__ or seen.__context__


def test_no_secret_in_logs_errors_reprs_or_storage(
    samples: Samples,
    memory_keyring: MemoryKeyring,
    tmp_path: Path,
    fast_kdf: Argon2idParams,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    errors: list[BaseException] = []
    reprs: list[str] = []

    def expect_error(action: Callable[[], Any]) -> None:
        with pytest.raises(VaultError) as caught:
            action()
        errors.append(caught.value)

    keyring_vault = Vault(KeyringStore(memory_keyring, service="leak-test"), fast_kdf)
    file_vault = Vault(FileStore(tmp_path), fast_kdf)
    mnemonic, wif = samples.mnemonic_secret, samples.wif_secret
    keyring_vault.create(samples.meta("M"), mnemonic, samples.password, remember=True)
    keyring_vault.create(samples.meta("W"), wif, samples.password)
    file_vault.create(samples.meta("M"), mnemonic, samples.password)
    first_unlock_key = memory_keyring.items[("leak-test", unlock_key_entry("M"))]
    for vault in (keyring_vault, file_vault):
        reprs += [repr(vault), repr(vault.store), repr(vault.info("M"))]
        reprs.append(repr(vault.unlock("M", samples.password)))
        expect_error(lambda v=vault: v.unlock("M", WRONG_PASSWORD))
        expect_error(lambda v=vault: v.change_password("M", "x", WRONG_PASSWORD))
        expect_error(lambda v=vault: v.create(samples.meta("M"), mnemonic, samples.password))
        vault.change_password("M", samples.other_password, samples.password)
    reprs += [repr(keyring_vault.unlock("M")), repr(keyring_vault.unlock("W", samples.password))]
    expect_error(lambda: file_vault.create(samples.meta("F"), wif, samples.password, remember=True))
    expect_error(lambda: keyring_vault.remember_unlock_key("W", WRONG_PASSWORD))
    expect_error(
        lambda: MnemonicSecret(samples.mnemonic.rsplit(" ", 1)[0] + " " + BAD_MNEMONIC_WORD)
    )
    expect_error(lambda: MnemonicSecret(" ".join(samples.mnemonic.split()[::-1])))
    expect_error(lambda: WifSecret(samples.wif[:-1] + ("A" if samples.wif[-1] != "A" else "B")))
    expect_error(lambda: keyring_vault.create(samples.meta("X", "mainnet"), wif, samples.password))

    # Corrupt and tampered records, then a locked keychain.
    record = memory_keyring.items[("leak-test", record_entry("W"))]
    doc = json.loads(record)
    doc["secret"]["ciphertext"] = base64.b64encode(b"\x00" * 40).decode()
    memory_keyring.items[("leak-test", record_entry("W"))] = json.dumps(doc)
    expect_error(lambda: keyring_vault.unlock("W", samples.password))
    memory_keyring.items[("leak-test", record_entry("W"))] = record[: len(record) // 2]
    expect_error(lambda: keyring_vault.unlock("W", samples.password))
    memory_keyring.fail_with = KeyringLocked("collection locked")
    expect_error(lambda: keyring_vault.unlock("M"))
    memory_keyring.fail_with = None

    unlock_key = memory_keyring.items[("leak-test", unlock_key_entry("M"))]
    needles = secret_needles(samples, unlock_key) + secret_needles(samples, first_unlock_key)
    assert len(errors) == 15 and caplog.records, "the flows above must have run"
    for record_ in caplog.records:
        text = record_.getMessage() + " " + repr(record_.args)
        assert not leaks_in(text, needles), f"log record leaks: {record_.getMessage()}"
    for error in errors:
        for text in exception_texts(error):
            assert not leaks_in(text, needles), f"{type(error).__name__} leaks: {text}"
    for text in reprs:
        assert not leaks_in(text, needles), f"repr leaks: {text}"

    # Stored data: only the remembered unlock key entry may hold key material.
    stored = [v for (_, user), v in memory_keyring.items.items() if not user.startswith("unlock")]
    stored.append((tmp_path / "vault.json").read_text())
    for text in stored:
        assert not leaks_in(text, needles), "stored data leaks a secret"
