"""A payment address with more coins than one ord batch lookup takes: the sandbox (like a
proxy in front of ord may) refuses a `POST /ord/outputs` of more than 1,000 outpoints, so the
client asks in chunks of at most 1,000 and the wallet still reads every coin's contents."""

from __future__ import annotations

import pytest
from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.services.coin_control import CoinUse, payment_coins
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_fixes import FixedPSBT, new_transaction
from app.wallet.psbt_signer import SigningKey, SignRequest, sign_psbt
from tests.services.conftest import ContextFactory, KeysFactory, SandboxControl, SandboxFaults
from tests.support.journal import naming

pytestmark = pytest.mark.asyncio(loop_scope="session")

SANDBOX_BATCH_CAP = 1_000  # app/sandbox/http/routes_ord.py MAX_BATCH
COINS = SANDBOX_BATCH_CAP + 1
COIN_VALUE = 1_000
FEE = 100_000  # ~32,000 vB at a few sat/vB


async def test_more_coins_than_one_batch_takes_are_all_read(
    make_context: ContextFactory,
    make_keys: KeysFactory,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
) -> None:
    ctx = make_context(make_keys("leather"))  # P2WPKH payment address
    funding = await sandbox.faucet(ctx.payment_address, COINS * COIN_VALUE + FEE)
    payment = ctx.signing_keys().payment
    spk = Script(payment.script_pubkey)
    vin = [TransactionInput(bytes.fromhex(funding[:64]), int(funding[65:]), sequence=0xFFFFFFFD)]
    psbt = FixedPSBT(new_transaction(2, 0, vin, [TransactionOutput(COIN_VALUE, spk)] * COINS))
    psbt.inputs[0].witness_utxo = TransactionOutput(COINS * COIN_VALUE + FEE, spk)
    sign_psbt(psbt, SigningKey(payment.private_key), [SignRequest(0, 0x01)])
    finalize_psbt(psbt)
    txid = await ctx.clients.esplora.broadcast(bytes(extract_transaction(psbt).serialize()).hex())
    await sandbox.mine()

    coins = await payment_coins(ctx)

    assert sorted(c.outpoint for c in coins) == sorted(f"{txid}:{n}" for n in range(COINS))
    assert all(c.use is CoinUse.SPENDABLE and c.value == COIN_VALUE for c in coins)
    batches = [
        len(r.body) for r in naming(await sandbox_faults.requests("POST", "/ord/outputs"), txid)
    ]
    assert sorted(batches) == [1, SANDBOX_BATCH_CAP]
    assert not await sandbox_faults.requests("GET", f"/ord/output/{txid}:0")  # no single GETs
