"""Each tamper of the sandbox's catalogue (`POST /sandbox/faults` kind `tamper`,
app/sandbox/faults_tampers.py), served by the sandbox itself to the real use case of every
flow it applies to: the withdrawal, the inscription bid and the secure listing are refused
with the expected reason, and nothing is signed (raise-fee: the plan waits for the user's
consent to the fee, and nothing can sign it without). No proxy: the sandbox process is the
hostile service."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from app.core.signing_policy import RefusalCode as C
from app.net.sandbox import SandboxClient
from app.sandbox.faults_tampers import BID, BULK_SELL, SELL, TAMPERS, WITHDRAW
from app.services.context import ServiceContext
from app.services.listings import ListingItem, prepare_listings
from app.services.psbt_flow import PsbtRefusedError, sign_plan
from app.wallet.keys import WalletKeys
from tests.services.conftest import COIN_SATS, ContextFactory
from tests.services.test_tamper import (  # noqa: F401 (fixtures)
    FEES,
    LISTING_PRICE,
    World,
    new_keys,
    psbt_plan_of,
    signatures,
    worlds,
)
from tests.support.policy_checks import assert_refused

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCENARIO_OF_PATH = {
    WITHDRAW: "withdraw",
    BID: "inscription_bid",
    SELL: "secure_listing",
    BULK_SELL: "bulk_listing",
}
# (tamper, flow) -> the refusal the guard must give; None: the fee needs the user's consent.
EXPECTED: dict[tuple[str, str], C | None] = {
    ("redirect-payment", "withdraw"): C.OUTPUT_NOT_ALLOWED,
    ("redirect-payment", "inscription_bid"): C.INSCRIPTION_NOT_RECEIVED,
    ("redirect-payment", "secure_listing"): C.LISTING_UNDERPAID,
    ("cut-payment", "withdraw"): C.AMOUNT_MISMATCH,
    ("cut-payment", "secure_listing"): C.LISTING_UNDERPAID,
    ("sighash-none", "withdraw"): C.SIGHASH_NOT_ALLOWED,
    ("sighash-none", "inscription_bid"): C.SIGHASH_NOT_ALLOWED,
    ("sighash-none", "secure_listing"): C.SIGHASH_NOT_ALLOWED,
    ("drop-utxo", "withdraw"): C.MISSING_WITNESS_UTXO,
    ("drop-utxo", "inscription_bid"): C.MISSING_WITNESS_UTXO,
    ("drop-utxo", "secure_listing"): C.MISSING_WITNESS_UTXO,
    ("extra-input", "secure_listing"): C.EXTRA_INPUT_OF_OURS,
    ("redirect-payment", "bulk_listing"): C.LISTING_UNDERPAID,
    ("cut-payment", "bulk_listing"): C.LISTING_UNDERPAID,
    ("sighash-none", "bulk_listing"): C.SIGHASH_NOT_ALLOWED,
    ("drop-utxo", "bulk_listing"): C.MISSING_WITNESS_UTXO,
    ("extra-input", "bulk_listing"): C.EXTRA_INPUT_OF_OURS,
    ("raise-fee", "withdraw"): None,
    ("raise-fee", "inscription_bid"): None,
}
PATH_OF_SCENARIO = {scenario: path for path, scenario in SCENARIO_OF_PATH.items()}


@pytest.fixture
async def faults(sandbox_url: str) -> AsyncIterator[SandboxClient]:
    async with SandboxClient(sandbox_url) as client:
        yield client
        await client.clear_faults()  # one not fired must not hit another test


@pytest.fixture(scope="module")
async def bulk_world(
    worlds: dict[str, tuple[WalletKeys, World]],  # noqa: F811
    sandbox_url: str,
) -> tuple[WalletKeys, World]:
    """Two inscriptions of a fresh user listed at once (`/v1/intent/secure-bulk-sell`)."""
    keys = new_keys()
    async with SandboxClient(sandbox_url) as sandbox:
        await sandbox.faucet(keys.payment.address, COIN_SATS)
        ids = [(await sandbox.inscribe(keys.ordinals.address)).inscription_id for _ in range(2)]
        await sandbox.mine()
    items = [ListingItem(LISTING_PRICE, i) for i in ids]
    _, honest = worlds["secure_listing"]

    async def run(ctx: ServiceContext) -> object:
        return await prepare_listings(ctx, items)

    return keys, World(honest.good_psbt, honest.context, honest.prev_txs, run)


async def test_every_tamper_is_tried_on_every_flow_it_applies_to() -> None:
    applicable = {
        (t.name, SCENARIO_OF_PATH[p]) for t in TAMPERS for p in t.paths if p in SCENARIO_OF_PATH
    }
    assert applicable == set(EXPECTED)


@pytest.mark.parametrize(("tamper", "scenario"), sorted(EXPECTED), ids=lambda v: str(v))
async def test_a_tamper_served_by_the_sandbox_is_refused_and_nothing_is_signed(
    tamper: str,
    scenario: str,
    worlds: dict[str, tuple[WalletKeys, World]],  # noqa: F811
    bulk_world: tuple[WalletKeys, World],
    make_context: ContextFactory,
    faults: SandboxClient,
    signatures: list[object],  # noqa: F811
) -> None:
    keys, world = bulk_world if scenario == "bulk_listing" else worlds[scenario]
    victim = make_context(keys)
    victim.fee_bounds = FEES
    armed = await faults.arm_fault(
        "tamper", PATH_OF_SCENARIO[scenario], method="POST", tamper=tamper
    )

    expected = EXPECTED[(tamper, scenario)]
    if expected is None:
        plan = psbt_plan_of(await world.run(victim))
        assert plan.verdict.needs_fee_consent
        with pytest.raises(PsbtRefusedError):
            sign_plan(plan, keys, victim.acp_ledger)
    else:
        with pytest.raises(PsbtRefusedError) as refused:
            await world.run(victim)
        verdict = refused.value.verdict
        assert expected in verdict.codes and not verdict.approved and verdict.to_sign == ()
        assert refused.value.user_message
    assert signatures == []
    (fired,) = (await faults.faults()).fired
    assert fired.fault_id == armed.id
    assert fired.outcome.startswith(f"served the PSBT tampered by {tamper}: ")
    if expected is not None:  # the refusal names the output or input the tamper changed
        blame = blame_of(fired.outcome)
        assert_refused(verdict, expected, blame)
        assert blame in refused.value.user_message.lower()


def blame_of(outcome: str) -> str:
    """The first output or input a tamper's firing names ("inputs 1, 2 ask ..." -> "input 1"),
    as the test_tamper suite's hostile server names what it changed."""
    found = re.search(r"\b(output|input)s? (\d+)", outcome)
    assert found is not None, outcome
    return f"{found[1]} {found[2]}"
