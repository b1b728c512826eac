"""The tamper suite over HTTP: a hostile server in front of the real sandbox serves each named
malicious variant of the sandbox's real withdraw, inscription bid and secure listing PSBTs
(or lies about ord's answers, or the bidding wallet's address). Every one must be refused by
the use case with its specific human reason, and nothing may be signed or sent.

The variants the sandbox's own tamper catalogue serves (`ON_THE_SANDBOX`, run by
test_sandbox_tampers.py) are not repeated here; the rest stay on the fault proxy and
`HostileServer` because each is a PSBT or fact mutation this suite generates itself
(tests/support/psbt_tamper), which no named tamper or fixed `reply` of the sandbox expresses;
the honest control goes through the same proxy. The listing's `indicesToSign` widened is the
sandbox's `reply` fault serving its own answer with that change."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from embit.transaction import Transaction

from app.core.policy_verdict import FEE_CONSENT_CODES
from app.core.psbt_review_context import ReviewContext
from app.core.signing_policy import FeeBounds, RefusalCode
from app.net.clients import NetClients
from app.net.config import ServiceConfig
from app.net.marketplace_requests import InscriptionBidIntentRequest, WithdrawIntentRequest
from app.services import psbt_flow
from app.services.bidding_wallet import BiddingWalletSuspectError, get_bidding_wallet
from app.services.context import ServiceContext
from app.services.inscription_bid import prepare_inscription_bid
from app.services.listings import ListingItem, build_listings, prepare_listings
from app.services.psbt_flow import (
    PsbtPlan,
    PsbtRefusedError,
    gather_facts,
    input_outpoints,
    sign_plan,
)
from app.services.withdraw import prepare_withdraw
from app.wallet.addresses import Network
from app.wallet.keys import MnemonicSeed, WalletKeys, derive_wallet_keys
from app.wallet.presets import get_preset
from app.wallet.psbt_io import parse_psbt
from tests.services.conftest import (
    COIN_SATS,
    ContextFactory,
    SandboxControl,
    SandboxFaults,
    new_mnemonic,
)
from tests.services.test_listings import inscribe, listings_sent
from tests.support.hostile_server import HostileServer
from tests.support.policy_checks import assert_refused
from tests.support.proxy import FaultProxy
from tests.support.psbt_tamper import Tamper, tampers_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

# The user's fee limits in this suite: tight enough that an inflated fee shows.
FEES = FeeBounds.of(max_fee=10_000, max_rate=50)
WITHDRAW_AMOUNT = 100_000
BID_PRICE = 6_000_000  # more than one 5,000,000-sat coin: the bid spends two payment inputs
LISTING_PRICE = 100_000
# Facts a real service never serves to this app (it does not publish its own addresses).
NOT_SERVED_OVER_HTTP = {"listing: service address served for mainnet"}
# A bidding wallet the service names is checked before any PSBT is asked for: the sandbox
# publishes its key, so a wallet other than the recomputed 1-of-2 is refused right there.
BIDDING_WALLET_TAMPERS = {
    "withdraw: bidding wallet served as a mainnet address",
    "withdraw: bidding wallet is our ordinals address",
}
# Variants the sandbox's tamper catalogue serves itself (docs/sandbox-faults.md): the same
# attack, the same refusal, tried by test_sandbox_tampers.py as (catalogue tamper, flow).
ON_THE_SANDBOX = {
    "withdraw: payment output redirected": ("redirect-payment", "withdraw"),
    "withdraw: pays less than asked": ("cut-payment", "withdraw"),
    "withdraw: inflated fee": ("raise-fee", "withdraw"),
    "withdraw: missing witness UTXO": ("drop-utxo", "withdraw"),
    "bid: inscription output redirected": ("redirect-payment", "inscription_bid"),
    "bid: inflated fee": ("raise-fee", "inscription_bid"),
    "bid: missing witness UTXO": ("drop-utxo", "inscription_bid"),
    "listing: pays someone else": ("redirect-payment", "secure_listing"),
    "listing: price below": ("cut-payment", "secure_listing"),
    "listing: extra payment input of ours": ("extra-input", "secure_listing"),
    "listing: NONE|ANYONECANPAY": ("sighash-none", "secure_listing"),
    "listing: missing witness UTXO": ("drop-utxo", "secure_listing"),
}
ALL_CASES = [
    t
    for scenario in ("withdraw", "inscription_bid", "secure_listing")
    for t in tampers_for(scenario)
    if t.name not in NOT_SERVED_OVER_HTTP
]
CASES = [t for t in ALL_CASES if t.name not in ON_THE_SANDBOX]  # served by the proxy


@dataclass
class World:
    """A flow set up on the sandbox: the honest PSBT and facts, and the use case to run."""

    good_psbt: str
    context: ReviewContext
    prev_txs: dict[str, Transaction]
    run: Callable[[ServiceContext], Awaitable[Any]]
    intent: tuple[str, dict[str, Any]] | None = None  # (path, body) of the intent it asks for


async def _world(
    ctx: ServiceContext,
    good_psbt: str,
    run: Callable[..., Any],
    intent: tuple[str, dict[str, Any]] | None = None,
) -> World:
    outpoints = input_outpoints(parse_psbt(good_psbt))
    facts = await gather_facts(ctx, outpoints)
    prev_txs = {}
    for outpoint in outpoints:
        txid = outpoint.split(":")[0]
        raw = bytes.fromhex(await ctx.clients.esplora.tx_hex(txid))
        prev_txs[outpoint] = Transaction.read_from(io.BytesIO(raw))
    return World(good_psbt, ctx.review_context(facts), prev_txs, run, intent)


def new_keys() -> WalletKeys:
    return derive_wallet_keys(MnemonicSeed(new_mnemonic()), get_preset("leather"), Network.REGTEST)


async def withdraw_world(ctx: ServiceContext, sandbox: SandboxControl) -> World:
    wallet = (await get_bidding_wallet(ctx)).address
    await sandbox.faucet(wallet, 60_000, mine=False)
    await sandbox.faucet(wallet, 70_000)
    served = await ctx.clients.marketplace.create_withdraw_intent(
        WithdrawIntentRequest(ctx.payment_address, WITHDRAW_AMOUNT)
    )
    return await _world(ctx, served.psbt_base64, lambda c: prepare_withdraw(c, WITHDRAW_AMOUNT))


async def bid_world(ctx: ServiceContext, sandbox: SandboxControl) -> World:
    seller = new_keys()
    inscription_id = (await inscribe(sandbox, seller.ordinals.address))["inscriptionId"]
    served = await ctx.clients.marketplace.create_inscription_bid_intent(
        InscriptionBidIntentRequest(
            BID_PRICE,
            inscription_id,
            ctx.payment_address,
            ctx.ordinals_address,
            ctx.payment_public_key_hex,
        )
    )
    return await _world(
        ctx,
        served.psbt_base64,
        lambda c: prepare_inscription_bid(c, inscription_id, BID_PRICE),
    )


async def listing_world(ctx: ServiceContext, sandbox: SandboxControl) -> World:
    inscription_id = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    items = [ListingItem(LISTING_PRICE, inscription_id)]
    listing = build_listings(ctx, items)[0]
    served = await ctx.clients.marketplace.create_secure_sell_intent(listing)
    intent = ("/v1/intent/secure-sell", listing.to_wire())
    return await _world(
        ctx, served.psbts[0].psbt_base64, lambda c: prepare_listings(c, items), intent
    )


WORLDS = {
    "withdraw": withdraw_world,
    "inscription_bid": bid_world,
    "secure_listing": listing_world,
}


@pytest.fixture(scope="module")
async def worlds(sandbox_url: str) -> AsyncIterator[dict[str, tuple[WalletKeys, World]]]:
    """One honest world per flow, shared by its tampers (none of them submits anything)."""
    made: dict[str, tuple[WalletKeys, World]] = {}
    opened: list[NetClients] = []
    async with httpx.AsyncClient(base_url=sandbox_url, timeout=120.0) as http:
        sandbox = SandboxControl(http)
        for scenario, build in WORLDS.items():
            keys = new_keys()
            await sandbox.faucet(keys.payment.address, COIN_SATS, mine=False)
            await sandbox.faucet(keys.payment.address, COIN_SATS)
            clients = NetClients.open(ServiceConfig.sandbox(sandbox_url))
            opened.append(clients)
            made[scenario] = (keys, await build(ServiceContext(clients, keys), sandbox))
        yield made
    for clients in opened:
        await clients.aclose()


@pytest.fixture
def signatures(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Every call of the PSBT signer made by the use cases."""
    calls: list[object] = []
    real = psbt_flow.sign_psbt

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(psbt_flow, "sign_psbt", spy)
    return calls


async def test_the_suite_covers_at_least_40_variants_across_the_three_flows() -> None:
    assert len({t.name for t in CASES}) == len(CASES) >= 40
    assert {t.scenario for t in CASES} == set(WORLDS)


async def test_each_variant_left_to_the_sandbox_is_tried_there_with_its_refusal() -> None:
    """A variant leaves this suite only for a catalogue tamper test_sandbox_tampers.py runs
    on the same flow, expecting the same refusal (None there: the fee needs consent)."""
    from tests.services.test_sandbox_tampers import EXPECTED

    by_name = {t.name: t for t in ALL_CASES}
    for name, (tamper, scenario) in ON_THE_SANDBOX.items():
        variant = by_name[name]
        assert variant.scenario == scenario, name
        expected = None if variant.code in FEE_CONSENT_CODES else variant.code
        assert (tamper, scenario) in EXPECTED and EXPECTED[(tamper, scenario)] == expected, name


@pytest.mark.parametrize("scenario", sorted(WORLDS))
async def test_the_honest_intent_through_the_proxy_is_approved(
    scenario: str,
    worlds: dict[str, tuple[WalletKeys, World]],
    make_context: ContextFactory,
    proxy: FaultProxy,
) -> None:
    """Control: the worlds are sound, so each refusal below is the tamper's doing."""
    keys, world = worlds[scenario]
    through_proxy = make_context(keys, url=proxy.url)
    through_proxy.fee_bounds = FEES
    psbt = psbt_plan_of(await world.run(through_proxy))
    assert psbt.verdict.approved and psbt.verdict.to_sign


@pytest.mark.parametrize("tamper", CASES, ids=[t.name for t in CASES])
async def test_a_hostile_psbt_is_refused_and_nothing_is_signed_or_sent(
    tamper: Tamper,
    worlds: dict[str, tuple[WalletKeys, World]],
    make_context: ContextFactory,
    proxy: FaultProxy,
    signatures: list[object],
) -> None:
    """Each variant is refused with its reason. A fee outside the bounds is not refused
    outright: the plan comes back for the user's consent, and nothing can sign it without."""
    keys, world = worlds[tamper.scenario]
    hostile = HostileServer(proxy, tamper, world.context, world.prev_txs)
    hostile.arm(world.good_psbt)
    victim = make_context(keys, url=proxy.url)
    victim.fee_bounds = FEES

    if tamper.code in FEE_CONSENT_CODES:
        plan = psbt_plan_of(await world.run(victim))
        verdict = plan.verdict
        assert verdict.needs_fee_consent
        with pytest.raises(PsbtRefusedError):
            sign_plan(plan, keys, victim.acp_ledger)
        message = " ".join(verdict.reasons())
    elif tamper.name in BIDDING_WALLET_TAMPERS:
        with pytest.raises(BiddingWalletSuspectError):
            await world.run(victim)
        assert signatures == [] and hostile.submits() == []
        return
    else:
        with pytest.raises(PsbtRefusedError) as refused:
            await world.run(victim)
        verdict, message = refused.value.verdict, refused.value.user_message

    assert hostile.tampered == 1 and hostile.blame is not None
    assert_refused(verdict, tamper.code, hostile.blame)
    assert hostile.blame.lower() in message.lower()
    assert signatures == []
    assert hostile.submits() == []


def psbt_plan_of(plan: Any) -> PsbtPlan:
    """The reviewed PSBT of a use case's plan (a listing plan's first item)."""
    found: PsbtPlan = plan.items[0].psbt if hasattr(plan, "items") else plan.psbt
    return found


async def test_a_service_asking_to_sign_more_inputs_than_approved_is_refused(
    worlds: dict[str, tuple[WalletKeys, World]],
    make_context: ContextFactory,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
    signatures: list[object],
) -> None:
    """The PSBT is honest but `indicesToSign` names an input the policy does not approve: the
    sandbox's `reply` fault serves its own answer to the same intent with that one change."""
    keys, world = worlds["secure_listing"]
    assert world.intent is not None
    path, request = world.intent
    honest = await sandbox.http.post(path, json=request)
    assert honest.status_code == 200, honest.text
    answer = honest.json()
    answer["data"]["seller"]["secureListingPSBTs"][0]["indicesToSign"] = [0, 1]
    await sandbox_faults.arm("reply", path, method="POST", status=200, body=answer)

    victim = make_context(keys)
    with pytest.raises(PsbtRefusedError) as refused:
        await world.run(victim)
    assert refused.value.verdict.codes == (RefusalCode.INPUT_NOT_ALLOWED,)
    assert "inputs 0, 1" in refused.value.user_message
    assert [(f.kind, f.path) for f in await sandbox_faults.fired()] == [("reply", path)]
    assert signatures == [] and await listings_sent(sandbox_faults, victim) == []
