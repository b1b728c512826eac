"""Key vault timings with the production Argon2id parameters (DEFAULT_KDF).

    .venv/bin/python -m benchmarks.bench_vault [--runs N]

Prints medians: the KDF alone (target: at least ~250 ms, so each password guess costs that much),
saving a profile, unlocking with the password (KDF + decrypt + vault file read), and unlocking
with a remembered unlock key (no KDF)."""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from app.wallet.vault import Vault
from app.wallet.vault_crypto import DEFAULT_KDF, derive_unlock_key
from app.wallet.vault_file_store import FileStore
from app.wallet.vault_models import DerivationLayout, MnemonicSecret, ProfileMeta

PASSWORD = "benchmark password"
MNEMONIC = "ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic"


class DictStore:
    """An in-process store that may hold unlock keys, to time the remembered-key path alone."""

    description = "in-memory store"
    holds_unlock_keys = True

    def __init__(self) -> None:
        self.entries: dict[str, str] = {}

    def get(self, entry: str) -> str | None:
        return self.entries.get(entry)

    def set(self, entry: str, value: str) -> None:
        self.entries[entry] = value

    def delete(self, entry: str) -> bool:
        return self.entries.pop(entry, None) is not None


def median_ms(action: Callable[[], object], runs: int) -> float:
    action()  # warm-up: the first run also pays for faulting in Argon2id's memory
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    runs = parser.parse_args().runs
    secret = MnemonicSecret(MNEMONIC)
    meta = ProfileMeta("bench", "regtest", DerivationLayout("xverse"), datetime.now(UTC))
    kdf = DEFAULT_KDF
    print(
        f"Argon2id parameters: time_cost={kdf.time_cost}, memory={kdf.memory_kib // 1024} MiB,"
        f" parallelism={kdf.parallelism}; CPUs: {os.cpu_count()}; runs: {runs}"
    )
    kdf_ms = median_ms(lambda: derive_unlock_key(PASSWORD, kdf, os.urandom(16)), runs)
    print(f"KDF (derive unlock key)            median {kdf_ms:8.1f} ms")

    with tempfile.TemporaryDirectory() as tmp:
        file_vault = Vault(FileStore(Path(tmp)), kdf)
        save = lambda: file_vault.create(meta, secret, PASSWORD, overwrite=True)  # noqa: E731
        print(f"save profile (vault file)          median {median_ms(save, runs):8.1f} ms")
        unlock = lambda: file_vault.unlock("bench", PASSWORD)  # noqa: E731
        print(f"unlock with password (vault file)  median {median_ms(unlock, runs):8.1f} ms")

    memory_vault = Vault(DictStore(), kdf)
    memory_vault.create(meta, secret, PASSWORD, remember=True)
    remembered = median_ms(lambda: memory_vault.unlock("bench"), max(runs, 20))
    print(f"unlock with remembered key         median {remembered:8.3f} ms")
    if kdf_ms < 250:
        print("WARNING: the KDF took less than 250 ms here; consider raising DEFAULT_KDF")


if __name__ == "__main__":
    main()
