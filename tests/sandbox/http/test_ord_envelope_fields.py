"""The `/ord/inscription` fields that come from the envelope and its relations, and
`/ord/content/<id>`, compared with what real ord answers.

Source: ordinals/ord at commit 5241ef311e015cff4759a379085c8cc8913e621a:
- tests/json_api.rs `get_inscription` (a 3-byte "text/plain;charset=utf-8" inscription:
  `content_length: 3`, `content_type` and `effective_content_type` that type, no parents or
  children, `child_count: 0`, `metaprotocol: null`; its charms `coin` and `uncommon` come from
  the sat index, which the sandbox does not keep) and `get_inscription_with_metaprotocol_and_
  properties` (`metaprotocol: "foo"`);
- src/index.rs `get_inscription_info` (first 4 parents and children, `child_count`,
  previous/next by sequence number, a delegate's content type as the effective one);
- src/index/updater/inscription_updater.rs (a curse past the jubilee is `vindicated`: an
  envelope after the first in its input, not in the first input, or with a pointer;
  `reinscription` on a sat already inscribed; `burned` on an OP_RETURN output);
- src/subcommand/server/r.rs `content_response` and server.rs' content tests (the body with
  its content type, else application/octet-stream, ord's Cache-Control and two CSP headers,
  404 without a body; accept_encoding.rs: an encoding passes only when Accept-Encoding names it).
"""

from __future__ import annotations

import gzip

import httpx

from app.core.inscription_envelope import Inscription, inscription_id_value
from app.sandbox.chain.inscribe import inscribe
from app.sandbox.chain.inscribe_items import NewItem
from app.sandbox.chain.node import Node
from tests.sandbox.scenario import get_json, mine_blocks
from tests.sandbox.txbuild import P2wpkhKey

TEXT = "text/plain;charset=utf-8"
OWNER = P2wpkhKey.from_label("envelope-fields-owner")
# tests/json_api.rs `get_inscription`: the envelope's fields of a 3-byte text inscription.
REAL_ENVELOPE_FIELDS = {
    "child_count": 0,
    "children": [],
    "content_length": 3,
    "content_type": TEXT,
    "effective_content_type": TEXT,
    "metaprotocol": None,
    "parents": [],
}


def _made(node: Node, payload: Inscription, outputs: list[tuple[bytes, int]] | None = None) -> str:
    spk = OWNER.script_pubkey.data
    return inscribe(node, [payload], outputs or [(spk, 10_000)]).inscription_ids[0]


async def _ord(client: httpx.AsyncClient, inscription_id: str) -> dict[str, object]:
    return await get_json(client, f"/ord/inscription/{inscription_id}")


async def test_a_text_inscriptions_envelope_fields_are_ords(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    plain = _made(sandbox_node, Inscription(content_type=TEXT.encode(), body=b"FOO"))
    with_protocol = _made(
        sandbox_node, Inscription(content_type=TEXT.encode(), body=b"FOO", metaprotocol=b"foo")
    )
    await mine_blocks(sandbox_client)
    info = await _ord(sandbox_client, plain)
    assert {k: info[k] for k in REAL_ENVELOPE_FIELDS} == REAL_ENVELOPE_FIELDS
    assert info["charms"] == []  # ord's coin and uncommon need --index-sats
    assert info["next"] == with_protocol
    assert isinstance(info["previous"], str)  # the demo's inscriptions come before it
    later = await _ord(sandbox_client, with_protocol)
    assert (later["metaprotocol"], later["previous"]) == ("foo", plain)


async def test_a_parents_children_and_a_childs_parents(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    holder = sandbox_node.sandbox_address("envelope-parent-holder")
    parent = sandbox_node.create_inscription(holder)["inscriptionId"]
    await mine_blocks(sandbox_client)
    children = []
    for n in range(5):
        made = await sandbox_client.post(
            "/sandbox/inscribe",
            json={"outputs": [{"address": OWNER.address, "value": 546}], "body": f"child {n}",
                  "parent": parent},
        )  # fmt: skip
        assert made.status_code == 201, made.text
        children.append(made.json()["inscriptionId"])
        if n == 3:
            await mine_blocks(sandbox_client)
    # The fifth child's reveal is in the mempool: ord knows four children.
    info = await _ord(sandbox_client, parent)
    assert (info["child_count"], info["children"]) == (4, children[:4])
    await mine_blocks(sandbox_client)
    info = await _ord(sandbox_client, parent)
    assert (info["child_count"], info["children"]) == (5, children[:4])  # ord lists 4
    child = await _ord(sandbox_client, children[4])
    assert (child["parents"], child["child_count"]) == ([parent], 0)
    # The parent is the reveal's first input: a child's envelope is not in the first input.
    assert child["charms"] == ["vindicated"]


async def test_a_child_pointed_at_its_parents_sat_is_a_reinscription(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    holder = sandbox_node.sandbox_address("envelope-reinscribed-holder")
    parent = sandbox_node.create_inscription(holder)["inscriptionId"]
    await mine_blocks(sandbox_client)
    made = await sandbox_client.post(
        "/sandbox/inscribe",
        json={"outputs": [], "body": "on the parent's sat", "parent": parent, "pointer": 0},
    )
    assert made.status_code == 201, made.text
    await mine_blocks(sandbox_client)
    child = await _ord(sandbox_client, made.json()["inscriptionId"])
    parent_info = await _ord(sandbox_client, parent)
    assert child["satpoint"] == parent_info["satpoint"]
    assert child["charms"] == ["reinscription", "vindicated"]  # ord's order: charm.rs ALL
    assert parent_info["charms"] == []


async def test_charms_from_the_envelope_and_where_it_lands(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    other = P2wpkhKey.from_label("envelope-fields-other")
    batch = sandbox_node.create_inscriptions(
        [NewItem(OWNER.address), NewItem(other.address)]
    )  # the second: not its input's first envelope, and a pointer
    burned = _made(sandbox_node, Inscription(body=b"gone"), [(b"\x6a\x03ord", 1_000)])
    await mine_blocks(sandbox_client)
    charms = [(await _ord(sandbox_client, made["inscriptionId"]))["charms"] for made in batch]
    assert charms == [[], ["vindicated"]]
    assert (await _ord(sandbox_client, burned))["charms"] == ["burned"]


async def test_a_delegates_content_type_and_content(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    svg = b"<svg xmlns='http://www.w3.org/2000/svg'/>"
    delegate = _made(sandbox_node, Inscription(content_type=b"image/svg+xml", body=svg))
    delegating = _made(sandbox_node, Inscription(delegate=inscription_id_value(delegate)))
    await mine_blocks(sandbox_client)
    info = await _ord(sandbox_client, delegating)
    assert (info["content_type"], info["effective_content_type"]) == (None, "image/svg+xml")
    assert info["content_length"] is None
    served = await sandbox_client.get(f"/ord/content/{delegating}")
    assert served.status_code == 200
    assert (served.content, served.headers["content-type"]) == (svg, "image/svg+xml")


async def test_content_is_served_as_ord_serves_it(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    text = _made(sandbox_node, Inscription(content_type=TEXT.encode(), body=b"FOO"))
    untyped = _made(sandbox_node, Inscription(body=b"\x01\x02\x03"))
    bad_type = _made(sandbox_node, Inscription(content_type=b"\n", body=b""))
    bodiless = _made(sandbox_node, Inscription(content_type=TEXT.encode()))
    unmined = _made(sandbox_node, Inscription(content_type=TEXT.encode(), body=b"soon"))
    await mine_blocks(sandbox_client)
    unmined_too = _made(sandbox_node, Inscription(content_type=TEXT.encode(), body=b"later"))

    served = await sandbox_client.get(f"/ord/content/{text}")
    assert (served.status_code, served.content) == (200, b"FOO")
    assert served.headers["content-type"] == TEXT
    assert served.headers["cache-control"] == "public, max-age=1209600, immutable"
    assert served.headers.get_list("content-security-policy") == [
        "default-src 'self' 'unsafe-eval' 'unsafe-inline' data: blob:",
        "default-src *:*/content/ *:*/blockheight *:*/blockhash *:*/blockhash/ *:*/blocktime "
        "*:*/r/ 'unsafe-eval' 'unsafe-inline' data: blob:",
    ]
    for inscription_id, body in ((untyped, b"\x01\x02\x03"), (bad_type, b"")):
        served = await sandbox_client.get(f"/ord/content/{inscription_id}")
        assert (served.status_code, served.content) == (200, body)
        assert served.headers["content-type"] == "application/octet-stream"
    assert (await sandbox_client.get(f"/ord/content/{unmined}")).status_code == 200
    for missing in (bodiless, unmined_too, "0" * 64 + "i0"):  # no body; not in a block; unknown
        refused = await sandbox_client.get(f"/ord/content/{missing}")
        assert refused.status_code == 404 and refused.json()["errorCode"] == "NOT_FOUND"


async def test_a_content_encoding_passes_only_when_accepted(
    sandbox_client: httpx.AsyncClient, sandbox_node: Node
) -> None:
    zipped = _made(
        sandbox_node,
        Inscription(
            content_type=TEXT.encode(), content_encoding=b"gzip", body=gzip.compress(b"FOO")
        ),
    )
    await mine_blocks(sandbox_client)
    accepted = await sandbox_client.get(  # accept_encoding.rs' own example header
        f"/ord/content/{zipped}", headers={"accept-encoding": "deflate;q=0.5, gzip;q=1.0, br;q=0.8"}
    )
    assert accepted.status_code == 200 and accepted.headers["content-encoding"] == "gzip"
    assert accepted.content == b"FOO"  # as sent: gzip, which the client undoes
    refused = await sandbox_client.get(f"/ord/content/{zipped}", headers={"accept-encoding": "br"})
    assert refused.status_code == 406 and refused.json()["errorCode"] == "NOT_ACCEPTABLE"
