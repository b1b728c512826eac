"""Funding the bidding wallet against a real sandbox: coins carrying inscriptions or runes are
never selected, ord unreachable refuses, the policy guards our own PSBT, the broadcast
transaction passes the sandbox mempool (Bitcoin Core's script interpreter)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.core.signing_policy import FeeBounds, RefusalCode
from app.services.bidding_wallet import bidding_wallet_balance, get_bidding_wallet
from app.services.coin_control import payment_balance, payment_coins
from app.services.context import ServiceContext
from app.services.errors import (
    InsufficientFundsError,
    OrdUnavailableError,
    PolicyRefusedError,
    WatchOnlyError,
)
from app.services.funding import (
    ORD_BATCH,
    accept_funding_fee,
    execute_funding,
    fee_estimates,
    fund_bidding_wallet,
    prepare_funding,
)
from app.wallet.keys import WalletKeys
from tests.services.conftest import ContextFactory, KeysFactory, SandboxControl, SandboxFaults
from tests.support.journal import lines

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _utxo_outpoints(ctx: ServiceContext) -> set[str]:
    return {u.outpoint for u in await ctx.clients.esplora.address_utxos(ctx.payment_address)}


@pytest.fixture
async def asset_rich_keys(keys: WalletKeys, sandbox: SandboxControl) -> dict[str, str]:
    """One plain 300,000-sat coin, and two LARGER coins that carry an inscription or runes."""
    cardinal = await sandbox.faucet(keys.payment.address, 300_000, mine=False)
    inscribed = (await sandbox.inscribe(keys.payment.address, mine=False)).outpoint
    runic = await sandbox.etch_runes(keys.payment.address, "FUNDING•TEST•RUNE", 1_000)
    return {"cardinal": cardinal, "inscribed": inscribed, "runic": runic}


async def test_funding_spends_only_cardinal_coins(
    make_context: ContextFactory, keys: WalletKeys, asset_rich_keys: dict[str, str]
) -> None:
    ctx = make_context(keys)
    await ctx.clients.ord.output(asset_rich_keys["inscribed"])  # ord knows them
    plan = await prepare_funding(ctx, 250_000, fee_rate=2)
    assert [c.outpoint for c in plan.selection.coins] == [asset_rich_keys["cardinal"]]
    assert set(plan.skipped) == {asset_rich_keys["inscribed"], asset_rich_keys["runic"]}
    assert plan.verdict.approved and plan.review.fee == plan.fee
    assert plan.change == 300_000 - 250_000 - plan.fee
    result = await execute_funding(ctx, plan)
    assert (await bidding_wallet_balance(ctx)).total == 250_000
    left = await _utxo_outpoints(ctx)
    assert {asset_rich_keys["inscribed"], asset_rich_keys["runic"]} <= left
    assert asset_rich_keys["cardinal"] not in left
    assert f"{result.txid}:1" in left  # the change came back to the payment address
    status = await ctx.clients.esplora.tx_status(result.txid)
    assert status.confirmed is False  # accepted into the mempool


async def test_assets_are_not_spent_even_when_cardinal_coins_fall_short(
    make_context: ContextFactory, keys: WalletKeys, asset_rich_keys: dict[str, str]
) -> None:
    ctx = make_context(keys)
    with pytest.raises(InsufficientFundsError) as caught:
        await prepare_funding(ctx, 305_000, fee_rate=2)
    assert caught.value.available == 300_000
    assert caught.value.skipped == 2
    assert (
        "(2 coins carrying inscriptions or runes were left untouched)" in caught.value.user_message
    )


async def test_the_spendable_payment_balance_is_what_funding_would_spend(
    make_context: ContextFactory, keys: WalletKeys, asset_rich_keys: dict[str, str]
) -> None:
    """The Wallet tab's "spendable" figure counts the coins funding may spend, no more: asking
    for more is refused with exactly that much available; the held coins make up the total."""
    ctx = make_context(keys)
    balance = await payment_balance(ctx)
    coins = await payment_coins(ctx)
    assert balance.spendable == 300_000 and balance.waiting == 0 and balance.coins == 3
    assert balance.carrying == sum(
        c.value for c in coins if c.outpoint != asset_rich_keys["cardinal"]
    )
    assert balance.total == sum(c.value for c in coins) > balance.spendable
    with pytest.raises(InsufficientFundsError) as caught:
        await prepare_funding(ctx, balance.spendable, fee_rate=2)
    assert caught.value.available == balance.spendable
    plan = await prepare_funding(ctx, balance.spendable - 1_000, fee_rate=2)
    assert sum(c.value for c in plan.selection.coins) == balance.spendable


async def test_ord_unreachable_refuses_and_sends_nothing(
    make_context: ContextFactory, funded_keys: WalletKeys, sandbox_faults: SandboxFaults
) -> None:
    ctx = make_context(funded_keys)
    await get_bidding_wallet(ctx)
    await sandbox_faults.arm("reply", "/ord/*", status=503, body={"message": "down"}, times=None)
    await sandbox_faults.forget_requests()  # what follows is this funding's alone
    with pytest.raises(OrdUnavailableError, match="nothing will be spent"):
        await fund_bidding_wallet(ctx, 100_000, fee_rate=2)
    seen = lines(await sandbox_faults.requests())
    assert "POST /esplora/tx" not in seen
    assert any(p.startswith("GET /ord/") or p == "POST /ord/outputs" for p in seen)


async def test_fee_rate_from_the_estimates_when_not_chosen(ctx: ServiceContext) -> None:
    estimates = await ctx.clients.esplora.fee_estimates()
    plan = await prepare_funding(ctx, 100_000, target_blocks=3)
    assert plan.fee_rate == Fraction(str(estimates.for_target(3)))
    # Our size estimate is the review's (Core's weights), so the rate paid is the rate asked.
    assert plan.review.vsize.vsize == plan.selection.vsize
    assert plan.review.fee_rate is not None and plan.review.fee_rate >= plan.fee_rate


async def test_fee_estimates_for_the_picker_are_the_estimators(ctx: ServiceContext) -> None:
    by_target = await fee_estimates(ctx)
    assert by_target == dict((await ctx.clients.esplora.fee_estimates()).by_target)
    assert by_target and all(t >= 1 and rate > 0 for t, rate in by_target.items())


async def test_the_policy_guards_our_own_psbt(
    make_context: ContextFactory, funded_keys: WalletKeys, sandbox_faults: SandboxFaults
) -> None:
    """A fee above the user's bounds is not signed unless the user accepts that very fee."""
    ctx = make_context(funded_keys)
    await sandbox_faults.forget_requests()  # funded: what follows is this funding's alone
    ctx.fee_bounds = FeeBounds.of(max_fee=100, max_rate=1_000)
    plan = await prepare_funding(ctx, 100_000, fee_rate=5)
    assert plan.needs_fee_consent and RefusalCode.FEE_TOO_HIGH in plan.verdict.codes
    with pytest.raises(PolicyRefusedError) as caught:
        await execute_funding(ctx, plan)
    assert "nothing was signed" in caught.value.user_message
    assert await broadcasts(sandbox_faults) == []
    accepted = accept_funding_fee(plan)
    assert accepted.verdict.approved and accepted.verdict.fee is not None
    assert accepted.verdict.fee.consented and accepted.verdict.fee.fee == plan.review.fee
    await execute_funding(ctx, accepted)
    assert len(await broadcasts(sandbox_faults)) == 1


async def test_watch_only_profile_can_review_but_not_sign(
    make_context: ContextFactory, funded_keys: WalletKeys
) -> None:
    ctx = make_context(funded_keys.watch_only())
    plan = await prepare_funding(ctx, 100_000, fee_rate=2)
    assert plan.verdict.approved
    with pytest.raises(WatchOnlyError):
        await execute_funding(ctx, plan)


async def test_nested_segwit_payment_address_funds_too(
    make_keys: KeysFactory, make_context: ContextFactory, sandbox: SandboxControl
) -> None:
    keys = make_keys("xverse")  # P2SH-P2WPKH payment address
    await sandbox.faucet(keys.payment.address, 400_000)
    ctx = make_context(keys)
    result = await fund_bidding_wallet(ctx, 150_000, fee_rate=3)
    assert (await bidding_wallet_balance(ctx)).total == 150_000
    assert result.fee > 0


async def broadcasts(faults: SandboxFaults) -> list[str]:
    """The transactions broadcast (`POST /esplora/tx`, raw hex, not JSON: no address to pick
    ours by) since the journal was last forgotten: the test forgets it once its coins are in."""
    return [r.path for r in await faults.requests("POST", "/esplora/tx")]


async def ord_outputs_asked(faults: SandboxFaults) -> set[str]:
    """The outpoints ord was asked about, one by one or in its batch lookup, since the journal
    was last forgotten."""
    single = {r.path.rsplit("/", 1)[-1] for r in await faults.requests("GET", "/ord/output/*")}
    batched = {o for r in await faults.requests("POST", "/ord/outputs") for o in r.body}
    return single | batched


async def test_many_coins_are_checked_with_ord_in_batches_before_being_spent(
    make_keys: KeysFactory,
    make_context: ContextFactory,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
) -> None:
    keys = make_keys()
    for _ in range(30):
        await sandbox.faucet(keys.payment.address, 10_000, mine=False)
    await sandbox.mine()
    await sandbox_faults.forget_requests()  # the coins are in: the rest is this test's asking
    ctx = make_context(keys)
    plan = await prepare_funding(ctx, 40_000, fee_rate=1)
    asked = await ord_outputs_asked(sandbox_faults)
    assert len(asked) == ORD_BATCH  # the first batch already covered the amount
    assert {c.outpoint for c in plan.selection.coins} <= asked
    # Needing (nearly) every coin: further batches are asked before any coin is used.
    big = await prepare_funding(ctx, 285_000, fee_rate=1)
    asked = await ord_outputs_asked(sandbox_faults)
    assert len(asked) == 30 and {c.outpoint for c in big.selection.coins} <= asked
