"""Example scenario (docs/qa.md): the service stores our bid, then answers 503 (the spec's
"5xx after the bid was stored", 4.2). The app must read its open bids before trying again: one
bid placed, never two, and the tab says it was placed."""

from app.ui.qa.app import App
from app.ui.qa.sandbox import Sandbox
from app.ui.qa.sandbox_faults import SandboxFaults


def test_a_5xx_after_the_bid_was_stored_places_it_once(
    bidwallet_app: App, bidwallet_sandbox: Sandbox, bidwallet_faults: SandboxFaults
) -> None:
    app, sandbox = bidwallet_app, bidwallet_sandbox
    slug = sandbox.new_collection({"Eyes": ["Laser"]})
    sandbox.fund(app.wallet.addresses().bidding, 500_000)
    bidwallet_faults.error("POST", "/v1/bid/place", status=503, applied=True)

    placed = app.bid.ready(slug).place_collection_bid(slug, 20_000)

    assert placed.ok, placed.said
    [fired] = bidwallet_faults.fired()
    assert fired.path == "/v1/bid/place" and "503" in fired.outcome
    app.open_bids.ready(count=1)  # one bid at the service, not two
