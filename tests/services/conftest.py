"""Shared fixtures of the use-case tests: one real sandbox process, fresh keys, contexts.

- `sandbox_url` (session): a `bidwallet sandbox serve` process on a temporary data dir, shared
  by every services test (each test uses its own fresh keys, so their bids never mix).
- `bids_keyed_by` ("ordinals" unless a test is parametrized with `BOTH_KEYINGS`) and
  `active_sandbox_url`, the sandbox every fixture below talks to: `sandbox_url`, or with
  "payment" `payment_keyed_sandbox_url`, one more process started with
  `--bids-keyed-by payment` the first time a test asks for it (the public service does not
  document which address it lists and cancels bids by; the app must work with either).
  `keyed_address(ctx, bids_keyed_by)` is the address that sandbox lists ctx's bids under.
- `sandbox` (`SandboxControl`): the scenario API (faucet, mine, clock, inscriptions, runes).
- `service_clock` (`SteppedClock`: the sandbox's time at the start, moved only by waits) and
  `sandbox_sleeper` (`SandboxSleeper`: a wait advances the sandbox clock and `service_clock`
  by the same amount and records it in `.waits`; nothing sleeps).
- `make_keys(preset="leather", mnemonic=None)`: regtest `WalletKeys` (a fresh random mnemonic
  unless given); `keys`: one of them.
- `funded_keys`: `keys` with two confirmed 0.05 BTC coins on the payment address.
- `make_context(keys, url=None, timeouts=None)`: a `ServiceContext` (sandbox maker fee, the
  sandbox clock and sleeper), its clients closed at teardown; `ctx`: one for `funded_keys`.
- `sandbox_faults` (`SandboxFaults`): this test's faults on its sandbox (docs/sandbox-faults.md)
  and the requests it received (its journal, `GET /sandbox/requests`), none armed or recorded
  at the test's start or left at its end (the sandbox process serves every test).
- `proxy`: a rewriting `FaultProxy` in front of the sandbox (tests/support/proxy.py), only for
  answers the test generates itself from the real ones (the hostile server's PSBT mutations and
  ord facts, ord's batch answers reordered, an older ord's); every other fault is the sandbox's.
- `collection`: a fresh collection slug with `TRAITS`; `bidder`: `ctx` whose bidding wallet
  holds `BIDDING_FUNDS`; `hour_from_now(ctx)`: a bid expiry on the service clock.

Async fixtures run in the session's event loop (`asyncio_default_fixture_loop_scope`), so every
test module here starts with `pytestmark = pytest.mark.asyncio(loop_scope="session")` to run its
tests in that same loop (then plain `@pytest.fixture async def` fixtures work too).
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, Literal, TypeVar

import httpx
import pytest
from embit import bip39

from app.core.pools import MakerFee
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.net.http import Timeouts
from app.net.sandbox import CollectionInfo, SandboxClient
from app.net.sandbox_faults import ArmedFault, FaultKind, FiredFault
from app.net.sandbox_market import RunestonesMode
from app.net.sandbox_requests import ReceivedRequest
from app.net.sandbox_scenario import InscriptionCreated
from app.services.acp_signatures import ledger_of
from app.services.context import DEFAULT_MAKER_FEE, ServiceContext
from app.wallet.addresses import Network
from app.wallet.keys import MnemonicSeed, WalletKeys, derive_wallet_keys
from app.wallet.presets import get_preset
from tests.sandbox.sandbox_process import SandboxProcess
from tests.support.fake_market import FakeMarket
from tests.support.proxy import FaultProxy

COIN_SATS = 5_000_000
T = TypeVar("T")


@pytest.fixture(scope="session")
def sandbox_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("services-sandbox")
    process = SandboxProcess(root / "logs", root / "data")
    try:
        yield process.url
    finally:
        if process.proc.poll() is None:
            process.kill()


BidsKeyedBy = Literal["ordinals", "payment"]
# Runs a test against both sandboxes: bids listed and cancelled by the ordinals address (the
# default), and by the payment address that signs them.
BOTH_KEYINGS = pytest.mark.parametrize("bids_keyed_by", ["ordinals", "payment"])


@pytest.fixture(scope="session")
def payment_keyed_sandbox_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One more sandbox process for the session, keying bids by the payment address; started
    only when a test runs with `bids_keyed_by="payment"`."""
    root = tmp_path_factory.mktemp("services-sandbox-payment-keyed")
    process = SandboxProcess(
        root / "logs", root / "data", extra_args=["--bids-keyed-by", "payment"]
    )
    try:
        info = httpx.get(f"{process.url}/sandbox/info", timeout=30.0).json()
        assert info["bidsKeyedBy"] == "payment", info
        yield process.url
    finally:
        if process.proc.poll() is None:
            process.kill()


@pytest.fixture
def bids_keyed_by() -> BidsKeyedBy:
    """Which address the test's sandbox keys bids by; `BOTH_KEYINGS` overrides it."""
    return "ordinals"


@pytest.fixture
def active_sandbox_url(
    bids_keyed_by: BidsKeyedBy, sandbox_url: str, request: pytest.FixtureRequest
) -> str:
    """The sandbox this test talks to (its scenario API, its contexts, its proxy)."""
    if bids_keyed_by == "ordinals":
        return sandbox_url
    url: str = request.getfixturevalue("payment_keyed_sandbox_url")
    return url


def keyed_address(ctx: ServiceContext, bids_keyed_by: BidsKeyedBy) -> str:
    """The address the test's sandbox lists ctx's bids under (and wants as their maker)."""
    return ctx.payment_address if bids_keyed_by == "payment" else ctx.ordinals_address


def other_address(ctx: ServiceContext, bids_keyed_by: BidsKeyedBy) -> str:
    """ctx's address the test's sandbox lists none of its bids under."""
    return ctx.ordinals_address if bids_keyed_by == "payment" else ctx.payment_address


class SandboxControl:
    """The sandbox's `/sandbox` scenario API, for arranging a test's world: each call through
    the app's client of it (`SandboxClient`, opened per call), and `http` for raw requests."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http
        self.url = str(http.base_url).rstrip("/")

    async def call(self, action: Callable[[SandboxClient], Awaitable[T]]) -> T:
        """`action(client)` with a client of this sandbox; its result."""
        async with SandboxClient(self.url) as client:
            return await action(client)

    async def info(self) -> dict[str, Any]:
        return dict((await self.call(lambda c: c.info())).raw)

    async def set_ord_indexes_mempool(self, indexed: bool) -> None:
        """`True`: the sandbox's ord describes mempool outputs (unlike real ord, its default)."""
        assert await self.call(lambda c: c.set_ord_indexes_mempool(indexed)) is indexed

    async def set_runestones(self, mode: RunestonesMode) -> None:
        """The runestone the service adds to rune listing and inscription bid PSBTs from now
        on: "none" (its default), "edict" or "pointer" (`--service-runestones`)."""
        assert await self.call(lambda c: c.set_runestones(mode)) == mode

    async def faucet(self, address: str, sats: int, *, mine: bool = True) -> str:
        """Pay `sats` to `address`; returns the outpoint "txid:vout"."""
        paid = await self.call(lambda c: c.faucet(address, sats))
        if mine:
            await self.mine()
        return paid.outpoint

    async def mine(self, blocks: int = 1) -> int:
        return await self.call(lambda c: c.mine(blocks))

    async def advance_clock(self, ms: int) -> int:
        return (await self.call(lambda c: c.advance_clock(ms))).clock_ms

    async def create_collection(
        self, slug: str, traits: dict[str, list[str]] | None = None
    ) -> CollectionInfo:
        name = slug.replace("-", " ").title()
        return await self.call(lambda c: c.create_collection(slug, name, traits))

    async def inscribe(
        self,
        address: str,
        collection: str | None = None,
        attributes: dict[str, str] | None = None,
        *,
        mine: bool = True,
    ) -> InscriptionCreated:
        created = await self.call(
            lambda c: c.inscribe(address, collection=collection, attributes=attributes)
        )
        if mine:
            await self.mine()
        return created

    async def etch_runes(self, address: str, rune: str, amount: int, *, mine: bool = True) -> str:
        outpoint = await self.call(lambda c: c.give_runes(address, rune, amount))
        if mine:
            await self.mine()
        return outpoint


class SteppedClock:
    """Our clock in tests: the sandbox's time when the test started, moved only by the
    sleeper. Waits computed from it are exact numbers, whatever the machine's load; the
    service's own clock runs ahead of it by the test's real duration, which only makes every
    wait we compute at least as long as the service needs."""

    def __init__(self, start_ms: int) -> None:
        self.ms = start_ms

    def now_ms(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms += ms


class SandboxSleeper:
    """A `Sleeper` that makes time pass instead of waiting: the sandbox clock and ours."""

    def __init__(self, sandbox: SandboxControl, clock: SteppedClock) -> None:
        self.sandbox = sandbox
        self.clock = clock
        self.waits: list[int] = []

    async def sleep_ms(self, ms: int) -> None:
        self.waits.append(ms)
        if ms > 0:
            await self.sandbox.advance_clock(ms)
            self.clock.advance(ms)


@pytest.fixture
async def sandbox(active_sandbox_url: str) -> AsyncIterator[SandboxControl]:
    async with httpx.AsyncClient(base_url=active_sandbox_url, timeout=120.0) as http:
        yield SandboxControl(http)


@pytest.fixture
async def service_clock(sandbox: SandboxControl) -> SteppedClock:
    return SteppedClock(int((await sandbox.info())["clockMs"]))


@pytest.fixture
def sandbox_sleeper(sandbox: SandboxControl, service_clock: SteppedClock) -> SandboxSleeper:
    return SandboxSleeper(sandbox, service_clock)


@pytest.fixture
async def sandbox_maker_fee(sandbox: SandboxControl) -> MakerFee:
    info = await sandbox.info()
    if info.get("makerFeeSats") is None:
        return DEFAULT_MAKER_FEE
    return MakerFee(int(info.get("makerFeeBps") or 0), int(info["makerFeeSats"]))


KeysFactory = Callable[..., WalletKeys]


def new_mnemonic() -> str:
    return str(bip39.mnemonic_from_bytes(secrets.token_bytes(16)))


@pytest.fixture
def make_keys() -> KeysFactory:
    def make(preset: str = "leather", mnemonic: str | None = None) -> WalletKeys:
        words = mnemonic or new_mnemonic()
        return derive_wallet_keys(MnemonicSeed(words), get_preset(preset), Network.REGTEST)

    return make


@pytest.fixture
def keys(make_keys: KeysFactory) -> WalletKeys:
    return make_keys()


@pytest.fixture
def fake() -> FakeMarket:
    """A marketplace of handlers (the public service's shapes the sandbox does not give)."""
    return FakeMarket()


@pytest.fixture
async def fake_ctx(fake: FakeMarket, make_keys: KeysFactory) -> AsyncIterator[ServiceContext]:
    """A use case's context whose clients reach only `fake`."""
    clients = fake.clients()
    yield ServiceContext(clients, make_keys())
    await clients.aclose()


@pytest.fixture
async def funded_keys(keys: WalletKeys, sandbox: SandboxControl) -> WalletKeys:
    await sandbox.faucet(keys.payment.address, COIN_SATS, mine=False)
    await sandbox.faucet(keys.payment.address, COIN_SATS)
    return keys


ContextFactory = Callable[..., ServiceContext]


@pytest.fixture
async def sandbox_service_key(sandbox: SandboxControl) -> bytes:
    """The key the sandbox publishes for its half of every bidding wallet."""
    return bytes.fromhex((await sandbox.info())["servicePublicKey"])


@pytest.fixture
async def make_context(
    active_sandbox_url: str,
    service_clock: SteppedClock,
    sandbox_sleeper: SandboxSleeper,
    sandbox_maker_fee: MakerFee,
    sandbox_service_key: bytes,
    tmp_path: Path,
) -> AsyncIterator[ContextFactory]:
    """Contexts as the app builds them: this test's machine's signature ledger (in its data
    folder), and the sandbox's published service key."""
    opened: list[NetClients] = []

    def make(
        keys: WalletKeys, url: str | None = None, timeouts: Timeouts | None = None
    ) -> ServiceContext:
        config = ServiceConfig.sandbox(url or active_sandbox_url, timeouts=timeouts)
        clients = NetClients.open(config)
        opened.append(clients)
        ctx = ServiceContext(
            clients,
            keys,
            maker_fee=sandbox_maker_fee,
            clock=service_clock,
            sleeper=sandbox_sleeper,
            service_public_key=sandbox_service_key,
        )
        ctx.acp_ledger = ledger_of(tmp_path)  # this test's machine
        return ctx

    yield make
    for clients in opened:
        await clients.aclose()


@pytest.fixture
def ctx(make_context: ContextFactory, funded_keys: WalletKeys) -> ServiceContext:
    return make_context(funded_keys)


class SandboxFaults:
    """Faults on the test's sandbox, through the app's `SandboxClient`: `arm(kind, path,
    method=..., applied=..., status=..., times=..., ...)` takes `SandboxClient.arm_fault`'s
    arguments (a fault answers in the service's place unless `applied=True`)."""

    def __init__(self, sandbox: SandboxControl) -> None:
        self.sandbox = sandbox

    async def arm(self, kind: FaultKind, path: str, **options: Any) -> ArmedFault:
        return await self.sandbox.call(lambda c: c.arm_fault(kind, path, **options))

    async def remove(self, fault: ArmedFault) -> None:
        """`fault` removed (one armed with `times=None`, once the test no longer wants it)."""
        await self.sandbox.call(lambda c: c.remove_fault(fault.id))

    async def fired(self) -> tuple[FiredFault, ...]:
        """The firings since the test began, oldest first."""
        return (await self.sandbox.call(lambda c: c.faults())).fired

    async def requests(
        self, method: str | None = None, path: str | None = None
    ) -> tuple[ReceivedRequest, ...]:
        """What the sandbox received since the test began (or `forget_requests`), oldest
        first, of `method` and `path` (a prefix when it ends in "*"): every client's, so a
        test picks its own by its addresses or ids (tests/support/journal.py)."""
        return await self.sandbox.call(lambda c: c.requests(method=method, path=path))

    async def placements(self, slug: str) -> list[ReceivedRequest]:
        """The bid placements (`POST /v1/bid/place`) received for `slug` (a collection, or a
        rune's etched name), oldest first."""
        placed = await self.requests("POST", "/v1/bid/place")
        return [r for r in placed if r.body_json and r.body.get("collectionSlug") == slug]

    async def forget_requests(self) -> None:
        """The journal emptied: what follows is the test's next step alone."""
        await self.sandbox.call(lambda c: c.clear_requests())

    async def clear(self) -> None:
        """Every fault removed, its firings and the request journal forgotten."""
        await self.sandbox.call(lambda c: c.clear_faults())
        await self.forget_requests()


@pytest.fixture
async def sandbox_faults(sandbox: SandboxControl) -> AsyncIterator[SandboxFaults]:
    """This test's faults and journal: none armed or recorded when it starts, none left when
    it ends (whatever its outcome), since the next test shares the sandbox."""
    faults = SandboxFaults(sandbox)
    await faults.clear()
    try:
        yield faults
    finally:
        await faults.clear()


@pytest.fixture
async def proxy(active_sandbox_url: str) -> AsyncIterator[FaultProxy]:
    async with FaultProxy(upstream=active_sandbox_url) as running:
        yield running


BIDDING_FUNDS = 1_000_000
TRAITS = {"hat": ["red", "blue", "green"], "eyes": ["laser", "sleepy"], "background": ["sky"]}


@pytest.fixture
async def collection(sandbox: SandboxControl) -> str:
    """A fresh collection (unique slug) with the traits in `TRAITS`."""
    slug = f"col-{secrets.token_hex(5)}"
    await sandbox.create_collection(slug, TRAITS)
    return slug


@pytest.fixture
async def bidder(ctx: ServiceContext, sandbox: SandboxControl) -> ServiceContext:
    """`ctx` with its bidding wallet known and holding `BIDDING_FUNDS` (confirmed)."""
    from app.services.bidding_wallet import get_bidding_wallet

    wallet = await get_bidding_wallet(ctx)
    await sandbox.faucet(wallet.address, BIDDING_FUNDS)
    return ctx


def hour_from_now(ctx: ServiceContext) -> int:
    return ctx.clock.now_ms() + 3_600_000
