"""Rune names suggested from the service: ord's list of etched runes read through the client
(`suggested_rune_names`) on a real sandbox, matched whatever the spacers as the Bid form does
(`matching_rune_names`), and remembered as each rune's etched spelling."""

from __future__ import annotations

import secrets
import string

import pytest

from app.services.context import ServiceContext
from app.services.rune_names import canonical_rune_name, suggested_rune_names
from app.ui.tabs.bid_rune_completion import matching_rune_names
from tests.services.conftest import ContextFactory, SandboxControl, SandboxFaults
from tests.support.journal import lines

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _letters(n: int) -> str:
    return "".join(secrets.choice(string.ascii_uppercase) for _ in range(n))


async def test_etched_runes_are_suggested_whatever_their_spacers(
    make_context: ContextFactory,
    ctx: ServiceContext,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
) -> None:
    stem = _letters(8)
    goods = f"{stem}•GOODS"
    other = f"UN•{stem}•WARES"
    for name in (goods, other):
        await sandbox.etch_runes(ctx.payment_address, name, 1_000)
    watched = make_context(ctx.keys)
    await sandbox_faults.forget_requests()
    names = await suggested_rune_names(watched)
    assert {goods, other} <= set(names)
    assert list(names) == sorted(names)
    # Typed without spacers, in lower case, or spaced another way: the etched spelling.
    assert matching_rune_names(f"{stem}GOODS", names) == [goods]
    assert matching_rune_names(f"{stem.lower()} goods", names) == [goods]
    assert matching_rune_names(stem, names) == [goods, other]  # those starting with it first
    # Each suggested rune's spelling is known: committing one asks ord nothing more.
    ord_pages = ["GET /ord/runes/0"]  # one page holds every sandbox rune
    assert lines(await sandbox_faults.requests()) == ord_pages
    assert await canonical_rune_name(watched, f"{stem}GOODS") == goods
    assert lines(await sandbox_faults.requests()) == ord_pages
