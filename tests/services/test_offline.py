"""Offline signing end to end: a watch-only profile prepares and exports secure listings (or a
withdrawal), a machine with NO network signs them, the online side imports and submits."""

from __future__ import annotations

import base64
import hashlib
import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core.acp_composition import AcpSignature, acp_signatures
from app.core.signing_policy import RefusalCode
from app.services.acp_signatures import ledger_of
from app.services.bidding_wallet import get_bidding_wallet
from app.services.context import ServiceContext
from app.services.listings import ListingItem, ListingsDone, prepare_listings
from app.services.offline import (
    OfflineFileError,
    export_offline,
    import_signed,
    listing_export_items,
    review_offline,
    sign_offline,
    submit_imported,
    withdraw_export_items,
)
from app.services.offline_manifest import MANIFEST_NAME, ManifestError
from app.services.psbt_flow import PsbtRefusedError
from app.services.psbt_signed import SignedPsbtMismatchError
from app.services.withdraw import WithdrawDone, prepare_withdraw
from app.wallet.acp_ledger import AcpLedger
from app.wallet.psbt_io import PSBT_MAGIC, parse_psbt, psbt_to_bytes
from app.wallet.psbt_reader import unsigned_txid
from tests.services.conftest import ContextFactory, KeysFactory, SandboxControl, SandboxFaults
from tests.services.test_listings import inscribe_many, listings_of, listings_sent

pytestmark = pytest.mark.asyncio(loop_scope="session")


@contextmanager
def no_network() -> Iterator[None]:
    """Any network client or connection attempt fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the offline path tried to use the network")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(httpx.AsyncClient, "__init__", refuse)
        patch.setattr(httpx.Client, "__init__", refuse)
        patch.setattr(socket.socket, "connect", refuse)
        patch.setattr(socket, "create_connection", refuse)
        yield


async def exported_listings(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, folder: Path
) -> tuple[ServiceContext, Any, list[str]]:
    """A watch-only profile of ctx's wallet lists three inscriptions and exports them."""
    watch_only = make_context(ctx.signing_keys().watch_only())
    ids = await inscribe_many(sandbox, ctx.ordinals_address, 3)
    plan = await prepare_listings(watch_only, [ListingItem(70_000, i) for i in ids])
    return watch_only, export_offline(folder, listing_export_items(plan)), ids


def offline_ledger(folder: Path) -> AcpLedger:
    """The offline machine's own record of its ANYONECANPAY signatures."""
    return ledger_of(folder / "offline-machine")


async def test_listings_round_trip_through_an_offline_signer(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    tmp_path: Path,
) -> None:
    watch_only, manifest, ids = await exported_listings(ctx, sandbox, make_context, tmp_path)
    assert not watch_only.can_sign
    written = json.loads((tmp_path / MANIFEST_NAME).read_text())
    assert written["flow"] == "secure listing" and written["version"] == 3
    assert "as reported online at export" in written["factsNote"]
    for item in manifest.items:
        raw = (tmp_path / item.psbt_file).read_bytes()
        assert raw.startswith(PSBT_MAGIC)
        assert base64.b64decode((tmp_path / item.text_file).read_text()) == raw
        assert unsigned_txid(parse_psbt(raw)) == item.unsigned_txid
        assert [(p.input_index, p.sighash) for p in item.inputs_to_sign] == [(0, 0x81)]
        assert any(c.inscriptions for c in item.ord_at_export.values())
    done: list[tuple[int, int]] = []

    with no_network():
        signed = await sign_offline(
            tmp_path, ctx.signing_keys(), offline_ledger(tmp_path), lambda d, t: done.append((d, t))
        )

    assert done == [(1, 3), (2, 3), (3, 3)] and len(signed) == 3
    # Each machine records the ANYONECANPAY signatures: the signer when it signs, the online
    # machine when it imports them.
    assert len(offline_ledger(tmp_path).live()) == 3
    assert watch_only.acp_ledger is not None and not watch_only.acp_ledger.live()
    batch = await import_signed(watch_only, tmp_path, expected=manifest)
    assert len(watch_only.acp_ledger.live()) == 3
    result = await submit_imported(watch_only, batch)
    assert isinstance(result, ListingsDone)
    assert sorted(x.inscription_id or "" for x in result.listings) == sorted(ids)
    active = await listings_of(sandbox, ctx.ordinals_address)
    assert sorted(x["inscriptionId"] for x in active if x["status"] == "active") == sorted(ids)


async def test_a_withdrawal_round_trip_through_an_offline_signer(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, tmp_path: Path
) -> None:
    watch_only = make_context(ctx.signing_keys().watch_only())
    await sandbox.faucet((await get_bidding_wallet(watch_only)).address, 90_000)
    plan = await prepare_withdraw(watch_only, 40_000)
    manifest = export_offline(tmp_path, withdraw_export_items(plan))
    assert manifest.bidding_wallet == watch_only.bidding_wallet_address

    with no_network():
        await sign_offline(tmp_path, ctx.signing_keys(), offline_ledger(tmp_path))

    restarted = make_context(ctx.signing_keys().watch_only())  # the app was restarted meanwhile
    result = await submit_imported(restarted, await import_signed(restarted, tmp_path, manifest))
    assert isinstance(result, WithdrawDone) and result.amount == 40_000


async def test_the_offline_signer_refuses_a_changed_file_and_a_changed_transaction(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, tmp_path: Path
) -> None:
    _, manifest, _ = await exported_listings(ctx, sandbox, make_context, tmp_path)
    first = manifest.items[0]
    psbt = parse_psbt((tmp_path / first.psbt_file).read_bytes())
    price_output = max(range(len(psbt.outputs)), key=lambda i: psbt.outputs[i].value)
    psbt.outputs[price_output].value -= 20_000
    (tmp_path / first.psbt_file).write_bytes(psbt_to_bytes(psbt))

    with no_network(), pytest.raises(OfflineFileError, match="not the file that was exported"):
        review_offline(tmp_path, ctx.signing_keys())

    # The same change with a manifest rewritten to match: the policy itself refuses.
    data = json.loads((tmp_path / MANIFEST_NAME).read_text())
    data["items"][0]["sha256"] = hashlib.sha256(psbt_to_bytes(psbt)).hexdigest()
    data["items"][0]["unsignedTxid"] = unsigned_txid(psbt)
    (tmp_path / MANIFEST_NAME).write_text(json.dumps(data))
    with no_network(), pytest.raises(PsbtRefusedError) as refused:
        review_offline(tmp_path, ctx.signing_keys())
    assert refused.value.verdict.codes == (RefusalCode.LISTING_UNDERPAID,)
    assert not list(tmp_path.glob("*.signed.*"))


async def test_an_export_for_another_wallet_is_not_signed(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    make_keys: KeysFactory,
    tmp_path: Path,
) -> None:
    await exported_listings(ctx, sandbox, make_context, tmp_path)
    with no_network(), pytest.raises(ManifestError, match="another wallet"):
        await sign_offline(tmp_path, make_keys(), offline_ledger(tmp_path))
    assert not list(tmp_path.glob("*.signed.*"))


async def test_import_refuses_a_signed_file_of_another_transaction(
    ctx: ServiceContext,
    sandbox: SandboxControl,
    make_context: ContextFactory,
    sandbox_faults: SandboxFaults,
    tmp_path: Path,
) -> None:
    _, manifest, _ = await exported_listings(ctx, sandbox, make_context, tmp_path)
    with no_network():
        await sign_offline(tmp_path, ctx.signing_keys(), offline_ledger(tmp_path))
    first, second = manifest.items[0], manifest.items[1]
    (tmp_path / first.signed_psbt_file).write_bytes(
        (tmp_path / second.signed_psbt_file).read_bytes()
    )
    online = make_context(ctx.signing_keys().watch_only())

    with pytest.raises(SignedPsbtMismatchError, match="not the reviewed"):
        await import_signed(online, tmp_path, expected=manifest)
    assert await listings_sent(sandbox_faults, ctx) == []


async def test_import_refuses_a_manifest_changed_after_export(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, tmp_path: Path
) -> None:
    """The PSBT files are intact, but the recorded listing price was lowered on the way."""
    watch_only, manifest, _ = await exported_listings(ctx, sandbox, make_context, tmp_path)
    with no_network():
        await sign_offline(tmp_path, ctx.signing_keys(), offline_ledger(tmp_path))
    data = json.loads((tmp_path / MANIFEST_NAME).read_text())
    data["items"][0]["submit"]["listing"]["price"] = 1_000
    (tmp_path / MANIFEST_NAME).write_text(json.dumps(data))
    with pytest.raises(ManifestError, match="differs from the one exported"):
        await import_signed(watch_only, tmp_path, expected=manifest)


async def test_an_item_name_pointing_outside_the_folder_signs_nothing(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, tmp_path: Path
) -> None:
    """The signed files are named after each item ('<name>.signed.psbt'): a stick's manifest
    naming an item '../x' would have them written outside the export folder."""
    folder = tmp_path / "export"
    await exported_listings(ctx, sandbox, make_context, folder)
    data = json.loads((folder / MANIFEST_NAME).read_text())
    for i, item in enumerate(data["items"]):
        item["name"] = f"../outside-{i}"
    (folder / MANIFEST_NAME).write_text(json.dumps(data))
    with no_network(), pytest.raises(ManifestError, match="plain file name"):
        await sign_offline(folder, ctx.signing_keys(), offline_ledger(tmp_path))
    assert not list(tmp_path.glob("outside-*"))
    assert not list(folder.glob("*.signed.*"))


async def test_an_export_whose_second_signature_collides_signs_none_of_it(
    ctx: ServiceContext, sandbox: SandboxControl, make_context: ContextFactory, tmp_path: Path
) -> None:
    """The ledger refuses the second listing (it would combine with a live signature of this
    machine): the first is not signed either, the set being recorded before any signature."""
    await exported_listings(ctx, sandbox, make_context, tmp_path)
    second = review_offline(tmp_path, ctx.signing_keys())[1].plan
    (sig,) = acp_signatures(second.review, second.verdict)
    ledger = offline_ledger(tmp_path)
    ledger.record([AcpSignature("ee" * 32 + ":0", sig.commitment, "older")])
    with no_network(), pytest.raises(PsbtRefusedError):
        await sign_offline(tmp_path, ctx.signing_keys(), ledger)
    assert not list(tmp_path.glob("*.signed.*"))
