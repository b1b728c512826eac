"""The sandbox from a scenario's side: its scenario API (`/sandbox/...`: faucet, mine, clock,
collections; arranging the world, not the app's work), the app's bidding wallet funded from
its faucet, and a sleeper that moves the sandbox's clock instead of sleeping."""

from __future__ import annotations

import asyncio
import secrets
from typing import TYPE_CHECKING, Any

import httpx

from app.ui.qa.harness import AppHarness
from app.ui.qa.loop import run_async

if TYPE_CHECKING:
    from app.services.pacing import OffsetClock

SCENARIO_TIMEOUT_S = 60


def sandbox_post(root_url: str, path: str, body: dict[str, Any]) -> Any:
    """One `/sandbox` scenario call (its JSON answer); an AssertionError names the call and
    the sandbox's answer when it fails."""
    with httpx.Client(base_url=root_url, timeout=SCENARIO_TIMEOUT_S) as http:
        response = http.post(path, json=body)
        assert response.is_success, f"{path}: {response.text}"
        return response.json()


def fund_bidding_wallet(app: AppHarness, loop: asyncio.AbstractEventLoop, sats: int) -> str:
    """Pay `sats` into the app's bidding wallet from the faucet and confirm it; its address."""
    from app.services.bidding_wallet import get_bidding_wallet
    from app.ui.profile_session import profile_session

    session = profile_session(app.context)
    run_async(loop, session.ensure_ready())
    address = run_async(loop, get_bidding_wallet(session.read_context())).address
    root = session.sandbox_root
    assert root is not None, "the app is not on a sandbox"
    sandbox_post(root, "/sandbox/faucet", {"address": address, "sats": sats})
    sandbox_post(root, "/sandbox/mine", {"blocks": 1})
    return address


def new_collection(root_url: str, traits: dict[str, list[str]]) -> str:
    """A fresh collection with `traits` on the sandbox; its slug."""
    slug = f"ui-{secrets.token_hex(4)}"
    spec = [{"trait_type": t, "values": v} for t, v in traits.items()]
    sandbox_post(root_url, "/sandbox/collections", {"slug": slug, "name": slug, "traits": spec})
    return slug


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
        async with httpx.AsyncClient(base_url=self.root_url, timeout=30) as http:
            response = await http.post("/sandbox/clock", json={"advanceMs": ms})
            assert response.is_success, response.text
        self.clock.advance(ms)
