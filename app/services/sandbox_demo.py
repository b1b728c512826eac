"""Give a new sandbox wallet something to bid with and to list, through the `/sandbox` API.

The payment address gets coins from the faucet; the ordinals address gets a few inscriptions of
a demo collection (with traits) and a rune balance; then a block confirms it all. Each request is
recorded in the activity log when one is given.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import httpx

from app.net.http import tls_context_for
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
_TIMEOUT: Final = httpx.Timeout(60.0, connect=5.0)  # inscribing builds and mines real txs


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


class _ScenarioClient:
    def __init__(self, client: httpx.AsyncClient, activity: ActivityLog | None) -> None:
        self._client = client
        self._activity = activity

    async def call(self, action: str, method: str, path: str, body: Any = None) -> Any:
        if self._activity is None:
            return await self._send(action, method, path, body)
        async with self._activity.track(action, path=path) as result:
            data = await self._send(action, method, path, body)
            if isinstance(data, dict):
                result.txid = data.get("txid") or _txid_of(data.get("outpoint"))
                result.message = _summary(data)
            return data

    async def _send(self, action: str, method: str, path: str, body: Any) -> Any:
        try:
            response = await self._client.request(method, path, json=body)
        except httpx.HTTPError as exc:
            raise SandboxDemoError(
                f"{action}: no answer from the sandbox ({type(exc).__name__})"
            ) from None
        if not response.is_success:
            code, message = _error(response)
            raise SandboxDemoError(f"{action}: HTTP {response.status_code}: {message}", code)
        return response.json()


def _txid_of(outpoint: Any) -> str | None:
    return outpoint.split(":")[0] if isinstance(outpoint, str) and ":" in outpoint else None


# What the Activity log says of a sandbox answer, in words rather than its field names.
_SUMMARIES = (("inscriptionId", "Inscription {}"), ("height", "Block {}"), ("outpoint", "Coin {}"))


def _summary(data: dict[str, Any]) -> str:
    for key, words in _SUMMARIES:
        if key in data:
            return words.format(data[key])
    return ""


def _error(response: httpx.Response) -> tuple[str | None, str]:
    """(errorCode, message) of an error answer."""
    try:
        body = response.json()
    except ValueError:
        return None, response.text[:200]
    if not isinstance(body, dict):
        return None, str(body)[:200]
    code = body.get("errorCode")
    return (code if isinstance(code, str) else None), str(body.get("message") or body)[:200]


def _attributes(traits: list[dict[str, Any]], number: int) -> list[dict[str, str]]:
    """One value per trait category, varied per inscription so trait bids have a choice."""
    return [
        {"trait_type": t["trait_type"], "value": t["values"][number % len(t["values"])]}
        for t in traits
        if t.get("values")
    ]


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
    async with httpx.AsyncClient(
        base_url=root_url.rstrip("/"),
        timeout=_TIMEOUT,
        transport=transport,
        verify=tls_context_for(root_url),
    ) as http:
        api = _ScenarioClient(http, activity)
        faucet = await api.call(
            "sandbox.faucet",
            "POST",
            "/sandbox/faucet",
            {"address": payment_address, "sats": DEMO_FAUCET_SATS},
        )
        collections = await api.call("sandbox.collections", "GET", "/sandbox/collections")
        if not collections:
            raise SandboxDemoError("the sandbox offers no demo collection")
        collection = collections[0]
        inscriptions = []
        for number in range(DEMO_INSCRIPTIONS):
            created = await api.call(
                "sandbox.inscribe",
                "POST",
                "/sandbox/inscriptions",
                {
                    "address": ordinals_address,
                    "collectionSlug": collection["slug"],
                    "attributes": _attributes(collection.get("traits", []), number),
                },
            )
            inscriptions.append(str(created["inscriptionId"]))
        runes = await api.call(
            "sandbox.runes",
            "POST",
            "/sandbox/runes",
            {"address": ordinals_address, "rune": DEMO_RUNE, "amount": DEMO_RUNE_AMOUNT},
        )
        mined = await api.call("sandbox.mine", "POST", "/sandbox/mine", {"blocks": 1})
    return DemoAssets(
        faucet_txid=str(faucet["txid"]),
        collection_slug=str(collection["slug"]),
        inscription_ids=tuple(inscriptions),
        rune=DEMO_RUNE,
        rune_outpoint=str(runes["outpoint"]),
        height=int(mined["height"]),
    )
