"""The sandbox's own facts and collections, read from a real sandbox process; a root that is
no sandbox (or does not answer) gives the caller's defaults."""

from __future__ import annotations

import secrets
import socket

import pytest

from app.core.pools import MakerFee
from app.services.errors import NetError
from app.services.sandbox_facts import (
    CollectionInfo,
    collection_catalog,
    sandbox_collections,
    sandbox_facts,
)
from tests.services.conftest import TRAITS, SandboxControl

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(scope="module")
def dead_root() -> str:
    """A local URL nothing listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


async def test_the_facts_are_the_sandboxs_fee_key_and_clock(
    sandbox_url: str, sandbox: SandboxControl
) -> None:
    before = await sandbox.info()
    facts = await sandbox_facts(sandbox_url)
    assert facts is not None and facts.root == sandbox_url
    fee_sats = before.get("makerFeeSats")
    fee = None if fee_sats is None else MakerFee(before.get("makerFeeBps") or 0, fee_sats)
    assert facts.maker_fee == fee
    assert facts.service_public_key == bytes.fromhex(before["servicePublicKey"])
    assert facts.clock_ms is not None and facts.clock_ms >= before["clockMs"]


async def test_a_root_that_is_no_sandbox_or_is_down_gives_no_facts(
    sandbox_url: str, dead_root: str
) -> None:
    assert await sandbox_facts(f"{sandbox_url}/v1") is None  # 404 there
    assert await sandbox_facts(dead_root) is None


async def test_collections_in_the_sandboxs_order_and_sorted_for_the_picker(
    sandbox_url: str, sandbox: SandboxControl
) -> None:
    later, earlier = f"zz-{secrets.token_hex(4)}", f"aa-{secrets.token_hex(4)}"
    await sandbox.create_collection(later, TRAITS)
    await sandbox.create_collection(earlier)

    listed = [c.slug for c in await sandbox_collections(sandbox_url)]
    assert listed.index(later) < listed.index(earlier)  # the order they were created in
    catalog = await collection_catalog(sandbox_url)
    assert [c.slug for c in catalog] == sorted(listed)
    (ours,) = [c for c in catalog if c.slug == later]
    assert ours == CollectionInfo(
        later, later.replace("-", " ").title(), tuple((t, tuple(v)) for t, v in TRAITS.items())
    )


async def test_without_a_sandbox_the_catalog_is_empty_and_the_list_an_error(
    sandbox_url: str, dead_root: str
) -> None:
    assert await collection_catalog(None) == []
    assert await collection_catalog(dead_root) == []
    assert await collection_catalog(f"{sandbox_url}/v1") == []
    with pytest.raises(NetError):
        await sandbox_collections(dead_root)
