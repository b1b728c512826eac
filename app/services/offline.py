"""Offline signing: export reviewed PSBTs as files, sign them on a machine with no network,
import the signed files and submit them.

    manifest = export_offline(directory, listing_export_items(plan))       # online
    signed = await sign_offline(directory, keys)                          # offline, no network
    batch = await import_signed(ctx, directory, expected=manifest)        # online again
    result = await submit_imported(ctx, batch)

Files (`offline_files`): `NN-<flow>.psbt` (binary) and `.txt` (base64) per PSBT,
`manifest.json` (what each is for, and the PSBT as reviewed, `offline_manifest`), and after
signing `NN-<flow>.signed.psbt` / `.signed.txt`, or a PSBT another wallet signed, saved in the
folder under any name. An exported PSBT carries only what signing its approved inputs needs,
nothing else the service put in it (`wallet.psbt_for_signer`: no global xpubs, output
derivations or proprietary fields for a signer to act on). A profile whose keys sign elsewhere
exports with `export_for_signing`: each PSBT also names its keys by origin (fingerprint and
path) on the inputs to sign, so hardware wallets, Sparrow or Bitcoin Core recognise them.
Funding, withdrawals, inscription bids and listings export the same way.
The offline side builds its review context from the LOCAL keys plus the facts the manifest
recorded at export (it cannot ask ord; the rune ids too, so it follows a runestone's edicts as
the online review did), reviews every PSBT before signing any, and signs only
what its own verdict approves. This module never constructs a network client on that path.
Importing reviews the PSBT reviewed at export (the manifest keeps it) again with fresh facts,
then requires the signed file to be that same transaction signed only where this review
approves, and submits the reviewed PSBT with those signatures copied in, nothing else from the
file: the service gets back what it sent plus the signatures, never our key origins.

Fees: a fee above the user's bounds needs their consent on each machine. The offline review
ignores a consent recorded online and asks its own user (`accept_fee`); the import re-review
takes the fee as accepted, since the PSBT was signed only after that consent, and shows it
before anything is submitted. Every ANYONECANPAY signature is recorded in the ledger of the
machine that makes it, and again in the online machine's when imported: one colliding with a
live signature there is not submitted.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.acp_composition import acp_signatures
from app.core.psbt_review_context import ReviewContext, Role
from app.core.rune_names import rune_letters
from app.core.signing_policy import Flow, with_fee_consent
from app.services.bidding_wallet import bidding_wallet_address
from app.services.context import CancelToken, ServiceContext
from app.services.errors import ServiceError
from app.services.funding import FundingPlan, FundingResult, submit_signed_funding
from app.services.inscription_bid import (
    InscriptionBidPlaced,
    InscriptionBidPlan,
    submit_signed_bid,
)
from app.services.listings import (
    ListingPlan,
    ListingsDone,
    listing_from_wire,
    submit_listings,
)
from app.services.offline_files import (
    OfflineFileError as OfflineFileError,  # raised by import_signed; callers catch it from here
)
from app.services.offline_files import (
    read_exported,
    read_manifest,
    read_reviewed,
    read_signed,
    write_whole,
)
from app.services.offline_manifest import MANIFEST_NAME, Manifest, ManifestError, ManifestItem
from app.services.psbt_flow import (
    OperationCancelledError,
    Progress,
    PsbtPlan,
    PsbtRefusedError,
    accept_fee,
    decide,
    record_acp_signatures,
    review_online,
    sign_plan,
)
from app.services.psbt_signed import approved_signatures_only
from app.services.withdraw import WithdrawDone, WithdrawPlan, submit_signed_withdraw
from app.wallet.acp_ledger import AcpLedger
from app.wallet.addresses import KeyRole, PublicRoleKey
from app.wallet.keys import WalletKeys
from app.wallet.psbt_for_signer import psbt_for_signer
from app.wallet.psbt_io import psbt_to_base64, psbt_to_bytes

_FILE_STEM = {
    Flow.SECURE_LISTING: "secure-listing",
    Flow.WITHDRAW: "withdraw",
    Flow.INSCRIPTION_BID: "inscription-bid",
    Flow.FUNDING: "funding",
}


@dataclass(frozen=True)
class ExportItem:
    """A reviewed PSBT and what submitting it needs later (flow-specific JSON)."""

    plan: PsbtPlan
    submit: Mapping[str, Any]


def listing_export_items(plan: ListingPlan) -> list[ExportItem]:
    return [ExportItem(i.psbt, {"listing": i.listing.to_wire()}) for i in plan.items]


def withdraw_export_items(plan: WithdrawPlan) -> list[ExportItem]:
    return [ExportItem(plan.psbt, {"amount": plan.amount})]


def inscription_bid_export_items(plan: InscriptionBidPlan) -> list[ExportItem]:
    return [ExportItem(plan.psbt, {"inscriptionId": plan.inscription_id, "price": plan.price})]


def funding_export_items(plan: FundingPlan) -> list[ExportItem]:
    """The funding PSBT we built, as the flows' reviewed plan (the payment key signs it)."""
    psbt = PsbtPlan(
        psbt_to_base64(plan.psbt),
        plan.review,
        plan.verdict,
        plan.intent,
        KeyRole.PAYMENT,
        plan.label,
    )
    return [ExportItem(psbt, {"amount": plan.amount})]


@dataclass(frozen=True)
class OfflineSigned:
    item: ManifestItem
    plan: PsbtPlan


@dataclass(frozen=True)
class ImportedItem:
    item: ManifestItem
    plan: PsbtPlan  # the fresh online review
    signed_base64: str


# --- export (online) ---------------------------------------------------------------------------


async def export_for_signing(
    ctx: ServiceContext, directory: Path, items: Sequence[ExportItem]
) -> Manifest:
    """`export_offline` with the profile's keys named in each PSBT (`keys`), in an executor."""
    keys = (ctx.payment_public, ctx.ordinals_public)
    return await ctx.run_cpu(_export_with_keys, directory, items, keys)


def _export_with_keys(
    directory: Path, items: Sequence[ExportItem], keys: Sequence[PublicRoleKey]
) -> Manifest:
    return export_offline(directory, items, keys=keys)


def export_offline(
    directory: Path, items: Sequence[ExportItem], *, keys: Sequence[PublicRoleKey] = ()
) -> Manifest:
    """Write each PSBT (binary and base64) and the manifest; returns the manifest, which the
    caller keeps to check the import against. Each file holds what signing the approved inputs
    needs and nothing else from the service (`psbt_for_signer`), and names each of `keys` with
    a key origin on those inputs (BIP-32 derivations: what hardware wallets, Sparrow or Bitcoin
    Core sign by). The manifest keeps the reviewed PSBT, which the import submits."""
    if not items:
        raise ManifestError("There is nothing to export.")
    flows = {x.plan.flow for x in items}
    if len(flows) > 1:
        raise ManifestError("One export holds the PSBTs of one flow.")
    directory.mkdir(parents=True, exist_ok=True)
    if (directory / MANIFEST_NAME).exists():
        raise ManifestError(f"{directory} already holds an export; choose an empty folder.")
    context = items[0].plan.review.context
    entries = []
    for n, x in enumerate(items, start=1):
        name = f"{n:02d}-{_FILE_STEM[x.plan.flow]}"
        approved = (p.input_index for p in x.plan.verdict.to_sign)
        raw = psbt_to_bytes(psbt_for_signer(x.plan.psbt(), keys, approved))
        write_whole(directory / f"{name}.psbt", raw)
        write_whole(directory / f"{name}.txt", base64.b64encode(raw) + b"\n")
        entries.append(_manifest_item(name, raw, x))
    manifest = Manifest(
        flow=str(flows.pop()),
        network=context.network,
        payment_address=context.addresses_with(Role.PAYMENT)[0],
        ordinals_address=context.addresses_with(Role.ORDINALS)[0],
        bidding_wallet=next(iter(context.addresses_with(Role.BIDDING_WALLET)), None),
        items=tuple(entries),
        tip=context.tip,
        fastest_fee_rate=context.fastest_fee_rate,
        rune_ids=_rune_ids_at_export(context.rune_ids, entries),
    )
    write_whole(directory / MANIFEST_NAME, json.dumps(manifest.to_json(), indent=2).encode())
    return manifest


def _rune_ids_at_export(
    rune_ids: Mapping[str, str], items: Sequence[ManifestItem]
) -> dict[str, str]:
    """The ids ord gave the runes the items' inputs carry, as given (lies included), and every
    other rune ord gave one of those ids: offline, `ReviewContext.rune_id_of` then leaves an
    id unknown exactly when the online review did (an id ord gives two runes, or of block 0)."""
    held = {rune_letters(r.rune) for x in items for c in x.ord_at_export.values() for r in c.runes}
    ids = {i for name, i in rune_ids.items() if rune_letters(name) in held}
    return {name: i for name, i in rune_ids.items() if rune_letters(name) in held or i in ids}


def _manifest_item(name: str, raw: bytes, x: ExportItem) -> ManifestItem:
    plan = x.plan
    outpoints = [i.outpoint for i in plan.review.inputs]
    context = plan.review.context
    return ManifestItem(
        name=name,
        psbt_file=f"{name}.psbt",
        text_file=f"{name}.txt",
        unsigned_txid=plan.txid,
        sha256=hashlib.sha256(raw).hexdigest(),
        reviewed_psbt=plan.psbt_base64,
        label=plan.label,
        signer=plan.signer,
        inputs_to_sign=plan.verdict.to_sign,
        intent=plan.intent,
        submit=x.submit,
        ord_at_export={o: context.contents[o] for o in outpoints if o in context.contents},
        chain_at_export={o: context.chain_utxos[o] for o in outpoints if o in context.chain_utxos},
    )


# --- signing (offline: no network) -------------------------------------------------------------


@dataclass(frozen=True)
class OfflineRefused:
    """An exported PSBT the policy refuses: `refusal` holds its Review and Verdict."""

    item: ManifestItem
    refusal: PsbtRefusedError


def review_offline(directory: Path, keys: WalletKeys) -> list[OfflineSigned]:
    """Review every exported PSBT against the local keys and the recorded facts; raises on the
    first refusal (`PsbtRefusedError`) or mismatch, before anything is signed. A plan whose
    fee needs this user's consent comes back unapproved (`accept_fee` once they give it)."""
    manifest = read_manifest(directory)
    if manifest.network != keys.network.value:
        raise ManifestError(
            f"This export is for {manifest.network}, these keys for {keys.network}."
        )
    if (manifest.payment_address, manifest.ordinals_address) != (
        keys.payment.address,
        keys.ordinals.address,
    ):
        raise ManifestError(
            "This export was made for another wallet (its payment and ordinals addresses are "
            f"{manifest.payment_address} and {manifest.ordinals_address}); nothing was signed."
        )
    reviewed = []
    for result in review_export(directory, manifest):
        if isinstance(result, OfflineRefused):
            raise result.refusal
        reviewed.append(result)
    return reviewed


def review_export(
    directory: Path, manifest: Manifest | None = None
) -> list[OfflineSigned | OfflineRefused]:
    """Review every exported PSBT against the wallet the manifest names and the facts it
    recorded, refusals included (what `bidwallet psbt inspect` prints; no key is needed: the
    review knows our addresses from the manifest, which `review_offline` checks against the
    keys before anything is signed). A file that is not the one exported raises."""
    manifest = manifest or read_manifest(directory)
    reviewed: list[OfflineSigned | OfflineRefused] = []
    for item in manifest.items:
        psbt = read_exported(directory, item)
        context = ReviewContext.for_wallet(
            manifest.network,
            manifest.payment_address,
            manifest.ordinals_address,
            manifest.bidding_wallet,
            contents=item.ord_at_export,
            chain_utxos=item.chain_at_export,
            tip=manifest.tip,
            fastest_fee_rate=manifest.fastest_fee_rate,
            rune_ids=manifest.rune_ids,  # as recorded at export (none before version 3)
        )
        text = base64.b64encode(psbt_to_bytes(psbt)).decode()
        intent = with_fee_consent(item.intent, None)  # this machine's user decides
        try:
            plan = decide(text, context, intent, item.signer, item.label)
        except PsbtRefusedError as refusal:
            reviewed.append(OfflineRefused(item, refusal))
            continue
        if plan.verdict.approved:
            check_manifest_permissions(item, plan)
        reviewed.append(OfflineSigned(item, plan))
    return reviewed


def check_manifest_permissions(item: ManifestItem, plan: PsbtPlan) -> None:
    """The manifest must ask to sign exactly what this review approves."""
    if plan.verdict.to_sign != item.inputs_to_sign:
        raise ManifestError(
            f"{item.name}: the manifest asks to sign {_listed(item.inputs_to_sign)} but "
            f"this review approves {_listed(plan.verdict.to_sign)}; nothing was signed."
        )


def record_reviewed(reviewed: Sequence[OfflineSigned], ledger: AcpLedger | None) -> None:
    """Record the set's ANYONECANPAY signatures before any is made, all or none (as
    `sign_plans` does): one that would combine with a live signature refuses the whole set
    (`PsbtRefusedError`), not the PSBTs after those already signed and written."""
    record_acp_signatures(ledger, [r.plan for r in reviewed])


def sign_reviewed(
    directory: Path, reviewed: OfflineSigned, keys: WalletKeys, ledger: AcpLedger | None
) -> None:
    """Sign one reviewed (and approved) PSBT and write its signed files (binary and base64);
    an ANYONECANPAY signature is recorded in this machine's `ledger` first."""
    check_manifest_permissions(reviewed.item, reviewed.plan)
    signed = sign_plan(reviewed.plan, keys, ledger)
    raw = base64.b64decode(signed.base64)
    write_whole(directory / reviewed.item.signed_psbt_file, raw)
    write_whole(directory / reviewed.item.signed_text_file, signed.base64.encode() + b"\n")


async def sign_offline(
    directory: Path,
    keys: WalletKeys,
    ledger: AcpLedger | None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> list[OfflineSigned]:
    """Review all, then sign each in an executor (progress; a cancel stops between items).
    A fee that needs consent refuses the batch here: a dialog uses `review_offline`,
    `accept_fee` and `sign_reviewed` to ask first."""
    loop = asyncio.get_running_loop()
    reviewed = await loop.run_in_executor(None, review_offline, directory, keys)
    for item in reviewed:
        if not item.plan.verdict.approved:
            raise PsbtRefusedError(item.plan.review, item.plan.verdict, item.plan.label)
    await loop.run_in_executor(None, record_reviewed, reviewed, ledger)
    for done, item in enumerate(reviewed):
        if cancel is not None and cancel.cancelled:
            raise OperationCancelledError(done, len(reviewed))
        await loop.run_in_executor(None, sign_reviewed, directory, item, keys, ledger)
        if progress is not None:
            progress(done + 1, len(reviewed))
    return reviewed


# --- import and submit (online) ----------------------------------------------------------------


async def import_signed(
    ctx: ServiceContext, directory: Path, expected: Manifest | None = None
) -> list[ImportedItem]:
    """Review every PSBT reviewed at export again online (the service's, or the funding one
    built here: `reviewed_psbt` in the manifest) and check its signed file against that review.
    What is submitted is that PSBT with the approved signatures copied in: nothing of the file
    the other signer got (our key origins) or returned reaches the service."""
    manifest = read_manifest(directory)
    if expected is not None and expected != manifest:
        # Intents and submit data too: what is submitted must be what was reviewed here.
        raise ManifestError(
            "The manifest differs from the one exported here: nothing is submitted."
        )
    if manifest.bidding_wallet is not None:
        await bidding_wallet_address(ctx)  # a withdrawal's review must know the wallet's role
    imported = []
    for item in manifest.items:
        reviewed = read_reviewed(item)
        signed = read_signed(directory, item)
        plan = await review_online(ctx, item.reviewed_psbt, item.intent, item.signer, item.label)
        if plan.needs_fee_consent:  # accepted where it was signed; shown again before submit
            plan = await ctx.run_cpu(accept_fee, plan)
        # Only the approved signatures go on: nothing else the file carries reaches the service.
        clean = approved_signatures_only(reviewed, signed, plan.verdict)
        imported.append(ImportedItem(item, plan, base64.b64encode(psbt_to_bytes(clean)).decode()))
    # The ANYONECANPAY signatures made offline now exist: recorded here too, and one that
    # would combine with a live signature of this machine's is not submitted.
    plans = [x.plan for x in imported]
    if any(acp_signatures(p.review, p.verdict) for p in plans) and ctx.acp_ledger is None:
        raise ServiceError("No record of ANYONECANPAY signatures is open; nothing is submitted.")
    await ctx.run_cpu(record_acp_signatures, ctx.acp_ledger, plans)
    return imported


async def submit_imported(
    ctx: ServiceContext, batch: Sequence[ImportedItem]
) -> ListingsDone | WithdrawDone | InscriptionBidPlaced | FundingResult:
    """Submit the imported signed PSBTs the way their flow submits (one request per flow)."""
    if not batch:
        raise ManifestError("There is nothing to submit.")
    flow = batch[0].plan.flow
    if flow is Flow.SECURE_LISTING:
        listings = [listing_from_wire(x.item.submit["listing"]) for x in batch]
        return await submit_listings(ctx, listings, [x.signed_base64 for x in batch])
    (only,) = batch
    if flow is Flow.FUNDING:
        return await submit_signed_funding(ctx, int(only.item.submit["amount"]), only.signed_base64)
    if flow is Flow.WITHDRAW:
        return await submit_signed_withdraw(
            ctx, int(only.item.submit["amount"]), only.signed_base64
        )
    submit = only.item.submit
    return await submit_signed_bid(
        ctx, str(submit["inscriptionId"]), int(submit["price"]), only.signed_base64
    )


def _listed(permissions: Sequence[Any]) -> str:
    return ", ".join(f"input {p.input_index}" for p in permissions) or "nothing"
