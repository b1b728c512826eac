"""What a withdrawal's PSBT carries on each side of a signature made elsewhere (another wallet,
through its key origins) or on this app's offline signer, end to end on the sandbox. Found in
review:

- the PSBT submitted was the exported one plus the signatures, so the service learnt the other
  wallet's master fingerprint and derivation paths;
- the exported PSBT kept the service's extras (global xpubs, output derivations, even ones
  claiming our fingerprint, proprietary fields), which hardware wallets act on.

Now the signer gets only what signing needs, and the service gets back the PSBT it served with
the approved signatures copied in: its own fields, none of ours.

The withdrawal intent is answered by the sandbox's `reply` fault with its own answer to the
same request (asked by the test, so the test holds the very PSBT served; with the extras added
where a test wants them), and what was submitted is read on the sandbox's request journal."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import pytest
from embit import bip32, ec
from embit.psbt import DerivationPath

from app.net.marketplace_requests import WithdrawIntentRequest
from app.services.bidding_wallet import get_bidding_wallet
from app.services.context import ServiceContext
from app.services.offline import (
    export_for_signing,
    export_offline,
    import_signed,
    sign_offline,
    submit_imported,
    withdraw_export_items,
)
from app.services.offline_manifest import Manifest
from app.services.withdraw import WithdrawDone, WithdrawPlan, prepare_withdraw
from app.wallet.psbt_fixes import FixedPSBT, set_unknown
from app.wallet.psbt_io import parse_psbt, psbt_to_base64, psbt_to_bytes
from tests.services.conftest import (
    BIDDING_FUNDS,
    COIN_SATS,
    ContextFactory,
    SandboxControl,
    SandboxFaults,
)
from tests.services.test_signed_elsewhere import Collector, sign_elsewhere
from tests.services.test_signed_elsewhere import collector as collector  # the fixture

pytestmark = pytest.mark.asyncio(loop_scope="session")

INTENT = "/v1/intent/withdraw"
WITHDRAW = "/v1/withdraw"
PROPRIETARY = b"\xfc\x07satflow\x00"
AMOUNT = 300_000


def fingerprints(psbt: FixedPSBT) -> set[bytes]:
    """Every master fingerprint the PSBT names: global xpubs, inputs, outputs."""
    found = {d.fingerprint for d in psbt.xpubs.values()}
    for scope in [*psbt.inputs, *psbt.outputs]:
        found |= {d.fingerprint for d in scope.bip32_derivations.values()}
        found |= {d.fingerprint for _leaves, d in scope.taproot_bip32_derivations.values()}
    return found


def without_signatures(psbt: FixedPSBT) -> bytes:
    copy = FixedPSBT.parse(psbt.serialize())
    for inp in copy.inputs:
        inp.partial_sigs, inp.taproot_sigs, inp.tap_key_sig = OrderedDict(), OrderedDict(), None
    return bytes(copy.serialize())


async def serve_withdrawal(
    sandbox: SandboxControl,
    faults: SandboxFaults,
    ctx: ServiceContext,
    edit: Callable[[FixedPSBT], None] | None = None,
) -> FixedPSBT:
    """The next withdrawal intent is answered with the sandbox's own answer to ctx's request
    for `AMOUNT` (asked here), its PSBT changed by `edit`; returns the PSBT served. The journal
    is forgotten after it, so what the app sends next is all it holds."""
    request = WithdrawIntentRequest(ctx.payment_address, AMOUNT).to_wire()
    honest = await sandbox.http.post(INTENT, json=request)
    assert honest.status_code == 200, honest.text
    answer = honest.json()
    psbt = parse_psbt(answer["data"]["unsignedPSBTBase64"])
    if edit is not None:
        edit(psbt)
        answer["data"]["unsignedPSBTBase64"] = psbt_to_base64(psbt)
        answer["data"]["unsignedPSBTHex"] = psbt_to_bytes(psbt).hex()
    await faults.arm("reply", INTENT, method="POST", status=200, body=answer)
    await faults.forget_requests()
    return psbt


async def submitted(faults: SandboxFaults, ctx: ServiceContext) -> FixedPSBT:
    """The one withdrawal submitted, after the app asked for the same intent the test did."""
    (intent,) = await faults.requests("POST", INTENT)
    assert intent.body == WithdrawIntentRequest(ctx.payment_address, AMOUNT).to_wire()
    (fired,) = await faults.fired()
    assert (fired.kind, fired.path) == ("reply", INTENT)
    (sent,) = await faults.requests("POST", WITHDRAW)
    return parse_psbt(sent.body["signedWithdrawPSBT"])


async def sign_and_submit(
    how: str, ctx: ServiceContext, collector: Collector, plan: WithdrawPlan, folder: Path
) -> tuple[Manifest, FixedPSBT]:
    """Export (`how`: with key origins for another wallet, or for this app's offline signer),
    sign, import, submit; returns the manifest and the PSBT the signer got."""
    if how == "elsewhere":
        manifest = await export_for_signing(ctx, folder, withdraw_export_items(plan))
        sign_elsewhere(collector, folder, manifest, "sparrow")
    else:
        manifest = export_offline(folder, withdraw_export_items(plan))
        await sign_offline(folder, collector.keys, None)
    exported = FixedPSBT.parse((folder / manifest.items[0].psbt_file).read_bytes())
    result = await submit_imported(ctx, await import_signed(ctx, folder, manifest))
    assert isinstance(result, WithdrawDone) and result.amount == plan.amount
    return manifest, exported


@pytest.fixture
async def watching(
    collector: Collector, make_context: ContextFactory, sandbox: SandboxControl
) -> ServiceContext:
    """The watch-only context, its bidding wallet funded."""
    await sandbox.faucet(collector.keys.payment.address, COIN_SATS)
    ctx = make_context(collector.public)
    await sandbox.faucet((await get_bidding_wallet(ctx)).address, BIDDING_FUNDS)
    return ctx


@pytest.mark.parametrize("how", ["elsewhere", "offline"])
async def test_the_service_gets_its_psbt_back_signed_and_none_of_our_key_origins(
    watching: ServiceContext,
    collector: Collector,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
    tmp_path: Path,
    how: str,
) -> None:
    served = await serve_withdrawal(sandbox, sandbox_faults, watching)
    plan = await prepare_withdraw(watching, AMOUNT)
    _manifest, exported = await sign_and_submit(how, watching, collector, plan, tmp_path)

    ours = collector.root.my_fingerprint
    assert (ours in fingerprints(exported)) == (how == "elsewhere")  # for the other wallet
    sent = await submitted(sandbox_faults, watching)
    assert ours not in fingerprints(sent)
    assert without_signatures(sent) == served.serialize()
    assert without_signatures(sent) != sent.serialize()  # and it is signed


def with_extras(collector: Collector) -> Callable[[FixedPSBT], None]:
    """A service whose withdrawal PSBT carries what signers act on: our account xpub (as a
    multisig wallet's), our fingerprint claimed on output 0 as change, proprietary fields."""
    fingerprint = collector.root.my_fingerprint
    account = collector.root.derive("m/84h/1h/0h").to_public()
    origin = DerivationPath(fingerprint, bip32.parse_path("m/84h/1h/0h"))
    change = DerivationPath(fingerprint, bip32.parse_path("m/84h/1h/0h/1/0"))
    change_key = ec.PublicKey.parse(collector.keys.payment.public.public_key)

    def add(psbt: FixedPSBT) -> None:
        psbt.xpubs = OrderedDict([(account, origin)])
        set_unknown(psbt, PROPRIETARY, b"withdrawal 7")
        psbt.outputs[0].bip32_derivations = OrderedDict([(change_key, change)])
        for scope in (psbt.inputs[0], psbt.outputs[0]):
            set_unknown(scope, PROPRIETARY, b"note")

    return add


@pytest.mark.parametrize("how", ["elsewhere", "offline"])
async def test_the_service_psbts_extras_never_reach_the_signer(
    watching: ServiceContext,
    collector: Collector,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
    tmp_path: Path,
    how: str,
) -> None:
    served = await serve_withdrawal(sandbox, sandbox_faults, watching, with_extras(collector))
    plan = await prepare_withdraw(watching, AMOUNT)
    assert served.xpubs  # the service did send them
    manifest, exported = await sign_and_submit(how, watching, collector, plan, tmp_path)

    assert not exported.xpubs and not exported.unknown
    for output in exported.outputs:
        assert not output.bip32_derivations and not output.taproot_bip32_derivations
        assert not output.unknown
    assert not any(i.unknown for i in exported.inputs)
    approved = {p.input_index for p in manifest.items[0].inputs_to_sign}
    for index, inp in enumerate(exported.inputs):
        named = [d for _leaves, d in inp.taproot_bip32_derivations.values()]
        named += list(inp.bip32_derivations.values())
        expected = (
            [collector.root.my_fingerprint] if how == "elsewhere" and index in approved else []
        )
        assert [d.fingerprint for d in named] == expected
    # The service's own fields go back to it as it sent them, with the signatures.
    sent = await submitted(sandbox_faults, watching)
    assert without_signatures(sent) == served.serialize()
