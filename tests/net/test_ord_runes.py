"""OrdClient.rune: a rune's entry (its canonical spaced name) in both shapes ord has used."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from net_router import Router

from app.net.errors import BadResponse, ServerError
from app.net.ord import OrdClient

BASE = "http://chain.test/ord"

# The /rune/<RUNE> example of ord's API docs (docs/src/guides/api.md, rune UNCOMMONGOODS).
DOC_RUNE: dict[str, Any] = {
    "entry": {
        "block": 1,
        "burned": 139,
        "divisibility": 0,
        "etching": "0000000000000000000000000000000000000000000000000000000000000000",
        "mints": 33891693,
        "number": 0,
        "premine": 0,
        "spaced_rune": "UNCOMMON•GOODS",
        "symbol": "⧉",
        "terms": {
            "amount": 1,
            "cap": 340282366920938463463374607431768211455,
            "height": [840000, 1050000],
            "offset": [None, None],
        },
        "timestamp": 0,
        "turbo": True,
    },
    "id": "1:0",
    "mintable": True,
    "parent": None,
}

# Before `spaced_rune`, ord serialised the entry's `rune` and `spacers` fields (ord's
# src/templates/rune.rs of the 0.14 era: `rune: Rune(u128::MAX), spacers: 1`, shown as
# "B•CGDENLQRQWDSLRUGSNLBTMFIJAV").
OLD_RUNE: dict[str, Any] = {
    "entry": {
        "burned": 123456789123456789,
        "divisibility": 9,
        "etching": "0000000000000000000000000000000000000000000000000000000000000000",
        "mints": 100,
        "number": 25,
        "rune": "BCGDENLQRQWDSLRUGSNLBTMFIJAV",
        "spacers": 1,
        "supply": 123456789123456789,
        "symbol": "%",
        "timestamp": 0,
    },
    "id": "10:9",
    "parent": None,
}


def client(router: Router) -> OrdClient:
    return OrdClient(BASE, transport=router.transport)


async def test_rune_entry_of_the_docs(router: Router) -> None:
    router.json("GET", "/ord/rune/UNCOMMONGOODS", DOC_RUNE)
    async with client(router) as c:
        entry = await c.rune("UNCOMMONGOODS")
    assert entry is not None
    assert router.last.headers["accept"] == "application/json"
    assert (entry.spaced_name, entry.letters, entry.rune_id) == (
        "UNCOMMON•GOODS",
        "UNCOMMONGOODS",
        "1:0",
    )
    assert (entry.divisibility, entry.symbol, entry.number) == (0, "⧉", 0)


async def test_rune_entry_before_spaced_rune(router: Router) -> None:
    router.json("GET", "/ord/rune/BCGDENLQRQWDSLRUGSNLBTMFIJAV", OLD_RUNE)
    async with client(router) as c:
        entry = await c.rune("BCGDENLQRQWDSLRUGSNLBTMFIJAV")
    assert entry is not None
    assert entry.spaced_name == "B•CGDENLQRQWDSLRUGSNLBTMFIJAV"
    assert (entry.divisibility, entry.rune_id) == (9, "10:9")


async def test_a_spaced_name_is_sent_as_one_quoted_segment(router: Router) -> None:
    router.json("GET", "/ord/rune/UNCOMMON•GOODS", DOC_RUNE)
    async with client(router) as c:
        assert await c.rune("UNCOMMON•GOODS") is not None
    assert router.last.url.raw_path == b"/ord/rune/UNCOMMON%E2%80%A2GOODS"


async def test_unknown_rune_is_none(router: Router) -> None:
    router.add("GET", "/ord/rune/NOSUCHRUNE", httpx.Response(404, text="rune NOSUCHRUNE not found"))
    async with client(router) as c:
        assert await c.rune("NOSUCHRUNE") is None


async def test_other_errors_are_not_read_as_unknown(router: Router) -> None:
    router.add("GET", "/ord/rune/X", httpx.Response(500, text="index error"))
    async with client(router) as c:
        with pytest.raises(ServerError):
            await c.rune("X")


@pytest.mark.parametrize(
    "entry",
    [
        {},
        {"spaced_rune": "UNCOMMON••GOODS"},
        {"spaced_rune": "uncommon"},
        {"rune": "AB1"},
    ],
)
async def test_an_entry_without_a_rune_name_is_refused(router: Router, entry: Any) -> None:
    router.json("GET", "/ord/rune/X", {"entry": entry, "id": "1:0"})
    async with client(router) as c:
        with pytest.raises(BadResponse):
            await c.rune("X")


# ord's /runes/<PAGE> (the newest runes first, with the neighbouring pages).
DOC_RUNES_PAGE: dict[str, Any] = {
    "entries": [["1:0", DOC_RUNE["entry"]], ["10:9", OLD_RUNE["entry"]]],
    "more": True,
    "prev": None,
    "next": 1,
}


async def test_a_page_of_runes_in_either_entry_shape(router: Router) -> None:
    router.json("GET", "/ord/runes/0", DOC_RUNES_PAGE)
    async with client(router) as c:
        page = await c.runes(0)
    assert page is not None
    assert [(e.spaced_name, e.rune_id) for e in page.entries] == [
        ("UNCOMMON•GOODS", "1:0"),
        ("B•CGDENLQRQWDSLRUGSNLBTMFIJAV", "10:9"),
    ]
    assert page.next_page == 1


async def test_the_last_page_and_the_older_shape_have_no_next(router: Router) -> None:
    router.json("GET", "/ord/runes/3", {"entries": [[None, DOC_RUNE["entry"]]], "more": False})
    router.json("GET", "/ord/runes/0", {"entries": [["1:0", DOC_RUNE["entry"]]]})
    async with client(router) as c:
        last, older = await c.runes(3), await c.runes(0)
    assert last is not None and older is not None
    assert (last.next_page, older.next_page) == (None, None)
    assert last.entries[0].rune_id is None


async def test_an_ord_without_a_rune_list_is_none(router: Router) -> None:
    router.add("GET", "/ord/runes/0", httpx.Response(404, text="not found"))
    async with client(router) as c:
        assert await c.runes(0) is None


@pytest.mark.parametrize(
    "body",
    [[], {"more": False}, {"entries": [["1:0"]]}, {"entries": [["1:0", {"rune": "AB1"}]]}],
)
async def test_a_malformed_page_is_refused(router: Router, body: Any) -> None:
    router.json("GET", "/ord/runes/0", body)
    async with client(router) as c:
        with pytest.raises(BadResponse):
            await c.runes(0)
