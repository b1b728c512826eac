"""The sandbox's own API client: `GET /sandbox/info` and `GET /sandbox/collections` at the
service root, strict on the body's shape, tolerant on its fields."""

from __future__ import annotations

from typing import Any

import pytest
from net_router import Router

from app.net.errors import BadResponse, NotFound
from app.net.sandbox import CollectionInfo, SandboxClient

ROOT = "http://sandbox.test"
KEY = "02" + "ab" * 32

# GET /sandbox/info as the sandbox answers it (app/sandbox/http/schemas_scenario.py `Info`).
INFO = {
    "network": "regtest",
    "tipHeight": 120,
    "tipHash": "00" * 32,
    "mempoolSize": 0,
    "minRelayFeeRate": 1.0,
    "feeEstimates": {"1": 2.0},
    "clockMs": 1_750_000_000_000,
    "clockOffsetMs": 0,
    "makerFeeSats": 1_000,
    "makerFeeBps": 50,
    "biddingWalletKind": "2-of-2",
    "listingEscrow": "per-item",
    "servicePublicKey": KEY,
}


def client(router: Router) -> SandboxClient:
    return SandboxClient(ROOT, transport=router.transport)


async def test_info_reads_the_fee_the_key_and_the_clock(router: Router) -> None:
    router.json("GET", "/sandbox/info", INFO)
    async with client(router) as c:
        info = await c.info()
    assert router.last.url == f"{ROOT}/sandbox/info"
    assert (info.maker_fee_sats, info.maker_fee_bps) == (1_000, 50)
    assert info.service_public_key == bytes.fromhex(KEY)
    assert info.clock_ms == 1_750_000_000_000
    assert info.raw["network"] == "regtest"


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"makerFeeSats": None, "makerFeeBps": None}, (None, None, bytes.fromhex(KEY), 1)),
        ({"makerFeeSats": "1000", "makerFeeBps": True}, (None, None, bytes.fromhex(KEY), 1)),
        ({"servicePublicKey": None}, (1_000, 50, None, 1)),
        ({"servicePublicKey": KEY[:-2]}, (1_000, 50, None, 1)),  # not 33 bytes
        ({"servicePublicKey": "zz" * 33}, (1_000, 50, None, 1)),  # not hex: logged, not used
        ({"clockMs": 1.5}, (1_000, 50, bytes.fromhex(KEY), None)),
    ],
)
async def test_a_field_missing_or_of_the_wrong_type_counts_as_not_said(
    router: Router, changes: dict[str, Any], expected: tuple[Any, ...]
) -> None:
    router.json("GET", "/sandbox/info", {**INFO, "clockMs": 1, **changes})
    async with client(router) as c:
        info = await c.info()
    assert (
        info.maker_fee_sats,
        info.maker_fee_bps,
        info.service_public_key,
        info.clock_ms,
    ) == expected


async def test_info_that_is_not_an_object_is_a_bad_response(router: Router) -> None:
    router.json("GET", "/sandbox/info", ["not", "an", "object"])
    async with client(router) as c:
        with pytest.raises(BadResponse, match="/sandbox/info"):
            await c.info()


async def test_a_service_that_is_no_sandbox_answers_not_found(router: Router) -> None:
    async with client(router) as c:
        with pytest.raises(NotFound):
            await c.info()


async def test_collections_keep_the_sandboxs_order_and_traits(router: Router) -> None:
    router.json(
        "GET",
        "/sandbox/collections",
        [
            {
                "slug": "pals",
                "name": "Pals",
                "traits": [{"trait_type": "hat", "values": ["red", "blue"]}],
                "createdAt": 1,
                "inscriptionCount": 3,
            },
            {"slug": "apes", "name": "Apes", "traits": [], "createdAt": 2, "inscriptionCount": 0},
        ],
    )
    async with client(router) as c:
        found = await c.collections()
    assert router.last.url == f"{ROOT}/sandbox/collections"
    assert found == [
        CollectionInfo("pals", "Pals", (("hat", ("red", "blue")),)),
        CollectionInfo("apes", "Apes", ()),
    ]


async def test_unusable_collection_entries_and_traits_are_left_out(router: Router) -> None:
    body = [
        "not an object",
        {"name": "no slug"},
        {"slug": 7},
        {
            "slug": "odd",
            "name": 5,
            "traits": [
                {"trait_type": "hat", "values": ["red", 3, None]},
                {"trait_type": "eyes", "values": []},
                {"values": ["x"]},
                "bad",
            ],
        },
        {"slug": "bare", "traits": "not a list"},
    ]
    router.json("GET", "/sandbox/collections", body)
    async with client(router) as c:
        found = await c.collections()
    assert found == [
        CollectionInfo("odd", "", (("hat", ("red",)),)),
        CollectionInfo("bare", "", ()),
    ]


async def test_collections_that_are_not_a_list_are_a_bad_response(router: Router) -> None:
    router.json("GET", "/sandbox/collections", {"collections": []})
    async with client(router) as c:
        with pytest.raises(BadResponse, match="expected a JSON list"):
            await c.collections()
