"""A watch-only export through animated QR codes the way Sparrow, Coldcard, Keystone, Passport
and SeedSigner move PSBTs, against the sandbox: the exported PSBT file itself as BBQr type P
and UR crypto-psbt (drawn by segno, read back by zxing-cpp, frames missed and shuffled: exactly
the file's bytes), signed by the other wallet (the collector's real keys, through the origins
the PSBT carries), shown back as a QR code, saved by `write_scanned_signed` under the manifest's
signed-file name, imported and submitted. Refused, nothing written: a signed PSBT of another
transaction, an unsigned PSBT, a signed file already there.

When the keys are in Bidwallet's own offline signer instead, the whole export crosses as its
bundle, is signed there (`sign_offline`) and comes back as the signed bundle (`signed_payload`),
which `write_scanned_signed` takes once it is this very export; refused, nothing written:
another export's, one without signed files, a tampered one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from app.core import qr_export_bundle
from app.core.animated_qr import (
    AnimatedQrDecoder,
    Payload,
    PayloadKind,
    QrFormat,
    encode_frames,
)
from app.services.context import ServiceContext
from app.services.listings import ListingItem, prepare_listings
from app.services.offline import (
    export_for_signing,
    import_signed,
    listing_export_items,
    sign_offline,
    submit_imported,
    withdraw_export_items,
)
from app.services.offline_files import OfflineFileError
from app.services.offline_manifest import Manifest
from app.services.offline_qr import (
    export_payload,
    exported_psbts,
    signed_payload,
    write_scanned_export,
    write_scanned_signed,
)
from app.services.qr_images import read_codes, render
from app.services.withdraw import WithdrawDone, prepare_withdraw
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import psbt_to_bytes
from tests.services.conftest import SandboxControl
from tests.services.test_listings import inscribe_many
from tests.services.test_signed_elsewhere import Collector, collector, watching
from tests.support.qr_frames import camera_sees

pytestmark = pytest.mark.asyncio(loop_scope="session")

__all__ = ["collector", "watching"]  # the fixtures, shared with test_signed_elsewhere


def through_qr(
    payload: Payload,
    fmt: QrFormat,
    drop_every: int,
    accept: frozenset[PayloadKind] = frozenset({PayloadKind.PSBT}),
) -> Payload | None:
    """`payload` as frames drawn to images, read back by zxing-cpp as a camera would (some
    missed, the rest shuffled with repeats), into a decoder that takes `accept` (a PSBT)."""
    sequence = encode_frames(payload, fmt)
    frames = camera_sees(sequence, drop_every)
    frames += frames[:2]
    random.Random(len(frames)).shuffle(frames)
    decoder = AnimatedQrDecoder(accept)
    for frame in frames:
        (text,) = read_codes(render(frame, sequence.qr_version, scale=2))
        decoder.add(text)
    return decoder.result


def signed_by_other_wallet(collector: Collector, folder: Path, manifest: Manifest) -> bytes:
    """The exported PSBT signed as the other wallet signs it (keys found by its origins)."""
    item = manifest.items[0]
    psbt = FixedPSBT.parse((folder / item.psbt_file).read_bytes())
    assert psbt.sign_with(collector.root, sighash=None) == len(item.inputs_to_sign)
    return psbt_to_bytes(psbt)


async def exported_withdrawal(watching: ServiceContext, folder: Path, amount: int) -> Manifest:
    plan = await prepare_withdraw(watching, amount)
    return await export_for_signing(watching, folder, withdraw_export_items(plan))


@pytest.mark.parametrize("fmt", [QrFormat.UR, QrFormat.BBQR])
async def test_a_withdrawal_crosses_to_the_other_wallet_and_back_as_psbt_codes(
    watching: ServiceContext, collector: Collector, tmp_path: Path, fmt: QrFormat
) -> None:
    manifest = await exported_withdrawal(watching, tmp_path, 200_000)
    (item,) = manifest.items
    (shown,) = exported_psbts(tmp_path)
    assert shown.file == item.psbt_file
    assert shown.payload == Payload(PayloadKind.PSBT, (tmp_path / item.psbt_file).read_bytes())
    for each in QrFormat:  # what the other wallet reads: the file's very bytes, either format
        assert through_qr(shown.payload, each, drop_every=4) == shown.payload

    signed = signed_by_other_wallet(collector, tmp_path, manifest)
    scanned = through_qr(Payload(PayloadKind.PSBT, signed), fmt, drop_every=3)
    assert scanned is not None
    written = write_scanned_signed(tmp_path, scanned)
    assert written.items == (item,) and written.paths == (tmp_path / item.signed_psbt_file,)
    assert written.paths[0].read_bytes() == signed and written.unsigned == ()

    result = await submit_imported(watching, await import_signed(watching, tmp_path, manifest))
    assert isinstance(result, WithdrawDone) and result.amount == 200_000


async def test_what_is_not_this_exports_signed_psbt_is_refused_and_nothing_written(
    watching: ServiceContext, collector: Collector, tmp_path: Path
) -> None:
    folder, other = tmp_path / "this", tmp_path / "other"
    manifest = await exported_withdrawal(watching, folder, 120_000)
    other_manifest = await exported_withdrawal(watching, other, 130_000)
    files = sorted(p.name for p in folder.iterdir())

    def unchanged() -> bool:
        return sorted(p.name for p in folder.iterdir()) == files

    another = Payload(PayloadKind.PSBT, signed_by_other_wallet(collector, other, other_manifest))
    with pytest.raises(OfflineFileError) as refused:
        write_scanned_signed(folder, another)
    theirs, ours = other_manifest.items[0].unsigned_txid, manifest.items[0].unsigned_txid
    assert f"is transaction {theirs}, not the one exported" in refused.value.user_message
    assert ours in refused.value.user_message and unchanged()

    unsigned = exported_psbts(folder)[0].payload  # our own code scanned back by mistake
    with pytest.raises(OfflineFileError, match="carries no signature"):
        write_scanned_signed(folder, unsigned)
    assert unchanged()

    signed = Payload(PayloadKind.PSBT, signed_by_other_wallet(collector, folder, manifest))
    earlier = folder / manifest.items[0].signed_psbt_file
    earlier.write_bytes(b"signed before, kept")
    with pytest.raises(OfflineFileError, match="already holds a signed PSBT"):
        write_scanned_signed(folder, signed)
    assert earlier.read_bytes() == b"signed before, kept"
    earlier.unlink()
    write_scanned_signed(folder, signed)  # deleted by the user: the scan is saved
    assert earlier.read_bytes() == signed.data


async def test_an_export_of_several_psbts_crosses_one_psbt_a_code(
    watching: ServiceContext, collector: Collector, sandbox: SandboxControl, tmp_path: Path
) -> None:
    ids = await inscribe_many(sandbox, collector.keys.ordinals.address, 2)
    plan = await prepare_listings(watching, [ListingItem(60_000, i) for i in ids])
    manifest = await export_for_signing(watching, tmp_path, listing_export_items(plan))
    shown = exported_psbts(tmp_path)
    assert [x.file for x in shown] == [x.psbt_file for x in manifest.items]
    assert [x.payload.data for x in shown] == [
        (tmp_path / x.psbt_file).read_bytes() for x in manifest.items
    ]
    first, second = manifest.items
    for item, waiting in ((second, (first.psbt_file,)), (first, ())):  # scanned in any order
        psbt = FixedPSBT.parse(shown[manifest.items.index(item)].payload.data)
        assert psbt.sign_with(collector.root, sighash=None) == len(item.inputs_to_sign)
        written = write_scanned_signed(tmp_path, Payload(PayloadKind.PSBT, psbt_to_bytes(psbt)))
        assert written.items == (item,) and written.unsigned == waiting

    (tmp_path / second.psbt_file).write_bytes(b"changed")
    with pytest.raises(OfflineFileError, match="not the file that was exported"):
        exported_psbts(tmp_path)  # the import's own check: no code of a changed file


async def signed_offline(collector: Collector, online: Path, offline: Path) -> Payload:
    """The export of `online` scanned into `offline` by Bidwallet's offline signer, signed
    there by its own review (`sign_offline`), and what its Show signed as QR… shows."""
    scanned = through_qr(export_payload(online), QrFormat.BBQR, 0, EXPORT)
    assert scanned is not None
    write_scanned_export(offline, scanned)
    await sign_offline(offline, collector.keys, None)
    return signed_payload(offline)


EXPORT = frozenset({PayloadKind.EXPORT})
BOTH = frozenset(PayloadKind)


@pytest.mark.parametrize("fmt", [QrFormat.UR, QrFormat.BBQR])
async def test_a_withdrawal_signed_by_the_offline_signer_comes_back_as_its_signed_bundle(
    watching: ServiceContext, collector: Collector, tmp_path: Path, fmt: QrFormat
) -> None:
    online = tmp_path / "online"
    manifest = await exported_withdrawal(watching, online, 210_000)
    (item,) = manifest.items
    shown = await signed_offline(collector, online, tmp_path / "offline")
    scanned = through_qr(shown, fmt, drop_every=3, accept=BOTH)  # what Scan signed QR… reads
    assert scanned is not None and scanned == shown and scanned.kind is PayloadKind.EXPORT

    written = write_scanned_signed(online, scanned)
    signed = online / item.signed_psbt_file
    assert written.items == (item,) and written.paths == (signed,) and written.unsigned == ()
    assert signed.read_bytes() == (tmp_path / "offline" / item.signed_psbt_file).read_bytes()
    assert not (online / item.signed_text_file).exists()  # one signed file, as read_signed reads

    result = await submit_imported(watching, await import_signed(watching, online, manifest))
    assert isinstance(result, WithdrawDone) and result.amount == 210_000


def bundle_with(payload: Payload, **changes: bytes | None) -> Payload:
    """`payload`'s bundle with files replaced (bytes), added, or left out (None)."""
    files = qr_export_bundle.unpack(payload.data)
    for name, data in changes.items():
        if data is None:
            files.pop(name.replace("__", "."))
        else:
            files[name.replace("__", ".")] = data
    return Payload(PayloadKind.EXPORT, qr_export_bundle.pack(files))


async def test_a_signed_bundle_not_of_this_export_is_refused_and_nothing_written(
    watching: ServiceContext, collector: Collector, tmp_path: Path
) -> None:
    folder, other = tmp_path / "this", tmp_path / "other"
    manifest = await exported_withdrawal(watching, folder, 140_000)
    other_manifest = await exported_withdrawal(watching, other, 150_000)
    (item,), (other_item,) = manifest.items, other_manifest.items
    ours = await signed_offline(collector, folder, tmp_path / "offline-this")
    theirs = await signed_offline(collector, other, tmp_path / "offline-other")
    files = {p.name: p.read_bytes() for p in folder.iterdir()}

    def refused(payload: Payload, reason: str) -> None:
        with pytest.raises(OfflineFileError, match=reason) as refusal:
            write_scanned_signed(folder, payload)
        assert refusal.value.user_message.endswith("Nothing was written.")
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == files

    refused(theirs, "is not the one in .*its manifest.json differs")  # another export's
    refused(export_payload(folder), "carries no signed PSBT")  # the export itself, unsigned
    refused(bundle_with(ours, **{item.signed_psbt_file: None}), "carries no signed PSBT")

    # Tampered: the manifest, the exported PSBT or the signed one changed, a file added.
    manifest_json = files["manifest.json"].replace(b"140000", b"140001")
    assert manifest_json != files["manifest.json"]
    refused(bundle_with(ours, manifest__json=manifest_json), "its manifest.json differs")
    changed = {item.psbt_file: (other / other_item.psbt_file).read_bytes()}
    refused(bundle_with(ours, **changed), f"{item.psbt_file} is not the file exported")
    refused(bundle_with(ours, **{item.psbt_file: None}), f"{item.psbt_file} is not the file")
    not_ours = (tmp_path / "offline-other" / other_item.signed_psbt_file).read_bytes()
    refused(
        bundle_with(ours, **{item.signed_psbt_file: not_ours}),
        f"is not transaction {item.unsigned_txid}",
    )
    unsigned = files[item.psbt_file]
    refused(bundle_with(ours, **{item.signed_psbt_file: unsigned}), "carries no signature")
    refused(bundle_with(ours, **{"extra.psbt": not_ours}), r"does not write \(extra.psbt\)")
    refused(Payload(PayloadKind.EXPORT, b"not a bundle"), "cannot be read")

    earlier = folder / item.signed_text_file  # signed before: kept, the scan refused
    earlier.write_bytes(b"signed before, kept")
    files[earlier.name] = earlier.read_bytes()
    refused(ours, "already holds a signed PSBT")
    earlier.unlink()
    assert write_scanned_signed(folder, ours).paths == (folder / item.signed_psbt_file,)
