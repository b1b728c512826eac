"""Runes listings carrying runestones, against a real sandbox: the use case learns the rune's id
from ord (`/rune/<NAME>`), so the review follows the runestone's edicts. The sandbox's ord gives
the id of the transaction that created the rune's first balance (`<block>:<tx>`); some cases
have the fault proxy serve another id, or none. A hostile service (the fault proxy) adds a
runestone to the sandbox's real listing PSBT: one sending the runes with the item is signed,
the hidden risk (one sending them to the service's fee output) is refused with its reason, and
nothing is signed or sent."""

from __future__ import annotations

import json
import secrets
import string
from collections.abc import Callable
from typing import Any

import pytest

from app.core.runestone import RuneId
from app.core.signing_policy import RefusalCode
from app.services.context import ServiceContext
from app.services.listings import ListingItem, build_listings, prepare_listings
from app.services.psbt_flow import PsbtRefusedError
from tests.services.conftest import ContextFactory, SandboxControl
from tests.services.test_tamper import World, _world
from tests.support.hostile_server import HostileServer
from tests.support.policy_checks import assert_refused
from tests.support.proxy import FaultProxy, Rewriter
from tests.support.runestones import encipher
from tests.support.tamper_ops import Tamper, Target, add_output

pytestmark = pytest.mark.asyncio(loop_scope="session")

PRICE = 100_000
UNITS = 1_000


async def runes_listing(ctx: ServiceContext, sandbox: SandboxControl) -> tuple[World, str, str]:
    rune = "STONE•" + "".join(secrets.choice(string.ascii_uppercase) for _ in range(8))
    outpoint = await sandbox.etch_runes(ctx.ordinals_address, rune, UNITS)
    items = [ListingItem(PRICE, runes_output=outpoint)]
    served = await ctx.clients.marketplace.create_secure_sell_intent(build_listings(ctx, items)[0])
    world = await _world(ctx, served.psbts[0].psbt_base64, lambda c: prepare_listings(c, items))
    return world, rune, outpoint


RUNE_ID = RuneId(840_000, 3)  # the id the proxy's ord gives the rune, where it rewrites it
SANDBOX_ID = "the sandbox's"  # `served(ord_id=...)`: ord's answers as the sandbox gives them


def ord_gives_the_rune_id(hostile: HostileServer, rune_id: str | None) -> Rewriter:
    """ord's `/rune/<NAME>` answered with `rune_id` (None: an ord that gives no id), then the
    hostile service's PSBT."""

    def rewrite(method: str, path: str, status: int, body: bytes) -> bytes | None:
        if method == "GET" and path.startswith("/ord/rune/") and status == 200:
            entry = json.loads(body)
            entry["id"] = rune_id
            return json.dumps(entry).encode()
        return hostile._rewrite(method, path, status, body)

    return rewrite


def runestone(where: str, edict: bool = True) -> Callable[[RuneId], Tamper]:
    """Add a runestone sending every unit of the listed rune (by its id) to `where` ("item":
    the escrow, output 0; "fee": the service's fee output, the last) by an edict, or else by
    its pointer."""

    def with_id(rune_id: RuneId) -> Tamper:
        def mutate(t: Target) -> str:
            vout = 0 if where == "item" else len(t.psbt.outputs) - 1
            stone = (
                encipher([(rune_id.block, rune_id.tx, 0, vout)])
                if edict
                else encipher(pointer=vout)
            )
            add_output(t, stone, 0)
            return f"to output {vout}"

        how = "an edict" if edict else "its pointer"
        name = f"runes listing: runestone sends the runes to the {where} by {how}"
        return Tamper(name, "secure_listing_runes", RefusalCode.RUNES_MISDIRECTED, "psbt", mutate)

    return with_id


async def served(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    proxy: FaultProxy,
    tamper: Callable[[RuneId], Tamper],
    ord_id: str | None = str(RUNE_ID),
) -> tuple[HostileServer, str, Any]:
    """The listing use case through the hostile proxy, ord's `/rune` answering with `ord_id`
    (SANDBOX_ID: as the sandbox answers): (the server, the rune, the plan or the refusal).
    The runestone names the rune by the id the victim learns (RUNE_ID when ord gives none)."""
    world, rune, _ = await runes_listing(ctx, sandbox)
    sandbox_id = await sandbox_rune_id(sandbox, rune)
    learnt = sandbox_id if ord_id == SANDBOX_ID else ord_id
    hostile = HostileServer(
        proxy, tamper(_parse_id(learnt or str(RUNE_ID))), world.context, world.prev_txs
    )
    hostile.arm(world.good_psbt)
    if ord_id != SANDBOX_ID:
        proxy.rewrite(ord_gives_the_rune_id(hostile, ord_id))
    victim = make_context(ctx.keys, url=proxy.url)
    try:
        return hostile, rune, await world.run(victim)
    except PsbtRefusedError as refused:
        return hostile, rune, refused


async def sandbox_rune_id(sandbox: SandboxControl, rune: str) -> str:
    """The id the sandbox's ord gives the rune: `<block>:<tx>` of its first balance."""
    response = await sandbox.http.get(f"/ord/rune/{rune}")
    assert response.status_code == 200, response.text
    rune_id: str = response.json()["id"]
    return rune_id


def _parse_id(text: str) -> RuneId:
    block, tx = text.split(":")
    return RuneId(int(block), int(tx))


async def test_the_rune_id_comes_from_ord(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, proxy: FaultProxy
) -> None:
    hostile, rune, plan = await served(ctx, sandbox, make_context, proxy, runestone("item"))
    [item] = plan.items
    assert item.psbt.review.context.rune_id_of(rune) == str(RUNE_ID)
    assert hostile.tampered == 1


@pytest.mark.parametrize("edict", [True, False], ids=["edict", "pointer"])
async def test_a_runestone_sending_the_runes_with_the_item_is_signed(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    proxy: FaultProxy,
    edict: bool,
) -> None:
    _, _, plan = await served(ctx, sandbox, make_context, proxy, runestone("item", edict))
    [item] = plan.items
    assert item.psbt.verdict.approved, item.psbt.verdict.reasons()
    assert item.psbt.review.outputs[0].runes[0].amount == UNITS
    assert "is a runestone: " in " ".join(item.psbt.review.summary.lines())


@pytest.mark.parametrize("edict", [True, False], ids=["edict", "pointer"])
async def test_hidden_risk_a_runestone_sending_the_runes_to_the_service_is_refused(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    proxy: FaultProxy,
    edict: bool,
) -> None:
    hostile, rune, refused = await served(
        ctx, sandbox, make_context, proxy, runestone("fee", edict)
    )
    assert isinstance(refused, PsbtRefusedError)
    assert hostile.tampered == 1 and hostile.blame is not None
    assert_refused(refused.verdict, RefusalCode.RUNES_MISDIRECTED, hostile.blame)
    assert f"of the listed {rune}" in refused.user_message
    assert hostile.submits() == []


@pytest.mark.parametrize("where", ["item", "fee"])
async def test_the_sandbox_ords_own_rune_id_lets_the_review_follow_edicts(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    proxy: FaultProxy,
    where: str,
) -> None:
    """No rewrite of ord's answers: the id the sandbox's ord gives (where the rune's first
    balance was created) is the one the edict names, and the review follows it."""
    hostile, rune, result = await served(
        ctx, sandbox, make_context, proxy, runestone(where), ord_id=SANDBOX_ID
    )
    assert hostile.tampered == 1
    if where == "item":
        [item] = result.items
        assert item.psbt.review.context.rune_id_of(rune) == await sandbox_rune_id(sandbox, rune)
        assert item.psbt.verdict.approved, item.psbt.verdict.reasons()
        assert item.psbt.review.outputs[0].runes[0].amount == UNITS
    else:
        assert isinstance(result, PsbtRefusedError)
        assert hostile.blame is not None
        assert_refused(result.verdict, RefusalCode.RUNES_MISDIRECTED, hostile.blame)
        assert hostile.submits() == []


async def test_edicts_are_not_followed_without_the_runes_id(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, proxy: FaultProxy
) -> None:
    """An ord that gives no id for the rune (the proxy removes the sandbox's): an edict
    cannot be matched to the rune, so the listing is refused with that reason rather than
    guessed."""
    tamper = runestone("item")
    hostile, _, refused = await served(ctx, sandbox, make_context, proxy, tamper, ord_id=None)
    assert isinstance(refused, PsbtRefusedError)
    assert_refused(refused.verdict, RefusalCode.RUNESTONE_NOT_DECODED, "cannot follow")
    assert hostile.submits() == []
