"""Give a new sandbox wallet something to bid with and to list, through the `/sandbox` API (its
one client, `SandboxClient`).

The payment address gets coins from the faucet; the ordinals address gets a few inscriptions of
a demo collection (with traits) and a rune balance; then a block confirms it all. Each request is
recorded in the activity log when one is given.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

import httpx

from app.net.errors import HttpError, NetError, TransportError
from app.net.sandbox import CollectionInfo, SandboxClient
from app.net.sandbox_scenario import (
    COLLECTIONS_PATH,
    FAUCET_PATH,
    INSCRIPTIONS_PATH,
    MINE_PATH,
    RUNES_PATH,
)
from app.services.activity import ActivityLog

if TYPE_CHECKING:
    from app.wallet.keys import WalletKeys
    from app.wallet.vault import Vault
    from app.wallet.vault_models import ProfileMeta, WalletSecret

DEMO_FAUCET_SATS: Final = 5 * 100_000_000
DEMO_INSCRIPTIONS: Final = 3
DEMO_RUNE: Final = "BIDWALLET•DEMO"
DEMO_RUNE_AMOUNT: Final = 1_000_000
DEMO_PRESET: Final = "xverse-native"  # P2WPKH payments, P2TR ordinals
# The demo key's generated password lives in the vault's own store (the system keychain, or
# the vault file when there is none): it protects worthless regtest coins only, and the vault
# refuses empty passwords.
DEMO_PASSWORD_ENTRY: Final = "sandbox-demo-password:{name}"
# Since that password sits in the same store as the encrypted key, a costly Argon2id would
# protect nothing and cost ~0.4-1.3 s at every start: the demo key takes the smallest cost the
# vault accepts (time_cost, memory_kib, parallelism). Real keys keep the vault's default.
DEMO_KDF_COST: Final = (1, 8 * 1024, 1)
# Set once the demo key is sealed at that cost; a demo key made before is sealed again once.
DEMO_LIGHT_ENTRY: Final = "sandbox-demo-light-kdf:{name}"


class SandboxDemoError(Exception):
    """A /sandbox request failed; the message names the step and the service's answer, and
    `error_code` holds the service's errorCode when it gave one."""

    def __init__(self, message: str, error_code: str | None = None) -> None:
        super().__init__(message)
        self.error_code = error_code


@dataclass(frozen=True)
class DemoAssets:
    faucet_txid: str
    collection_slug: str
    inscription_ids: tuple[str, ...]
    rune: str
    rune_outpoint: str
    height: int


T = TypeVar("T")


class _Steps:
    """Each `/sandbox` call of the provisioning as one step: recorded in the activity log
    (when there is one) with what it made, a failure raised as `SandboxDemoError`."""

    def __init__(self, activity: ActivityLog | None) -> None:
        self._activity = activity

    async def run(
        self,
        action: str,
        path: str,
        call: Awaitable[T],
        describe: Callable[[T], tuple[str | None, str]] = lambda _: (None, ""),
    ) -> T:
        """`call`'s result; `describe(result)` is the log's (txid, message) of it."""
        if self._activity is None:
            return await _demo_errors(action, call)
        async with self._activity.track(action, path=path) as logged:
            result = await _demo_errors(action, call)
            logged.txid, logged.message = describe(result)
            return result


async def _demo_errors(action: str, call: Awaitable[T]) -> T:
    try:
        return await call
    except HttpError as exc:
        message = f"{action}: HTTP {exc.status}: {exc.message}"
        raise SandboxDemoError(message, exc.error_code) from None
    except TransportError as exc:
        raise SandboxDemoError(f"{action}: no answer from the sandbox ({exc.reason})") from None
    except NetError as exc:  # an answer it cannot read
        raise SandboxDemoError(f"{action}: {exc}") from None


# What the Activity log says of a sandbox answer, in words rather than its field names.
_SUMMARIES = (("inscriptionId", "Inscription {}"), ("height", "Block {}"), ("outpoint", "Coin {}"))


def _summary(data: Mapping[str, Any]) -> str:
    for key, words in _SUMMARIES:
        if key in data:
            return words.format(data[key])
    return ""


def _txid_of(outpoint: str) -> str:
    return outpoint.split(":")[0]


def _attributes(collection: CollectionInfo, number: int) -> dict[str, str]:
    """One value per trait category, varied per inscription so trait bids have a choice."""
    return {name: values[number % len(values)] for name, values in collection.traits if values}


def create_demo_key(vault: Vault, key_name: str) -> WalletKeys:
    """A fresh regtest mnemonic stored in `vault` as `key_name` under a generated password
    (CPU and Argon2 work: call from an executor). Returns its keys, unlocked. An earlier demo
    key of that name (a setup that failed half-way) is replaced; any other key is refused."""
    from app.services.key_setup import new_mnemonic
    from app.services.session import keys_from_secret, layout_for_preset
    from app.wallet.vault_models import MnemonicSecret, ProfileMeta

    if vault.exists(key_name) and vault.info(key_name).meta.network != "regtest":
        raise SandboxDemoError(f"{key_name!r} is a real wallet's key: not replacing it")
    if vault.exists(key_name) and not _is_demo_key(vault, key_name):
        raise SandboxDemoError(f"{key_name!r} is not a sandbox demo key: not replacing it")
    secret = MnemonicSecret(new_mnemonic())
    meta = ProfileMeta(name=key_name, network="regtest", layout=layout_for_preset(DEMO_PRESET))
    password = secrets.token_urlsafe(24)
    # The password first: a key of this name with no stored password is never a demo key.
    vault.store.set(DEMO_PASSWORD_ENTRY.format(name=key_name), password)
    _seal_light(vault, meta, secret, password)
    return keys_from_secret(secret, meta)


def _is_demo_key(vault: Vault, key_name: str) -> bool:
    """A regtest key with a demo password stored for it: the only key the light cost (and a
    replacement) may touch."""
    stored = vault.store.get(DEMO_PASSWORD_ENTRY.format(name=key_name)) is not None
    return stored and vault.info(key_name).meta.network == "regtest"


def _seal_light(vault: Vault, meta: ProfileMeta, secret: WalletSecret, password: str) -> None:
    from app.wallet.vault import Vault
    from app.wallet.vault_crypto import Argon2idParams

    Vault(vault.store, Argon2idParams(*DEMO_KDF_COST)).create(
        meta, secret, password, overwrite=True
    )
    vault.store.set(DEMO_LIGHT_ENTRY.format(name=meta.name), "1")


def unlock_demo_key(vault: Vault, key_name: str) -> WalletKeys:
    """Open the demo key with its stored password (executor: Argon2 work)."""
    from app.services.session import keys_from_secret
    from app.wallet.vault_errors import NoRememberedKeyError

    password = vault.store.get(DEMO_PASSWORD_ENTRY.format(name=key_name))
    if password is None:
        raise NoRememberedKeyError(f"the sandbox demo key {key_name!r} has no stored password")
    meta = vault.info(key_name).meta
    if meta.network != "regtest":  # never a real key at the light cost, whatever opens it
        raise SandboxDemoError(f"{key_name!r} is not a sandbox demo key ({meta.network})")
    secret = vault.unlock(key_name, password)
    if vault.store.get(DEMO_LIGHT_ENTRY.format(name=key_name)) is None:
        _seal_light(vault, meta, secret, password)  # made before the light cost: once
    return keys_from_secret(secret, meta)


async def provision_demo_wallet(
    root_url: str,
    payment_address: str,
    ordinals_address: str,
    *,
    activity: ActivityLog | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> DemoAssets:
    """Fund, inscribe, etch and mine on the sandbox at `root_url`."""
    steps = _Steps(activity)
    async with SandboxClient(root_url.rstrip("/"), transport=transport) as sandbox:
        faucet = await steps.run(
            "sandbox.faucet",
            FAUCET_PATH,
            sandbox.faucet(payment_address, DEMO_FAUCET_SATS),
            lambda paid: (paid.txid, _summary({"outpoint": paid.outpoint})),
        )
        collections = await steps.run(
            "sandbox.collections", COLLECTIONS_PATH, sandbox.collections()
        )
        if not collections:
            raise SandboxDemoError("the sandbox offers no demo collection")
        collection = collections[0]
        inscriptions = []
        for number in range(DEMO_INSCRIPTIONS):
            created = await steps.run(
                "sandbox.inscribe",
                INSCRIPTIONS_PATH,
                sandbox.inscribe(
                    ordinals_address,
                    collection=collection.slug,
                    attributes=_attributes(collection, number),
                ),
                lambda item: (
                    _txid_of(item.outpoint),
                    _summary({"inscriptionId": item.inscription_id}),
                ),
            )
            inscriptions.append(created.inscription_id)
        rune_outpoint = await steps.run(
            "sandbox.runes",
            RUNES_PATH,
            sandbox.give_runes(ordinals_address, DEMO_RUNE, DEMO_RUNE_AMOUNT),
            lambda outpoint: (_txid_of(outpoint), _summary({"outpoint": outpoint})),
        )
        height = await steps.run(
            "sandbox.mine",
            MINE_PATH,
            sandbox.mine(1),
            lambda tip: (None, _summary({"height": tip})),
        )
    return DemoAssets(
        faucet_txid=faucet.txid,
        collection_slug=collection.slug,
        inscription_ids=tuple(inscriptions),
        rune=DEMO_RUNE,
        rune_outpoint=rune_outpoint,
        height=height,
    )
