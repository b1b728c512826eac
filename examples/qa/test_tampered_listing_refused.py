"""Example scenario (docs/qa.md): the service answers a secure listing with a PSBT that pays us
less than our price (the sandbox's `cut-payment` tamper). The review refuses it with the
reason, nothing can be signed, and nothing is listed."""

from app.ui.qa.app import App
from app.ui.qa.sandbox_faults import SandboxFaults


def test_a_tampered_listing_psbt_is_refused(
    bidwallet_app: App, bidwallet_faults: SandboxFaults
) -> None:
    app = bidwallet_app
    assert app.assets is not None
    item = app.assets.inscription_ids[0]
    bidwallet_faults.tamper("POST", "/v1/intent/secure-sell", "cut-payment")

    review = app.listings.open().start_listing([item], 70_000)

    assert not review.can_approve
    assert review.refusal_reason is not None and "less than" in review.refusal_reason
    review.reject()
    assert app.listings.your_listings() == []
