"""Integration: the vault on a real Secret Service. Each test starts its own D-Bus session bus and
gnome-keyring-daemon (login keyring created and unlocked with a password on stdin) in a
private HOME, then talks to it through keyring's SecretService backend."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from app.wallet.keyring_store import KeyringStore
from app.wallet.vault import Vault
from app.wallet.vault_crypto import Argon2idParams
from app.wallet.vault_errors import KeyringLockedError, ProfileNotFoundError

if TYPE_CHECKING:
    from conftest import Samples

pytestmark = pytest.mark.keyring_integration

BINARIES = ("dbus-daemon", "gnome-keyring-daemon")
MISSING = [name for name in BINARIES if shutil.which(name) is None]
SECRETS_BUS_NAME = "org.freedesktop.secrets"
STARTUP_TIMEOUT_S = 20.0
SERVICE = "bidwallet-integration"

secretstorage = pytest.importorskip("secretstorage", reason="secretstorage (keyring on Linux)")
if MISSING:
    pytest.skip(
        f"needs {', '.join(MISSING)} (Debian packages gnome-keyring and dbus;"
        " `./dev test` installs them when run as root)",
        allow_module_level=True,
    )

from jeepney import DBus, MatchRule  # noqa: E402  (secretstorage's D-Bus library)
from jeepney.io.blocking import open_dbus_connection  # noqa: E402
from keyring.backends.SecretService import Keyring as SecretServiceKeyring  # noqa: E402


def read_bus_address(bus: subprocess.Popen[str]) -> str:
    assert bus.stdout is not None
    ready, _, _ = select.select([bus.stdout], [], [], STARTUP_TIMEOUT_S)
    line = bus.stdout.readline().strip() if ready else ""
    if not line.startswith("unix:"):
        raise RuntimeError(f"dbus-daemon did not print its address (got {line!r})")
    return line


def wait_for_bus_name(address: str, name: str, daemon: subprocess.Popen[str]) -> None:
    """Block until `name` has an owner on the bus: subscribe to NameOwnerChanged first, then
    check, then wait for the signal (bounded), so there is no race and no fixed sleep."""
    rule = MatchRule(
        type="signal",
        sender="org.freedesktop.DBus",
        interface="org.freedesktop.DBus",
        member="NameOwnerChanged",
        path="/org/freedesktop/DBus",
    )
    rule.add_arg_condition(0, name)
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    with open_dbus_connection(bus=address) as conn:
        conn.send_and_get_reply(DBus().AddMatch(rule))
        with conn.filter(rule) as queue:
            while not conn.send_and_get_reply(DBus().NameHasOwner(name)).body[0]:
                if daemon.poll() is not None:
                    raise RuntimeError(f"gnome-keyring-daemon exited with {daemon.returncode}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise RuntimeError(f"{name} did not appear within {STARTUP_TIMEOUT_S} s")
                # Wakes on the signal; the 1 s cap re-checks that the daemon is still alive.
                with contextlib.suppress(TimeoutError):
                    conn.recv_until_filtered(queue, timeout=min(remaining, 1.0))


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def secret_service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A private session bus with an unlocked gnome-keyring; yields the bus address."""
    home, runtime = tmp_path / "home", tmp_path / "run"
    home.mkdir()
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_RUNTIME_DIR=str(runtime),
    )
    bus = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    daemon: subprocess.Popen[str] | None = None
    try:
        address = read_bus_address(bus)
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        daemon = subprocess.Popen(
            ["gnome-keyring-daemon", "--foreground", "--components=secrets", "--unlock"],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        assert daemon.stdin is not None
        daemon.stdin.write("keyring-login-password")  # --unlock reads it until EOF
        daemon.stdin.close()
        wait_for_bus_name(address, SECRETS_BUS_NAME, daemon)
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield address
    finally:
        if daemon is not None:
            stop(daemon)
        stop(bus)


def test_store_reload_and_delete_a_wallet(
    secret_service: str, samples: Samples, fast_kdf: Argon2idParams
) -> None:
    store = KeyringStore(SecretServiceKeyring(), service=SERVICE)
    assert "SecretService" in store.description
    vault = Vault(store, fast_kdf)
    vault.create(samples.meta(), samples.mnemonic_secret, samples.password, remember=True)
    vault.create_watch_only(samples.meta("Watch"), samples.watch_only())

    # A new backend object and vault: everything comes back from the daemon.
    reloaded = Vault(KeyringStore(SecretServiceKeyring(), service=SERVICE), fast_kdf)
    assert reloaded.profile_names() == ["Main wallet", "Watch"]
    assert reloaded.unlock("Main wallet", samples.password) == samples.mnemonic_secret
    assert reloaded.unlock("Main wallet") == samples.mnemonic_secret  # remembered key
    assert reloaded.info("Watch").watch_only == samples.watch_only()

    # What the daemon holds is encrypted: no mnemonic word, no password.
    connection = secretstorage.dbus_init()
    try:
        collection = secretstorage.get_default_collection(connection)
        items = [
            i for i in collection.get_all_items() if i.get_attributes().get("service") == SERVICE
        ]
        stored = [item.get_secret().decode() for item in items]
    finally:
        connection.close()
    assert len(stored) == 4  # profile list, two records, one unlock key
    assert not any(
        samples.mnemonic.split()[0] in text or samples.password in text for text in stored
    )

    reloaded.delete("Main wallet")
    reloaded.delete("Watch")
    assert reloaded.profile_names() == []
    with pytest.raises(ProfileNotFoundError):
        vault.unlock("Main wallet", samples.password)
    assert store.get("unlock-key:Main wallet") is None


def test_locked_keychain_is_reported(
    secret_service: str, samples: Samples, fast_kdf: Argon2idParams
) -> None:
    vault = Vault(KeyringStore(SecretServiceKeyring(), service=SERVICE), fast_kdf)
    vault.create(samples.meta(), samples.wif_secret, samples.password)
    connection = secretstorage.dbus_init()
    try:
        secretstorage.get_default_collection(connection).lock()
    finally:
        connection.close()
    # Unlocking needs a prompt; with no display the prompt fails and keyring reports "locked".
    with pytest.raises(KeyringLockedError, match="locked"):
        vault.unlock("Main wallet", samples.password)
