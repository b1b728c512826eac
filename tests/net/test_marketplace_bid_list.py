"""GET /address/bids: the fields the public service documents are read first, and every entry
says which address it was listed under.

Sources: the field list of https://docs.satflow.com/reference/get_address-bids (`bid_id`,
`inscription_id`, `price`, `type`, `isNonCustodial`, `expiration`, `attribute`,
`inscription_metadata`, `runes_metadata`), and how Satflow's market maker (satflow-mm,
src/services/protocols/{ordinals,runes}/bidding.js) reads them: a collection bid by
`inscription_metadata.collection.id`, a rune bid by `runes_metadata.runes[0].name`, its units
as `amount / 10 ** divisibility`.
"""

from __future__ import annotations

from typing import Any

import pytest
from net_router import Router
from net_samples import ORD, PAY, client

DOCUMENTED: dict[str, Any] = {
    "success": True,
    "data": {
        "results": [
            {
                "bid_id": "6650c0ffee0000000000000a",
                "inscription_id": None,
                "price": 120000,
                "type": "collection",
                "isNonCustodial": True,
                "expiration": 1_800_000_000_000,
                "attribute": {"trait_type": "Background", "value": "Orange"},
                "inscription_metadata": {"collection": {"id": "nodemonkes"}},
                "runes_metadata": None,
            },
            {
                "bid_id": "6650c0ffee0000000000000b",
                "inscription_id": None,
                "price": 50000,
                "type": "rune",
                "isNonCustodial": True,
                "expiration": 1_800_000_000_000,
                "attribute": None,
                "inscription_metadata": None,
                "runes_metadata": {
                    "runes": [{"name": "DOG•GO•TO•THE•MOON", "amount": 200000, "divisibility": 5}]
                },
            },
        ]
    },
}


async def test_documented_collection_and_rune_fields(router: Router) -> None:
    router.json("GET", "/v1/address/bids", DOCUMENTED)
    async with client(router) as c:
        trait, rune = await c.get_bids(ORD)
    assert (trait.collection_slug, trait.inscription_id, trait.rune_name) == (
        "nodemonkes",
        None,
        None,
    )
    assert trait.attribute is not None and trait.attribute.value == "Orange"
    assert rune.is_rune_bid and rune.rune_name == "DOG•GO•TO•THE•MOON"
    assert (rune.rune_amount, rune.rune_divisibility, rune.quantity) == (200000, 5, 2)
    assert trait.listed_under == rune.listed_under == ORD


async def test_documented_fields_win_over_the_sandboxs_extras(router: Router) -> None:
    # The sandbox sends both; should they ever disagree, the documented field is the one read.
    entry = {
        "bid_id": {"$oid": "6650c0ffee0000000000000c"},
        "type": "rune",
        "price": 70000,
        "quantity": 700,
        "collectionSlug": "OTHER•NAME",
        "runes_metadata": {"runes": [{"name": "SANDBOX•RUNE", "amount": 700, "divisibility": 0}]},
    }
    router.json("GET", "/v1/address/bids", {"data": {"results": [entry]}})
    async with client(router) as c:
        (bid,) = await c.get_bids(PAY)
    assert (bid.rune_name, bid.quantity, bid.rune_amount, bid.listed_under) == (
        "SANDBOX•RUNE",
        700,
        700,
        PAY,
    )


@pytest.mark.parametrize(
    ("rune", "quantity"),
    [
        ({"name": "R•R", "amount": "1500", "divisibility": 2}, 15),  # amount sent as text
        ({"name": "R•R", "amount": 1550, "divisibility": 2}, None),  # not whole units
        ({"name": "R•R", "amount": 7}, 7),  # no divisibility: 0
        ({"name": "R•R"}, None),
    ],
)
async def test_rune_units_from_amount_and_divisibility(
    router: Router, rune: dict[str, Any], quantity: int | None
) -> None:
    entry = {"bid_id": "x", "type": "rune", "price": 10000, "runes_metadata": {"runes": [rune]}}
    router.json("GET", "/v1/address/bids", {"data": {"results": [entry]}})
    async with client(router) as c:
        (bid,) = await c.get_bids(ORD)
    assert bid.quantity == quantity and bid.rune_name == "R•R"


async def test_rune_name_falls_back_past_an_empty_runes_list(router: Router) -> None:
    entry = {
        "bid_id": "x",
        "type": "rune",
        "collectionSlug": "RUNE•X",
        "runes_metadata": {"runes": []},
    }
    router.json("GET", "/v1/address/bids", {"data": {"results": [entry]}})
    async with client(router) as c:
        (bid,) = await c.get_bids(ORD)
    assert bid.rune_name == "RUNE•X"
