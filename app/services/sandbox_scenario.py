"""The sandbox's scenario API for code above the network layer (the QA plugin in app/ui/qa, the
demo wallet's provisioning): `scenario_client(root)` opens the one client of the sandbox's own
API (`SandboxClient`, app/net/sandbox.py) on a sandbox's root URL, and the types its calls
answer are named here, so the window-side QA code never imports app.net.

    async with scenario_client(root) as sandbox:
        payment = await sandbox.faucet(address, 100_000)
        await sandbox.mine()
        await sandbox.arm_fault("error", "/v1/bid/place", method="POST", status=503)
        sent = await sandbox.requests(path="/v1/bid/place", method="POST")  # the journal

A refusal is a `SandboxRefused` (the sandbox's status, errorCode and message); no answer is a
`NetError`.
"""

from __future__ import annotations

from app.net.errors import BadResponse, NetError
from app.net.errors import HttpError as SandboxRefused
from app.net.http import Timeouts
from app.net.marketplace_responses import CancelResult
from app.net.sandbox import CollectionInfo, SandboxClient, SandboxInfo
from app.net.sandbox_faults import ArmedFault, FaultKind, Faults, FaultTamper, FiredFault
from app.net.sandbox_market import (
    AcceptedInscriptionBid,
    BidKind,
    Fill,
    FloorShift,
    MarketBid,
    MarketListing,
    Purchase,
    RunestonesMode,
    SimulatedStep,
    Simulation,
)
from app.net.sandbox_requests import JournalFault, ReceivedRequest
from app.net.sandbox_scenario import (
    AddressKind,
    FaucetPayment,
    InscriptionCreated,
    InscriptionRevealed,
    MempoolTraffic,
    RevealOutput,
    SandboxClock,
)

__all__ = [
    "AcceptedInscriptionBid",
    "AddressKind",
    "ArmedFault",
    "BadResponse",
    "BidKind",
    "CancelResult",
    "CollectionInfo",
    "FaucetPayment",
    "FaultKind",
    "FaultTamper",
    "Faults",
    "Fill",
    "FiredFault",
    "FloorShift",
    "InscriptionCreated",
    "InscriptionRevealed",
    "JournalFault",
    "MarketBid",
    "MarketListing",
    "MempoolTraffic",
    "NetError",
    "Purchase",
    "ReceivedRequest",
    "RevealOutput",
    "RunestonesMode",
    "SandboxClient",
    "SandboxClock",
    "SandboxInfo",
    "SandboxRefused",
    "SimulatedStep",
    "Simulation",
    "scenario_client",
]


def scenario_client(root_url: str, *, timeouts: Timeouts | None = None) -> SandboxClient:
    """A client of the sandbox at `root_url` (its root, without `/sandbox` or `/v1`); an async
    context manager that closes it. The default timeouts allow for calls that build and mine
    real transactions."""
    return SandboxClient(root_url, timeouts=timeouts)
