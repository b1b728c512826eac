"""`/ord/runes`: ord's list of etched runes in its JSON shape, the newest first, a page at a
time (`/ord/runes` is page 0), with the neighbouring pages."""

from __future__ import annotations

import secrets
import string

import httpx

from app.sandbox.chain.node import Node
from app.sandbox.http.routes_ord_runes import RUNES_PER_PAGE
from tests.sandbox.http import shapes
from tests.sandbox.scenario import get_json, mine_blocks
from tests.sandbox.txbuild import P2wpkhKey


def _name() -> str:
    letters = "LIST" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(9))
    return f"{letters[:4]}•{letters[4:]}"


async def test_runes_are_listed_newest_first_in_ords_shape(
    sandbox_client: httpx.AsyncClient,
) -> None:
    key = P2wpkhKey.from_label("ord-runes-list")
    etched = [_name() for _ in range(3)]
    for name in etched:
        response = await sandbox_client.post(
            "/sandbox/runes", json={"address": key.address, "rune": name, "amount": 7}
        )
        assert response.status_code == 201, response.text
    # Each etching mines the blocks before its reveal, so only the last one waits unmined.
    unconfirmed = await get_json(sandbox_client, "/ord/runes")
    assert etched[-1] not in {entry["spaced_rune"] for _id, entry in unconfirmed["entries"]}
    await mine_blocks(sandbox_client)  # ord lists a rune once a block holds its etching
    first = await get_json(sandbox_client, "/ord/runes")
    assert first == await get_json(sandbox_client, "/ord/runes/0")
    assert set(first) == {"entries", "more", "prev", "next"}
    assert (first["more"], first["prev"], first["next"]) == (False, None, None)
    names = [entry["spaced_rune"] for _id, entry in first["entries"]]
    assert names[:3] == etched[::-1]  # the newest first
    for rune_id, entry in first["entries"]:
        assert rune_id == f"{entry['block']}:{rune_id.split(':')[1]}"  # <block>:<tx>
        assert set(entry) == shapes.ORD_RUNE_ENTRY
        assert (await get_json(sandbox_client, f"/ord/rune/{rune_id}"))["entry"] == entry
    numbers = [entry["number"] for _id, entry in first["entries"]]
    assert numbers == sorted(numbers, reverse=True)
    past = await get_json(sandbox_client, "/ord/runes/1")
    assert (past["entries"], past["more"], past["prev"], past["next"]) == ([], False, 0, None)


async def test_a_page_that_is_not_a_number_is_refused(sandbox_client: httpx.AsyncClient) -> None:
    for path in ("/ord/runes/x", "/ord/runes/-1", "/ord/runes/99999999999"):
        response = await sandbox_client.get(path)
        assert response.status_code == 400, path
        assert response.json()["errorCode"] == "INVALID_REQUEST"


def test_pages_hold_ords_count_and_say_whether_more_follow(sandbox_node: Node) -> None:
    key = P2wpkhKey.from_label("ord-runes-pages")
    for _ in range(2):
        sandbox_node.create_runes(key.address, _name(), 3)
    sandbox_node.mine(1)
    listed, more = sandbox_node.ord_runes_page(0, RUNES_PER_PAGE)
    total = len(listed)
    assert total >= 2 and not more
    head, more = sandbox_node.ord_runes_page(0, total - 1)
    tail, after = sandbox_node.ord_runes_page(total - 1, total - 1)
    assert more and not after
    assert head + tail == listed
