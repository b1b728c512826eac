"""ord's batch lookups (`POST /ord/outputs`, `POST /ord/inscriptions`) answered by a lying
server in front of the real sandbox: the right answers in another order, without the
`outpoint` or `id` each entry names, or naming other outputs. The wallet must not take a
runic or inscribed coin of the payment address for a plain one because its neighbour's answer
was put in its place (it would spend the runes or the inscription as plain sats), nor place an
inscription where another one sits. These stay on the fault proxy: each lie is made by the
test from ord's real answer to that very request (reordered, fields removed), which no fixed
`reply` or named tamper of the sandbox (docs/sandbox-faults.md) can express."""

from __future__ import annotations

import json
import secrets

import pytest
from embit.script import Script
from embit.transaction import TransactionInput, TransactionOutput

from app.services.coin_control import CoinUse, payment_coins
from app.services.context import ServiceContext
from app.services.errors import OrdUnavailableError
from app.services.listings_inventory import held_items
from app.wallet.finalize import extract_transaction, finalize_psbt
from app.wallet.psbt_fixes import FixedPSBT, new_transaction
from app.wallet.psbt_signer import SigningKey, SignRequest, sign_psbt
from tests.services.conftest import ContextFactory, SandboxControl
from tests.services.test_listings import inscribe
from tests.support.proxy import FaultProxy

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _reversed_without_outpoints(method: str, path: str, status: int, body: bytes) -> bytes | None:
    if (method, path, status) != ("POST", "/ord/outputs", 200):
        return None
    entries = json.loads(body)
    for entry in entries:
        entry.pop("outpoint", None)
    return json.dumps(entries[::-1]).encode()


def _reversed(method: str, path: str, status: int, body: bytes) -> bytes | None:
    if (method, path, status) != ("POST", "/ord/outputs", 200):
        return None
    return json.dumps(json.loads(body)[::-1]).encode()


def _duplicated_first(method: str, path: str, status: int, body: bytes) -> bytes | None:
    if (method, path, status) != ("POST", "/ord/outputs", 200):
        return None
    entries = json.loads(body)
    return json.dumps([entries[0]] * len(entries)).encode()


@pytest.mark.parametrize("carrying", ["runes", "inscription"])
async def test_a_shuffled_batch_without_outpoints_never_makes_a_carrying_coin_plain(
    make_context: ContextFactory,
    make_keys: object,
    sandbox: SandboxControl,
    proxy: FaultProxy,
    carrying: str,
) -> None:
    """Runes have no second lookup to contradict a swapped answer: the runic coin would be
    spent as plain sats (its runes to a funding's first output, the bidding wallet)."""
    ctx = make_context(make_keys(), url=proxy.url)  # type: ignore[operator]
    plain = await sandbox.faucet(ctx.payment_address, 50_000)
    if carrying == "runes":
        await sandbox.etch_runes(
            ctx.payment_address,
            "BATCH•LIE•" + "".join(secrets.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(8)),
            500,
        )
    else:
        await inscribe(sandbox, ctx.payment_address)
    proxy.rewrite(_reversed_without_outpoints)

    coins = {c.outpoint: c for c in await payment_coins(ctx)}

    assert len(coins) == 2
    assert coins[plain].use is CoinUse.SPENDABLE
    (other,) = [c for o, c in coins.items() if o != plain]
    assert other.use is CoinUse.CARRIES
    assert proxy.requests("POST", "/ord/outputs")  # the batch was asked, and lied


@pytest.mark.parametrize("lie", [_reversed, _duplicated_first])
async def test_a_batch_naming_other_outputs_is_refused(
    make_context: ContextFactory,
    make_keys: object,
    sandbox: SandboxControl,
    proxy: FaultProxy,
    lie: object,
) -> None:
    ctx = make_context(make_keys(), url=proxy.url)  # type: ignore[operator]
    await sandbox.faucet(ctx.payment_address, 50_000)
    await inscribe(sandbox, ctx.payment_address)
    proxy.rewrite(lie)  # type: ignore[arg-type]

    with pytest.raises(OrdUnavailableError, match="ord answered about"):
        await payment_coins(ctx)


def _inscriptions_swapped_without_ids(
    method: str, path: str, status: int, body: bytes
) -> bytes | None:
    if (method, path, status) != ("POST", "/ord/inscriptions", 200):
        return None
    entries = json.loads(body)
    for entry in entries:
        entry.pop("id", None)
    return json.dumps(entries[::-1]).encode()


async def _merge(ctx: ServiceContext, outpoints: list[str], values: list[int]) -> str:
    """Spend our ordinals outputs into one output of the ordinals address (first in, first
    out: the first's sats, then the second's); returns it."""
    keys = ctx.signing_keys()
    spk = Script(keys.ordinals.script_pubkey)
    vin = [
        TransactionInput(bytes.fromhex(o[:64]), int(o[65:]), sequence=0xFFFFFFFD) for o in outpoints
    ]
    psbt = FixedPSBT(new_transaction(2, 0, vin, [TransactionOutput(sum(values) - 1_000, spk)]))
    for inp, value in zip(psbt.inputs, values, strict=True):
        inp.witness_utxo = TransactionOutput(value, spk)
    sign_psbt(psbt, SigningKey(keys.ordinals.private_key), [SignRequest(0, 0), SignRequest(1, 0)])
    finalize_psbt(psbt)
    txid = await ctx.clients.esplora.broadcast(bytes(extract_transaction(psbt).serialize()).hex())
    return f"{txid}:0"


async def test_swapped_inscription_answers_never_move_an_inscription_within_its_output(
    make_context: ContextFactory, make_keys: object, sandbox: SandboxControl, proxy: FaultProxy
) -> None:
    """Two inscriptions on one output: the location check cannot tell their answers apart,
    only their ids can. Swapped, the first would seem to sit where the second does (a bid
    buying it would then see it land on the wrong output)."""
    ctx = make_context(make_keys(), url=proxy.url)  # type: ignore[operator]
    first = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    second = (await inscribe(sandbox, ctx.ordinals_address))["inscriptionId"]
    where = {i.inscription_id: i.outpoint for i in await held_items(ctx)}
    values = {
        u.outpoint: u.value for u in await ctx.clients.esplora.address_utxos(ctx.ordinals_address)
    }
    spent = [where[first], where[second]]
    merged = await _merge(ctx, spent, [values[o] for o in spent])
    await sandbox.mine()
    proxy.rewrite(_inscriptions_swapped_without_ids)

    (contents,) = (await ctx.outpoint_contents([merged])).values()

    offsets = {i.inscription_id: i.offset for i in contents.inscriptions}
    assert offsets == {first: 0, second: values[spent[0]]}
