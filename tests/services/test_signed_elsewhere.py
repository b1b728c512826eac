"""A watch-only profile made from the collector's extended public keys, end to end on the
sandbox: balances, the bidding wallet and open bids are there; a bid message and a cancel
challenge go out, are signed with the real private keys as the other wallet would, come back,
are verified and sent; PSBTs are exported with their key origins, signed by an HD signer that
finds its keys through them (embit's `sign_with`, as Sparrow or a hardware wallet does), saved
under any name, imported and submitted. A tampered signature is refused, nothing sent."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from embit import bip32, bip39
from embit.networks import NETWORKS

from app.services.bidding_wallet import bidding_wallet_balance, get_bidding_wallet
from app.services.bids import BidSpec
from app.services.context import ServiceContext
from app.services.errors import BidNotPlacedError
from app.services.funding import FundingResult, prepare_funding
from app.services.key_setup import save_watch_only
from app.services.key_vault import WatchOnlyKeys, watch_only_public_keys
from app.services.listings import ListingItem, ListingsDone, prepare_listings
from app.services.offline import (
    export_for_signing,
    funding_export_items,
    import_signed,
    listing_export_items,
    submit_imported,
    withdraw_export_items,
)
from app.services.offline_manifest import Manifest
from app.services.open_bids import fetch_open_bids, load_open_bids
from app.services.psbt_signed import SignedPsbtMismatchError
from app.services.qa_vault import QA_KDF
from app.services.signed_elsewhere import (
    ImportedSignatureError,
    SignatureTooLateError,
    cancel_with_signatures,
    place_signed_bid,
    prepare_bid_message,
    prepare_cancel,
)
from app.services.withdraw import WithdrawDone, prepare_withdraw
from app.wallet.finalize import finalize_psbt
from app.wallet.keys import WalletKeys
from app.wallet.message import sign_message
from app.wallet.psbt_fixes import FixedPSBT
from app.wallet.psbt_io import psbt_to_base64
from app.wallet.vault import Vault
from app.wallet.vault_file_store import FileStore
from tests.services.conftest import (
    BIDDING_FUNDS,
    COIN_SATS,
    ContextFactory,
    KeysFactory,
    SandboxControl,
    SandboxFaults,
    hour_from_now,
    new_mnemonic,
)
from tests.services.test_listings import inscribe_many, listings_of

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Collector:
    """The collector's real keys (in "another wallet") and the watch-only profile of them."""

    def __init__(self, keys: WalletKeys, root: bip32.HDKey, public: WatchOnlyKeys) -> None:
        self.keys = keys
        self.root = root
        self.public = public


@pytest.fixture
def collector(make_keys: KeysFactory, tmp_path: Path) -> Collector:
    words = new_mnemonic()
    keys = make_keys("xverse-native", words)
    root = bip32.HDKey.from_seed(bip39.mnemonic_to_seed(words))
    fingerprint = root.my_fingerprint.hex()
    vpub = root.derive("m/84h/1h/0h").to_public().to_base58(NETWORKS["test"]["zpub"])
    tpub = root.derive("m/86h/1h/0h").to_public().to_base58(NETWORKS["test"]["xpub"])
    vault = Vault(FileStore(tmp_path / "vault"), QA_KDF)
    save_watch_only(
        vault,
        "Collector",
        "regtest",
        f"[{fingerprint}/84h/1h/0h]{vpub}",
        f"tr([{fingerprint}/86h/1h/0h]{tpub}/<0;1>/*)",
        "",
        "",
    )
    public = watch_only_public_keys(vault, "Collector", "regtest")
    assert public is not None
    assert (public.payment.address, public.ordinals.address) == (
        keys.payment.address,
        keys.ordinals.address,
    )
    return Collector(keys, root, public)


@pytest.fixture
async def watching(
    collector: Collector, make_context: ContextFactory, sandbox: SandboxControl
) -> ServiceContext:
    """The watch-only context, its payment address funded and its bidding wallet too."""
    await sandbox.faucet(collector.keys.payment.address, COIN_SATS)
    ctx = make_context(collector.public)
    wallet = await get_bidding_wallet(ctx)
    await sandbox.faucet(wallet.address, BIDDING_FUNDS)
    return ctx


def sign_elsewhere(collector: Collector, folder: Path, manifest: Manifest, name: str) -> None:
    """What Sparrow or a hardware wallet does: open the exported PSBT, find its keys by the
    derivations it carries, sign (following each input's sighash type), save it anywhere."""
    for item in manifest.items:
        psbt = FixedPSBT.parse((folder / item.psbt_file).read_bytes())
        assert psbt.sign_with(collector.root, sighash=None) == len(item.inputs_to_sign)
        (folder / f"{name}-{item.name}.psbt").write_text(psbt_to_base64(psbt))


def flip_bit(signature: bytes, at: int) -> bytes:
    changed = bytearray(signature)
    changed[at] ^= 0x01
    return bytes(changed)


async def test_balances_bidding_wallet_and_open_bids_are_there(
    watching: ServiceContext, collector: Collector
) -> None:
    assert not watching.can_sign
    payment = await watching.clients.esplora.address_balance(collector.keys.payment.address)
    assert payment.confirmed == COIN_SATS
    assert (await bidding_wallet_balance(watching)).total == BIDDING_FUNDS
    view = await load_open_bids(watching)
    assert view.balance.total == BIDDING_FUNDS and view.bids == ()


async def test_a_bid_signed_elsewhere_is_verified_placed_and_cancelled(
    watching: ServiceContext, collector: Collector, collection: str
) -> None:
    spec = BidSpec.collection(collection, 20_000, 2, hour_from_now(watching))
    wanted = await prepare_bid_message(watching, spec)
    assert wanted.address == collector.keys.payment.address
    assert wanted.message.startswith(
        f"{wanted.address}:{collector.keys.payment.public.public_key.hex()}:"
    )

    forged = sign_message(collector.keys.ordinals, wanted.message).signature  # another key
    with pytest.raises(ImportedSignatureError, match="signed by another key") as refused:
        await place_signed_bid(watching, wanted, forged)
    assert "Error" not in str(refused.value)  # said in words, not by an exception's name
    for bad, says in (
        ("not a signature", "not a base64 signature"),
        (sign_message(collector.keys.payment, wanted.message + "\n").signature, "line ending"),
    ):
        with pytest.raises(ImportedSignatureError, match=says):
            await place_signed_bid(watching, wanted, bad)
    signature = sign_message(collector.keys.payment, wanted.message).signature
    tampered = base64.b64encode(bytearray(base64.b64decode(signature))[:-1] + b"\x01").decode()
    with pytest.raises(ImportedSignatureError, match="Nothing was sent"):
        await place_signed_bid(watching, wanted, tampered)
    assert await fetch_open_bids(watching) == []

    outcome = await place_signed_bid(watching, wanted, signature)
    assert outcome.placement.request.signed_bidding_message == signature
    bids = await fetch_open_bids(watching)
    assert len(bids) == 2 and {b.collection_slug for b in bids} == {collection}

    to_cancel = await prepare_cancel(watching, [bids[0].bid_id])
    assert [c.address for c in to_cancel.challenges] == [collector.keys.ordinals.address]
    challenge = to_cancel.challenges[0]
    signed = sign_message(collector.keys.ordinals, challenge.challenge).signature
    with pytest.raises(ImportedSignatureError):
        await cancel_with_signatures(watching, to_cancel, {challenge.address: forged})
    report = await cancel_with_signatures(watching, to_cancel, {challenge.address: signed})
    assert report.cancelled_ids == (bids[0].bid_id,)
    assert [b.bid_id for b in await fetch_open_bids(watching)] == [bids[1].bid_id]


async def test_a_signed_bid_is_sent_once_even_after_a_server_error(
    collector: Collector,
    make_context: ContextFactory,
    sandbox: SandboxControl,
    sandbox_faults: SandboxFaults,
    collection: str,
) -> None:
    """A 5xx before the bid is stored: the open bids are read (the retry rule), it is not
    there, and the same signature is not sent again: a new message must be signed."""
    await sandbox.faucet(collector.keys.payment.address, COIN_SATS)
    ctx = make_context(collector.public)
    await sandbox.faucet((await get_bidding_wallet(ctx)).address, BIDDING_FUNDS)
    wanted = await prepare_bid_message(ctx, BidSpec.collection(collection, 10_000, 1,
                                                               hour_from_now(ctx)))  # fmt: skip
    signature = sign_message(collector.keys.payment, wanted.message).signature
    await sandbox_faults.arm(
        "reply", "/v1/bid/place", method="POST", status=503, body={"error": "busy"}
    )
    with pytest.raises(BidNotPlacedError, match="never sent twice"):
        await place_signed_bid(ctx, wanted, signature)
    assert len(await sandbox_faults.placements(collection)) == 1
    assert await fetch_open_bids(ctx) == []


async def test_a_bid_signature_that_comes_back_too_late_is_not_sent(
    watching: ServiceContext, collector: Collector, collection: str
) -> None:
    spec = BidSpec.collection(collection, 10_000, 1, hour_from_now(watching))
    wanted = await prepare_bid_message(watching, spec)
    signature = sign_message(collector.keys.payment, wanted.message).signature
    await watching.sleeper.sleep_ms(2 * 60_000)  # the sandbox's clock and ours move on
    with pytest.raises(SignatureTooLateError, match="2 minutes"):
        await place_signed_bid(watching, wanted, signature)
    assert await fetch_open_bids(watching) == []


async def test_a_withdrawal_is_exported_with_key_origins_signed_elsewhere_and_submitted(
    watching: ServiceContext, collector: Collector, tmp_path: Path
) -> None:
    plan = await prepare_withdraw(watching, 300_000)
    folder = tmp_path / "withdraw"
    manifest = await export_for_signing(watching, folder, withdraw_export_items(plan))
    exported = FixedPSBT.parse((folder / manifest.items[0].psbt_file).read_bytes())
    (signed_input,) = manifest.items[0].inputs_to_sign
    scope = exported.inputs[signed_input.input_index]
    # The payment key in the bidding wallet's script: its P2WSH multisig or its taproot leaf.
    origins = list(scope.bip32_derivations.values())
    origins += [der for _leaves, der in scope.taproot_bip32_derivations.values()]
    assert [(d.fingerprint, d.derivation) for d in origins] == [
        (collector.root.my_fingerprint, bip32.parse_path("m/84h/1h/0h/0/0"))
    ]
    sign_elsewhere(collector, folder, manifest, "sparrow")

    result = await submit_imported(watching, await import_signed(watching, folder, manifest))
    assert isinstance(result, WithdrawDone) and result.amount == 300_000


async def test_a_funding_finalised_by_the_other_wallet_is_broadcast(
    watching: ServiceContext, collector: Collector, tmp_path: Path
) -> None:
    before = (await bidding_wallet_balance(watching)).total
    plan = await prepare_funding(watching, 150_000, fee_rate=2)
    manifest = await export_for_signing(watching, tmp_path, funding_export_items(plan))
    psbt = FixedPSBT.parse((tmp_path / manifest.items[0].psbt_file).read_bytes())
    assert psbt.sign_with(collector.root) == len(plan.verdict.to_sign)
    finalize_psbt(psbt)  # as a wallet that finalises what it signs (Unisat does by default)
    assert all(i.final_scriptwitness is not None and not i.partial_sigs for i in psbt.inputs)
    (tmp_path / "finalised.txt").write_text(psbt_to_base64(psbt))

    result = await submit_imported(watching, await import_signed(watching, tmp_path, manifest))
    assert isinstance(result, FundingResult) and result.amount == 150_000
    assert (await bidding_wallet_balance(watching)).total == before + 150_000


async def test_a_tampered_psbt_signature_is_refused_before_anything_is_sent(
    watching: ServiceContext, collector: Collector, tmp_path: Path
) -> None:
    plan = await prepare_withdraw(watching, 100_000)
    manifest = await export_for_signing(watching, tmp_path, withdraw_export_items(plan))
    item = manifest.items[0]
    psbt = FixedPSBT.parse((tmp_path / item.psbt_file).read_bytes())
    psbt.sign_with(collector.root)
    scope = psbt.inputs[item.inputs_to_sign[0].input_index]
    # One bit of the signature's s: still well formed, no longer a signature of this message.
    if scope.partial_sigs:  # the P2WSH bidding wallet
        ((pub, sig),) = scope.partial_sigs.items()
        scope.partial_sigs = {pub: flip_bit(sig, -5)}
    else:  # the taproot one (the sandbox's default): its script-path signature
        ((where, sig),) = scope.taproot_sigs.items()
        scope.taproot_sigs = {where: flip_bit(sig, 40)}
    (tmp_path / "tampered.psbt").write_text(psbt_to_base64(psbt))

    with pytest.raises(SignedPsbtMismatchError, match="signature is not valid"):
        await import_signed(watching, tmp_path, manifest)
    assert (await bidding_wallet_balance(watching)).total == BIDDING_FUNDS


async def test_listings_signed_elsewhere_through_their_taproot_origins(
    watching: ServiceContext, collector: Collector, sandbox: SandboxControl, tmp_path: Path
) -> None:
    ids = await inscribe_many(sandbox, collector.keys.ordinals.address, 2)
    plan = await prepare_listings(watching, [ListingItem(60_000, i) for i in ids])
    manifest = await export_for_signing(watching, tmp_path, listing_export_items(plan))
    first = FixedPSBT.parse((tmp_path / manifest.items[0].psbt_file).read_bytes())
    index = manifest.items[0].inputs_to_sign[0].input_index
    ((leaves, origin),) = first.inputs[index].taproot_bip32_derivations.values()
    assert leaves == [] and origin.derivation == bip32.parse_path("m/86h/1h/0h/0/0")
    sign_elsewhere(collector, tmp_path, manifest, "hardware")  # taproot: a final witness

    result = await submit_imported(watching, await import_signed(watching, tmp_path, manifest))
    assert isinstance(result, ListingsDone) and len(result.listings) == 2
    active = await listings_of(sandbox, collector.keys.ordinals.address)
    assert sorted(x["inscriptionId"] for x in active if x["status"] == "active") == sorted(ids)
