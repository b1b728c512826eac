"""A bulk of secure listings reviewed in one CPU pass (services.listings.review_listings),
against a hostile service: the sandbox's `reply` fault serving its own answer to the same bulk
request with the LAST item's entry attacked, so a review that stopped early, or checked one
item's PSBT against another's listing, would let it through. Each must be refused naming that
item, with nothing signed, recorded in the signature ledger or sent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app.core.signing_policy import RefusalCode
from app.net.marketplace_requests import listings_wire
from app.services.listings import ListingItem, build_listings, prepare_listings
from app.services.psbt_flow import PsbtRefusedError
from tests.services.conftest import ContextFactory, SandboxControl, SandboxFaults
from tests.services.test_listings import inscribe_many, listings_sent

pytestmark = pytest.mark.asyncio(loop_scope="session")

BULK = "/v1/intent/secure-bulk-sell"
Served = list[dict[str, Any]]


def _more_indices(served: Served) -> None:
    served[-1]["indicesToSign"] = [0, 1]


def _no_indices(served: Served) -> None:
    served[-1]["indicesToSign"] = []


def _first_psbt_again(served: Served) -> None:
    """The last listing served with the first item's PSBT (signing it would list item 1 at
    item 3's price, a second signature on it)."""
    for key in ("base64", "hex"):
        if key in served[0]:
            served[-1][key] = served[0][key]


CASES: dict[str, tuple[Callable[[Served], None], RefusalCode, str]] = {
    "indicesToSign names one more input": (
        _more_indices,
        RefusalCode.INPUT_NOT_ALLOWED,
        "inputs 0, 1",
    ),
    "indicesToSign names none": (_no_indices, RefusalCode.INPUT_NOT_ALLOWED, "no input"),
    "another item's PSBT": (_first_psbt_again, RefusalCode.ITEM_INPUT_WRONG, ""),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_an_attack_on_the_last_item_of_a_bulk_is_refused(
    make_context: ContextFactory,
    make_keys: object,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
    case: str,
) -> None:
    mutate, code, blame = CASES[case]
    ctx = make_context(make_keys())  # type: ignore[operator]
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 3)
    items = [ListingItem(50_000 + 1_000 * n, i) for n, i in enumerate(ids)]
    # The sandbox's answer to the very request the app makes (asked here, nothing submitted),
    # attacked, then served to the app in the sandbox's place.
    request = {"listings": listings_wire(build_listings(ctx, items))}
    honest = await sandbox.http.post(BULK, json=request)
    assert honest.status_code == 200, honest.text
    answer = honest.json()
    mutate(answer["data"]["seller"]["secureListingPSBTs"])
    await sandbox_faults.arm("reply", BULK, method="POST", status=200, body=answer)

    with pytest.raises(PsbtRefusedError) as refused:
        await prepare_listings(ctx, items)

    assert code in refused.value.verdict.codes
    assert blame in refused.value.user_message
    assert ids[-1] in refused.value.label
    assert ctx.acp_ledger is not None and ctx.acp_ledger.live() == ()
    assert [(f.kind, f.path) for f in await sandbox_faults.fired()] == [("reply", BULK)]
    assert await listings_sent(sandbox_faults, ctx) == []
