"""The sandbox from a scenario's side: `Sandbox`, the controller a scenario arranges its world
with (the sandbox's scenario API through its one client, `SandboxClient`, reached through
app/services/sandbox_scenario.py; synchronous, as test code is, each call run on the session's
loop so the window keeps running meanwhile), with its faults (sandbox_faults.py) and what it
received (`requests()`, its request journal); the app's
bidding wallet funded from the faucet; and a sleeper that moves the sandbox's clock instead of
sleeping.

`confirm=True` (the default of the calls that make transactions) mines a block after the
call, so what it made is confirmed when the call returns. A refusal raises `SandboxRefused`
(the sandbox's status, errorCode and message).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from app.services.sandbox_scenario import (
    AcceptedInscriptionBid,
    AddressKind,
    BidKind,
    CancelResult,
    FaucetPayment,
    Fill,
    FloorShift,
    InscriptionCreated,
    MarketBid,
    MarketListing,
    Purchase,
    ReceivedRequest,
    RunestonesMode,
    SandboxClient,
    SandboxClock,
    SandboxInfo,
    SandboxRefused,
    Simulation,
    scenario_client,
)
from app.ui.qa.harness import AppHarness
from app.ui.qa.loop import run_async
from app.ui.qa.sandbox_faults import SandboxFaults, fault_scope

if TYPE_CHECKING:
    from app.services.pacing import OffsetClock
    from app.services.sandbox_process import SandboxProcess

T = TypeVar("T")
SCENARIO_TIMEOUT_S = 120  # a call that builds, signs and mines real transactions
OUTBID_STEP_SATS = 1_000


class Sandbox:
    """The session's sandbox (`process`, on `url`) and its scenario API, for a test's code.

    One client serves every call, on `loop` (the session's); `close()` closes it."""

    def __init__(self, process: SandboxProcess, loop: asyncio.AbstractEventLoop) -> None:
        self.process = process
        self.loop = loop
        self._client: SandboxClient | None = None
        self._faults: SandboxFaults | None = None

    @property
    def url(self) -> str:
        return self.process.url

    def run(self, call: Callable[[SandboxClient], Awaitable[T]]) -> T:
        """`call(client)` on the session's loop; its result. Any other scenario call."""

        async def with_client() -> T:
            if self._client is None:
                self._client = scenario_client(self.url)
            return await call(self._client)

        return run_async(self.loop, with_client(), SCENARIO_TIMEOUT_S)

    @property
    def faults(self) -> SandboxFaults:
        """Faults of the sandbox, inside `fault_scope()` only (the `bidwallet_faults` fixture
        of a test): a fault armed outside would outlive the test and hit the next ones."""
        if self._faults is None:
            raise RuntimeError(
                "sandbox.faults is for a test with the bidwallet_faults fixture (or within "
                "sandbox.fault_scope()), which removes its faults when it ends"
            )
        return self._faults

    @contextmanager
    def fault_scope(self) -> Iterator[SandboxFaults]:
        """`faults` within the block; every fault removed, firings and the request journal
        forgotten, at both ends."""
        if self._faults is not None:
            raise RuntimeError("a fault scope is already open on this sandbox")
        with fault_scope(self) as faults:
            self._faults = faults
            try:
                yield faults
            finally:
                self._faults = None

    def requests(
        self, path: str | None = None, method: str | None = None, since: int | None = None
    ) -> tuple[ReceivedRequest, ...]:
        """What the sandbox received (its request journal, the last 5,000), oldest first: of
        `path` (a prefix when it ends in "*"), of `method`, with an id above `since`. Each has
        the body sent (`body`, JSON), the status answered and the fault that hit it. The
        session's sandbox serves every test: `bidwallet_faults` forgets the journal at its
        start and end; filter to your own requests (path, and your addresses or ids in `body`)."""
        return self.run(lambda c: c.requests(method=method, path=path, since=since))

    def clear_requests(self) -> int:
        """Forget the request journal; how many requests were forgotten."""
        return self.run(lambda c: c.clear_requests())

    def close(self) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            run_async(self.loop, client.aclose())

    # -- chain, clock, items -------------------------------------------------------------

    def info(self) -> SandboxInfo:
        return self.run(lambda c: c.info())

    def fund(self, address: str, sats: int, confirm: bool = True) -> FaucetPayment:
        """Pay `sats` to `address` from the faucet."""
        return self._confirmed(lambda c: c.faucet(address, sats), confirm)

    def mine(self, blocks: int = 1) -> int:
        """Mine `blocks` blocks now; the new tip height."""
        return self.run(lambda c: c.mine(blocks))

    def advance_clock(self, ms: int | None = None, *, seconds: float | None = None) -> SandboxClock:
        """Move the sandbox's clock forward by `ms` or `seconds` (one of them)."""
        if (ms is None) == (seconds is None):
            raise ValueError("advance_clock takes ms or seconds, one of them")
        step = ms if ms is not None else round((seconds or 0) * 1000)
        return self.run(lambda c: c.advance_clock(step))

    def new_collection(
        self, traits: Mapping[str, Sequence[str]] | None = None, *, slug: str | None = None
    ) -> str:
        """A new collection with `traits` (`{"hat": ["red", "blue"]}`), named by its slug (a
        fresh one unless given); its slug."""
        slug = slug or f"qa-{secrets.token_hex(4)}"
        return self.run(lambda c: c.create_collection(slug, slug, traits)).slug

    def inscribe(
        self,
        address: str,
        *,
        collection: str | None = None,
        attributes: Mapping[str, str] | None = None,
        postage: int | None = None,
        content_type: str | None = None,
        body: str | None = None,
        confirm: bool = True,
    ) -> InscriptionCreated:
        """An item at `address`, in `collection` with `attributes` (one value per trait)."""

        async def inscribe(c: SandboxClient) -> InscriptionCreated:
            return await c.inscribe(
                address,
                collection=collection,
                attributes=attributes,
                postage=postage,
                content_type=content_type,
                body=body,
            )

        return self._confirmed(inscribe, confirm)

    def give_runes(self, address: str, rune: str, amount: int, confirm: bool = True) -> str:
        """`amount` units of `rune` on a new output of `address`: a new rune is etched, an
        etched one sent from the sandbox's reserve (one route does both). Its outpoint."""
        return self._confirmed(lambda c: c.give_runes(address, rune, amount), confirm)

    def move_item(self, inscription_id: str, to_address: str, confirm: bool = True) -> str:
        """Move an inscription a sandbox key holds (e.g. a seller's) to `to_address`; the
        txid."""
        return self._confirmed(
            lambda c: c.transfer_inscription(inscription_id, to_address), confirm
        )

    def address(self, label: str, kind: AddressKind = "p2tr") -> str:
        """The address of the sandbox-held key `label`: what is sent there the sandbox can
        sign for (an item its seller then holds)."""
        return self.run(lambda c: c.sandbox_address(label, kind))

    def ord_indexes_mempool(self, indexed: bool) -> bool:
        """True: `/ord` describes mempool outputs at once; False (the default): as real ord."""
        return self.run(lambda c: c.set_ord_indexes_mempool(indexed))

    def runestones(self, mode: RunestonesMode) -> str:
        """The runestone the service adds to rune listing and inscription bid PSBTs."""
        return self.run(lambda c: c.set_runestones(mode))

    # -- the market's other participants -------------------------------------------------

    def competing_bid(
        self,
        price: int,
        *,
        slug: str | None = None,
        rune: str | None = None,
        trait: tuple[str, str] | None = None,
        quantity: int = 1,
        bidder: str | None = None,
        expires_in_ms: int | None = None,
        fund_sats: int | None = None,
    ) -> MarketBid:
        """A sandbox bidder's bid at `price`: on `rune`, or on trait `trait` (type, value) or
        the whole of collection `slug`."""
        kind: BidKind = "rune" if rune is not None else "trait" if trait else "collection"

        async def place(c: SandboxClient) -> MarketBid:
            return await c.market_bid(
                kind,
                price,
                slug=slug,
                rune=rune,
                trait=trait,
                quantity=quantity,
                bidder=bidder,
                expires_in_ms=expires_in_ms,
                fund_sats=fund_sats,
            )

        return self.run(place)

    def outbid(
        self,
        our_price: int,
        *,
        by: int = OUTBID_STEP_SATS,
        slug: str | None = None,
        rune: str | None = None,
        trait: tuple[str, str] | None = None,
        quantity: int = 1,
        bidder: str | None = None,
    ) -> MarketBid:
        """A competing bid `by` sats above `our_price` on the same target as ours."""
        return self.competing_bid(
            our_price + by, slug=slug, rune=rune, trait=trait, quantity=quantity, bidder=bidder
        )

    def cancel_competing_bid(self, bid_id: str) -> CancelResult:
        return self.run(lambda c: c.cancel_market_bid(bid_id))

    def fill_bid(self, bid_id: str, *, seller: str | None = None, confirm: bool = True) -> Fill:
        """A sandbox seller fills the collection or trait bid `bid_id` (ours or another's)
        with an item it holds, minted to match when none does."""
        return self._confirmed(lambda c: c.market_fill(bid_id, seller=seller), confirm)

    def accept_inscription_bid(self, bid_id: str, confirm: bool = True) -> AcceptedInscriptionBid:
        """The sandbox-held owner of the item accepts our single-inscription bid."""
        return self._confirmed(lambda c: c.accept_inscription_bid(bid_id), confirm)

    def buy_listing(
        self, listing_id: str, *, receive_address: str | None = None, confirm: bool = True
    ) -> Purchase:
        """The sandbox's buyer buys the listing `listing_id` (ours or a seller's)."""

        async def buy(c: SandboxClient) -> Purchase:
            return await c.purchase_listing(listing_id, buyer_token_receive_address=receive_address)

        return self._confirmed(buy, confirm)

    def buy_cheapest(
        self, *, slug: str | None = None, rune: str | None = None, confirm: bool = True
    ) -> Purchase:
        """The sandbox's buyer buys the cheapest active listing of `slug` or `rune` (anyone's)."""
        return self._confirmed(lambda c: c.market_buy(slug=slug, rune=rune), confirm)

    def list_item(
        self,
        price: int,
        *,
        slug: str | None = None,
        inscription_id: str | None = None,
        rune: str | None = None,
        amount: int | None = None,
        seller: str | None = None,
    ) -> MarketListing:
        """A sandbox seller lists an item of `slug` (its `inscription_id`, or a new one), or
        `amount` units of `rune`, at `price`."""

        async def list_(c: SandboxClient) -> MarketListing:
            return await c.market_listing(
                price,
                slug=slug,
                inscription_id=inscription_id,
                rune=rune,
                amount=amount,
                seller=seller,
            )

        return self.run(list_)

    def end_listing(self, listing_id: str) -> MarketListing:
        """The sandbox seller ends its listing (the item moves to its own address)."""
        return self.run(lambda c: c.end_market_listing(listing_id))

    def move_floor(self, slug: str, price: int, *, seller: str | None = None) -> FloorShift:
        """Make `price` the collection's lowest listing (the sellers reprice or list)."""
        return self.run(lambda c: c.market_floor(slug, price, seller=seller))

    def simulate(self, steps: int = 1, seed: int = 0) -> Simulation:
        """`steps` more steps of the seeded market simulator (deterministic per seed)."""
        return self.run(lambda c: c.market_simulate(seed, steps))

    def _confirmed(self, call: Callable[[SandboxClient], Awaitable[T]], confirm: bool) -> T:
        async def then_mine(c: SandboxClient) -> T:
            result = await call(c)
            if confirm:
                await c.mine()
            return result

        return self.run(then_mine)


def sandbox_post(root_url: str, path: str, body: dict[str, Any]) -> Any:
    """One `/sandbox` call by path (its JSON answer), through the sandbox's client on the
    test's running loop; an AssertionError names the call and the sandbox's answer when it
    fails. Older tests' form: a scenario uses `Sandbox`."""

    async def post() -> Any:
        async with scenario_client(root_url) as sandbox:
            return await sandbox.post_json(path, body)

    try:
        return run_async(_running_loop("sandbox_post"), post(), SCENARIO_TIMEOUT_S)
    except SandboxRefused as exc:
        raise AssertionError(f"{path}: {exc}") from None


def fund_bidding_wallet(app: AppHarness, loop: asyncio.AbstractEventLoop, sats: int) -> str:
    """Pay `sats` into the app's bidding wallet from the faucet and confirm it; its address."""
    from app.services.bidding_wallet import get_bidding_wallet
    from app.ui.profile_session import profile_session

    session = profile_session(app.context)
    run_async(loop, session.ensure_ready())
    address = run_async(loop, get_bidding_wallet(session.read_context())).address
    root = session.sandbox_root
    assert root is not None, "the app is not on a sandbox"

    async def fund() -> None:
        async with scenario_client(root) as sandbox:
            await sandbox.faucet(address, sats)
            await sandbox.mine()

    run_async(loop, fund(), SCENARIO_TIMEOUT_S)
    return address


def new_collection(root_url: str, traits: dict[str, list[str]]) -> str:
    """A fresh collection with `traits` on the sandbox at `root_url`; its slug. Runs on the
    test's running loop (the session's, set for every GUI test); a scenario with the
    `bidwallet_sandbox` fixture calls `sandbox.new_collection(traits)` instead."""
    slug = f"ui-{secrets.token_hex(4)}"

    async def create() -> str:
        async with scenario_client(root_url) as sandbox:
            return (await sandbox.create_collection(slug, slug, traits)).slug

    return run_async(_running_loop("new_collection"), create(), SCENARIO_TIMEOUT_S)


def _running_loop(caller: str) -> asyncio.AbstractEventLoop:
    """The session's loop, which a GUI test has set running (`bidwallet_on_loop`)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        raise RuntimeError(
            f"{caller} runs on the session's loop, set running for GUI tests "
            "(bidwallet_on_loop); or use the bidwallet_sandbox fixture's Sandbox"
        ) from None


class SandboxClockSleeper:
    """The app's sleeper in tests: a wait moves the sandbox's clock and the app's by the same
    amount instead of sleeping, and is recorded in `waits`."""

    def __init__(self, root_url: str, clock: OffsetClock) -> None:
        self.root_url = root_url
        self.clock = clock
        self.waits: list[int] = []

    async def sleep_ms(self, ms: int) -> None:
        self.waits.append(ms)
        if ms <= 0:
            return
        async with scenario_client(self.root_url) as sandbox:
            await sandbox.advance_clock(ms)
        self.clock.advance(ms)
