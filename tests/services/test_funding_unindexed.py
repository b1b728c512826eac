"""Funding while ord has not indexed the newest coins, against a real sandbox answering like
real ord (its default: every mempool output is `indexed: false`): such coins are skipped and
counted, fatal only when nothing else can pay; coin control spends exactly the coins chosen
and refuses those that must not be spent. The old-ord case stays on the fault proxy: it strips
`indexed` from whatever ord answers, before and after a block, a rewrite of live answers that no
fixed `reply` of the sandbox's faults (docs/sandbox-faults.md) can express."""

from __future__ import annotations

import json

import pytest

from app.services.bidding_wallet import bidding_wallet_balance
from app.services.coin_control import CoinUse, payment_coins
from app.services.errors import CoinChoiceError, InsufficientFundsError, OrdUnavailableError
from app.services.funding import execute_funding, prepare_funding
from app.wallet.keys import WalletKeys
from tests.services.conftest import ContextFactory, SandboxControl
from tests.support.proxy import FaultProxy

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
async def real_ord(sandbox: SandboxControl) -> SandboxControl:
    """The sandbox, its ord answering like real ord (`indexed: false` for mempool outputs)."""
    assert (await sandbox.info())["ordIndexesMempool"] is False
    return sandbox


async def test_a_fresh_coin_is_skipped_and_counted_and_funding_goes_on(
    make_context: ContextFactory, keys: WalletKeys, real_ord: SandboxControl
) -> None:
    confirmed = await real_ord.faucet(keys.payment.address, 300_000)
    fresh = await real_ord.faucet(keys.payment.address, 500_000, mine=False)
    ctx = make_context(keys)
    # A review stays strict: an unindexed input is never taken as empty.
    with pytest.raises(OrdUnavailableError, match="not indexed"):
        await ctx.outpoint_contents([fresh])
    answers = await ctx.contents_if_indexed([confirmed, fresh])
    assert answers[fresh] is None and answers[confirmed] is not None

    plan = await prepare_funding(ctx, 250_000, fee_rate=2)
    assert [c.outpoint for c in plan.selection.coins] == [confirmed]
    assert [(c.outpoint, c.value) for c in plan.waiting] == [(fresh, 500_000)]
    assert plan.waiting_sats == 500_000 and plan.skipped == () and not plan.chosen
    assert plan.verdict.approved
    result = await execute_funding(ctx, plan)
    assert (await bidding_wallet_balance(ctx)).total == 250_000

    # The next funding meets the change of this one, unindexed too: it still goes through
    # when the waiting coins are not needed, and says them when they are.
    change = f"{result.txid}:1"
    with pytest.raises(InsufficientFundsError) as caught:
        await prepare_funding(ctx, 600_000, fee_rate=2)
    error = caught.value
    assert (error.available, error.waiting) == (0, 2)
    assert error.waiting_sats == 500_000 + result.change
    assert "2 coins (" in error.user_message
    assert "are waiting for the indexer" in error.user_message
    await real_ord.mine()
    plan = await prepare_funding(ctx, 400_000, fee_rate=2)  # indexed once confirmed
    assert {c.outpoint for c in plan.selection.coins} == {fresh}
    assert plan.waiting == ()
    assert change in {c.outpoint for c in (await payment_coins(ctx)) if c.spendable}


async def test_only_a_fresh_coin_the_error_says_it_is_waiting(
    make_context: ContextFactory, keys: WalletKeys, real_ord: SandboxControl
) -> None:
    await real_ord.faucet(keys.payment.address, 200_000, mine=False)
    ctx = make_context(keys)
    with pytest.raises(InsufficientFundsError) as caught:
        await prepare_funding(ctx, 100_000, fee_rate=2)
    error = caught.value
    assert (error.available, error.skipped, error.waiting, error.waiting_sats) == (0, 0, 1, 200_000)
    assert "1 coin (200,000 sats) is waiting for the indexer" in error.user_message
    assert "until its transaction confirms" in error.user_message


async def test_coin_control_lists_the_coins_and_spends_exactly_the_chosen_one(
    make_context: ContextFactory, keys: WalletKeys, real_ord: SandboxControl
) -> None:
    small = await real_ord.faucet(keys.payment.address, 150_000, mine=False)
    large = await real_ord.faucet(keys.payment.address, 900_000, mine=False)
    inscribed = (await real_ord.inscribe(keys.payment.address)).outpoint  # mines all three
    fresh = await real_ord.faucet(keys.payment.address, 400_000, mine=False)
    ctx = make_context(keys)

    coins = {c.outpoint: c for c in await payment_coins(ctx)}
    assert set(coins) == {small, large, inscribed, fresh}
    assert [c.outpoint for c in await payment_coins(ctx)][:2] == [large, small]  # preferred
    assert coins[small].use is CoinUse.SPENDABLE and coins[small].spendable
    assert (coins[small].value, coins[small].confirmations) == (150_000, 1)
    assert coins[small].refusal is None
    assert coins[inscribed].use is CoinUse.CARRIES
    assert coins[inscribed].inscriptions == (f"{inscribed.split(':')[0]}i0",)
    assert "carries inscription" in (coins[inscribed].refusal or "")
    assert coins[fresh].use is CoinUse.WAITING and not coins[fresh].indexed
    assert coins[fresh].confirmations == 0 and coins[fresh].inscriptions == ()
    assert "waiting for the indexer" in (coins[fresh].refusal or "")

    # Left to itself the wallet takes the largest coin; the user chose the small one.
    assert [
        c.outpoint for c in (await prepare_funding(ctx, 100_000, fee_rate=2)).selection.coins
    ] == [large]
    plan = await prepare_funding(ctx, 100_000, fee_rate=2, coins=[small])
    assert [c.outpoint for c in plan.selection.coins] == [small] and plan.chosen
    assert plan.verdict.approved and plan.change == 150_000 - 100_000 - plan.fee
    await execute_funding(ctx, plan)
    left = {c.outpoint for c in await payment_coins(ctx)}
    assert small not in left and {large, inscribed, fresh} <= left

    with pytest.raises(InsufficientFundsError) as caught:
        await prepare_funding(ctx, 1_000_000, fee_rate=2, coins=[large])
    assert caught.value.chosen and "The coins you chose hold 900,000 sats" in str(caught.value)


async def test_chosen_coins_that_must_not_be_spent_are_refused(
    make_context: ContextFactory, keys: WalletKeys, real_ord: SandboxControl
) -> None:
    plain = await real_ord.faucet(keys.payment.address, 300_000, mine=False)
    inscribed = (await real_ord.inscribe(keys.payment.address)).outpoint
    runic = await real_ord.etch_runes(keys.payment.address, "COIN•CONTROL•RUNE", 500)
    fresh = await real_ord.faucet(keys.payment.address, 400_000, mine=False)
    ctx = make_context(keys)
    gone = "ab" * 32 + ":0"

    with pytest.raises(CoinChoiceError) as caught:
        await prepare_funding(ctx, 50_000, fee_rate=2, coins=[plain, inscribed])
    assert set(caught.value.refused) == {inscribed}
    assert "carries inscription" in caught.value.refused[inscribed]
    assert inscribed in caught.value.user_message

    with pytest.raises(CoinChoiceError) as caught:
        await prepare_funding(ctx, 50_000, fee_rate=2, coins=[runic, fresh, gone])
    refused = caught.value.refused
    assert list(refused) == [runic, fresh, gone]
    assert "COIN•CONTROL•RUNE" in refused[runic]
    assert "waiting for the indexer" in refused[fresh]
    assert "not an unspent coin of the payment address" in refused[gone]

    plan = await prepare_funding(ctx, 50_000, fee_rate=2, coins=[plain.upper()])
    assert [c.outpoint for c in plan.selection.coins] == [plain]


def as_ord_0_15(method: str, path: str, status: int, body: bytes) -> bytes | None:
    """ord before 0.16 has no `indexed` field: it shows an output it has not indexed as empty."""
    if status != 200 or not path.startswith("/ord/output"):
        return None
    data = json.loads(body)
    for entry in data if isinstance(data, list) else [data]:
        if isinstance(entry, dict):
            entry.pop("indexed", None)
    return json.dumps(data).encode()


async def test_an_old_ord_without_indexed_never_makes_a_mempool_inscription_spendable(
    make_context: ContextFactory, keys: WalletKeys, real_ord: SandboxControl, proxy: FaultProxy
) -> None:
    """Found in review: the missing field was read as "indexed", so funding spent an
    inscription still in the mempool. Now a coin ord cannot vouch for (its transaction not
    confirmed at or below ord's last indexed block) waits for the indexer."""
    confirmed = await real_ord.faucet(keys.payment.address, 300_000)
    created = await real_ord.inscribe(keys.payment.address, mine=False)
    proxy.rewrite(as_ord_0_15)
    ctx = make_context(keys, proxy.url)

    uses = {c.outpoint: c.use for c in await payment_coins(ctx)}
    assert uses[created.outpoint] is CoinUse.WAITING
    assert uses[confirmed] is CoinUse.SPENDABLE
    with pytest.raises(CoinChoiceError, match="waiting for the indexer"):
        await prepare_funding(ctx, 50_000, fee_rate=2, coins=[created.outpoint])
    plan = await prepare_funding(ctx, 50_000, fee_rate=2)
    assert created.outpoint not in {c.outpoint for c in plan.selection.coins}

    await real_ord.mine()  # confirmed and indexed: now ord's answer counts, and it carries
    uses = {c.outpoint: c.use for c in await payment_coins(ctx)}
    assert uses[created.outpoint] is CoinUse.CARRIES
