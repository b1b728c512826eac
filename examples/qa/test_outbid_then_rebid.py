"""Example scenario (docs/qa.md): our collection bid is outbid by another bidder on the
sandbox's market, the Open bids tab shows it second, and a higher bid takes the top again."""

from app.ui.qa.app import App
from app.ui.qa.sandbox import Sandbox


def test_outbid_then_rebid(bidwallet_app: App, bidwallet_sandbox: Sandbox) -> None:
    app, sandbox = bidwallet_app, bidwallet_sandbox
    slug = sandbox.new_collection({"Eyes": ["Laser", "Plain"]})
    sandbox.fund(app.wallet.addresses().bidding, 500_000)

    assert app.bid.ready(slug).place_collection_bid(slug, 20_000).ok
    [ours] = app.open_bids.ready(count=1).bid_ids()
    app.open_bids.wait_rank(ours, "1st of 1 · top bid")

    sandbox.outbid(20_000, slug=slug)  # a sandbox bidder bids 21,000 sats
    app.open_bids.wait_rank(ours, "2nd of 2")

    assert app.bid.place_collection_bid(slug, 22_000).ok
    [rebid] = set(app.open_bids.ready(count=2).bid_ids()) - {ours}
    app.open_bids.wait_rank(rebid, "1st of 3 · top bid")
    # A rank counts the other bidders' units above a bid, not our own: still second.
    assert app.open_bids.row(ours).rank == "2nd of 3"
