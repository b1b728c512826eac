"""OrdClient against ord's JSON API shapes (docs/src/guides/api.md), strict where safety needs."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from net_router import Router

from app.net.errors import BadResponse, NotFound, ServerError
from app.net.ord import MAX_BATCH, OrdClient

BASE = "http://chain.test/ord"
TXID = "bc4c30829a9564c0d58e6287195622b53ced54a25711d1b86be7cd3a70ef61ed"
OUT = f"{TXID}:0"
INSCRIPTION = "6fb976ab49dcec017f1e201e84395983204ae1a7c2abf7ced0a85d692e442799i0"

# The /output example of ord's API docs.
DOC_OUTPUT: dict[str, Any] = {
    "address": "bc1pz4kvfpurqc2hwgrq0nwtfve2lfxvdpfcdpzc6ujchyr3ztj6gd9sfr6ayf",
    "indexed": True,
    "inscriptions": [],
    "outpoint": OUT,
    "runes": {},
    "sat_ranges": None,
    "script_pubkey": "OP_PUSHNUM_1 OP_PUSHBYTES_32 "
    "156cc4878306157720607cdcb4b32afa4cc6853868458d7258b907112e5a434b",
    "spent": False,
    "transaction": TXID,
    "value": 10000,
}


def client(router: Router) -> OrdClient:
    return OrdClient(BASE, transport=router.transport)


async def fetch_output(router: Router, body: Any) -> Any:
    router.json("GET", f"/ord/output/{OUT}", body)
    async with client(router) as c:
        return await c.output(OUT)


async def test_plain_output_is_cardinal_and_json_was_asked_for(router: Router) -> None:
    output = await fetch_output(router, DOC_OUTPUT)
    assert router.last.headers["accept"] == "application/json"
    assert (output.outpoint, output.value, output.spent, output.indexed) == (
        OUT,
        10000,
        False,
        True,
    )
    assert output.inscriptions == () and output.runes == ()
    assert output.is_cardinal and not output.carries_assets


async def test_output_with_an_inscription_is_not_cardinal(router: Router) -> None:
    output = await fetch_output(router, {**DOC_OUTPUT, "inscriptions": [INSCRIPTION]})
    assert output.inscriptions == (INSCRIPTION,)
    assert output.carries_assets and not output.is_cardinal


@pytest.mark.parametrize(
    "runes",
    [
        {"UNCOMMON•GOODS": {"amount": 2, "divisibility": 0, "symbol": "⧉"}},  # current ord
        [["UNCOMMON•GOODS", {"amount": 2, "divisibility": 0, "symbol": "⧉"}]],  # 0.18-0.19
        {"UNCOMMON•GOODS": 2},  # older BTreeMap<Rune, u128>
    ],
)
async def test_rune_shapes(router: Router, runes: Any) -> None:
    output = await fetch_output(router, {**DOC_OUTPUT, "runes": runes})
    (rune,) = output.runes
    assert (rune.name, rune.amount) == ("UNCOMMON•GOODS", 2)
    assert not output.is_cardinal


async def test_huge_rune_amounts_are_exact(router: Router) -> None:
    amount = 340282366920938463463374607431768211455
    output = await fetch_output(router, {**DOC_OUTPUT, "runes": {"R": {"amount": amount}}})
    assert output.runes[0].amount == amount


@pytest.mark.parametrize("field", ["inscriptions", "runes"])
@pytest.mark.parametrize("how", ["missing", "null"])
async def test_unreported_assets_are_refused_not_read_as_none(
    router: Router, field: str, how: str
) -> None:
    body = dict(DOC_OUTPUT)
    if how == "missing":
        del body[field]
    else:
        body[field] = None
    with pytest.raises(BadResponse) as caught:
        await fetch_output(router, body)
    assert caught.value.field == field
    assert "refusing to treat it as carrying none" in str(caught.value)


@pytest.mark.parametrize(
    "runes",
    [{"R": {"divisibility": 0}}, {"R": "lots"}, [["R"]], {"": {"amount": 1}}, {"R": -1}],
)
async def test_malformed_runes_are_refused(router: Router, runes: Any) -> None:
    with pytest.raises(BadResponse):
        await fetch_output(router, {**DOC_OUTPUT, "runes": runes})


async def test_unindexed_output_is_not_cardinal(router: Router) -> None:
    output = await fetch_output(router, {**DOC_OUTPUT, "indexed": False})
    assert output.indexed is False and not output.is_cardinal


async def test_answer_about_another_output_is_refused(router: Router) -> None:
    with pytest.raises(BadResponse, match="answered about"):
        await fetch_output(router, {**DOC_OUTPUT, "outpoint": f"{TXID}:1"})


async def test_output_without_value_is_refused(router: Router) -> None:
    body = dict(DOC_OUTPUT)
    del body["value"]
    with pytest.raises(BadResponse):
        await fetch_output(router, body)


async def test_unknown_output_is_not_found(router: Router) -> None:
    router.add("GET", f"/ord/output/{OUT}", httpx.Response(404, text="output not found"))
    async with client(router) as c:
        with pytest.raises(NotFound):
            await c.output(OUT)


async def test_outputs_batch_keeps_order(router: Router) -> None:
    second = {**DOC_OUTPUT, "outpoint": f"{TXID}:1", "inscriptions": [INSCRIPTION]}
    router.json("POST", "/ord/outputs", [DOC_OUTPUT, second])
    async with client(router) as c:
        first, other = await c.outputs([OUT, f"{TXID}:1"])
    assert router.last.content == f'["{OUT}","{TXID}:1"]'.encode()
    assert first.is_cardinal and other.inscriptions == (INSCRIPTION,)


async def test_outputs_batch_with_missing_entries_is_refused(router: Router) -> None:
    router.json("POST", "/ord/outputs", [DOC_OUTPUT])
    async with client(router) as c:
        with pytest.raises(BadResponse):
            await c.outputs([OUT, f"{TXID}:1"])


async def test_address_outputs_with_type_filter(router: Router) -> None:
    router.json("GET", "/ord/outputs/bc1qaddr", [DOC_OUTPUT])
    async with client(router) as c:
        (output,) = await c.address_outputs("bc1qaddr", "cardinal")
    assert router.last.url.params["type"] == "cardinal"
    assert output.outpoint == OUT


async def test_inscription_location(router: Router) -> None:
    router.json(
        "GET",
        f"/ord/inscription/{INSCRIPTION}",
        {
            "address": "bc1ppth27qnr74qhusy9pmcyeaelgvsfky6qzquv9nf56gqmte59vfhqwkqguh",
            "charms": [],
            "children": [],
            "content_length": 793,
            "content_type": "image/png",
            "fee": 322,
            "height": 767430,
            "id": INSCRIPTION,
            "number": 0,
            "parents": [],
            "rune": None,
            "sat": None,
            "satpoint": "47c7260764af2ee17aa584d9c035f2e5429aefd96b8016cfe0e3f0bcf04869a3:0:0",
            "timestamp": 1671049920,
            "value": 606,
        },
    )
    async with client(router) as c:
        where = await c.inscription(INSCRIPTION)
    assert where.inscription_id == INSCRIPTION and where.number == 0 and where.value == 606
    assert where.output == "47c7260764af2ee17aa584d9c035f2e5429aefd96b8016cfe0e3f0bcf04869a3:0"
    assert where.offset == 0
    assert where.address == "bc1ppth27qnr74qhusy9pmcyeaelgvsfky6qzquv9nf56gqmte59vfhqwkqguh"


@pytest.mark.parametrize("satpoint", [None, "xyz", f"{TXID}:0", f"{TXID}:0:-1"])
async def test_inscription_without_a_valid_satpoint_is_refused(
    router: Router, satpoint: str | None
) -> None:
    router.json("GET", f"/ord/inscription/{INSCRIPTION}", {"id": INSCRIPTION, "satpoint": satpoint})
    async with client(router) as c:
        with pytest.raises(BadResponse) as caught:
            await c.inscription(INSCRIPTION)
    assert caught.value.field == "satpoint"


async def test_unknown_inscription_is_not_found(router: Router) -> None:
    async with client(router) as c:
        with pytest.raises(NotFound):
            await c.inscription(INSCRIPTION)


async def test_address_contents(router: Router) -> None:
    router.json(
        "GET",
        "/ord/address/bc1pdrm7",
        {
            "outputs": [OUT],
            "inscriptions": [INSCRIPTION],
            "sat_balance": 22635,
            "runes_balances": [["RSIC•AUBERGINE", "1100000000", "🍆"], ["EPIC", "12.5", None]],
        },
    )
    async with client(router) as c:
        contents = await c.address("bc1pdrm7")
    assert contents.outputs == (OUT,) and contents.inscriptions == (INSCRIPTION,)
    assert contents.sat_balance == 22635
    assert contents.runes_balances is not None
    assert [(h.name, h.amount, h.symbol) for h in contents.runes_balances] == [
        ("RSIC•AUBERGINE", "1100000000", "🍆"),
        ("EPIC", "12.5", None),
    ]


async def test_address_contents_without_optional_indexes(router: Router) -> None:
    router.json("GET", "/ord/address/bc1pdrm7", {"outputs": [], "sat_balance": 0})
    async with client(router) as c:
        contents = await c.address("bc1pdrm7")
    assert contents.inscriptions is None and contents.runes_balances is None


async def test_block_height(router: Router) -> None:
    router.json("GET", "/ord/blockheight", 864330)
    async with client(router) as c:
        assert await c.block_height() == 864330


async def test_outputs_fall_back_to_one_get_each_without_post_outputs(router: Router) -> None:
    # ord before 0.21 has no POST /outputs: the router answers 404.
    second = {**DOC_OUTPUT, "outpoint": f"{TXID}:1", "runes": {"R": {"amount": 5}}}
    router.json("GET", f"/ord/output/{OUT}", DOC_OUTPUT)
    router.json("GET", f"/ord/output/{TXID}:1", second)
    async with client(router) as c:
        first, other = await c.outputs([OUT, f"{TXID}:1"])
        assert await c.outputs([]) == []
    assert first.outpoint == OUT and other.runes[0].amount == 5
    assert sorted(r.method for r in router.requests) == ["GET", "GET", "POST"]


async def test_outputs_other_errors_are_not_swallowed(router: Router) -> None:
    router.add("POST", "/ord/outputs", httpx.Response(500, text="boom"))
    async with client(router) as c:
        with pytest.raises(ServerError):
            await c.outputs([OUT])


async def test_address_rune_amounts_as_numbers(router: Router) -> None:
    router.json(
        "GET",
        "/ord/address/bc1pdrm7",
        {"outputs": [], "inscriptions": [], "sat_balance": 0, "runes_balances": [["R", 0, None]]},
    )
    async with client(router) as c:
        contents = await c.address("bc1pdrm7")
    assert contents.runes_balances is not None
    assert [(h.name, h.amount) for h in contents.runes_balances] == [("R", "0")]


OTHER_INSCRIPTION = f"{TXID}i0"


def located(inscription_id: str, satpoint: str) -> dict[str, Any]:
    return {"id": inscription_id, "number": 7, "satpoint": satpoint, "value": 546}


async def test_inscriptions_batch_is_one_post_in_the_order_asked(router: Router) -> None:
    router.json(
        "POST",
        "/ord/inscriptions",
        [located(OTHER_INSCRIPTION, f"{TXID}:1:0"), located(INSCRIPTION, f"{TXID}:0:330")],
    )
    async with client(router) as c:
        first, second = await c.inscriptions([OTHER_INSCRIPTION, INSCRIPTION])
        assert await c.inscriptions([]) == []
    assert router.last.content == f'["{OTHER_INSCRIPTION}","{INSCRIPTION}"]'.encode()
    assert (first.output, first.offset) == (f"{TXID}:1", 0)
    assert (second.inscription_id, second.output, second.offset) == (INSCRIPTION, OUT, 330)
    assert len(router.requests) == 1


async def test_inscriptions_batch_about_others_or_missing_entries_is_refused(
    router: Router,
) -> None:
    for answer in (
        [located(INSCRIPTION, f"{TXID}:0:0")],
        [located(INSCRIPTION, f"{TXID}:0:0"), located(INSCRIPTION, f"{TXID}:0:0")],
    ):
        router.json("POST", "/ord/inscriptions", answer)
        async with client(router) as c:
            with pytest.raises(BadResponse):
                await c.inscriptions([INSCRIPTION, OTHER_INSCRIPTION])


async def test_inscriptions_fall_back_to_one_get_each_without_post_inscriptions(
    router: Router,
) -> None:
    # ord without POST /inscriptions (or refusing an unknown id in the batch) answers 404.
    router.json("GET", f"/ord/inscription/{INSCRIPTION}", located(INSCRIPTION, f"{TXID}:0:0"))
    router.json(
        "GET", f"/ord/inscription/{OTHER_INSCRIPTION}", located(OTHER_INSCRIPTION, f"{TXID}:1:5")
    )
    async with client(router) as c:
        first, second = await c.inscriptions([INSCRIPTION, OTHER_INSCRIPTION])
        with pytest.raises(NotFound):
            await c.inscriptions([INSCRIPTION, f"{'ab' * 32}i0"])
    assert (first.output, second.output, second.offset) == (OUT, f"{TXID}:1", 5)


async def test_inscriptions_other_errors_are_not_swallowed(router: Router) -> None:
    router.add("POST", "/ord/inscriptions", httpx.Response(500, text="boom"))
    async with client(router) as c:
        with pytest.raises(ServerError):
            await c.inscriptions([INSCRIPTION])


def _answer_each_asked(
    named: bool, field: str, entry: Any
) -> Callable[[httpx.Request], httpx.Response]:
    """A batch handler answering every asked key with `entry(key)`, naming it or not."""

    def handle(request: httpx.Request) -> httpx.Response:
        asked = json.loads(request.content)
        body = [entry(key) for key in asked]
        if not named:
            for item in body:
                item.pop(field, None)
        return httpx.Response(200, json=body)

    return handle


async def test_inscriptions_past_one_batch_go_in_chunks_in_the_order_asked(
    router: Router,
) -> None:
    ids = [f"{n:064x}i0" for n in range(2 * MAX_BATCH + 1)]
    router.add(
        "POST",
        "/ord/inscriptions",
        _answer_each_asked(True, "id", lambda i: located(i, f"{i[:64]}:0:0")),
    )
    async with client(router) as c:
        found = await c.inscriptions(ids)
    assert [f.inscription_id for f in found] == ids
    assert sorted(len(json.loads(r.content)) for r in router.requests) == [1, 1000, 1000]


async def test_outputs_past_one_batch_fall_back_per_chunk_only(router: Router) -> None:
    """A chunk whose entries do not name their outpoint is asked again one GET each; the
    other chunk's named answers stand."""
    outpoints = [f"{n:064x}:0" for n in range(MAX_BATCH + 2)]
    named = set(outpoints[:MAX_BATCH])

    def batch(request: httpx.Request) -> httpx.Response:
        asked = json.loads(request.content)
        handler = _answer_each_asked(
            set(asked) <= named, "outpoint", lambda o: {**DOC_OUTPUT, "outpoint": o}
        )
        return handler(request)

    router.add("POST", "/ord/outputs", batch)
    for o in outpoints[MAX_BATCH:]:
        router.json("GET", f"/ord/output/{o}", {**DOC_OUTPUT, "outpoint": o, "value": 7})
    async with client(router) as c:
        found = await c.outputs(outpoints)
    assert [f.outpoint for f in found] == outpoints
    assert [f.value for f in found[MAX_BATCH - 1 :]] == [10000, 7, 7]
    assert sorted(r.method for r in router.requests) == ["GET", "GET", "POST", "POST"]
