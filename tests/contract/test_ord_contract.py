"""OrdClient against ord's own JSON: the API guide's examples and the shapes of src/api.rs and
tests/json_api.rs, current and older (tests/contract/samples/ord_api.py names each source)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.net.errors import BadResponse
from app.net.ord import OrdClient, OrdOutput, RuneBalance
from tests.contract.samples import ord_api as o
from tests.net.net_router import Router

BASE = "http://ord.test"


def client(router: Router) -> OrdClient:
    return OrdClient(BASE, transport=router.transport)


async def fetch_output(router: Router, body: dict[str, Any]) -> OrdOutput:
    router.json("GET", f"/output/{o.OUTPOINT}", body)
    async with client(router) as c:
        return await c.output(o.OUTPOINT)


# --- /output ----------------------------------------------------------------------------------


async def test_output_docs_example_not_indexed_yet(router: Router) -> None:
    output = await fetch_output(router, o.OUTPUT_DOCS)
    assert router.last.headers["accept"] == "application/json"
    assert (output.outpoint, output.value, output.address) == (o.OUTPOINT, 10000, o.P2TR)
    assert (output.indexed, output.spent) == (False, True)
    assert output.inscriptions == () and output.runes == ()
    # Empty lists of an output ord has not indexed mean nothing: not safe to spend.
    assert not output.is_cardinal


async def test_output_current_runes_map_of_piles(router: Router) -> None:
    output = await fetch_output(router, o.OUTPUT_RUNIC)
    assert output.runes == (RuneBalance("AAAAAAAAAAAAA", 1000, 0, "¢"),)
    assert (output.indexed, output.spent) == (True, False)
    assert output.carries_assets and not output.is_cardinal


async def test_output_0_18_runes_as_pairs(router: Router) -> None:
    output = await fetch_output(router, o.OUTPUT_0_18)
    assert output.runes == (RuneBalance("UNCOMMON•GOODS", 2, 0, "⧉"),)
    assert output.inscriptions == (o.INSCRIPTION,)
    assert output.outpoint == o.OUTPOINT  # the body has no outpoint: the one asked for
    assert not output.is_cardinal


async def test_output_0_15_runes_as_letters_and_amounts(router: Router) -> None:
    output = await fetch_output(router, o.OUTPUT_0_15)
    assert output.runes == (RuneBalance("UNCOMMONGOODS", 2),)
    assert output.indexed is None  # the field did not exist yet
    assert not output.is_cardinal


@pytest.mark.parametrize(
    ("body", "field"),
    [(o.OUTPUT_NO_RUNE_INDEX, "runes"), (o.OUTPUT_NO_INSCRIPTION_INDEX, "inscriptions")],
)
async def test_output_of_a_server_without_an_index_is_refused(
    router: Router, body: dict[str, Any], field: str
) -> None:
    # null is "not indexed here", never "carries nothing".
    with pytest.raises(BadResponse) as caught:
        await fetch_output(router, body)
    assert caught.value.field == field


async def test_outputs_batch_docs_example(router: Router) -> None:
    router.json("POST", "/outputs", o.OUTPUTS_DOCS)
    wanted = [o.OUTPOINT, f"{o.TXID}:1"]
    async with client(router) as c:
        first, second = await c.outputs(wanted)
    assert [first.outpoint, second.outpoint] == wanted
    assert (first.value, second.value) == (10000, 483528)
    assert second.address == "bc1pkc2cdnm6xermt2vzxg9wwcur5prgpl6pms3xf9ydtyax5pnqsgwqvuu5cq"


async def test_address_outputs_docs_example(router: Router) -> None:
    address = "358mMRwcxuCSkKheuVWaXHJBGKrXo3f6JW"
    router.json("GET", f"/outputs/{address}", o.ADDRESS_OUTPUTS_DOCS)
    async with client(router) as c:
        (output,) = await c.address_outputs(address, "cardinal")
    assert router.last.url.params["type"] == "cardinal"
    assert output.outpoint == o.ADDRESS_OUTPUTS_DOCS[0]["outpoint"]
    assert (output.value, output.indexed, output.is_cardinal) == (90000, True, True)


# --- /inscription -----------------------------------------------------------------------------


async def test_inscription_docs_example(router: Router) -> None:
    router.json("GET", f"/inscription/{o.INSCRIPTION}", o.INSCRIPTION_DOCS)
    async with client(router) as c:
        location = await c.inscription(o.INSCRIPTION)
    assert (location.inscription_id, location.number, location.value) == (o.INSCRIPTION, 0, 606)
    assert location.output == "47c7260764af2ee17aa584d9c035f2e5429aefd96b8016cfe0e3f0bcf04869a3:0"
    assert location.offset == 0
    assert location.address == o.INSCRIPTION_DOCS["address"]


async def test_inscription_0_15_location(router: Router) -> None:
    router.json("GET", f"/inscription/{o.INSCRIPTION}", o.INSCRIPTION_0_15)
    async with client(router) as c:
        location = await c.inscription(o.INSCRIPTION)
    assert (location.inscription_id, location.satpoint) == (
        o.INSCRIPTION,
        o.INSCRIPTION_0_15["satpoint"],
    )


async def test_inscription_0_15_number_and_value(router: Router) -> None:
    router.json("GET", f"/inscription/{o.INSCRIPTION}", o.INSCRIPTION_0_15)
    async with client(router) as c:
        location = await c.inscription(o.INSCRIPTION)
    assert (location.number, location.value) == (0, 606)


# --- /address ---------------------------------------------------------------------------------


async def test_address_docs_example(router: Router) -> None:
    address = "bc1pdrm7tcyk4k6c3cdcjwkp49jmfrwmtvt0dvqyy7y4qp79tgks4lmqdpj6rw"
    router.json("GET", f"/address/{address}", o.ADDRESS_DOCS)
    async with client(router) as c:
        contents = await c.address(address)
    assert contents.outputs == tuple(o.ADDRESS_DOCS["outputs"])
    assert contents.inscriptions == tuple(o.ADDRESS_DOCS["inscriptions"])
    assert contents.sat_balance == 22635
    assert contents.runes_balances is not None
    assert [(h.name, h.amount, h.symbol) for h in contents.runes_balances] == [
        ("RSIC•AUBERGINE", "1100000000", "🍆"),
        ("SPACEY•CODARMOR", "279550", "🚀"),
        ("ISABEL•FOXEN•DUKE", "10000", "⚡"),
        ("EPIC•EPIC•EPIC•EPIC", "1000", "💥"),
    ]


async def test_address_without_asset_indexes(router: Router) -> None:
    address = "bc1pdrm7tcyk4k6c3cdcjwkp49jmfrwmtvt0dvqyy7y4qp79tgks4lmqdpj6rw"
    router.json("GET", f"/address/{address}", o.ADDRESS_NO_ASSET_INDEX)
    async with client(router) as c:
        contents = await c.address(address)
    assert (contents.inscriptions, contents.runes_balances) == (None, None)
    assert len(contents.outputs) == 3


# --- /rune, /blockheight ----------------------------------------------------------------------


@pytest.mark.parametrize("body", [o.RUNE_DOCS, o.RUNE_0_16], ids=["docs", "0.16-letters-spacers"])
async def test_rune_entry(router: Router, body: dict[str, Any]) -> None:
    router.json("GET", "/rune/UNCOMMONGOODS", body)
    async with client(router) as c:
        entry = await c.rune("UNCOMMONGOODS")
    assert entry is not None
    assert (entry.spaced_name, entry.letters, entry.rune_id) == (
        "UNCOMMON•GOODS",
        "UNCOMMONGOODS",
        "1:0",
    )
    assert (entry.divisibility, entry.symbol, entry.number) == (0, "⧉", 0)


async def test_unknown_rune_is_none(router: Router) -> None:
    # ord answers an unknown rune with its HTML "not found" page, even when asked for JSON.
    router.add("GET", "/rune/NOSUCHRUNE", httpx.Response(404, html="<h1>Rune not found</h1>"))
    async with client(router) as c:
        assert await c.rune("NOSUCHRUNE") is None


async def test_blockheight_docs_example(router: Router) -> None:
    router.json("GET", "/blockheight", o.BLOCKHEIGHT_DOCS)
    async with client(router) as c:
        assert await c.block_height() == 864330
